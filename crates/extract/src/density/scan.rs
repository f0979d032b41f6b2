//! The counting pass: one walk over the page bytes that splits it into
//! virtual lines and counts, per line, content characters, non-ASCII
//! characters and code (markup) bytes.
//!
//! **Line normalisation.** The papers work on source lines and ask for "the
//! distribution of newline characters" to be normalised (AdDANAg §3). crawlsift
//! ignores source newlines and cuts *virtual lines* at block-level tags: a
//! line ends before an opening block tag (`<p>`, `<div>`, `<li>`, `<td>`, …)
//! and after a closing one (`</p>`, `<br>` is both). A minified one-line page
//! and a page with a newline after every tag give the same lines. Lines with
//! nothing counted (only dropped markup) are not emitted.
//!
//! **What counts.** Scripts, styles, comments, `noscript`, `template`,
//! `svg`, … count as nothing (the papers' pre-processing removes them). Text
//! counts non-whitespace characters, an entity counts as the one character it
//! stands for (`&nbsp;` as whitespace, so lines of `&nbsp;` are not content).
//! Markup counts its bytes. The hyperlink rules of the Filters paper are
//! counting rules here, the page bytes are never rewritten.

use super::cleaning::{Cue, CueMemo, Tracker};
use super::kernel::TextCounter;
use super::landmarks::Landmarks;
use super::names;
use super::tags::{self, Block, Markup, TagClass};
use super::Cleaning;
use memchr::memchr_iter;

/// One virtual line: a byte range of the page and its counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Byte offset in the page where the line starts.
    pub start: u32,
    /// Byte offset where the line ends (exclusive): where the next one starts.
    pub end: u32,
    /// Non-whitespace text characters (entities decoded).
    pub content: u32,
    /// Of those, non-ASCII characters.
    pub non_ascii: u32,
    /// Markup bytes (after the link rule).
    pub code: u32,
    /// Of the content characters, those inside `<a>` elements (anchor text).
    pub link: u32,
    /// The level of the heading (`<h1>`…`<h6>`) the line opens with, or 0.
    pub heading: u8,
    /// Whether the line is page furniture, and how surely (see
    /// [`Cleaning::Furniture`]); furniture lies on lines of its own.
    pub furniture: Option<Cue>,
    /// Whether the line is inside `<main>` (tracked under
    /// [`Cleaning::Furniture`] only).
    pub in_main: bool,
    /// Whether the line is inside `<article>` (tracked under
    /// [`Cleaning::Furniture`] only).
    pub in_article: bool,
    /// Whether the line starts inside a paragraph: where furniture starts
    /// or ends at an inline tag (a hidden `<span>`). Text out joins the
    /// text on either side of such furniture with a space, not a new line.
    pub inline: bool,
}

/// How hyperlinks count: the pre-processing Filters 1–3 of
/// Mohammadzadeh et al. (WEBIST 2014), done as counting rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkRule {
    /// Anchor tags count like any markup (DANAg).
    Keep,
    /// Filter 1: hyperlinks and their anchor text count as nothing and are
    /// left out of the text.
    DropLinks,
    /// Filter 2: an opening anchor tag counts as `<a>` (attributes dropped).
    DropAttributes,
    /// Filter 3 (AdDANAg): the attribute part of `<a …>` counts as
    /// `LT - 5` placeholder characters, LT = anchor text length, i.e. the
    /// tag counts as `<a ` + placeholder + `>`.
    Normalise,
}

/// A line-density algorithm's pre-processing: how hyperlinks count and what
/// is removed before counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// How hyperlinks count.
    pub links: LinkRule,
    /// What is removed or marked before counting.
    pub cleaning: Cleaning,
}

impl Rules {
    /// The papers' pre-processing with one of their link rules.
    pub const fn papers(links: LinkRule) -> Self {
        Rules {
            links,
            cleaning: Cleaning::Papers,
        }
    }
}

/// What the scan found besides the lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScanSummary {
    /// Byte range of the first `<title>`'s text.
    pub title: Option<(usize, usize)>,
    /// Some of the elements the pass met (under [`Cleaning::Furniture`]
    /// only; all zero otherwise).
    pub tags: TagCounts,
}

/// Opening block tags the pass met, by kind ([`Block`]), the `<li>` and
/// `<pre>` among the other block tags, and a few inline and void tags: what
/// a page's type shows in (forms and inputs on a business's page, list items
/// and images on a listing, code on documentation, `<time>` in a thread).
/// Counted as the pass meets the tags: an increment and a compare or two of
/// the name's key per tag, no look at the page bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TagCounts {
    /// Opening tags of each kind, at `Block as usize`.
    blocks: [u32; BLOCKS],
    /// `<li>`.
    pub items: u32,
    /// `<pre>`.
    pub pre: u32,
    /// `<code>`.
    pub code: u32,
    /// `<time>`.
    pub times: u32,
    /// `<input>`.
    pub inputs: u32,
    /// `<img>`.
    pub images: u32,
}

/// How many kinds of [`Block`] there are.
const BLOCKS: usize = Block::Void as usize + 1;

impl TagCounts {
    const LI: u64 = names::fold(names::key_of(b"li"));
    const PRE: u64 = names::fold(names::key_of(b"pre"));
    const CODE: u64 = names::fold(names::key_of(b"code"));
    const TIME: u64 = names::fold(names::key_of(b"time"));
    const INPUT: u64 = names::fold(names::key_of(b"input"));
    const IMG: u64 = names::fold(names::key_of(b"img"));

    /// The opening tags of `block` the pass met.
    pub fn blocks(&self, block: Block) -> u32 {
        self.blocks.get(block as usize).copied().unwrap_or(0)
    }

    /// Counts an opening block tag `block` of name key `name`.
    #[inline(always)]
    fn count(&mut self, block: Block, name: u64) {
        if let Some(n) = self.blocks.get_mut(block as usize) {
            *n += 1;
        }
        if block == Block::Other {
            self.items += u32::from(name == Self::LI);
            self.pre += u32::from(name == Self::PRE);
        }
    }

    /// Counts an opening tag of `class` that starts no line, of name key
    /// `name`.
    #[inline(always)]
    fn count_inline(&mut self, class: TagClass, name: u64) {
        match class {
            TagClass::Inline => {
                self.code += u32::from(name == Self::CODE);
                self.times += u32::from(name == Self::TIME);
            }
            TagClass::Void => {
                self.inputs += u32::from(name == Self::INPUT);
                self.images += u32::from(name == Self::IMG);
            }
            _ => {}
        }
    }
}

pub use super::tags::MAX_PAGE;

/// Splits `html` into virtual lines with their counts, into `lines`
/// (cleared first), and notes the page's [`Landmarks`] for the metadata
/// reader into `landmarks` (cleared first). Always inlined, so that each copy of the pass
/// [`super::kernel::dispatch`] compiles holds its kernels inline.
#[inline(always)]
pub fn scan<C: TextCounter>(
    html: &[u8],
    rules: Rules,
    counter: &C,
    lines: &mut Vec<Line>,
    memo: &mut CueMemo,
    landmarks: &mut Landmarks,
) -> ScanSummary {
    let html = html.get(..html.len().min(MAX_PAGE)).unwrap_or_default();
    landmarks.clear();
    let mut lines = LineBuilder {
        lines,
        current: Line::default(),
        furniture: None,
        in_main: false,
        in_article: false,
        run: 0,
        anchor_open: false,
    };
    let mut furniture = Tracker::default();
    memo.start_page();
    let furnishing = rules.cleaning == Cleaning::Furniture;
    lines.lines.clear();
    let mut summary = ScanSummary::default();
    let mut links = Links {
        rule: rules.links,
        open: None,
        in_anchor: false,
        content_total: 0,
    };
    let mut unclosed = tags::Unclosed::new(html);
    let mut pos = 0;
    while pos < html.len() {
        let run = counter.text_run(html, pos);
        let (mut chars, mut non_ascii) = (run.chars, run.non_ascii);
        if run.has_amp {
            adjust_for_entities(
                html.get(pos..run.end).unwrap_or_default(),
                &mut chars,
                &mut non_ascii,
            );
        }
        lines.add_text(&mut links, chars, non_ascii);
        pos = run.end;
        if pos >= html.len() {
            break;
        }
        let Some(tag) = tags::parse_in(html, pos, rules.cleaning, counter.isa(), &mut unclosed)
        else {
            lines.add_text(&mut links, 1, 0); // a `<` that starts no markup is text
            pos += 1;
            continue;
        };
        lines.anchor_open = links.open.is_some();
        let mut leaves_furniture = false;
        if furnishing {
            let outside = furniture.furniture().is_none();
            furniture.on_tag(html, pos, &tag, Some(&mut *memo));
            match (outside, furniture.furniture()) {
                (true, Some(cue)) => lines.set_furniture(Some(cue), pos, is_inline(&tag)),
                (false, None) => leaves_furniture = true,
                _ => {}
            }
            // Set before the tag's own line break: `<main>` opens a line in
            // main, `</main>` ends one.
            lines.in_main = furniture.in_main();
            lines.in_article = furniture.in_article();
        }
        let len = (tag.end - pos) as u32;
        match tag.markup {
            Markup::Dropped { title } => {
                if summary.title.is_none() {
                    summary.title = title;
                }
                landmarks.dropped(html, pos, tag.end);
            }
            Markup::Element {
                class: TagClass::Anchor,
                closing,
                attrs,
                ..
            } => {
                links.on_anchor(&mut lines, closing, attrs, len);
            }
            Markup::Element {
                class,
                closing,
                name,
                ..
            } => {
                landmarks.element(class, name, closing, pos, tag.end);
                let boundary = matches!(class, TagClass::Block(_) | TagClass::Cell);
                if boundary && !closing {
                    lines.break_at(pos);
                    lines.current.heading = heading_level(html, pos);
                    if let (true, TagClass::Block(block)) = (furnishing, class) {
                        summary.tags.count(block, name);
                    }
                } else if furnishing && !closing {
                    summary.tags.count_inline(class, name);
                }
                if !links.dropping() {
                    lines.current.code += len;
                }
                if boundary && closing {
                    lines.break_at(tag.end);
                }
            }
        }
        if leaves_furniture {
            lines.set_furniture(None, tag.end, is_inline(&tag));
        }
        pos = tag.end;
    }
    lines.anchor_open = links.open.is_some();
    lines.break_at(html.len());
    if furnishing {
        mark_outside(lines.lines, |l| l.in_main);
        if furniture.articles() == 1 {
            mark_outside(lines.lines, |l| l.in_article);
        }
    }
    summary
}

/// On a page with text inside the element `inside` tells, marks the
/// unmarked lines outside it as weak furniture.
fn mark_outside(lines: &mut [Line], inside: impl Fn(&Line) -> bool) {
    if lines.iter().any(|l| inside(l) && l.content > 0) {
        lines
            .iter_mut()
            .filter(|l| !inside(l) && l.furniture.is_none())
            .for_each(|l| l.furniture = Some(Cue::Weak));
    }
}

/// Lines of markup only (no text) kept one by one in a row; the ones after
/// them are folded into one line, `RUN_TAIL` lines before the run's end.
/// A page of `<div>` nested a million deep is two lines per 11 bytes, 32
/// bytes a line: the line array alone would be 6 times the page. Real
/// pages have runs of up to a few thousand such lines (2,220 the longest
/// in the shared datasets), so their lines are never folded; a folded run
/// is still [`MAX_MARKUP_RUN`] lines long, far longer than the gaps the
/// algorithms bridge (a `gap` set at 4,096 or more bridges it), and its
/// counts add up to the same totals.
pub const MAX_MARKUP_RUN: usize = 4096;

/// Lines of a long run of markup kept as they are at its end, so that the
/// line after the run and its neighbours see real lines beside them.
const RUN_TAIL: usize = 16;

struct LineBuilder<'a> {
    lines: &'a mut Vec<Line>,
    current: Line,
    /// Whether the lines now are furniture.
    furniture: Option<Cue>,
    /// Whether the lines now are inside `<main>` and `<article>`.
    in_main: bool,
    in_article: bool,
    /// Lines of markup only pushed in a row, up to [`MAX_MARKUP_RUN`].
    run: usize,
    /// Whether an anchor is open: its line index is kept, so no line is
    /// folded away under it.
    anchor_open: bool,
}

impl LineBuilder<'_> {
    /// Ends the current line at `pos` (if it counted anything) and starts
    /// the next one there.
    fn break_at(&mut self, pos: usize) {
        if self.current.content != 0 || self.current.code != 0 {
            self.current.end = pos as u32;
            self.push_current();
        }
        self.current = Line {
            start: pos as u32,
            furniture: self.furniture,
            in_main: self.in_main,
            in_article: self.in_article,
            ..Line::default()
        };
    }

    /// Furniture lies on lines of its own: starts a line at `pos` with
    /// `furniture` set; `inline` when the tag at `pos` is no block tag.
    fn set_furniture(&mut self, furniture: Option<Cue>, pos: usize, inline: bool) {
        self.furniture = furniture;
        self.break_at(pos);
        self.current.inline = inline;
    }

    /// Pushes the current line, folding a run of markup-only lines past
    /// [`MAX_MARKUP_RUN`]: the oldest of the run's last [`RUN_TAIL`] lines
    /// goes into the line before it, alike in all but its markup count.
    fn push_current(&mut self) {
        let line = self.current;
        if line.content != 0 {
            self.run = 0;
            self.lines.push(line);
            return;
        }
        if self.run < MAX_MARKUP_RUN || self.anchor_open {
            self.run = (self.run + 1).min(MAX_MARKUP_RUN);
            self.lines.push(line);
            return;
        }
        let len = self.lines.len();
        let into = len - RUN_TAIL - 1;
        let folded = self.lines.get(into + 1).copied();
        match (self.lines.get_mut(into), folded) {
            (Some(acc), Some(next)) if foldable(acc, &next) => {
                acc.end = next.end;
                acc.code = acc.code.saturating_add(next.code);
                self.lines.copy_within(into + 2..len, into + 1);
                if let Some(last) = self.lines.last_mut() {
                    *last = line;
                }
            }
            _ => self.lines.push(line),
        }
    }

    fn add_text(&mut self, links: &mut Links, chars: u32, non_ascii: u32) {
        if !links.dropping() {
            self.current.content += chars;
            self.current.non_ascii += non_ascii;
            if links.in_anchor {
                self.current.link += chars;
            }
        }
        links.content_total += u64::from(chars);
    }

    /// Adds code to a line already emitted, or to the current one.
    fn add_code_to(&mut self, index: usize, code: u32) {
        match self.lines.get_mut(index) {
            Some(line) => line.code += code,
            None => self.current.code += code,
        }
    }
}

/// Whether `next`, a line of markup only, may be folded into `acc`, the
/// line before it: both without text and alike in all but their extent and
/// markup.
fn foldable(acc: &Line, next: &Line) -> bool {
    let bare = |l: &Line| Line {
        start: 0,
        end: 0,
        code: 0,
        ..*l
    };
    acc.content == 0 && next.content == 0 && acc.heading == 0 && bare(acc) == bare(next)
}

/// The state of the hyperlink rule.
struct Links {
    rule: LinkRule,
    /// The open anchor: index of its line, and `content_total` at its start.
    open: Option<(usize, u64)>,
    /// Whether the text now is anchor text (whatever the rule).
    in_anchor: bool,
    /// Content characters seen so far, links included (for LT).
    content_total: u64,
}

impl Links {
    fn dropping(&self) -> bool {
        self.rule == LinkRule::DropLinks && self.open.is_some()
    }

    fn on_anchor(&mut self, lines: &mut LineBuilder, closing: bool, attrs: bool, len: u32) {
        self.in_anchor = !closing;
        if closing {
            if self.rule == LinkRule::DropLinks {
                self.open = None;
                return;
            }
            lines.current.code += len;
            self.close(lines);
            return;
        }
        self.close(lines); // an `<a>` inside an open one closes it
        lines.current.code += match self.rule {
            LinkRule::Keep => len,
            LinkRule::DropLinks => 0,
            LinkRule::DropAttributes if attrs => 3,
            LinkRule::Normalise if attrs => 4,
            _ => len,
        };
        if self.rule == LinkRule::DropLinks || (self.rule == LinkRule::Normalise && attrs) {
            self.open = Some((lines.lines.len(), self.content_total));
        }
    }

    /// Closes the open anchor; under Filter 3 its line gets the `LT - 5`
    /// placeholder characters.
    fn close(&mut self, lines: &mut LineBuilder) {
        if let Some((line, start)) = self.open.take() {
            if self.rule == LinkRule::Normalise {
                let anchor_text = self.content_total - start;
                let placeholder = anchor_text.saturating_sub(5).min(u64::from(u32::MAX)) as u32;
                lines.add_code_to(line, placeholder);
            }
        }
    }
}

/// Whether `tag` is an element tag that neither starts nor ends a line.
fn is_inline(tag: &tags::Tag) -> bool {
    matches!(
        tag.markup,
        Markup::Element {
            class: TagClass::Inline | TagClass::Anchor,
            ..
        }
    )
}

/// The level of the heading tag at `html[pos]` (`<h1`…`<h6`, any case), or
/// 0 for another tag.
fn heading_level(html: &[u8], pos: usize) -> u8 {
    match html.get(pos + 1..pos + 4) {
        Some(&[b'h' | b'H', level @ b'1'..=b'6', end]) if !end.is_ascii_alphanumeric() => {
            level - b'0'
        }
        _ => 0,
    }
}

/// Corrects the counts of a text run for its character references: an
/// entity counts as one character (none if it is whitespace), non-ASCII if
/// the character it stands for is.
fn adjust_for_entities(text: &[u8], chars: &mut u32, non_ascii: &mut u32) {
    for amp in memchr_iter(b'&', text) {
        let Some(rest) = text.get(amp + 1..) else {
            continue;
        };
        let Some(semi) = rest.iter().take(33).position(|&b| b == b';') else {
            continue;
        };
        let Some(body) = rest.get(..semi) else {
            continue;
        };
        let Some(decoded) = entity_class(body) else {
            continue;
        };
        // The `&`, the body and the `;` were counted as content characters.
        let counted = semi as u32 + 2;
        *chars = chars.saturating_sub(counted);
        match decoded {
            EntityClass::Space => {}
            EntityClass::Ascii => *chars += 1,
            EntityClass::NonAscii => {
                *chars += 1;
                *non_ascii += 1;
            }
        }
    }
}

enum EntityClass {
    Space,
    Ascii,
    NonAscii,
}

/// Classifies the character an entity body (between `&` and `;`) stands for,
/// or `None` if it is not an entity.
fn entity_class(body: &[u8]) -> Option<EntityClass> {
    let code = match body {
        [b'#', b'x' | b'X', hex @ ..] if !hex.is_empty() => {
            u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?
        }
        [b'#', dec @ ..] if !dec.is_empty() => std::str::from_utf8(dec).ok()?.parse().ok()?,
        name if !name.is_empty() && name.iter().all(u8::is_ascii_alphanumeric) => {
            return Some(match name {
                b"nbsp" | b"ensp" | b"emsp" | b"thinsp" => EntityClass::Space,
                b"amp" | b"lt" | b"gt" | b"quot" | b"apos" | b"AMP" | b"LT" | b"GT" => {
                    EntityClass::Ascii
                }
                _ => EntityClass::NonAscii,
            });
        }
        _ => return None,
    };
    Some(match char::from_u32(code) {
        Some(c) if c.is_whitespace() => EntityClass::Space,
        Some(c) if c.is_ascii() => EntityClass::Ascii,
        _ => EntityClass::NonAscii,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::density::kernel::{for_each_isa, Baseline, BlockCounter, ReferenceCounter};
    use proptest::prelude::*;

    #[test]
    fn counts_the_tags_a_page_type_shows_in_under_furniture_cleaning_only() {
        let html = b"<body><form><input name=q><input type=submit></form>\
            <section><article><h2>A</h2><ul><li>one</li><LI>two</li></ul>\
            <time datetime=2025>May</time><img src=a.png><pre><code>x</code></pre>\
            <table><tr><td>1</td></tr></table></article></section>\
            <p>a <code>b</code> <span>c</span></p></body>";
        let furniture = Rules {
            links: LinkRule::Normalise,
            cleaning: Cleaning::Furniture,
        };
        let tags = crate::density::Scratch::default()
            .scan(html, furniture)
            .tags;
        assert_eq!(tags.blocks(Block::Form), 1);
        assert_eq!(tags.blocks(Block::Section), 1);
        assert_eq!(tags.blocks(Block::Article), 1);
        assert_eq!(tags.blocks(Block::Table), 1);
        assert_eq!(
            (
                tags.items,
                tags.pre,
                tags.code,
                tags.times,
                tags.inputs,
                tags.images
            ),
            (2, 1, 2, 1, 2, 1)
        );
        let papers = Rules::papers(LinkRule::Normalise);
        let summary = crate::density::Scratch::default().scan(html, papers);
        assert_eq!(summary.tags, TagCounts::default());
    }

    fn lines(html: &str, rule: LinkRule) -> Vec<Line> {
        let mut out = Vec::new();
        scan(
            html.as_bytes(),
            Rules::papers(rule),
            &BlockCounter(Baseline),
            &mut out,
            &mut CueMemo::default(),
            &mut Landmarks::default(),
        );
        out
    }

    fn counts(html: &str, rule: LinkRule) -> Vec<(u32, u32)> {
        lines(html, rule)
            .iter()
            .map(|l| (l.content, l.code))
            .collect()
    }

    /// A long run of lines of markup only is folded to [`MAX_MARKUP_RUN`]
    /// lines, its markup counted the same, its last lines and the lines
    /// around it as they were.
    #[test]
    fn a_long_run_of_markup_lines_is_folded() {
        let depth = 50_000;
        let html = format!(
            "<p>top</p>{}deep text{}<p>bottom</p>",
            "<div>".repeat(depth),
            "</div>".repeat(depth)
        );
        for rule in [LinkRule::Keep, LinkRule::DropLinks, LinkRule::Normalise] {
            let out = lines(&html, rule);
            assert!(out.len() <= 2 * MAX_MARKUP_RUN + 8, "{}", out.len());
            let code: u64 = out.iter().map(|l| u64::from(l.code)).sum();
            assert_eq!(code, 11 * depth as u64 + 14, "{rule:?}");
            let text: Vec<_> = out
                .iter()
                .filter(|l| l.content > 0)
                .map(|l| l.content)
                .collect();
            assert_eq!(text, [3, 8, 6], "{rule:?}");
            // In page order, without overlaps; the lines next to the text
            // are single tags.
            assert!(out.windows(2).all(|w| w[0].end <= w[1].start), "{rule:?}");
            let deep = out.iter().position(|l| l.content == 8).unwrap_or(0);
            assert_eq!(out[deep - 1].code, 5, "{rule:?}");
            assert_eq!(out[deep + 1].code, 6, "{rule:?}");
        }
        // A run as long as the limit is left alone; one line more is folded.
        let run = |n: usize| format!("<p>a</p>{}<p>b</p>", "<div></div>".repeat(n));
        assert_eq!(
            lines(&run(MAX_MARKUP_RUN), LinkRule::Keep).len(),
            MAX_MARKUP_RUN + 2
        );
        assert_eq!(
            lines(&run(MAX_MARKUP_RUN + 1), LinkRule::Keep).len(),
            MAX_MARKUP_RUN + 2
        );
        assert_eq!(
            lines(&run(MAX_MARKUP_RUN + 99), LinkRule::Keep).len(),
            MAX_MARKUP_RUN + 2
        );
    }

    /// No page of the shared datasets has a run of markup lines long
    /// enough to be folded, under any rule: folding changes no line, so
    /// no text, of theirs. (The longest is 2,220 lines.)
    #[test]
    fn no_dataset_page_is_folded() {
        use std::io::Read;
        let shared = crate::test_shared::shared_path(env!("CARGO_MANIFEST_DIR"), "");
        let mut longest = (0, String::new());
        for set in ["scrapinghub", "wcxb_dev", "daniel_dev", "readability_tests"] {
            let dir = shared.join("datasets").join(set).join("html");
            let entries = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e} (see TESTING.md)", dir.display()));
            for entry in entries {
                let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
                let mut raw = Vec::new();
                let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{e}"));
                if path.extension().is_some_and(|x| x == "gz") {
                    flate2::read::MultiGzDecoder::new(file).read_to_end(&mut raw)
                } else {
                    std::io::BufReader::new(file).read_to_end(&mut raw)
                }
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                for links in [LinkRule::Keep, LinkRule::DropLinks, LinkRule::Normalise] {
                    for cleaning in [Cleaning::Papers, Cleaning::Furniture] {
                        let mut out = Vec::new();
                        let rules = Rules { links, cleaning };
                        scan(
                            &raw,
                            rules,
                            &BlockCounter(Baseline),
                            &mut out,
                            &mut CueMemo::default(),
                            &mut Landmarks::default(),
                        );
                        let mut run = 0;
                        for line in &out {
                            run = if line.content == 0 { run + 1 } else { 0 };
                            if run > longest.0 {
                                longest = (run, path.display().to_string());
                            }
                        }
                    }
                }
            }
        }
        assert!(longest.0 > 1000, "{longest:?}: the datasets were read");
        assert!(longest.0 < MAX_MARKUP_RUN, "{longest:?}");
    }

    #[test]
    fn splits_at_block_tags_not_newlines() {
        let one_line = "<div><p>Hello world</p><p>Second</p></div>";
        let wrapped = "<div>\n<p>\nHello\nworld\n</p>\n<p>Second</p>\n</div>\n";
        assert_eq!(
            counts(one_line, LinkRule::Keep),
            counts(wrapped, LinkRule::Keep)
        );
        assert_eq!(
            counts(one_line, LinkRule::Keep),
            vec![(0, 5), (10, 7), (6, 7), (0, 6)]
        );
    }

    #[test]
    fn scripts_styles_comments_count_nothing() {
        let html = "<p>a<script>var x = '<p>';</script><style>p{}</style><!-- c -->b</p>";
        assert_eq!(counts(html, LinkRule::Keep), vec![(2, 7)]);
    }

    #[test]
    fn entities_count_as_one_character_and_nbsp_as_none() {
        let html = "<p>a&amp;b&nbsp;&nbsp;&#1575;&#x4e2d;&eacute;&bogus c</p>";
        let line = lines(html, LinkRule::Keep)[0];
        // a & b, ا 中 é, then "&bogus" (6) and "c" stay literal.
        assert_eq!(line.content, 3 + 3 + 6 + 1);
        assert_eq!(line.non_ascii, 3);
    }

    #[test]
    fn link_rules_follow_the_filters_paper() {
        // Anchor text of 12 characters (spaces not counted: 10).
        let html = r#"<p>See <a href="http://www.BBC.com/">BBC Web Site</a> now</p>"#;
        let tag_open = r#"<a href="http://www.BBC.com/">"#.len() as u32;
        let base = 3 + 4; // <p> </p>
        let text = 3 + 10 + 3;
        assert_eq!(
            counts(html, LinkRule::Keep),
            vec![(text, base + tag_open + 4)]
        );
        assert_eq!(
            counts(html, LinkRule::DropAttributes),
            vec![(text, base + 3 + 4)]
        );
        // `<a ` + (10 - 5) placeholders + `>`, then `</a>`.
        assert_eq!(
            counts(html, LinkRule::Normalise),
            vec![(text, base + 4 + 5 + 4)]
        );
        assert_eq!(counts(html, LinkRule::DropLinks), vec![(3 + 3, base)]);
    }

    #[test]
    fn normalised_link_spanning_lines_charges_its_opening_line() {
        let html = r#"<a href="x">long anchor text<p>more text</p></a>"#;
        let got = counts(html, LinkRule::Normalise);
        // Anchor text: "longanchortext" (14) + "moretext" (8) = 22 -> 17 placeholders.
        assert_eq!(got, vec![(14, 4 + 17), (8, 3 + 4), (0, 4)]);
    }

    /// The lines of `html` with the furniture marks, links kept.
    fn furnished_lines(html: &str) -> Vec<Line> {
        let mut out = Vec::new();
        let rules = Rules {
            links: LinkRule::Keep,
            cleaning: Cleaning::Furniture,
        };
        scan(
            html.as_bytes(),
            rules,
            &BlockCounter(Baseline),
            &mut out,
            &mut CueMemo::default(),
            &mut Landmarks::default(),
        );
        out
    }

    #[test]
    fn furniture_lies_on_lines_of_its_own() {
        let html =
            "<p>Text <b>x</b><nav>Menu <div>a</div></nav> more</p><div class='share-box'>s</div>";
        let out = furnished_lines(html);
        let marks: Vec<(u32, Option<Cue>)> = out.iter().map(|l| (l.content, l.furniture)).collect();
        let (nav, share) = (Some(Cue::Strong), Some(Cue::Weak));
        assert_eq!(
            marks,
            vec![
                (5, None),
                (4, nav),
                (1, nav),
                (0, nav),
                (4, None),
                (1, share)
            ]
        );
        // The papers' cleaning marks nothing.
        assert!(lines(html, LinkRule::Keep)
            .iter()
            .all(|l| l.furniture.is_none()));
    }

    #[test]
    fn outside_main_or_a_single_article_is_weak_furniture() {
        for html in [
            "<div>Intro</div><main><p>Body</p><div>Also</div></main><div>After</div>",
            "<div>Intro</div><article><p>Body</p><div>Also</div></article><div>After</div>",
        ] {
            assert_eq!(weak_marks(html), [true, false, false, true], "{html}");
        }
        // Several articles are a list of cards: nothing is marked.
        let cards =
            "<div>Intro</div><article>Body</article><article>Also</article><div>After</div>";
        assert_eq!(weak_marks(cards), [false; 4]);
    }

    fn weak_marks(html: &str) -> Vec<bool> {
        let out = furnished_lines(html);
        out.iter()
            .filter(|l| l.content > 0)
            .map(|l| l.furniture == Some(Cue::Weak))
            .collect()
    }

    #[test]
    fn lone_lt_is_text() {
        assert_eq!(counts("<p>a < b</p>", LinkRule::Keep), vec![(3, 7)]);
    }

    proptest! {
        #[test]
        fn fast_scan_equals_reference(html in "(<p>|</p>|<a href=x>|</a>|<br>|&amp;|&nbsp;|<script>|</script>|<!--|-->|<|>|&|[a-z ]{0,6}|\u{4e2d}|\u{0627}){0,80}") {
            for rule in [LinkRule::Keep, LinkRule::DropLinks, LinkRule::DropAttributes, LinkRule::Normalise] {
                let mut reference = Vec::new();
                let b = scan(html.as_bytes(), Rules::papers(rule), &ReferenceCounter, &mut reference, &mut CueMemo::default(), &mut Landmarks::default());
                for_each_isa!(|isa| {
                    let mut fast = Vec::new();
                    let a = scan(html.as_bytes(), Rules::papers(rule), &BlockCounter(isa), &mut fast, &mut CueMemo::default(), &mut Landmarks::default());
                    prop_assert_eq!(a, b);
                    prop_assert_eq!(&fast, &reference);
                });
            }
        }

        #[test]
        fn arbitrary_bytes_scan_the_same(html in proptest::collection::vec(any::<u8>(), 0..300)) {
            let mut reference = Vec::new();
            scan(&html, Rules::papers(LinkRule::Normalise), &ReferenceCounter, &mut reference, &mut CueMemo::default(), &mut Landmarks::default());
            for_each_isa!(|isa| {
                let mut fast = Vec::new();
                scan(&html, Rules::papers(LinkRule::Normalise), &BlockCounter(isa), &mut fast, &mut CueMemo::default(), &mut Landmarks::default());
                prop_assert_eq!(&fast, &reference);
            });
        }
    }
}
