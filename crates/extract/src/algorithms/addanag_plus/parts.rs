//! What each line is made of, apart from the costs a reading puts on it
//! ([`Parts`]), and the kinds of lines the rules look for: data lines
//! (a script's JSON, worth nothing) and paragraphs.
//!
//! **Data lines.** A line of at least [`Params::data_line`] text
//! characters that opens with a JSON object (`{"`, `[{"`, escaped or not)
//! and holds a key (`":`) every [`Params::data_key_span`] characters or
//! more often is data a script reads (a widget's state in a hidden
//! `<div>`, a shop's grid served as JSON), not text: its text is worth
//! nothing and it stays out of the output, as strong furniture. Prose has
//! no keys; a JSON example in documentation is short and opens with `{ "`.
//! The line's markup is read only on lines that long.

use super::params::PARAMS;
use crate::density::cleaning::Cue;
use crate::density::Line;

#[cfg(doc)]
use super::params::Params;

/// The parts of a line's value that do not depend on the costs, worked out
/// once per page: a page is valued under two costs and up to three trusts.
/// The counts are kept as the line's integers (24 bytes a line: a page of
/// tags alone has a line every few bytes) and read as `f64`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Parts {
    /// Non-link text characters.
    pub(super) text: u32,
    /// Markup bytes outside `<main>` and `<article>`; none for a hidden
    /// element inside a paragraph, whose markup a browser does not lay out
    /// (hidden containers keep theirs: free, a menu or dialog hidden
    /// between two regions would join them).
    pub(super) code: u32,
    /// Markup bytes inside `<main>` or `<article>`, the same way.
    pub(super) declared_code: u32,
    /// Anchor-text characters times the square of the link density.
    pub(super) links: f64,
    /// The furniture mark ([`Trust::keeps`](super::readings::Trust::keeps)):
    /// 0 none, 1 weak (or hidden), 2 weak with weak furniture nested in it,
    /// 3 strong or with strong furniture nested in it (nested marks set
    /// only by [`Nested::mark`](super::furniture::Nested::mark)), 4 a
    /// comment thread.
    pub(super) mark: u8,
}

impl Parts {
    /// Whether the line holds text, linked or not.
    pub(super) fn has_text(&self) -> bool {
        self.text > 0 || self.links > 0.0
    }

    fn of(line: &Line) -> Parts {
        let link = f64::from(line.link);
        let density = link / f64::from(line.content.max(1));
        let code = if line.furniture == Some(Cue::Hidden) && line.inline {
            0
        } else {
            line.code
        };
        let declared = line.in_main || line.in_article;
        Parts {
            text: line.content.saturating_sub(line.link),
            code: if declared { 0 } else { code },
            declared_code: if declared { code } else { 0 },
            links: link
                * density
                * density
                * if declared {
                    PARAMS.declared_link_share
                } else {
                    1.0
                },
            mark: match line.furniture {
                None => 0,
                Some(Cue::Weak | Cue::Hidden) => 1,
                Some(Cue::Strong) => 3,
                Some(Cue::Comments) => 4,
            },
        }
    }
}

/// Fills `parts` with the [`Parts`] of `lines`, data lines
/// ([`Params::data_line`]) made strong furniture without text.
pub(super) fn fill_parts(parts: &mut Vec<Parts>, lines: &[Line], html: &[u8]) {
    parts.clear();
    // Two passes: the first without a branch (the compiler keeps it tight),
    // the second over the few lines long enough for data, on the few pages
    // that have one.
    let mut longest = 0;
    parts.extend(lines.iter().map(|line| {
        longest = longest.max(line.content);
        Parts::of(line)
    }));
    if longest < PARAMS.data_line {
        return;
    }
    for (p, line) in parts.iter_mut().zip(lines) {
        if line.content >= PARAMS.data_line && data(html, line) {
            p.text = 0;
            p.mark = 3;
        }
    }
}

/// Whether `line` is JSON data ([`Params::data_line`]): its text opens
/// with an object and holds a key every [`Params::data_key_span`]
/// characters.
fn data(html: &[u8], line: &Line) -> bool {
    let bytes = html
        .get(line.start as usize..line.end as usize)
        .unwrap_or_default();
    // The first text byte: past the tags and the white space.
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        if b == b'<' {
            let tag = bytes.get(at..).unwrap_or_default();
            at += memchr::memchr(b'>', tag).map_or(tag.len(), |end| end + 1);
        } else if b.is_ascii_whitespace() {
            at += 1;
        } else {
            break;
        }
    }
    let text = bytes.get(at..).unwrap_or_default();
    let object = [&b"{\""[..], b"[{\"", b"{&quot;", b"[{&quot;"]
        .iter()
        .any(|start| text.starts_with(start));
    if !object {
        return false;
    }
    let keys = memchr::memmem::find_iter(text, b"\":").count()
        + memchr::memmem::find_iter(text, b"&quot;:").count();
    keys.saturating_mul(PARAMS.data_key_span) >= line.content as usize
}

/// Whether `line` is a paragraph: at least [`Params::grid_paragraph`]
/// characters of non-link text, those outside ASCII counted twice (an
/// ideogram is a word). A reading with a paragraph is an article's, and
/// the cards beside it are teasers of other pages: a teaser or a card's
/// description is shorter.
pub(super) fn is_paragraph(line: &Line) -> bool {
    line.content.saturating_sub(line.link) + line.non_ascii >= PARAMS.grid_paragraph
}

/// A line's text characters, those outside ASCII counted twice (an
/// ideogram is a word).
pub(super) fn weighed(line: &Line) -> u32 {
    line.content + line.non_ascii
}
