//! Recognising tags at a `<`: their end, their name class and the elements
//! whose contents never count (scripts, styles, comments, …).
//!
//! Both the counting pass ([`super::scan`]) and the text-out pass
//! ([`super::text`]) call [`parse`], so the two always agree on what is markup.
//! The parser looks only at the few bytes after `<` and then jumps to the
//! closing `>` with a vector search, over quoted attribute values as
//! browsers do: a `>` inside one (`data-playlist="[{&quot;html&quot;:…<p>…"`)
//! would otherwise turn the rest of the value into page text.

use super::kernel::{Baseline, Isa, Kernels, Task, Vector, V128};
use super::names::{self, Key, Table, WINDOW};
use super::Cleaning;
use memchr::{memchr, memchr2, memchr3, memmem::Finder};
use std::sync::LazyLock;

/// The largest page the counting pass (and every walk of the tags) handles;
/// bytes past it are ignored (offsets are `u32` to keep the line array and
/// the landmarks compact). Records are capped far below this by the WARC
/// reader.
pub const MAX_PAGE: usize = u32::MAX as usize;

/// Searchers for the ends of comments and dropped elements, built once:
/// building a `memmem` searcher costs more than most searches here.
static COMMENT_END: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"-->"));
static CLOSING_TAG: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"</"));
static ESCAPE_START: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"<!--"));

/// What a tag means for line densities and for text out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagClass {
    /// Block-level element: a virtual line boundary and a paragraph break.
    Block(Block),
    /// Table cell: a virtual line boundary, a space in the text.
    Cell,
    /// `<a>`: the hyperlink the link rules (Filters 1–3) act on.
    Anchor,
    /// An element whose whole content is dropped: script, style, noscript,
    /// template, svg, math, iframe, object, select, textarea, button, title.
    /// `title` is kept apart by the caller.
    Skip(SkipKind),
    /// Any other element (inline markup): code, no boundary.
    Inline,
    /// An element that has no content (`img`, `input`, `meta`, …): code, no
    /// boundary, and never opens furniture.
    Void,
}

/// Which block element a [`TagClass::Block`] tag is, as far as the
/// furniture cues ([`super::cleaning`]) tell them apart: named once here, so
/// the counting pass never matches a tag name twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    /// `<main>`.
    Main,
    /// `<article>`.
    Article,
    /// `<nav>`.
    Nav,
    /// `<footer>`.
    Footer,
    /// `<aside>`.
    Aside,
    /// `<div>`.
    Div,
    /// `<section>`.
    Section,
    /// `<ul>`.
    Ul,
    /// `<ol>`.
    Ol,
    /// `<dl>`.
    Dl,
    /// `<table>`.
    Table,
    /// `<form>`.
    Form,
    /// `<header>`.
    Header,
    /// `<menu>`.
    Menu,
    /// `<details>`.
    Details,
    /// `<dialog>`.
    Dialog,
    /// Every other block element (`p`, `li`, `h1`, `body`, …).
    Other,
    /// A block element without content (`br`, `hr`, `frame`): a line
    /// boundary that never opens furniture.
    Void,
}

/// Which dropped element a [`TagClass::Skip`] tag opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipKind {
    /// `<script>` / `<style>`: raw text; unclosed ones run to the end of the
    /// page, as in browsers.
    RawText,
    /// `<title>`: dropped from the body, extracted as the page title.
    Title,
    /// `<noscript>`: dropped by the papers' cleaning, read as markup by
    /// [`Cleaning::Furniture`] unless it holds escaped markup.
    NoScript,
    /// `<math>`: dropped by the papers' cleaning, read as markup by
    /// [`Cleaning::Furniture`] (formulas are part of the text).
    Math,
    /// Other elements whose content is not main text; when unclosed, only the
    /// tag itself is dropped.
    Other,
}

/// One piece of markup starting at a `<`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag {
    /// Byte offset one past the markup (past `>`, or past the whole dropped
    /// element for [`Markup::Dropped`]).
    pub end: usize,
    /// What the markup is.
    pub markup: Markup,
}

/// The kinds of markup [`parse`] recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Markup {
    /// An element tag. `attrs` is whether anything follows the name;
    /// `name` is a key of the element name (its bytes in ASCII lowercase,
    /// folded to 64 bits; 0 for names of 16 bytes or more), to pair opening
    /// and closing tags.
    Element {
        /// What the tag means for line densities and text out.
        class: TagClass,
        /// The key of the element name.
        name: u64,
        /// Whether it is a closing tag (`</name>`).
        closing: bool,
        /// Whether anything but `>` follows the name (false for closing tags).
        attrs: bool,
    },
    /// A comment, doctype, processing instruction, or a whole dropped
    /// element (script, style, …) including its closing tag. Counts as
    /// nothing: the papers remove these before counting.
    Dropped {
        /// For `<title>`: the byte range of its text.
        title: Option<(usize, usize)>,
    },
}

/// What the walks over one page have found of its dropped elements that
/// never close (an `<svg>` or `<button>` without its end tag is dropped
/// alone, [`SkipKind::Other`]): for each such name, a position after
/// which the page holds no end tag of it. Without it, every unclosed
/// element of a page full of them would search the rest of the page
/// again: quadratic in the page. A pass over a page keeps one for the
/// whole pass and hands it to every [`parse_in`]; it must not be used
/// with another page ([`Unclosed::for_page`] tells).
#[derive(Clone, Copy, Debug, Default)]
pub struct Unclosed {
    /// The page it was made for: its address and length.
    page: (usize, usize),
    /// Each name's key and the earliest position from which its end tag
    /// was sought in vain.
    names: [(Key, usize); UNCLOSED_NAMES],
    len: usize,
}

/// How many names an [`Unclosed`] remembers: more than the dropped
/// elements there are (the others are searched each time, as before).
const UNCLOSED_NAMES: usize = 16;

impl Unclosed {
    /// An empty memo for `html`.
    pub fn new(html: &[u8]) -> Self {
        Unclosed {
            page: (html.as_ptr() as usize, html.len()),
            ..Unclosed::default()
        }
    }

    /// This memo if it was made for `html`, else an empty one for it.
    pub fn for_page(&mut self, html: &[u8]) -> &mut Self {
        if self.page != (html.as_ptr() as usize, html.len()) {
            *self = Unclosed::new(html);
        }
        self
    }

    /// Whether the page is known to hold no end tag of `name` at or
    /// after `from`.
    fn none_after(&self, name: Key, from: usize) -> bool {
        self.names
            .get(..self.len)
            .unwrap_or_default()
            .iter()
            .any(|&(n, at)| n == name && from >= at)
    }

    /// Remembers that the page holds no end tag of `name` at or after
    /// `from`.
    fn remember(&mut self, name: Key, from: usize) {
        let known = self.names.get_mut(..self.len).unwrap_or_default();
        if let Some(entry) = known.iter_mut().find(|(n, _)| *n == name) {
            entry.1 = entry.1.min(from);
        } else if let Some(entry) = self.names.get_mut(self.len) {
            *entry = (name, from);
            self.len += 1;
        }
    }
}

/// [`parse_in`] with a memo of its own: for one tag, not a walk over a
/// page (each call may search the rest of the page).
#[cfg(test)]
pub fn parse<I: Isa>(html: &[u8], at: usize, cleaning: Cleaning, isa: I) -> Option<Tag> {
    parse_in(html, at, cleaning, isa, &mut Unclosed::new(html))
}

/// Parses the markup at `html[at]`, which must be `<`, with `isa`'s
/// kernels. Returns `None` when the `<` does not start markup (e.g.
/// `a < b`): it is then text. `unclosed` is the walk's memo of the
/// page's unclosed elements ([`Unclosed`]).
#[inline(always)]
pub fn parse_in<I: Isa>(
    html: &[u8],
    at: usize,
    cleaning: Cleaning,
    isa: I,
    unclosed: &mut Unclosed,
) -> Option<Tag> {
    let rest = html.get(at + 1..)?;
    let first = *rest.first()?;
    match first {
        b'!' => {
            let end = if rest.starts_with(b"!--") {
                // A comment ends at `-->`; an unclosed one runs to the end.
                COMMENT_END
                    .find(rest.get(3..)?)
                    .map_or(html.len(), |i| at + 4 + i + 3)
            } else {
                tag_end(html, at)
            };
            Some(Tag {
                end,
                markup: Markup::Dropped { title: None },
            })
        }
        b'?' => Some(Tag {
            end: tag_end(html, at),
            markup: Markup::Dropped { title: None },
        }),
        b'/' => {
            let name = read_name(rest.get(1..)?);
            if name.len == 0 {
                return None;
            }
            let class = classify(name.key);
            let class = if let TagClass::Skip(_) = class {
                TagClass::Inline
            } else {
                class
            };
            let markup = Markup::Element {
                class,
                name: names::fold(name.key),
                closing: true,
                attrs: false,
            };
            Some(Tag {
                end: tag_end(html, at + 2 + name.len),
                markup,
            })
        }
        c if c.is_ascii_alphabetic() => {
            let read = read_name(rest);
            let name = rest.get(..read.len)?;
            let end = open_tag_end(html, at + 1 + read.len, isa);
            let attrs = html
                .get(at + 1 + read.len..end)
                .is_some_and(|a| a.len() > 1);
            let class = classify(read.key);
            let self_closing = end >= 2 && html.get(end - 2) == Some(&b'/');
            match class {
                TagClass::Skip(kind)
                    if cleaning == Cleaning::Furniture && read_as_markup(kind, html, end) =>
                {
                    Some(Tag {
                        end,
                        markup: Markup::Element {
                            class: TagClass::Inline,
                            name: names::fold(read.key),
                            closing: false,
                            attrs,
                        },
                    })
                }
                TagClass::Skip(kind) if !self_closing => {
                    if unclosed.none_after(read.key, end) {
                        return Some(unclosed_tag(end, kind, html));
                    }
                    let tag = skip_element(html, end, name, kind, isa);
                    if tag.end == end {
                        // Never closed: none of its end tags lies further on.
                        unclosed.remember(read.key, end);
                    }
                    Some(tag)
                }
                TagClass::Skip(_) => Some(Tag {
                    end,
                    markup: Markup::Dropped { title: None },
                }),
                class => Some(Tag {
                    end,
                    markup: Markup::Element {
                        class,
                        name: names::fold(read.key),
                        closing: false,
                        attrs,
                    },
                }),
            }
        }
        _ => None,
    }
}

/// Whether [`Cleaning::Furniture`] reads the content of a `kind` element
/// whose opening tag ends at `end` as markup instead of dropping it.
fn read_as_markup(kind: SkipKind, html: &[u8], end: usize) -> bool {
    match kind {
        SkipKind::NoScript => !holds_escaped_markup(html, end),
        SkipKind::Math => true,
        SkipKind::RawText | SkipKind::Title | SkipKind::Other => false,
    }
}

/// Whether the element content starting at `from` begins with escaped
/// markup (`&lt;`), as `<noscript>` fallbacks written for scripted pages do.
fn holds_escaped_markup(html: &[u8], from: usize) -> bool {
    let content = html.get(from..).unwrap_or_default();
    content.trim_ascii_start().starts_with(b"&lt;")
}

/// One past the first `>` at or after `from` (a position inside the tag),
/// or the end of input. Most tags close right after their name (`</p>`,
/// `<li>`), which is looked at before calling `memchr`.
fn tag_end(html: &[u8], from: usize) -> usize {
    if html.get(from) == Some(&b'>') {
        return from + 1;
    }
    html.get(from..)
        .and_then(|t| memchr(b'>', t))
        .map_or(html.len(), |i| from + i + 1)
}

/// One past the `>` that ends an opening tag whose attributes start at
/// `from`, or the end of input. A `>` inside a quoted attribute value does
/// not end the tag. Almost always the first `>` does: the quotes before it
/// pair up, which the search for it tells on the way. Otherwise the tag is
/// walked value by value ([`quoted_tag_end`]).
/// Out of line (always inlining it was slower), once per
/// instruction set ([`Isa::call`]).
#[inline(always)]
fn open_tag_end<I: Isa>(html: &[u8], from: usize, isa: I) -> usize {
    /// [`open_tag_end_with`] as a task for [`Isa::call`].
    struct OpenTagEnd<'h>(&'h [u8], usize);
    impl Task for OpenTagEnd<'_> {
        type Output = usize;
        #[inline(always)]
        fn run<I: Isa>(self, isa: I) -> usize {
            open_tag_end_with(self.0, self.1, isa)
        }
    }
    isa.call(OpenTagEnd(html, from))
}

/// [`open_tag_end`] with `isa`'s kernels.
#[inline(always)]
fn open_tag_end_with<I: Isa>(html: &[u8], from: usize, isa: I) -> usize {
    if html.get(from) == Some(&b'>') {
        return from + 1;
    }
    let found = isa.first_gt(html, from);
    let (gt, paired) = found.unwrap_or_else(|| first_gt_scalar(html, from));
    if paired {
        gt.map_or(html.len(), |gt| gt + 1)
    } else {
        quoted_tag_end(html, from)
    }
}

/// The first `>` at or after `from`, and whether the quotes (`"` and `'`
/// each) before it pair up: the definition, and the vector version's
/// fallback within 32 bytes of the end of the page.
fn first_gt_scalar(html: &[u8], from: usize) -> (Option<usize>, bool) {
    let rest = html.get(from..).unwrap_or_default();
    let gt = memchr(b'>', rest);
    let before = rest.get(..gt.unwrap_or(rest.len())).unwrap_or_default();
    let count = |q: u8| before.iter().filter(|&&b| b == q).count();
    let paired = count(b'"') % 2 == 0 && count(b'\'') % 2 == 0;
    (gt.map(|i| from + i), paired)
}

/// [`open_tag_end`] by walking the values: a quote opens a value only after
/// `=`, as in HTML, and an unclosed one is taken as a stray character (the
/// first `>` after it ends the tag), so a broken tag cannot swallow the page.
fn quoted_tag_end(html: &[u8], from: usize) -> usize {
    let mut at = from;
    loop {
        let Some(i) = html.get(at..).and_then(|t| memchr3(b'>', b'"', b'\'', t)) else {
            return html.len();
        };
        let found = at + i;
        match html.get(found) {
            Some(&quote) if quote != b'>' && opens_value(html, from, found) => {
                match html.get(found + 1..).and_then(|t| memchr(quote, t)) {
                    Some(j) => at = found + 1 + j + 1,
                    None => return tag_end(html, found),
                }
            }
            Some(b'>') => return found + 1,
            _ => at = found + 1,
        }
    }
}

/// Whether the quote at `html[quote]` opens an attribute value: it follows
/// `=` (spaces between), within the attributes starting at `from`.
fn opens_value(html: &[u8], from: usize, quote: usize) -> bool {
    html.get(from..quote)
        .is_some_and(|before| before.trim_ascii_end().ends_with(b"="))
}

/// An element name: its length, and its [`names::Key`] (0 for names of
/// 16 bytes or more, which no class is given to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Name {
    len: usize,
    key: Key,
}

/// Element-name bytes: ASCII letters, digits, `-` and `:`.
#[cfg(test)]
static NAME_BYTE: [bool; 256] =
    super::byte_set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-:");

/// Reads the element name `bytes` starts with (padding with 0, which is no
/// name byte).
#[inline(always)]
fn read_name(bytes: &[u8]) -> Name {
    let (len, key) = names::read(bytes, 0, |window| !name_bytes(window));
    Name { len, key }
}

/// Bit `i` set when `window[i]` is an element-name byte: an ASCII letter
/// or digit, `:` or `-`.
#[inline]
fn name_bytes(window: &[u8; WINDOW]) -> u32 {
    let v = V128::load(Baseline, window);
    let letter = v.or_byte(0x20).in_range(b'a', 26);
    let digit_or_colon = v.in_range(b'0', 11);
    (letter | digit_or_colon | v.eq(b'-')).mask()
}

/// The element names given a class other than [`TagClass::Inline`].
const NAMES: &[(&[u8], TagClass)] = {
    use TagClass::{Anchor, Block as B, Cell, Skip, Void};
    &[
        (b"a", Anchor),
        (b"script", Skip(SkipKind::RawText)),
        (b"style", Skip(SkipKind::RawText)),
        (b"title", Skip(SkipKind::Title)),
        (b"noscript", Skip(SkipKind::NoScript)),
        (b"template", Skip(SkipKind::Other)),
        (b"svg", Skip(SkipKind::Other)),
        (b"math", Skip(SkipKind::Math)),
        (b"annotation", Skip(SkipKind::Other)),
        (b"annotation-xml", Skip(SkipKind::Other)),
        (b"iframe", Skip(SkipKind::Other)),
        (b"object", Skip(SkipKind::Other)),
        (b"select", Skip(SkipKind::Other)),
        (b"textarea", Skip(SkipKind::Other)),
        (b"button", Skip(SkipKind::Other)),
        (b"img", Void),
        (b"input", Void),
        (b"meta", Void),
        (b"link", Void),
        (b"source", Void),
        (b"wbr", Void),
        (b"embed", Void),
        (b"area", Void),
        (b"base", Void),
        (b"col", Void),
        (b"param", Void),
        (b"track", Void),
        (b"td", Cell),
        (b"th", Cell),
        (b"main", B(Block::Main)),
        (b"article", B(Block::Article)),
        (b"nav", B(Block::Nav)),
        (b"footer", B(Block::Footer)),
        (b"aside", B(Block::Aside)),
        (b"div", B(Block::Div)),
        (b"section", B(Block::Section)),
        (b"ul", B(Block::Ul)),
        (b"ol", B(Block::Ol)),
        (b"dl", B(Block::Dl)),
        (b"table", B(Block::Table)),
        (b"form", B(Block::Form)),
        (b"header", B(Block::Header)),
        (b"menu", B(Block::Menu)),
        (b"details", B(Block::Details)),
        (b"dialog", B(Block::Dialog)),
        (b"p", B(Block::Other)),
        (b"br", B(Block::Void)),
        (b"li", B(Block::Other)),
        (b"dt", B(Block::Other)),
        (b"dd", B(Block::Other)),
        (b"h1", B(Block::Other)),
        (b"h2", B(Block::Other)),
        (b"h3", B(Block::Other)),
        (b"h4", B(Block::Other)),
        (b"h5", B(Block::Other)),
        (b"h6", B(Block::Other)),
        (b"tr", B(Block::Other)),
        (b"thead", B(Block::Other)),
        (b"tbody", B(Block::Other)),
        (b"tfoot", B(Block::Other)),
        (b"caption", B(Block::Other)),
        (b"blockquote", B(Block::Other)),
        (b"pre", B(Block::Other)),
        (b"hr", B(Block::Void)),
        (b"fieldset", B(Block::Other)),
        (b"legend", B(Block::Other)),
        (b"figure", B(Block::Other)),
        (b"figcaption", B(Block::Other)),
        (b"address", B(Block::Other)),
        (b"center", B(Block::Other)),
        (b"summary", B(Block::Other)),
        (b"body", B(Block::Other)),
        (b"html", B(Block::Other)),
        (b"option", B(Block::Other)),
        (b"hgroup", B(Block::Other)),
        (b"frameset", B(Block::Other)),
        (b"frame", B(Block::Void)),
    ]
};

/// [`NAMES`] by key. The multiplier gives each name a slot of its own.
static CLASSES: Table<TagClass, 256> = Table::new(NAMES, TagClass::Inline, 0x59f0_ff4f_677f_c435);

/// Finds the end of a dropped element whose opening tag ends at `open_end`;
/// out of line, once per instruction set ([`Isa::call`]).
#[inline(always)]
fn skip_element<I: Isa>(html: &[u8], open_end: usize, name: &[u8], kind: SkipKind, isa: I) -> Tag {
    /// [`skip_element_with`] as a task for [`Isa::call`].
    struct SkipElement<'h, 'n>(&'h [u8], usize, &'n [u8], SkipKind);
    impl Task for SkipElement<'_, '_> {
        type Output = Tag;
        #[inline(always)]
        fn run<I: Isa>(self, isa: I) -> Tag {
            skip_element_with(self.0, self.1, self.2, self.3, isa)
        }
    }
    isa.call(SkipElement(html, open_end, name, kind))
}

/// [`skip_element`] with `isa`'s kernels.
#[inline(always)]
fn skip_element_with<I: Isa>(
    html: &[u8],
    open_end: usize,
    name: &[u8],
    kind: SkipKind,
    isa: I,
) -> Tag {
    let closing = if name.eq_ignore_ascii_case(b"script") {
        find_script_end(html, open_end, isa)
    } else {
        find_closing(html, open_end, name, isa)
    };
    match closing {
        Some((close_start, close_end)) => {
            let title = (kind == SkipKind::Title).then_some((open_end, close_start));
            Tag {
                end: close_end,
                markup: Markup::Dropped { title },
            }
        }
        None => unclosed_tag(open_end, kind, html),
    }
}

/// The markup of a dropped element of `kind` whose opening tag ends at
/// `open_end` and which is never closed: a script or style runs to the end
/// of the page, as in browsers; an unclosed `<svg>`, `<noscript>`, …
/// would swallow the page, so only its tag is dropped.
fn unclosed_tag(open_end: usize, kind: SkipKind, html: &[u8]) -> Tag {
    Tag {
        end: if kind == SkipKind::RawText {
            html.len()
        } else {
            open_end
        },
        markup: Markup::Dropped { title: None },
    }
}

/// The byte range of the first end tag `</name` at or after `from` (ASCII
/// case-insensitive), the name followed by whitespace, `/` or `>` as the
/// HTML5 tokenizer's end tag states require (`</scriptx>`, `</style-x>` and
/// a `</title` at the end of the page are text). Without escape states: the
/// end of RAWTEXT (`<style>`, `<noscript>`, `<iframe>`) and RCDATA
/// (`<title>`, `<textarea>`) elements, and of the other dropped elements.
/// Inlined into [`skip_element`]'s copy for `isa`, whose instructions its
/// kernel needs.
#[inline(always)]
fn find_closing<I: Isa>(html: &[u8], from: usize, name: &[u8], isa: I) -> Option<(usize, usize)> {
    let mut at = from;
    loop {
        let start = next_closing_start(html, at, isa)?;
        if is_end_tag(html, start + 2, name) {
            return Some((start, tag_end(html, start)));
        }
        at = start + 1;
    }
}

/// Whether `html[at..]` starts with `name` (ASCII case-insensitive)
/// followed by one of the bytes that end a tag name: whitespace, `/`, `>`.
/// A carriage return counts as whitespace: the tokenizer reads it as a
/// line feed.
#[inline(always)]
fn is_end_tag(html: &[u8], at: usize, name: &[u8]) -> bool {
    let Some(after) = html.get(at..) else {
        return false;
    };
    after
        .get(..name.len())
        .is_some_and(|candidate| candidate.eq_ignore_ascii_case(name))
        && after
            .get(name.len())
            .is_some_and(|&b| matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'/' | b'>'))
}

/// The byte range of the end tag of a `<script>` whose content starts at
/// `from`, by the HTML5 tokenizer's script data states: in the plain state
/// the first `</script` end tag ([`find_closing`]) closes it, but `<!--`
/// enters the *escaped* state, where `<script` (followed by whitespace, `/`
/// or `>`) enters the *double-escaped* state, in which `</script` only
/// leaves to the escaped state again; `-->` in either returns to the plain
/// state. So `<script><!-- document.write("<script>…</script>") --></script>`
/// is one element, as in browsers.
///
/// Linear: the plain state's next end tag is sought once and kept while the
/// walk stays before it, `<!--` is sought with `memmem` and the escaped
/// states step from `<` or `>` to the next with `memchr2`.
#[inline(always)]
fn find_script_end<I: Isa>(html: &[u8], from: usize, isa: I) -> Option<(usize, usize)> {
    let mut at = from;
    let mut closing = find_closing(html, at, b"script", isa);
    loop {
        let limit = closing.map_or(html.len(), |(start, _)| start);
        let Some(escape) = html
            .get(at..limit)
            .and_then(|plain| ESCAPE_START.find(plain))
        else {
            return closing;
        };
        match script_escaped(html, at + escape + 4)? {
            Escaped::Ends(start) => return Some((start, tag_end(html, start))),
            Escaped::Plain(back) => {
                at = back;
                if closing.is_some_and(|(start, _)| start < at) {
                    closing = find_closing(html, at, b"script", isa);
                }
            }
        }
    }
}

/// How a script's escaped text (from `<!--`) ends.
enum Escaped {
    /// With the script's end tag, starting at this offset.
    Ends(usize),
    /// With `-->`: the plain state resumes at this offset.
    Plain(usize),
}

/// Walks a script's text in the script data escaped state from `at` (just
/// past `<!--`), through the double-escaped state, to where it ends
/// ([`Escaped`]); `None` when the page ends first (the script runs to the
/// end). A `>` ends either state when the two bytes before it are `--`:
/// every `-` is read in one of the two states, the `<!--` that opened
/// them included.
fn script_escaped(html: &[u8], mut at: usize) -> Option<Escaped> {
    let mut double = false;
    loop {
        let found = at + memchr2(b'<', b'>', html.get(at..)?)?;
        if html.get(found) == Some(&b'>') {
            if html.get(found.saturating_sub(2)..found) == Some(b"--") {
                return Some(Escaped::Plain(found + 1));
            }
            at = found + 1;
            continue;
        }
        let next = html.get(found + 1).copied();
        if next == Some(b'/') && is_end_tag(html, found + 2, b"script") {
            if !double {
                return Some(Escaped::Ends(found));
            }
            // `</script` and its delimiter: back to the escaped state.
            double = false;
            at = found + 9;
        } else if !double && is_end_tag(html, found + 1, b"script") {
            // `<script` and its delimiter (a name of letters only: the
            // tokenizer's buffer stops at the first other byte).
            double = true;
            at = found + 8;
        } else {
            at = found + 1;
        }
    }
}

/// The first `</` at or after `at`.
#[inline(always)]
fn next_closing_start<I: Isa>(html: &[u8], at: usize, isa: I) -> Option<usize> {
    match isa.closing_start(html, at) {
        Ok(found) => Some(found),
        Err(past) => closing_start_memmem(html, past),
    }
}

/// [`next_closing_start`] with `memmem`.
fn closing_start_memmem(html: &[u8], at: usize) -> Option<usize> {
    CLOSING_TAG.find(html.get(at..)?).map(|i| at + i)
}

/// Classifies an element name by its [`Name::key`].
#[inline]
fn classify(key: Key) -> TagClass {
    CLASSES.get(key)
}

/// The attributes of a tag's inside (after its element name, before its
/// `>`), as (name, value) pairs; a value may be quoted or not.
pub(crate) fn attributes(mut rest: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    std::iter::from_fn(move || {
        let start = rest
            .iter()
            .position(|b| !(b.is_ascii_whitespace() || *b == b'/'))?;
        rest = rest.get(start..)?;
        let name_len = rest
            .iter()
            .position(|b| b.is_ascii_whitespace() || matches!(b, b'=' | b'/'))
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(name_len);
        let after = after.trim_ascii_start();
        let (value, tail) = match after.strip_prefix(b"=") {
            Some(v) => {
                let v = v.trim_ascii_start();
                match v.first() {
                    Some(&q @ (b'"' | b'\'')) => {
                        let body = v.get(1..).unwrap_or_default();
                        let end = memchr::memchr(q, body).unwrap_or(body.len());
                        (
                            body.get(..end).unwrap_or_default(),
                            body.get(end + 1..).unwrap_or_default(),
                        )
                    }
                    _ => {
                        let end = v
                            .iter()
                            .position(u8::is_ascii_whitespace)
                            .unwrap_or(v.len());
                        v.split_at(end)
                    }
                }
            }
            None => (&b""[..], after),
        };
        rest = tail;
        Some((name, value))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::density::kernel::{for_each_isa, Baseline};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn closing_tag_search_equals_memmem(html in "([a</ ]|</|</script|</SCRIPT>|<scripts>|[b-z]{1,40}){0,60}", from in 0usize..300) {
            let html = html.as_bytes();
            let first = html.get(from..).and_then(|hay| CLOSING_TAG.find(hay)).map(|i| from + i);
            let reference = html.get(from..).and_then(|hay| {
                CLOSING_TAG.find_iter(hay).find_map(|i| {
                    let start = from + i;
                    let after = html.get(start + 2..)?;
                    let candidate = after.get(..6)?;
                    let boundary = after.get(6).is_some_and(|&b| b"\t\n\x0c\r /><".contains(&b) && b != b'<');
                    (candidate.eq_ignore_ascii_case(b"script") && boundary).then(|| (start, tag_end(html, start)))
                })
            });
            for_each_isa!(|isa| {
                prop_assert_eq!(next_closing_start(html, from, isa), first);
                prop_assert_eq!(find_closing(html, from, b"script", isa), reference);
            });
        }

        #[test]
        fn script_end_follows_the_tokenizer_states(html in "(<!--|-->|--|-|>|<|</|<script|</script|<SCRIPT|</Script|<scripts|</scriptx|[ />\n]|[a-z]{1,3}){0,40}") {
            let html = html.as_bytes();
            let expected = script_end_by_states(html);
            for_each_isa!(|isa| {
                prop_assert_eq!(find_script_end(html, 0, isa).map(|(start, _)| start), expected);
            });
        }

        #[test]
        fn gt_search_equals_scalar(html in "[a=\"' ]{0,150}[a=>\"' ]{0,50}", from in 0usize..200) {
            let html = html.as_bytes();
            let scalar = first_gt_scalar(html, from);
            for_each_isa!(|isa| {
                if let Some(found) = isa.first_gt(html, from) {
                    prop_assert_eq!(found, scalar);
                }
                prop_assert_eq!(open_tag_end(html, from, isa), open_tag_end(html, from, Baseline));
            });
        }

        #[test]
        fn name_masks_equal_scalar(window in proptest::array::uniform16(any::<u8>())) {
            prop_assert_eq!(name_bytes(&window), names::mask_in(&window, &NAME_BYTE));
        }

        #[test]
        fn names_read_as_a_byte_loop_would(name in "[a-zA-Z0-9:-]{0,20}", rest in "[ >/=\"]{0,3}") {
            let bytes = format!("{name}{rest}");
            let read = read_name(bytes.as_bytes());
            prop_assert_eq!(read.len, name.len());
            let lower = name.to_ascii_lowercase();
            let key = if name.len() < WINDOW {
                lower.bytes().enumerate().fold(0, |key, (i, b)| key | Key::from(b) << (8 * i))
            } else {
                0
            };
            prop_assert_eq!(read.key, key);
        }
    }

    /// The start of the end tag of a script whose text is `html`, found
    /// the way the HTML5 tokenizer walks it: one byte at a time through
    /// the script data states (§13.2.5.4–5.27), named as in the standard.
    fn script_end_by_states(html: &[u8]) -> Option<usize> {
        #[derive(Clone, Copy, PartialEq)]
        enum S {
            Data,
            LessThan,
            EndTagOpen,
            EndTagName,
            EscapeStart,
            EscapeStartDash,
            Escaped,
            EscapedDash,
            EscapedDashDash,
            EscapedLessThan,
            EscapedEndTagOpen,
            EscapedEndTagName,
            DoubleEscapeStart,
            DoubleEscaped,
            DoubleEscapedDash,
            DoubleEscapedDashDash,
            DoubleEscapedLessThan,
            DoubleEscapeEnd,
        }
        let delimiter = |b: u8| matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'/' | b'>');
        let (mut state, mut buffer, mut tag_start) = (S::Data, Vec::new(), 0);
        let mut i = 0;
        while let Some(&c) = html.get(i) {
            let mut reconsume = false;
            state = match state {
                S::Data => match c {
                    b'<' => {
                        tag_start = i;
                        S::LessThan
                    }
                    _ => S::Data,
                },
                S::LessThan => match c {
                    b'/' => {
                        buffer.clear();
                        S::EndTagOpen
                    }
                    b'!' => S::EscapeStart,
                    _ => {
                        reconsume = true;
                        S::Data
                    }
                },
                S::EndTagOpen | S::EscapedEndTagOpen if c.is_ascii_alphabetic() => {
                    reconsume = true;
                    if state == S::EndTagOpen {
                        S::EndTagName
                    } else {
                        S::EscapedEndTagName
                    }
                }
                S::EndTagOpen => {
                    reconsume = true;
                    S::Data
                }
                S::EscapedEndTagOpen => {
                    reconsume = true;
                    S::Escaped
                }
                S::EndTagName | S::EscapedEndTagName => {
                    if delimiter(c) && buffer == b"script" {
                        return Some(tag_start);
                    }
                    if c.is_ascii_alphabetic() {
                        buffer.push(c.to_ascii_lowercase());
                        state
                    } else {
                        reconsume = true;
                        if state == S::EndTagName {
                            S::Data
                        } else {
                            S::Escaped
                        }
                    }
                }
                S::EscapeStart => match c {
                    b'-' => S::EscapeStartDash,
                    _ => {
                        reconsume = true;
                        S::Data
                    }
                },
                S::EscapeStartDash => match c {
                    b'-' => S::EscapedDashDash,
                    _ => {
                        reconsume = true;
                        S::Data
                    }
                },
                S::Escaped | S::EscapedDash | S::EscapedDashDash => match c {
                    b'-' if state == S::Escaped => S::EscapedDash,
                    b'-' => S::EscapedDashDash,
                    b'<' => {
                        tag_start = i;
                        S::EscapedLessThan
                    }
                    b'>' if state == S::EscapedDashDash => S::Data,
                    _ => S::Escaped,
                },
                S::EscapedLessThan => match c {
                    b'/' => {
                        buffer.clear();
                        S::EscapedEndTagOpen
                    }
                    c if c.is_ascii_alphabetic() => {
                        buffer.clear();
                        reconsume = true;
                        S::DoubleEscapeStart
                    }
                    _ => {
                        reconsume = true;
                        S::Escaped
                    }
                },
                S::DoubleEscapeStart | S::DoubleEscapeEnd => {
                    let (matched, otherwise) = if state == S::DoubleEscapeStart {
                        (S::DoubleEscaped, S::Escaped)
                    } else {
                        (S::Escaped, S::DoubleEscaped)
                    };
                    if delimiter(c) {
                        if buffer == b"script" {
                            matched
                        } else {
                            otherwise
                        }
                    } else if c.is_ascii_alphabetic() {
                        buffer.push(c.to_ascii_lowercase());
                        state
                    } else {
                        reconsume = true;
                        otherwise
                    }
                }
                S::DoubleEscaped | S::DoubleEscapedDash | S::DoubleEscapedDashDash => match c {
                    b'-' if state == S::DoubleEscaped => S::DoubleEscapedDash,
                    b'-' => S::DoubleEscapedDashDash,
                    b'<' => S::DoubleEscapedLessThan,
                    b'>' if state == S::DoubleEscapedDashDash => S::Data,
                    _ => S::DoubleEscaped,
                },
                S::DoubleEscapedLessThan => match c {
                    b'/' => {
                        buffer.clear();
                        S::DoubleEscapeEnd
                    }
                    _ => {
                        reconsume = true;
                        S::DoubleEscaped
                    }
                },
            };
            if !reconsume {
                i += 1;
            }
        }
        None
    }

    /// The text after the script element that starts `html`.
    fn after_script(html: &[u8]) -> &str {
        let end = parse(html, 0, Cleaning::Furniture, Baseline).map_or(0, |t| t.end);
        std::str::from_utf8(&html[end..]).unwrap_or_default()
    }

    #[test]
    fn scripts_end_as_the_html5_tokenizer_ends_them() {
        // The issue's page: escaped text holding a script tag and a string
        // with a literal end tag (the double-escaped state).
        let html =
            b"<script><!--\ndocument.write('<script src=a.js></script>');\n//--></script>after";
        assert_eq!(after_script(html), "after");
        // The end tag inside the escaped text, without `<script`, ends it.
        assert_eq!(after_script(b"<script><!-- x </script>after"), "after");
        // `-->` leaves the escaped states: a later end tag ends it.
        assert_eq!(
            after_script(b"<script><!-- <script> --> </script>after"),
            "after"
        );
        assert_eq!(
            after_script(b"<script><!--><script></script>after"),
            "after"
        );
        // Double-escaped until `</script>`, then escaped: its end tag ends it.
        assert_eq!(
            after_script(b"<script><!--<script>a</script>b</script>after"),
            "after"
        );
        // A tag name must end at whitespace, `/` or `>`.
        assert_eq!(
            after_script(b"<script>a</script-x>b</script\t>after"),
            "after"
        );
        assert_eq!(
            after_script(b"<script><!--<scripts></script>after"),
            "after"
        );
        assert_eq!(
            after_script(b"<script><!--<script\n></script/>x</SCRIPT >after"),
            "after"
        );
        // Never closed: runs to the end of the page.
        assert_eq!(after_script(b"<script><!--<script></script>x"), "");
    }

    #[test]
    fn raw_text_and_rcdata_end_at_a_whole_end_tag_without_escapes() {
        let cases: [&[u8]; 6] = [
            b"<style><!--<style></style>after",
            b"<style>a</style-x>b</stylesheet></style>after",
            b"<textarea><!--<textarea></textarea>after",
            b"<title>T</title-x></title\n>after",
            b"<noscript><!--<script></noscript>after",
            b"<template>x</templates></template/>after",
        ];
        for html in cases {
            let end = parse(html, 0, Cleaning::Papers, Baseline).map_or(0, |t| t.end);
            assert_eq!(&html[end..], b"after", "{}", String::from_utf8_lossy(html));
        }
        // The title's text stops at its end tag.
        let html = b"<title>T</title-x></title >after";
        assert_eq!(
            parse(html, 0, Cleaning::Papers, Baseline).map(|t| t.markup),
            Some(Markup::Dropped {
                title: Some((7, 18))
            })
        );
    }

    #[test]
    fn every_named_element_is_found() {
        for &(name, class) in NAMES {
            assert_eq!(classify(read_name(name).key), class);
            let upper = name.to_ascii_uppercase();
            assert_eq!(classify(read_name(&upper).key), class);
        }
        assert_eq!(classify(read_name(b"span").key), TagClass::Inline);
        assert_eq!(classify(read_name(b"divx").key), TagClass::Inline);
    }

    fn element(html: &str) -> (TagClass, bool, bool, usize) {
        match parse(html.as_bytes(), 0, Cleaning::Papers, Baseline) {
            Some(Tag {
                end,
                markup:
                    Markup::Element {
                        class,
                        closing,
                        attrs,
                        ..
                    },
            }) => (class, closing, attrs, end),
            other => panic!("not an element: {other:?}"),
        }
    }

    #[test]
    fn start_and_end_tags_pair_by_name_in_any_case() {
        let name = |html: &str| match parse(html.as_bytes(), 0, Cleaning::Papers, Baseline) {
            Some(Tag {
                markup: Markup::Element { name, .. },
                ..
            }) => name,
            other => panic!("not an element: {other:?}"),
        };
        assert_eq!(name("<Span class=x>"), name("</SPAN>"));
        assert_eq!(name("<my-widget a=b>"), name("</my-widget >"));
        assert_ne!(name("<span>"), name("</spa>"));
    }

    #[test]
    fn classifies_elements_case_insensitively() {
        assert_eq!(
            element("<P class=x>text"),
            (TagClass::Block(Block::Other), false, true, 11)
        );
        assert_eq!(
            element("</Div>"),
            (TagClass::Block(Block::Div), true, false, 6)
        );
        assert_eq!(element("<a>"), (TagClass::Anchor, false, false, 3));
        assert_eq!(element("<a href='x'>"), (TagClass::Anchor, false, true, 12));
        assert_eq!(element("<td>"), (TagClass::Cell, false, false, 4));
        assert_eq!(element("<span>"), (TagClass::Inline, false, false, 6));
    }

    #[test]
    fn a_gt_inside_a_quoted_value_does_not_end_the_tag() {
        let end = |html: &str| element(html).3;
        // The JSON of a video player, with markup in it.
        let tag = "<div data-list=\"[{&quot;d&quot;:&quot;<p>x<\\/p>&quot;}]\" id='a>b'>";
        assert_eq!(end(&format!("{tag}text")), tag.len());
        // An apostrophe in a double-quoted value: the quotes do not pair up.
        assert_eq!(end("<img alt=\"it's > 3\" src=x>text"), 26);
        // A quote not after `=` opens nothing; an unclosed one is a stray
        // character: neither swallows what follows.
        assert_eq!(end("<a b\"c>d\">text"), 7);
        assert_eq!(end("<a href=\"x>text</a> and more"), 11);
        // Longer than a vector chunk, and within 32 bytes of the end.
        let long = format!("<p title=\"{}>{}\">", "a".repeat(40), "b".repeat(20));
        assert_eq!(end(&long), long.len());
        assert_eq!(end("<p t=\"a>b\">"), 11);
    }

    #[test]
    fn text_lt_is_not_markup() {
        assert_eq!(parse(b"< b", 0, Cleaning::Papers, Baseline), None);
        assert_eq!(parse(b"<", 0, Cleaning::Papers, Baseline), None);
        assert_eq!(parse(b"</ x", 0, Cleaning::Papers, Baseline), None);
    }

    #[test]
    fn drops_scripts_comments_and_finds_title() {
        let html = b"<script>if (a</b) x='</scriptx>'</SCRIPT>after";
        assert_eq!(
            parse(html, 0, Cleaning::Papers, Baseline),
            Some(Tag {
                end: 41,
                markup: Markup::Dropped { title: None }
            })
        );
        let html = b"<!-- a <p> -->x";
        assert_eq!(
            parse(html, 0, Cleaning::Papers, Baseline),
            Some(Tag {
                end: 14,
                markup: Markup::Dropped { title: None }
            })
        );
        let html = b"<title>T &amp; U</title>rest";
        let title = Some((7, 16));
        assert_eq!(
            parse(html, 0, Cleaning::Papers, Baseline),
            Some(Tag {
                end: 24,
                markup: Markup::Dropped { title }
            })
        );
    }

    #[test]
    fn math_is_dropped_by_the_papers_cleaning_only() {
        let html = b"<math><mi>x</mi><mo>=</mo><mn>2</mn></math> after";
        assert_eq!(
            parse(html, 0, Cleaning::Papers, Baseline).map(|t| t.end),
            Some(43)
        );
        assert_eq!(
            parse(html, 0, Cleaning::Furniture, Baseline).map(|t| t.markup),
            Some(Markup::Element {
                class: TagClass::Inline,
                name: names::fold(read_name(b"math").key),
                closing: false,
                attrs: false
            })
        );
        // Its TeX annotation is never shown.
        let tex = b"<annotation encoding=\"application/x-tex\">x=2</annotation>y";
        assert_eq!(
            parse(tex, 0, Cleaning::Furniture, Baseline),
            Some(Tag {
                end: tex.len() - 1,
                markup: Markup::Dropped { title: None }
            })
        );
    }

    #[test]
    fn unclosed_elements_are_bounded() {
        // An unclosed script runs to the end, as in browsers.
        assert_eq!(
            parse(b"<script>x", 0, Cleaning::Papers, Baseline).map(|t| t.end),
            Some(9)
        );
        // An unclosed svg drops only its tag.
        assert_eq!(
            parse(b"<svg>x<p>y", 0, Cleaning::Papers, Baseline).map(|t| t.end),
            Some(5)
        );
        // An unclosed comment runs to the end.
        assert_eq!(
            parse(b"<!-- x", 0, Cleaning::Papers, Baseline).map(|t| t.end),
            Some(6)
        );
        // A tag without `>` runs to the end.
        assert_eq!(
            parse(b"<p class", 0, Cleaning::Papers, Baseline).map(|t| t.end),
            Some(8)
        );
    }
}
