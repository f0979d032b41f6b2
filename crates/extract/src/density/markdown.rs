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

    /// A comment, doctype or dropped element at `html[at..end]`: MathJax's
    /// `<script type="math/tex">`, a `<math>` dropped whole, the TeX
    /// annotation inside `<math>`.
    fn dropped(&mut self, html: &str, at: usize, end: usize) {
        if self.hide.is_some() || self.code.is_some() {
            return;
        }
        let bytes = html.as_bytes();
        let whole = bytes.get(at..end).unwrap_or_default();
        let name_len = whole
            .iter()
            .skip(1)
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-')
            .count();
        let name = whole.get(1..1 + name_len).unwrap_or_default();
        let Some(open_end) = memchr(b'>', whole).map(|i| i + 1) else {
            return;
        };
        let open = html.get(at..at + open_end).unwrap_or_default();
        // The content: up to the last `</` of the element.
        let content = || {
            let inner = whole.get(open_end..)?;
            let close = memrchr(b'<', inner).filter(|&i| inner.get(i + 1) == Some(&b'/'))?;
            html.get(at + open_end..at + open_end + close)
        };
        if name.eq_ignore_ascii_case(b"annotation") {
            if self.math.is_some() && attr(open, b"encoding").is_some_and(is_tex) {
                if let Some(tex) = content() {
                    self.tex.clear();
                    decode_into(&mut self.tex, tex);
                }
            }
        } else if name.eq_ignore_ascii_case(b"script") {
            let Some(kind) = attr(open, b"type") else {
                return;
            };
            if !kind.to_ascii_lowercase().starts_with("math/tex") {
                return;
            }
            let display = kind.contains("display");
            if let Some(tex) = content() {
                self.math_out(tex, display);
            }
        } else if name.eq_ignore_ascii_case(b"math") && self.math.is_none() {
            let display = attr(open, b"display").is_some_and(|d| d.contains("block"));
            let mut tex = std::mem::take(&mut self.tex);
            tex.clear();
            if let Some(alt) = attr(open, b"alttext") {
                decode_into(&mut tex, alt);
            }
            if let Some(i) = memmem::find(whole, b"<annotation") {
                let from = at + i;
                let rest = whole.get(i..).unwrap_or_default();
                let open_len = memchr(b'>', rest).map_or(0, |j| j + 1);
                let open = html.get(from..from + open_len).unwrap_or_default();
                if attr(open, b"encoding").is_some_and(is_tex) {
                    let inner = rest.get(open_len..).unwrap_or_default();
                    if let Some(close) = memmem::find(inner, b"</annotation") {
                        let start = from + open_len;
                        tex.clear();
                        decode_into(&mut tex, html.get(start..start + close).unwrap_or_default());
                    }
                }
            }
            self.math_out(&tex, display);
            self.tex = tex;
        }
    }

    fn math_out(&mut self, tex: &str, display: bool) {
        let tex = tex.trim();
        if tex.is_empty() {
            return;
        }
        if display {
            self.sep(Sep::Blank);
        }
        self.begin();
        let fence = if display { "$$" } else { "$" };
        self.out.push_str(fence);
        let mut first = true;
        for piece in tex.split_whitespace() {
            if !first {
                self.out.push(' ');
            }
            first = false;
            self.out.push_str(piece);
        }
        self.out.push_str(fence);
        self.line_empty = false;
        self.line_start = false;
        if display {
            self.sep(Sep::Blank);
        }
    }

    fn emit_math(&mut self) {
        let Some(display) = self.math.take() else {
            return;
        };
        let tex = std::mem::take(&mut self.tex);
        if tex.trim().is_empty() {
            let text = std::mem::take(&mut self.math_text);
            self.text(&text);
            self.math_text = text;
        } else {
            self.math_out(&tex, display);
        }
        self.tex = tex;
    }

    fn emit_code(&mut self) {
        self.code = None;
        let code = std::mem::take(&mut self.code_buf);
        let trimmed = code.trim_matches(' ');
        if !trimmed.is_empty() {
            self.begin();
            let ticks = longest_run(trimmed, b'`') + 1;
            let pad = trimmed.starts_with('`') || trimmed.ends_with('`');
            push_n(&mut self.out, '`', ticks);
            if pad {
                self.out.push(' ');
            }
            self.out.push_str(trimmed);
            if pad {
                self.out.push(' ');
            }
            push_n(&mut self.out, '`', ticks);
            self.line_empty = false;
            self.line_start = false;
        } else if !code.is_empty() {
            self.sep(Sep::Space);
        }
        self.code_buf = code;
    }

    fn emit_pre(&mut self) {
        self.code = None;
        let code = std::mem::take(&mut self.code_buf);
        let body = code.trim_end().trim_start_matches(['\n', '\r']);
        if !body.trim().is_empty() {
            self.sep(Sep::Blank);
            self.begin();
            let ticks = (longest_run(body, b'`') + 1).max(3);
            push_n(&mut self.out, '`', ticks);
            self.out.push_str(&self.lang);
            for line in body.split('\n') {
                self.out.push('\n');
                self.prefix(line.is_empty());
                self.out.push_str(line);
            }
            self.out.push('\n');
            self.prefix(false);
            push_n(&mut self.out, '`', ticks);
            self.line_empty = false;
            self.line_start = false;
        }
        self.code_buf = code;
        self.sep(Sep::Blank);
    }

    /// The language of a code block from the `class` of `raw`.
    fn lang_of(&mut self, raw: &str) {
        let Some(class) = attr(raw, b"class") else {
            return;
        };
        for word in class.split_ascii_whitespace() {
            let lang = ["language-", "lang-", "highlight-source-", "highlight-"]
                .iter()
                .find_map(|p| word.strip_prefix(p));
            if let Some(lang) = lang {
                if !lang.is_empty()
                    && lang
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"+#._-".contains(&b))
                {
                    self.lang.clear();
                    self.lang.push_str(lang);
                    return;
                }
            }
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

    /// Marks the innermost table a layout table when a cell of it is open
    /// (a code block inside a cell: a GFM cell cannot hold one).
    fn in_cell_is_layout(&mut self) {
        if let Some(t) = self.tables.last_mut() {
            if t.cell_open {
                t.layout = true;
            }
        }
    }

    fn open_table(&mut self) {
        self.close_inline();
        self.end_heading();
        if self.tables.len() >= MAX_TABLES {
            self.table_overflow += 1;
            return;
        }
        if let Some(outer) = self.tables.last_mut() {
            outer.layout = true;
        }
        self.sep(Sep::Blank);
        self.tables.push(Table {
            start: None,
            first_cell: self.cells.len(),
            depth: self.stack.len(),
            row: 0,
            row_has_cells: false,
            cell_open: false,
            layout: false,
        });
    }

    fn close_cell(&mut self) {
        let end = self.out.len();
        if let Some(t) = self.tables.last_mut() {
            if t.cell_open {
                t.cell_open = false;
                if let Some(c) = self.cells.last_mut() {
                    c.end = end;
                }
            }
        }
    }

    /// Ends the innermost table: rewritten as a GFM table when it is a
    /// data table, left as blocks otherwise.
    fn finish_table(&mut self) {
        self.close_inline();
        self.close_cell();
        let Some(t) = self.tables.pop() else {
            return;
        };
        self.stack.truncate(t.depth.min(self.stack.len()));
        // The line prefix of the table's rows, and its blank-line form.
        let (prefix, blank) = (self.prefix_string(false), self.prefix_string(true));
        let first = t.first_cell.min(self.cells.len());
        let cells = self.cells.get(first..).unwrap_or_default();
        let rows = cells.last().map_or(0, |c| c.row as usize + 1);
        let mut width = 0usize;
        let mut row_width = 0usize;
        let mut row = 0;
        for c in cells {
            if c.row != row {
                row = c.row;
                row_width = 0;
            }
            row_width += c.span as usize;
            width = width.max(row_width);
        }
        let start = t.start.unwrap_or(self.out.len());
        let data = !t.layout
            && width >= 2
            && rows.saturating_mul(width) <= 4 * cells.len() + 64
            && start <= self.out.len();
        if !data {
            self.cells.truncate(first);
            self.sep(Sep::Blank);
            return;
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let out_len = self.out.len();
        // Text inside the table but outside its cells (a caption) first.
        let mut loose = String::new();
        let mut at = start;
        for c in cells
            .iter()
            .map(|c| (c.start, c.end))
            .chain([(out_len, out_len)])
        {
            let gap = self.out.get(at..c.0.max(at)).unwrap_or_default();
            flatten(gap, &prefix, &blank, " ", &mut loose);
            at = c.1.max(at);
        }
        if !loose.trim().is_empty() {
            scratch.push_str(loose.trim());
            scratch.push('\n');
            scratch.push_str(&blank);
            scratch.push('\n');
            scratch.push_str(&prefix);
        }
        // Each row: where it started in the output, and where its line
        // (its `\n`) starts in the table.
        let mut row_starts: Vec<(usize, usize)> = Vec::with_capacity(rows);
        let mut i = 0;
        let mut cell_text = String::new();
        for r in 0..rows as u32 {
            let old = cells.get(i).map_or(out_len, |c| c.start);
            row_starts.push((old, start + if r == 0 { 0 } else { scratch.len() }));
            if r > 0 {
                scratch.push('\n');
                scratch.push_str(&prefix);
            }
            scratch.push('|');
            let mut filled = 0;
            while let Some(c) = cells.get(i).filter(|c| c.row == r) {
                cell_text.clear();
                let from = c.start.max(start);
                let content = self.out.get(from..c.end.max(from)).unwrap_or_default();
                flatten(content, &prefix, &blank, "<br>", &mut cell_text);
                scratch.push(' ');
                escape_pipes(cell_text.trim(), &mut scratch);
                scratch.push_str(" |");
                for _ in 1..c.span {
                    scratch.push_str("  |");
                }
                filled += c.span as usize;
                i += 1;
            }
            for _ in filled..width {
                scratch.push_str("  |");
            }
            if r == 0 {
                scratch.push('\n');
                scratch.push_str(&prefix);
                scratch.push('|');
                for _ in 0..width {
                    scratch.push_str(" --- |");
                }
            }
        }
        // A text paragraph that starts inside the table starts with the
        // next row (the first row's, with the table).
        let end = start + scratch.len();
        let mut row = 0;
        // The marks are in order: only those past the table's start move.
        let first_mark = self.marks.partition_point(|&m| m <= start);
        for m in self.marks.iter_mut().skip(first_mark) {
            while row_starts.get(row).is_some_and(|&(old, _)| old < *m) {
                row += 1;
            }
            *m = row_starts.get(row).map_or(end, |&(_, new)| new);
        }
        self.out.truncate(start);
        self.out.push_str(&scratch);
        self.scratch = scratch;
        self.cells.truncate(first);
        self.line_open = true;
        self.line_empty = false;
        self.line_start = false;
        self.pending = None;
        self.sep(Sep::Blank);
    }
}

/// A formula's picture whose `alt` is its TeX (MediaWiki's fallback
/// images beside hidden MathML, WordPress's `latex` images): whether it is
/// displayed, and the raw `alt`.
fn math_image(raw: &str) -> Option<(bool, &str)> {
    let class = attr(raw, b"class")?;
    let display = class.split_ascii_whitespace().find_map(|w| match w {
        "mwe-math-fallback-image-display" => Some(true),
        "mwe-math-fallback-image-inline" | "latex" => Some(false),
        _ => None,
    })?;
    Some((display, attr(raw, b"alt")?))
}

/// Whether an attribute `encoding` names TeX.
fn is_tex(encoding: &str) -> bool {
    encoding.to_ascii_lowercase().contains("tex")
}

/// Whether an element's classes name a rendered copy of a formula whose
/// TeX is given beside it (KaTeX's HTML, MathJax 2's output and preview).
fn hides(raw: &str) -> bool {
    if memmem::find(raw.as_bytes(), b"katex-html").is_none()
        && memmem::find(raw.as_bytes(), b"MathJax").is_none()
    {
        return false;
    }
    attr(raw, b"class").is_some_and(|class| {
        class.split_ascii_whitespace().any(|w| {
            matches!(
                w,
                "katex-html" | "MathJax" | "MathJax_Display" | "MathJax_Preview" | "MathJax_SVG"
            )
        })
    })
}

/// The raw value of attribute `name` (lowercase) of the tag `raw` (from
/// `<` to `>`).
fn attr<'t>(raw: &'t str, name: &[u8]) -> Option<&'t str> {
    let bytes = raw.as_bytes();
    let mut i = 1;
    // The element name.
    while bytes
        .get(i)
        .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'>' && *b != b'/')
    {
        i += 1;
    }
    loop {
        while bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'/')
        {
            i += 1;
        }
        let start = i;
        while bytes
            .get(i)
            .is_some_and(|b| !b.is_ascii_whitespace() && !b"=>/".contains(b))
        {
            i += 1;
        }
        if i == start {
            return None;
        }
        let key = bytes.get(start..i).unwrap_or_default();
        while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        let mut value = None;
        if bytes.get(i) == Some(&b'=') {
            i += 1;
            while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            match bytes.get(i) {
                Some(&q) if q == b'"' || q == b'\'' => {
                    let from = i + 1;
                    let len = bytes.get(from..).and_then(|r| memchr(q, r));
                    let to = len.map_or(bytes.len(), |l| from + l);
                    value = raw.get(from..to);
                    i = to + 1;
                }
                _ => {
                    let from = i;
                    while bytes
                        .get(i)
                        .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'>')
                    {
                        i += 1;
                    }
                    value = raw.get(from..i);
                }
            }
        }
        if key.eq_ignore_ascii_case(name) {
            return Some(value.unwrap_or_default());
        }
    }
}

/// Appends `text` with its character references decoded.
fn decode_into(out: &mut String, text: &str) {
    if memchr(b'&', text.as_bytes()).is_some() {
        html_escape::decode_html_entities_to_string(text, out);
    } else {
        out.push_str(text);
    }
}

/// Appends `text` with whitespace runs as single spaces.
fn collapse_into(out: &mut String, text: &str) {
    let mut first = true;
    for word in text.split(char::is_whitespace) {
        if !first && !out.ends_with(' ') {
            out.push(' ');
        }
        first = false;
        out.push_str(word);
    }
}

fn push_n(out: &mut String, c: char, n: usize) {
    for _ in 0..n {
        out.push(c);
    }
}

/// The longest run of `byte` in `text`.
fn longest_run(text: &str, byte: u8) -> usize {
    let (mut best, mut run) = (0, 0);
    for &b in text.as_bytes() {
        run = if b == byte { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Appends the Markdown of a table cell (or of text between cells) as one
/// line: its lines without the table's line `prefix` (or `blank`) and
/// without heading marks (a GFM cell holds no heading), joined by `join`.
fn flatten(content: &str, prefix: &str, blank: &str, join: &str, out: &mut String) {
    let start = out.len();
    for line in content.split('\n') {
        let line = line
            .strip_prefix(prefix)
            .or_else(|| line.strip_prefix(blank))
            .unwrap_or(line)
            .trim();
        let hashes = line.bytes().take_while(|&b| b == b'#').count();
        let line = match line.get(hashes..) {
            Some(rest) if (1..=6).contains(&hashes) && rest.starts_with(' ') => rest.trim_start(),
            _ => line,
        };
        if line.is_empty() {
            continue;
        }
        if out.len() > start {
            out.push_str(join);
        }
        out.push_str(line);
    }
}

/// Appends `text` with every `|` not already escaped escaped.
fn escape_pipes(text: &str, out: &mut String) {
    let mut backslashes = 0;
    for c in text.chars() {
        if c == '|' && backslashes % 2 == 0 {
            out.push('\\');
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
        out.push(c);
    }
}

/// Bytes that may need a backslash inside a word.
static SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"\\`*_[]<&$~";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

/// Appends `word` (no whitespace in it) escaped where it would change how
/// the Markdown renders: at the start of a line, `line_start`; in a
/// heading, `heading`; inside a link's text, `in_link`.
fn escape_into(out: &mut String, word: &str, line_start: bool, heading: bool, in_link: bool) {
    let b = word.as_bytes();
    let Some(&first) = b.first() else {
        return;
    };
    let mut from = 0;
    let all_same = || b.iter().all(|&c| c == first);
    if line_start {
        match first {
            b'#' | b'-' | b'+' | b'=' if all_same() => out.push('\\'),
            b'>' | b'|' => out.push('\\'),
            b'0'..=b'9' => {
                let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
                if digits <= 9 && digits + 1 == b.len() && matches!(b.last(), Some(b'.' | b')')) {
                    out.push_str(word.get(..digits).unwrap_or_default());
                    out.push('\\');
                    from = digits;
                }
            }
            _ => {}
        }
    } else if heading && first == b'#' && all_same() {
        out.push('\\');
    }
    let wordish = |i: Option<&u8>| i.is_some_and(|&c| c.is_ascii_alphanumeric() || c >= 0x80);
    let mut start = from;
    for i in from..b.len() {
        let c = b[i];
        if !SPECIAL[c as usize] {
            continue;
        }
        let next = b.get(i + 1);
        let escape = match c {
            b'\\' => next.is_none_or(|n| n.is_ascii_punctuation()),
            b'`' | b'*' | b'~' | b'[' => true,
            b']' => in_link,
            b'_' => !(i > 0 && wordish(b.get(i - 1)) && wordish(next)),
            b'<' => next.is_some_and(|n| n.is_ascii_alphabetic() || b"/!?".contains(n)),
            b'&' => {
                let rest = b.get(i + 1..).unwrap_or_default();
                let rest = rest.strip_prefix(b"#").unwrap_or(rest);
                let name = rest
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .count();
                name > 0 && rest.get(name) == Some(&b';')
            }
            // Math is written between `$`s.
            b'$' => true,
            _ => false,
        };
        if escape {
            out.push_str(word.get(start..i).unwrap_or_default());
            out.push('\\');
            start = i;
        }
    }
    out.push_str(word.get(start..).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::density::scan::{LinkRule, Rules};
    use crate::density::text::TextSink;
    use crate::density::Cleaning;
    use proptest::prelude::*;

    /// The Markdown and the text of the whole of `html`, read as AdDANAg+
    /// reads it (furniture marked, `<math>` read as markup) or as the
    /// papers do.
    fn render_with(html: &str, options: MarkdownOptions, furniture: bool) -> (String, String) {
        let rules = Rules {
            cleaning: if furniture {
                Cleaning::Furniture
            } else {
                Cleaning::Papers
            },
            ..Rules::papers(LinkRule::Keep)
        };
        let (mut text, mut entities) = (String::new(), String::new());
        let mut markdown = Markdown::new(options);
        markdown.set_base(Some("https://example.com/dir/page.html"));
        let mut sink = TextSink::with_markdown(&mut text, &mut entities, Some(&mut markdown));
        sink.paragraph();
        sink.append_html(html, 0, html.len(), rules);
        markdown.finish();
        (markdown.written().to_owned(), text)
    }

    fn md(html: &str) -> String {
        render_with(html, MarkdownOptions::default(), true).0
    }

    #[test]
    fn headings_and_paragraphs() {
        assert_eq!(
            md("<h1>Title</h1><p>One <b>bold</b>\n word.</p><h3>Sub</h3><div>Two</div>"),
            "# Title\n\nOne bold word.\n\n### Sub\n\nTwo"
        );
        // Blocks inside a heading stay on its line; `<br>` breaks a paragraph.
        assert_eq!(
            md("<h2><span>A</span><div>B</div></h2><p>x<br>y<br><br>z</p>"),
            "## A B\n\nx  \ny\n\nz"
        );
    }

    #[test]
    fn nested_lists() {
        let html = "<ul><li>a<ul><li>b</li><li>c<ol start=3><li>d</li><li>e</li></ol></li></ul></li><li><p>f</p><p>g</p></li></ul><p>after</p>";
        assert_eq!(
            md(html),
            "- a\n  - b\n  - c\n    3. d\n    4. e\n- f\n\n  g\n\nafter"
        );
        // A range that starts inside a list: items without their list.
        assert_eq!(md("<li>x</li><li>y</li></ul><p>z</p>"), "- x\n- y\n\nz");
        // Unclosed items close at the next one.
        assert_eq!(md("<ol><li>one<li>two</ol>"), "1. one\n2. two");
    }

    #[test]
    fn blockquotes() {
        assert_eq!(
            md("<p>a</p><blockquote><p>q1</p><p>q2</p><blockquote>deep</blockquote></blockquote><p>b</p>"),
            "a\n\n> q1\n>\n> q2\n>\n> > deep\n\nb"
        );
    }

    #[test]
    fn data_tables_are_gfm() {
        let html = "<table><caption>Cap</caption><tr><th>A</th><th>B|C</th></tr>\
            <tr><td>1</td><td>x<br>y</td></tr><tr><td colspan=2>wide</td></tr><tr><td>short</td></tr></table>";
        assert_eq!(
            md(html),
            "Cap\n\n| A | B\\|C |\n| --- | --- |\n| 1 | x<br>y |\n| wide |  |\n| short |  |"
        );
        // No `<th>`: the first row is the header.
        assert_eq!(
            md("<p>p</p><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table><p>q</p>"),
            "p\n\n| a | b |\n| --- | --- |\n| c | d |\n\nq"
        );
    }

    #[test]
    fn blocks_in_cells_of_data_tables() {
        assert_eq!(
            md("<table><tr><th><h3>Name</h3></th><th><p>Uses</p></th></tr><tr><td>a</td><td><ul><li>x</li><li>y</li></ul></td></tr></table>"),
            "| Name | Uses |\n| --- | --- |\n| a | - x<br>- y |"
        );
    }

    #[test]
    fn layout_tables_are_blocks() {
        // One column.
        assert_eq!(
            md("<table><tr><td>a</td></tr><tr><td>b</td></tr></table>"),
            "a\n\nb"
        );
        // Code blocks in cells, and nested tables.
        assert_eq!(
            md("<table><tr><td><pre>a\n b</pre></td><td>x</td></tr></table>"),
            "```\na\n b\n```\n\nx"
        );
        assert_eq!(
            md("<table><tr><td><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table></td><td>side</td></tr></table>"),
            "| a | b |\n| --- | --- |\n| c | d |\n\nside"
        );
    }

    #[test]
    fn tables_inside_lists_keep_their_indent() {
        assert_eq!(
            md("<ul><li><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table></li></ul>"),
            "- | a | b |\n  | --- | --- |\n  | c | d |"
        );
    }

    #[test]
    fn pre_keeps_every_space() {
        let html = "<pre class=\"language-python\">\ndef f(x):\n\tif x &lt; 1:\n\n        return <b>x</b>\n</pre><p>after</p>";
        assert_eq!(
            md(html),
            "```python\ndef f(x):\n\tif x < 1:\n\n        return x\n```\n\nafter"
        );
        // The language from the inner `<code>`; a fence longer than the backticks inside.
        assert_eq!(
            md("<pre><code class=\"lang-rust\">let s = \"````\";</code></pre>"),
            "`````rust\nlet s = \"````\";\n`````"
        );
        // Lines as blocks (a highlighter's `<div>` per line).
        assert_eq!(
            md("<pre class=highlight-js><div>a()</div>\n<div>  b()</div></pre>"),
            "```js\na()\n  b()\n```"
        );
        // Unterminated: closed at the end of the range.
        assert_eq!(md("<pre>x  y\n z"), "```\nx  y\n z\n```");
    }

    #[test]
    fn inline_code_in_backticks() {
        assert_eq!(md("<p>Call <code>f(*a)</code> now</p>"), "Call `f(*a)` now");
        assert_eq!(
            md("<p>A <code>`tick`</code> and <code>a``b</code></p>"),
            "A `` `tick` `` and ```a``b```"
        );
    }

    #[test]
    fn math_as_latex() {
        let mathml = "<p>So <math><semantics><mi>a</mi><mo>&lt;</mo><mi>b</mi>\
            <annotation encoding=\"application/x-tex\">a_1 &lt; a_2</annotation></semantics></math> holds.</p>";
        assert_eq!(md(mathml), "So $a_1 < a_2$ holds.");
        // The papers' cleaning drops MathML from the text; its TeX stays.
        let (markdown, text) = render_with(mathml, MarkdownOptions::default(), false);
        assert_eq!(markdown, "So $a_1 < a_2$ holds.");
        assert_eq!(text, "So holds.");
        assert_eq!(
            md("<math display=\"block\" alttext=\"\\sum_i x_i\"><mi>x</mi></math>"),
            "$$\\sum_i x_i$$"
        );
        // MathJax.
        assert_eq!(
            md("<p>Let <script type=\"math/tex\">x^2</script> and</p><script type=\"math/tex; mode=display\">\\int f</script>"),
            "Let $x^2$ and\n\n$$\\int f$$"
        );
        // KaTeX: its HTML copy is left out.
        let katex = "<p>Area <span class=\"katex\"><span class=\"katex-mathml\"><math><semantics><mrow><mi>π</mi><msup><mi>r</mi><mn>2</mn></msup></mrow>\
            <annotation encoding=\"application/x-tex\">\\pi r^2</annotation></semantics></math></span>\
            <span class=\"katex-html\" aria-hidden=\"true\"><span class=\"base\"><span class=\"mord\">πr</span></span></span></span>.</p>";
        assert_eq!(md(katex), "Area $\\pi r^2$.");
        // MediaWiki's picture of a formula, beside its hidden MathML.
        assert_eq!(
            md("<p>Let <img class=\"mwe-math-fallback-image-inline\" alt=\"{\\displaystyle a_{ij}}\"> be</p>"),
            "Let $a_{ij}$ be"
        );
        // MathML without TeX: its text.
        assert_eq!(
            md("<p><math><mi>x</mi><mo>+</mo><mn>1</mn></math></p>"),
            "x+1"
        );
        // Broken MathML: closed at the end.
        assert_eq!(md("<p>a <math alttext=\"y\"><mi>y"), "a $y$");
    }

    #[test]
    fn escapes_only_what_would_render() {
        assert_eq!(md("<p># not a heading</p>"), "\\# not a heading");
        assert_eq!(md("<p>#hashtag and C#</p>"), "#hashtag and C#");
        assert_eq!(
            md("<p>- dash</p><p>1. one</p><p>2014. year</p>"),
            "\\- dash\n\n1\\. one\n\n2014\\. year"
        );
        assert_eq!(md("<p>&gt; quote</p>"), "\\> quote");
        assert_eq!(
            md("<p>a*b* _c_ snake_case [x] `y` &lt;div&gt; 1 &lt; 2 AT&amp;T &amp;amp; $5 US$</p>"),
            "a\\*b\\* \\_c\\_ snake_case \\[x] \\`y\\` \\<div> 1 < 2 AT&T \\&amp; \\$5 US\\$"
        );
        assert_eq!(md("<p>C:\\dir\\ and \\*</p>"), "C:\\dir\\\\ and \\\\\\*");
        assert_eq!(md("<p>a<br>---</p>"), "a  \n\\---");
        assert_eq!(md("<h2>Issue ##</h2>"), "## Issue \\##");
    }

    #[test]
    fn links_and_images_when_asked() {
        let html = "<p>See <a href=\"../x(1).html\">the <b>docs</b></a> and <a href=\"javascript:go()\">this</a> <img alt=\"a cat\" src=c.png>.</p>";
        assert_eq!(md(html), "See the docs and this .");
        let options = MarkdownOptions {
            links: true,
            images: true,
        };
        assert_eq!(
            render_with(html, options, true).0,
            "See [the docs](https://example.com/x%281%29.html) and this a cat ."
        );
        let brackets = "<p><a href=\"https://a.org/\">[1] ref</a></p>";
        assert_eq!(
            render_with(brackets, options, true).0,
            "[\\[1\\] ref](https://a.org/)"
        );
    }

    #[test]
    fn text_paragraphs_map_to_markdown() {
        let html = "<h2>T</h2><p>one</p><ul><li>two</li></ul><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>";
        let (mut text, mut entities) = (String::new(), String::new());
        let mut markdown = Markdown::new(MarkdownOptions::default());
        let mut sink = TextSink::with_markdown(&mut text, &mut entities, Some(&mut markdown));
        sink.append_html(html, 0, html.len(), Rules::papers(LinkRule::Keep));
        assert_eq!(text, "T\none\ntwo\na b\nc d");
        // Dropping the text's second and fourth paragraphs drops their Markdown.
        markdown.keep_paragraphs(&[false, true, false, false, true]);
        markdown.finish();
        assert_eq!(
            markdown.written(),
            "## T\n\n- two\n\n| a | b |\n| --- | --- |"
        );
    }

    /// Well-formed CommonMark is not checked here; that the renderer stays
    /// within its bounds and writes UTF-8 on any input is.
    fn assert_bounded(html: &str) {
        let (markdown, text) = render_with(
            html,
            MarkdownOptions {
                links: true,
                images: true,
            },
            true,
        );
        assert!(
            markdown.len() <= 8 * html.len() + 64,
            "{} from {}",
            markdown.len(),
            html.len()
        );
        let _ = text;
    }

    #[test]
    fn hostile_tables_stay_linear() {
        let wide = format!("<table><tr>{}</tr></table>", "<td>x".repeat(10_000));
        assert_bounded(&wide);
        assert!(md(&wide).starts_with("| x | x |"));
        let spans = format!(
            "<table>{}</table>",
            "<tr><td colspan=100000>a<td rowspan=9>b".repeat(2_000)
        );
        assert_bounded(&spans);
        let nested = "<table><tr><td>".repeat(500) + "deep";
        assert_bounded(&nested);
        let tables = "<p>p</p><table><tr><td>a<td>b<tr><td>c<td>d</table>".repeat(2_000);
        assert_bounded(&tables);
        let lists = "<ul><li>".repeat(5_000) + "deep";
        assert_bounded(&lists);
        assert_bounded(&"<pre>".repeat(1_000));
        assert_bounded(&"<math><annotation encoding=tex>".repeat(1_000));
    }

    proptest! {
        #[test]
        fn never_panics_and_text_is_unchanged(html in "(<(/?)(p|h2|ul|ol|li|table|tr|td|th|pre|code|blockquote|br|math|a href=x|span class=katex-html|script type=math/tex)( colspan=3)?>|[a-z#*_`|<>&; \n\t-]{1,6}){0,40}") {
            let (markdown, text) = render_with(&html, MarkdownOptions { links: true, images: true }, true);
            // The text is what it is without Markdown.
            let (mut plain, mut entities) = (String::new(), String::new());
            let mut sink = TextSink::new(&mut plain, &mut entities);
            sink.paragraph();
            sink.append_html(&html, 0, html.len(), Rules { cleaning: Cleaning::Furniture, ..Rules::papers(LinkRule::Keep) });
            prop_assert_eq!(text, plain);
            prop_assert!(markdown.len() <= 16 * html.len() + 64);
        }
    }
}
