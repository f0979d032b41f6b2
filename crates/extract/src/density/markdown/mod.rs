//! Markdown out: a second rendering of the byte ranges [`super::text`]
//! walks, fed by the same walk (the same tag recogniser, the same text
//! runs, entities decoded once).
//!
//! The renderer keeps a small stack of open containers (block quotes,
//! lists, list items; at most [`MAX_DEPTH`]), at most [`MAX_TABLES`] open
//! tables, and buffers reused from page to page. Headings, paragraphs,
//! nested lists, quotes and `<br>` are written as they come; `<pre>`,
//! inline `<code>` and math are buffered until their end (a fence must be
//! longer than any backtick run inside); a table is written as blocks
//! and, at its end, rewritten in place as a GFM table when it is a data
//! table (two columns or more, no table or code block in its cells). A range
//! may start in the middle of a list or a table: a stray `<li>` opens a
//! list, a stray `<td>` a table.
//!
//! Text is escaped where it would otherwise change how the Markdown
//! renders (a leading `#`, `-`, `1.`, `>`; `*`, `` ` ``, `[`, `_` at a word's
//! edge, `<` before a tag name, `&` before an entity name, …); code and
//! math are written as they are.
//!
//! Every text paragraph (the `\n`s of the plain text) is matched to the
//! Markdown bytes written for it ([`Markdown::mark`]), so that the
//! paragraphs an algorithm leaves out of the text after the walk are left
//! out of the Markdown too ([`Markdown::keep_paragraphs`]).

use super::names::{fold, key_of};
use super::tags::{Markup, Tag, TagClass};
use memchr::{memchr, memmem, memrchr};
use std::fmt::Write;

/// Open containers (quotes, lists, items) kept; deeper ones are read as
/// plain blocks.
pub const MAX_DEPTH: usize = 24;
/// Open tables kept; deeper ones are read as plain blocks.
pub const MAX_TABLES: usize = 8;
/// The largest `colspan` honoured.
const MAX_COLSPAN: u32 = 1000;

/// What the Markdown rendering keeps beside the text's structure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MarkdownOptions {
    /// Hyperlinks as `[text](url)`, resolved against the page's URL;
    /// otherwise only their text.
    pub links: bool,
    /// Images as their `alt` text; otherwise left out.
    pub images: bool,
}

/// The key of a lowercase element name, as [`Markup::Element`] gives it.
const fn k(name: &[u8]) -> u64 {
    fold(key_of(name))
}

const A: u64 = k(b"a");
const H: [u64; 6] = [k(b"h1"), k(b"h2"), k(b"h3"), k(b"h4"), k(b"h5"), k(b"h6")];
const UL: u64 = k(b"ul");
const OL: u64 = k(b"ol");
const MENU: u64 = k(b"menu");
const LI: u64 = k(b"li");
const BLOCKQUOTE: u64 = k(b"blockquote");
const PRE: u64 = k(b"pre");
const CODE: u64 = k(b"code");
const KBD: u64 = k(b"kbd");
const SAMP: u64 = k(b"samp");
const TT: u64 = k(b"tt");
const BR: u64 = k(b"br");
const IMG: u64 = k(b"img");
const MATH: u64 = k(b"math");
const TABLE: u64 = k(b"table");
const TR: u64 = k(b"tr");
const TD: u64 = k(b"td");
const TH: u64 = k(b"th");
const SPAN: u64 = k(b"span");
const DIV: u64 = k(b"div");

/// What separates the next content from what was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Sep {
    Space,
    /// A hard line break (`<br>`) inside a paragraph.
    Break,
    /// A new line with no blank line: the next list item.
    Line,
    /// A blank line: a new block.
    Blank,
}

/// An open container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Container {
    /// A block quote; whether a line of it was written.
    Quote { written: bool },
    /// A list: ordered or not, the next item's number, whether it has had
    /// an item.
    List {
        ordered: bool,
        next: u32,
        started: bool,
    },
    /// A list item: its marker (0 for a bullet, else its number), the
    /// marker's width, whether the marker was written.
    Item {
        number: u32,
        width: u8,
        written: bool,
    },
}

/// What text goes to, when not to the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Code {
    /// Inside `<code>`, `<kbd>`, `<samp>` or `<tt>`.
    Inline,
    /// Inside `<pre>`.
    Pre,
}

/// An open table.
#[derive(Clone, Copy, Debug)]
struct Table {
    /// Output length where its content starts (after the line prefix of
    /// its first line), once a line was begun in it.
    start: Option<usize>,
    /// Its first cell in [`Markdown::cells`].
    first_cell: usize,
    /// Container depth when it opened.
    depth: usize,
    row: u32,
    row_has_cells: bool,
    cell_open: bool,
    /// Not a data table: a table or a code block in it.
    layout: bool,
}

/// One table cell: its row, its content's byte range in the output, its
/// column span.
#[derive(Clone, Copy, Debug)]
struct Cell {
    row: u32,
    start: usize,
    end: usize,
    span: u32,
}

/// The Markdown renderer of one page; its buffers are reused from page to
/// page.
#[derive(Debug, Default)]
pub struct Markdown {
    options: MarkdownOptions,
    base: Option<url::Url>,
    out: String,
    /// The output length at each `\n` of the plain text.
    marks: Vec<usize>,
    stack: Vec<Container>,
    /// Containers opened past [`MAX_DEPTH`], not kept.
    overflow: usize,
    pending: Option<Sep>,
    /// A line is begun (its prefix written).
    line_open: bool,
    /// Nothing but its prefix is on the line.
    line_empty: bool,
    /// The next word is the first of its line (line-start escapes).
    line_start: bool,
    /// The open heading's level, or 0.
    heading: u8,
    code: Option<Code>,
    code_buf: String,
    lang: String,
    /// Inside `<pre>`: a block boundary was seen, the next text starts a
    /// line; and whether the first newline is still to be skipped.
    pre_newline: bool,
    pre_fresh: bool,
    /// Inside `<math>`: display or not; its TeX and its text.
    math: Option<bool>,
    tex: String,
    math_text: String,
    /// An open link: its URL (`None` when it cannot be written) and
    /// whether its `[` was written.
    link: Option<(bool, bool)>,
    href: String,
    /// An element whose text is left out (KaTeX's and MathJax's rendered
    /// copies of a formula): its name and depth.
    hide: Option<(u64, u32)>,
    tables: Vec<Table>,
    table_overflow: usize,
    cells: Vec<Cell>,
    scratch: String,
    decoded: String,
}

impl Markdown {
    /// A renderer with `options`.
    pub fn new(options: MarkdownOptions) -> Self {
        Markdown {
            options,
            ..Markdown::default()
        }
    }

    /// The options it renders with.
    pub fn options(&self) -> MarkdownOptions {
        self.options
    }

    /// Sets the URL links are resolved against (only read with
    /// [`MarkdownOptions::links`]).
    pub fn set_base(&mut self, url: Option<&str>) {
        self.base = if self.options.links {
            url.and_then(|u| url::Url::parse(u).ok())
        } else {
            None
        };
    }

    /// The Markdown written so far.
    pub fn written(&self) -> &str {
        &self.out
    }

    /// Forgets everything written so far and every open element.
    pub fn clear(&mut self) {
        self.out.clear();
        self.marks.clear();
        self.cells.clear();
        self.tables.clear();
        self.reset();
    }

    fn reset(&mut self) {
        self.stack.clear();
        self.overflow = 0;
        self.pending = None;
        self.line_open = false;
        self.line_empty = false;
        self.line_start = false;
        self.heading = 0;
        self.code = None;
        self.math = None;
        self.link = None;
        self.hide = None;
        self.table_overflow = 0;
    }

    /// Records that the plain text starts a new paragraph here.
    pub fn mark(&mut self) {
        self.marks.push(self.out.len());
    }

    /// Ends every open element: between two ranges of the page that are
    /// not one paragraph.
    pub fn paragraph(&mut self) {
        self.flush();
        self.sep(Sep::Blank);
    }

    /// The next content is separated by at least a space.
    pub fn space(&mut self) {
        self.sep(Sep::Space);
    }

    /// Ends every open element and trims the output: the page's Markdown.
    pub fn finish(&mut self) {
        self.flush();
        let lead = self.out.len() - self.out.trim_start_matches('\n').len();
        self.out.drain(..lead);
        let kept = self.out.trim_end().len();
        self.out.truncate(kept);
        self.marks.clear();
    }

    /// Keeps only the Markdown of the text paragraphs not `dropped` (one
    /// flag per paragraph of the plain text). Does nothing when the
    /// paragraphs were not all marked.
    pub fn keep_paragraphs(&mut self, dropped: &[bool]) {
        self.flush();
        if self.marks.len() + 1 != dropped.len() {
            return;
        }
        self.scratch.clear();
        let mut start = 0;
        for (i, &drop) in dropped.iter().enumerate() {
            let end = self.marks.get(i).copied().unwrap_or(self.out.len());
            let end = end.clamp(start, self.out.len());
            if !drop {
                self.scratch
                    .push_str(self.out.get(start..end).unwrap_or_default());
            }
            start = end;
        }
        std::mem::swap(&mut self.out, &mut self.scratch);
        self.marks.clear();
    }

    fn flush(&mut self) {
        self.close_inline();
        if self.code == Some(Code::Pre) {
            self.emit_pre();
        }
        while !self.tables.is_empty() {
            self.finish_table();
        }
        self.reset();
        self.line_open = false;
        self.pending = Some(Sep::Blank);
    }

    /// Ends inline code, math and a link.
    fn close_inline(&mut self) {
        if self.code == Some(Code::Inline) {
            self.emit_code();
        }
        if self.math.is_some() {
            self.emit_math();
        }
        self.end_link();
    }

    fn sep(&mut self, sep: Sep) {
        if sep >= Sep::Line && self.line_open && self.line_empty {
            return;
        }
        let sep = match (sep, self.stack.last()) {
            (Sep::Blank, Some(Container::Item { written: false, .. })) => Sep::Line,
            _ => sep,
        };
        if sep >= Sep::Line {
            self.line_open = false;
        }
        self.pending = self.pending.max(Some(sep));
    }

    /// Writes what separates the next content from the output, and the
    /// line prefix of a new line.
    fn begin(&mut self) {
        if self.line_open {
            match self.pending {
                Some(Sep::Space) if !self.line_empty => self.out.push(' '),
                Some(Sep::Break) if !self.line_empty => {
                    self.out.push_str("  \n");
                    self.prefix(false);
                    self.line_start = true;
                }
                _ => {}
            }
        } else {
            if !self.out.is_empty() {
                self.out.push('\n');
                if self.pending != Some(Sep::Line) {
                    self.prefix(true);
                    self.out.push('\n');
                }
            }
            self.prefix(false);
            if let Some(t) = self.tables.last_mut() {
                t.start.get_or_insert(self.out.len());
            }
            self.line_start = true;
            if self.heading > 0 {
                for _ in 0..self.heading {
                    self.out.push('#');
                }
                self.out.push(' ');
                self.line_start = false;
            }
            self.line_open = true;
            self.line_empty = true;
        }
        self.pending = None;
        if let Some((true, false)) = self.link {
            self.out.push('[');
            self.link = Some((true, true));
        }
    }

    /// The prefix of a line: `> ` per quote, a list item's marker or its
    /// indent; only the quotes for a blank line.
    fn prefix(&mut self, blank: bool) {
        for c in self.stack.iter_mut() {
            match c {
                Container::Quote { written } if !blank || *written => {
                    *written = true;
                    self.out.push_str("> ");
                }
                Container::Quote { .. } => {}
                Container::List { .. } => {}
                Container::Item {
                    written: true,
                    width,
                    ..
                } => {
                    for _ in 0..*width {
                        self.out.push(' ');
                    }
                }
                Container::Item {
                    written, number, ..
                } if !blank => {
                    *written = true;
                    if *number == 0 {
                        self.out.push_str("- ");
                    } else {
                        let _ = write!(self.out, "{number}. ");
                    }
                }
                Container::Item { .. } => {}
            }
        }
        if blank {
            let kept = self.out.trim_end_matches(' ').len();
            self.out.truncate(kept);
        }
    }

    /// The line prefix [`Self::prefix`] writes, apart.
    fn prefix_string(&mut self, blank: bool) -> String {
        let len = self.out.len();
        self.prefix(blank);
        let prefix = self.out.get(len..).unwrap_or_default().to_owned();
        self.out.truncate(len);
        prefix
    }

    /// Appends decoded text.
    pub fn text(&mut self, text: &str) {
        if self.hide.is_some() {
            return;
        }
        match self.code {
            Some(Code::Pre) => return self.pre_text(text),
            Some(Code::Inline) => return collapse_into(&mut self.code_buf, text),
            _ => {}
        }
        if self.math.is_some() {
            return collapse_into(&mut self.math_text, text);
        }
        // Words split at whitespace as `char::is_whitespace` tells it; only
        // the lead bytes of the Unicode spaces are decoded.
        let bytes = text.as_bytes();
        let (mut start, mut i) = (0, 0);
        while let Some(&b) = bytes.get(i) {
            let (space, width) = match b {
                b'\t'..=b'\r' | b' ' => (true, 1),
                0xC2 | 0xE1..=0xE3 => {
                    let c = text.get(i..).and_then(|t| t.chars().next()).unwrap_or('x');
                    (c.is_whitespace(), c.len_utf8())
                }
                _ => (false, 1),
            };
            if space {
                if start < i {
                    self.word(text.get(start..i).unwrap_or_default());
                }
                self.sep(Sep::Space);
                start = i + width;
            }
            i += width;
        }
        if start < bytes.len() {
            self.word(text.get(start..).unwrap_or_default());
        }
    }

    /// Whether decoded text is written as words ([`Self::words`]): not
    /// inside code, math or an element left out, where [`Self::text`]
    /// keeps or drops it whole.
    #[inline]
    pub fn takes_words(&self) -> bool {
        self.hide.is_none() && self.code.is_none() && self.math.is_none()
    }

    /// Appends words of decoded text separated by single `' '`s (no other
    /// whitespace in `span`), as [`Self::text`] writes them; only while
    /// [`Self::takes_words`].
    #[inline]
    pub fn words(&mut self, span: &str) {
        self.word(span);
    }

    /// Writes a span of words ([`Self::words`]).
    fn word(&mut self, word: &str) {
        self.begin();
        let line_start = std::mem::replace(&mut self.line_start, false);
        let in_link = matches!(self.link, Some((true, true)));
        escape_into(&mut self.out, word, line_start, self.heading > 0, in_link);
        self.line_empty = false;
    }

    /// Text inside `<pre>`, kept as it is but for `\r\n`.
    fn pre_text(&mut self, text: &str) {
        let mut text = text;
        if self.pre_fresh {
            self.pre_fresh = false;
            text = text
                .strip_prefix("\r\n")
                .or_else(|| text.strip_prefix('\n'))
                .unwrap_or(text);
        }
        if text.is_empty() {
            return;
        }
        if self.pre_newline {
            self.pre_newline = false;
            if !self.code_buf.is_empty()
                && !self.code_buf.ends_with('\n')
                && !text.starts_with(['\n', '\r'])
            {
                self.code_buf.push('\n');
            }
        }
        if memchr(b'\r', text.as_bytes()).is_none() {
            self.code_buf.push_str(text);
        } else {
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                if c == '\r' {
                    if chars.peek() != Some(&'\n') {
                        self.code_buf.push('\n');
                    }
                } else {
                    self.code_buf.push(c);
                }
            }
        }
    }

    /// A piece of markup at `html[at]`.
    pub fn markup(&mut self, html: &str, at: usize, tag: &Tag) {
        match tag.markup {
            Markup::Dropped { .. } => self.dropped(html, at, tag.end.min(html.len())),
            Markup::Element {
                class,
                name,
                closing,
                attrs,
            } => {
                let raw = html.get(at..tag.end.min(html.len())).unwrap_or_default();
                self.element(raw, class, name, closing, attrs);
            }
        }
    }

    fn element(&mut self, raw: &str, class: TagClass, name: u64, closing: bool, attrs: bool) {
        if let Some((hidden, depth)) = self.hide {
            if name == hidden {
                let depth = if closing { depth - 1 } else { depth + 1 };
                self.hide = (depth > 0).then_some((hidden, depth));
            }
            return;
        }
        let block = matches!(class, TagClass::Block(_) | TagClass::Cell);
        match self.code {
            Some(Code::Pre) => {
                match (name, closing) {
                    (PRE, true) => self.emit_pre(),
                    (BR, _) => self.code_buf.push('\n'),
                    (CODE, false) if self.lang.is_empty() && attrs => {
                        self.lang_of(raw);
                    }
                    _ if block => self.pre_newline = true,
                    _ => {}
                }
                return;
            }
            Some(Code::Inline) => {
                if matches!(name, CODE | KBD | SAMP | TT) && closing {
                    return self.emit_code();
                }
                if !block {
                    return;
                }
                self.emit_code();
            }
            _ => {}
        }
        if self.math.is_some() {
            if name == MATH && closing {
                return self.emit_math();
            }
            if !block {
                return;
            }
            self.emit_math();
        }
        if block {
            self.end_link();
        }
        match (name, closing) {
            (A, false) if self.options.links => self.start_link(raw),
            (A, true) => self.end_link(),
            (n, _) if H.contains(&n) => {
                self.end_heading();
                if !closing {
                    self.sep(Sep::Blank);
                    self.heading = H.iter().position(|&h| h == n).map_or(1, |i| i as u8 + 1);
                }
            }
            (UL | OL | MENU, false) => {
                self.end_heading();
                let start = if name == OL {
                    attr(raw, b"start")
                        .and_then(|v| v.trim().parse::<u32>().ok())
                        .unwrap_or(1)
                        .clamp(1, 999_999_999)
                } else {
                    0
                };
                let nested = self
                    .stack
                    .iter()
                    .any(|c| matches!(c, Container::Item { .. }));
                self.sep(if nested { Sep::Line } else { Sep::Blank });
                self.push(Container::List {
                    ordered: name == OL,
                    next: start,
                    started: false,
                });
            }
            (UL | OL | MENU, true) => {
                self.pop_to(|c| matches!(c, Container::List { .. }));
                self.sep(Sep::Blank);
            }
            (LI, false) => {
                self.end_heading();
                if let Some(Container::Item { .. }) = self.stack.last() {
                    self.stack.pop();
                }
                if !matches!(self.stack.last(), Some(Container::List { .. })) {
                    self.sep(Sep::Blank);
                    self.push(Container::List {
                        ordered: false,
                        next: 0,
                        started: false,
                    });
                }
                let number = match self.stack.last_mut() {
                    Some(Container::List {
                        ordered,
                        next,
                        started,
                    }) => {
                        // Items after the first are a line apart.
                        if *started && self.pending == Some(Sep::Blank) {
                            self.pending = Some(Sep::Line);
                        }
                        *started = true;
                        let n = if *ordered { *next } else { 0 };
                        *next = next.saturating_add(1).min(999_999_999);
                        n
                    }
                    _ => 0,
                };
                let width = if number == 0 {
                    2
                } else {
                    number.ilog10() as u8 + 3
                };
                self.sep(Sep::Line);
                self.push(Container::Item {
                    number,
                    width,
                    written: false,
                });
            }
            (LI, true) => {
                self.pop_to(|c| matches!(c, Container::Item { .. }));
                self.sep(Sep::Line);
            }
            (BLOCKQUOTE, false) => {
                self.end_heading();
                self.sep(Sep::Blank);
                self.push(Container::Quote { written: false });
            }
            (BLOCKQUOTE, true) => {
                self.pop_to(|c| matches!(c, Container::Quote { .. }));
                self.sep(Sep::Blank);
            }
            (PRE, false) => {
                self.end_heading();
                self.in_cell_is_layout();
                self.sep(Sep::Blank);
                self.code = Some(Code::Pre);
                self.code_buf.clear();
                self.lang.clear();
                self.pre_newline = false;
                self.pre_fresh = true;
                if attrs {
                    self.lang_of(raw);
                }
            }
            (CODE | KBD | SAMP | TT, false) => {
                self.code = Some(Code::Inline);
                self.code_buf.clear();
            }
            (BR, _) => self.line_break(),
            (MATH, false) => {
                self.math = Some(attr(raw, b"display").is_some_and(|d| d.contains("block")));
                self.tex.clear();
                self.math_text.clear();
                if let Some(alt) = attr(raw, b"alttext") {
                    decode_into(&mut self.tex, alt);
                }
            }
            (TABLE, false) => self.open_table(),
            (TABLE, true) => {
                if self.table_overflow > 0 {
                    self.table_overflow -= 1;
                } else if !self.tables.is_empty() {
                    self.finish_table();
                }
                self.sep(Sep::Blank);
            }
            (TR, _) => {
                if self.table_overflow == 0 {
                    if self.tables.is_empty() && !closing {
                        self.open_table();
                    }
                    self.close_cell();
                    if let Some(t) = self.tables.last_mut() {
                        if t.row_has_cells {
                            t.row = t.row.saturating_add(1);
                            t.row_has_cells = false;
                        }
                    }
                }
                self.sep(Sep::Blank);
            }
            (TD | TH, _) => {
                if self.table_overflow == 0 {
                    if self.tables.is_empty() && !closing {
                        self.open_table();
                    }
                    self.close_cell();
                    if !closing {
                        let span = attr(raw, b"colspan")
                            .and_then(|v| v.trim().parse::<u32>().ok())
                            .unwrap_or(1)
                            .clamp(1, MAX_COLSPAN);
                        let start = self.out.len();
                        if let Some(t) = self.tables.last_mut() {
                            t.row_has_cells = true;
                            t.cell_open = true;
                            self.cells.push(Cell {
                                row: t.row,
                                start,
                                end: start,
                                span,
                            });
                        }
                    }
                }
                self.sep(Sep::Blank);
            }
            (IMG, _) if attrs && math_image(raw).is_some() => {
                let (display, alt) = math_image(raw).unwrap_or_default();
                let mut tex = std::mem::take(&mut self.decoded);
                tex.clear();
                decode_into(&mut tex, alt);
                let inner = tex
                    .trim()
                    .strip_prefix("{\\displaystyle")
                    .and_then(|t| t.strip_suffix('}'))
                    .unwrap_or(&tex)
                    .to_owned();
                self.math_out(&inner, display);
                self.decoded = tex;
            }
            (IMG, _) if self.options.images => {
                if let Some(alt) = attr(raw, b"alt") {
                    let mut decoded = std::mem::take(&mut self.decoded);
                    decoded.clear();
                    decode_into(&mut decoded, alt);
                    self.sep(Sep::Space);
                    self.text(&decoded);
                    self.sep(Sep::Space);
                    self.decoded = decoded;
                }
            }
            (SPAN | DIV, false) if attrs && hides(raw) => {
                self.hide = Some((name, 1));
            }
            _ => match class {
                TagClass::Block(_) => {
                    if self.heading > 0 {
                        self.sep(Sep::Space);
                    } else {
                        self.sep(Sep::Blank);
                    }
                }
                TagClass::Cell => self.sep(Sep::Space),
                _ => {}
            },
        }
    }
    fn line_break(&mut self) {
        if self.heading > 0 {
            return self.sep(Sep::Space);
        }
        if self.line_open && !self.line_empty {
            if self.pending == Some(Sep::Break) {
                self.pending = None;
                self.sep(Sep::Blank);
            } else {
                self.sep(Sep::Break);
            }
        }
    }

    fn end_heading(&mut self) {
        if self.heading > 0 {
            self.heading = 0;
            self.sep(Sep::Blank);
        }
    }

    fn push(&mut self, c: Container) {
        if self.stack.len() < MAX_DEPTH {
            self.stack.push(c);
        } else {
            self.overflow += 1;
        }
    }

    /// Closes the innermost open container `is` matches, and those inside it.
    fn pop_to(&mut self, is: impl Fn(&Container) -> bool) {
        if self.overflow > 0 {
            self.overflow -= 1;
            return;
        }
        let floor = self.tables.last().map_or(0, |t| t.depth);
        if let Some(i) = self.stack.iter().rposition(is) {
            if i >= floor {
                self.stack.truncate(i);
            }
        }
    }

    fn start_link(&mut self, raw: &str) {
        self.end_link();
        let Some(href) = attr(raw, b"href") else {
            return;
        };
        let mut decoded = std::mem::take(&mut self.decoded);
        decoded.clear();
        decode_into(&mut decoded, href);
        let href = decoded.trim();
        let url = match &self.base {
            Some(base) => base.join(href).ok(),
            None => url::Url::parse(href).ok(),
        };
        let url = url.filter(|u| matches!(u.scheme(), "http" | "https" | "ftp" | "mailto"));
        self.href.clear();
        if let Some(url) = url {
            for c in url.as_str().chars() {
                match c {
                    '(' => self.href.push_str("%28"),
                    ')' => self.href.push_str("%29"),
                    ' ' => self.href.push_str("%20"),
                    c => self.href.push(c),
                }
            }
            self.link = Some((true, false));
        }
        self.decoded = decoded;
    }

    fn end_link(&mut self) {
        if let Some((true, true)) = self.link.take() {
            self.out.push_str("](");
            self.out.push_str(&self.href);
            self.out.push(')');
        }
    }
}

mod code;
mod escape;
mod math;
mod tables;
#[cfg(test)]
mod tests;

use escape::{attr, collapse_into, decode_into, escape_into, longest_run, push_n};
use math::{hides, math_image};
