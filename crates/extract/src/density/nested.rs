//! Furniture nested inside weak furniture, looked for on demand.
//!
//! The counting pass follows one furniture element at a time: inside one,
//! it only looks for its end. That keeps the pass cheap; following the
//! furniture inside furniture in the pass cost a tenth of the extraction
//! time. It matters only where a weak mark misled, the
//! article inside a share plugin's container: there the marks inside it
//! still tell the article's video player, gallery and "read more" list
//! apart. [`nested_marks`] walks the tags of the page's weak furniture once
//! more, with a [`Tracker`] per level, after the pass and only when asked
//! (AdDANAg+ asks on pages whose weak marks it does not trust).
//!
//! Nested furniture needs no lines of its own: containers open a line
//! before their opening tag and close it after their end tag, so the
//! counting pass's lines already start where they start and end. A hidden
//! `<span>` inside a paragraph starts no line and gets no mark.

use super::cleaning::{Cue, Tracker};
use super::kernel::{self, Isa};
use super::scan::Line;
use super::tags;
use super::Cleaning;
use memchr::memchr;
use std::ops::RangeInclusive;

/// How many levels of furniture inside weak furniture are followed: a
/// gallery inside an article body inside a share plugin's container has
/// its captions two levels down.
const LEVELS: usize = 3;

/// Calls `mark(index, cue)` for each line of `lines` (the counting pass's
/// lines of `html` under [`Cleaning::Furniture`]) that starts inside
/// furniture nested in weak furniture, once per level it is inside, with
/// that level's cue. Each level is followed inside weak furniture of the
/// level above. Only the weak furniture that has lines among `within`
/// (indices into `lines`) is walked.
pub fn nested_marks(
    html: &[u8],
    lines: &[Line],
    within: RangeInclusive<usize>,
    mut mark: impl FnMut(usize, Cue),
) {
    let weak = |i: usize| lines.get(i).is_some_and(|l| l.furniture == Some(Cue::Weak));
    // The first line starting at or after `pos` (lines are in page order).
    let starting_from = |pos: usize| lines.partition_point(|l| (l.start as usize) < pos);
    // From the start of the weak lines the span begins in.
    let mut next = *within.start();
    while next > 0 && weak(next) && weak(next - 1) {
        next -= 1;
    }
    // One memo of the page's unclosed elements for all the walks.
    let mut unclosed = tags::Unclosed::new(html);
    while let Some(first) = (next..=*within.end()).find(|&i| weak(i)) {
        let start = lines.get(first).map_or(html.len(), |l| l.start as usize);
        let end = kernel::dispatch(Walk {
            html,
            at: start,
            unclosed: &mut unclosed,
            found: |from, to, cue| {
                (starting_from(from)..starting_from(to)).for_each(|i| mark(i, cue));
            },
        });
        next = starting_from(end).max(first + 1);
    }
}

/// [`walk`] as a task for [`kernel::dispatch`].
struct Walk<'h, 'u, F> {
    html: &'h [u8],
    at: usize,
    unclosed: &'u mut tags::Unclosed,
    found: F,
}

impl<F: FnMut(usize, usize, Cue)> kernel::Task for Walk<'_, '_, F> {
    type Output = usize;
    #[inline(always)]
    fn run<I: Isa>(self, isa: I) -> usize {
        walk(self.html, self.at, self.unclosed, self.found, isa)
    }
}

/// Walks the weak furniture element whose opening tag is at `html[at]`
/// and calls `found(start, end, cue)` for each furniture element nested in
/// it (its byte range and cue). Returns where the element ends ([`end_at`]),
/// the end of the page when it is never closed, or past the tag at `at`
/// when that opens no weak furniture (then nothing is found).
#[inline(always)]
fn walk<I: Isa>(
    html: &[u8],
    at: usize,
    unclosed: &mut tags::Unclosed,
    mut found: impl FnMut(usize, usize, Cue),
    isa: I,
) -> usize {
    let mut outer = Tracker::default();
    // Each level's tracker and where its open furniture starts.
    let mut levels = [(Tracker::default(), 0usize); LEVELS];
    let mut pos = at;
    while let Some(lt) = html
        .get(pos..)
        .and_then(|t| memchr(b'<', t))
        .map(|i| pos + i)
    {
        let Some(tag) = tags::parse_in(html, lt, Cleaning::Furniture, isa, unclosed) else {
            pos = lt + 1;
            continue;
        };
        let opening = lt == at;
        outer.on_tag(html, lt, &tag, None);
        if outer.furniture() != Some(Cue::Weak) {
            // The element ended (or never opened): so does what is inside it.
            let end = end_at(&tag, lt);
            close(&mut levels, end, &mut found);
            return end;
        }
        if !opening {
            follow(&mut levels, html, lt, &tag, &mut found);
        }
        pos = tag.end;
    }
    close(&mut levels, html.len(), &mut found);
    html.len()
}

/// Follows the tag `tag` at `html[lt]` through the levels: each level
/// sees it while the level above is inside weak furniture opened before it.
fn follow(
    levels: &mut [(Tracker, usize)],
    html: &[u8],
    lt: usize,
    tag: &tags::Tag,
    found: &mut impl FnMut(usize, usize, Cue),
) {
    let mut rest = levels;
    while let Some(((tracker, start), deeper)) = rest.split_first_mut() {
        let (before, opened) = (tracker.furniture(), tracker.opened());
        tracker.on_tag(html, lt, tag, None);
        let (after, reopened) = (tracker.furniture(), tracker.opened() != opened);
        if let Some(cue) = before.filter(|_| after.is_none() || reopened) {
            let end = end_at(tag, lt);
            found(*start, end, cue);
            close(deeper, end, found);
        }
        if after.is_some() && (before.is_none() || reopened) {
            *start = lt;
        }
        let inside_weak = before == Some(Cue::Weak) && after == Some(Cue::Weak) && !reopened;
        if !inside_weak {
            return;
        }
        rest = deeper;
    }
}

/// Where furniture that the tag `tag` at `html[lt]` ended ends: past an
/// end tag, before an opening tag (`<p>` ends a `<p hidden>` before it; the
/// counting pass's line then starts at that tag).
fn end_at(tag: &tags::Tag, lt: usize) -> usize {
    match tag.markup {
        tags::Markup::Element { closing: false, .. } => lt,
        _ => tag.end,
    }
}

/// Ends the furniture open at each of `levels` at `end`, and resets them.
fn close(levels: &mut [(Tracker, usize)], end: usize, found: &mut impl FnMut(usize, usize, Cue)) {
    for (tracker, start) in levels {
        if let Some(cue) = tracker.furniture() {
            found(*start, end, cue);
        }
        *tracker = Tracker::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::density::kernel::{Baseline, BlockCounter};
    use crate::density::{LinkRule, Rules};

    /// The text of the lines of `html` with each nested cue found, in order.
    fn nested(html: &str) -> Vec<(String, Option<Cue>)> {
        let mut lines = Vec::new();
        let rules = Rules {
            links: LinkRule::Keep,
            cleaning: Cleaning::Furniture,
        };
        crate::density::scan::scan(
            html.as_bytes(),
            rules,
            &BlockCounter(Baseline),
            &mut lines,
            &mut Default::default(),
            &mut Default::default(),
        );
        let mut cues = vec![None; lines.len()];
        nested_marks(html.as_bytes(), &lines, 0..=lines.len(), |i, cue| {
            if let Some(c) = cues.get_mut(i) {
                *c = (*c).max(Some(cue));
            }
        });
        lines
            .iter()
            .zip(cues)
            .filter(|(l, _)| l.content > 0)
            .map(|(l, cue)| {
                let bytes = &html.as_bytes()[l.start as usize..l.end as usize];
                let text: String = String::from_utf8_lossy(bytes)
                    .split(['<', '>'])
                    .enumerate()
                    .filter(|(i, _)| i % 2 == 0)
                    .map(|(_, t)| t)
                    .collect();
                (text, cue)
            })
            .collect()
    }

    #[test]
    fn furniture_inside_weak_furniture_is_found() {
        use Cue::{Hidden, Strong, Weak};
        let html = "<p>a</p><div id=share-parent><p>b</p><div class=menu><p>c</p>\
                    <div class=related><p>d</p></div></div><p>e</p>\
                    <ul class=legends><li>f</ul><p>g</p><p hidden>h<p>i</div><p>j</p>\
                    <nav><div class=menu><p>k</p></div></nav>";
        assert_eq!(
            nested(html),
            [
                ("a", None),
                ("b", None),
                ("c", Some(Weak)),
                ("d", Some(Weak)),
                ("e", None),
                ("f", Some(Strong)),
                ("g", None),
                ("h", Some(Hidden)),
                ("i", None),
                ("j", None),
                // Inside strong furniture nothing is followed.
                ("k", None),
            ]
            .map(|(t, c)| (t.to_string(), c))
        );
    }

    #[test]
    fn levels_below_weak_furniture_are_followed_and_closed_with_it() {
        let html = "<div class=sidebar><div class=share><div class=comments><p>a</p>\
                    </div><p>b</p></div><p>c</p></div><p>d</p>";
        let cues: Vec<_> = nested(html).into_iter().map(|(_, c)| c).collect();
        assert_eq!(cues, [Some(Cue::Comments), Some(Cue::Weak), None, None]);
        // An unclosed weak element runs to the end of the page, and the
        // furniture open inside it ends there too.
        let html = "<div class=sidebar><p>a</p><div class=share><p>b</p>";
        let cues: Vec<_> = nested(html).into_iter().map(|(_, c)| c).collect();
        assert_eq!(cues, [None, Some(Cue::Weak)]);
    }
}
