//! Recognising tags at a `<`: their end, their name class and the elements
//! whose contents never count (scripts, styles, comments, …).
//!
//! Both the counting pass ([`super::scan`]) and the text-out pass
//! ([`super::text`]) call [`parse`], so the two always agree on what is markup.
//! The parser looks only at the few bytes after `<` and then jumps to the
//! closing `>` with `memchr`; it does not honour `>` inside quoted attribute
//! values (rare in practice, and a mis-split only moves a few bytes between
//! the content and code columns).

use super::cleaning::Cleaning;
use memchr::{memchr, memmem::Finder};
use std::sync::LazyLock;

/// Searchers for the ends of comments and dropped elements, built once:
/// building a `memmem` searcher costs more than most searches here.
static COMMENT_END: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"-->"));
static CLOSING_TAG: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"</"));

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
}

/// Which block element a [`TagClass::Block`] tag is, as far as the
/// furniture cues ([`super::cleaning`]) tell them apart: named once here, so
/// the counting pass never matches a tag name twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    Main,
    Article,
    Nav,
    Footer,
    Aside,
    Div,
    Section,
    Ul,
    Ol,
    Dl,
    Table,
    Form,
    Header,
    Menu,
    Details,
    Dialog,
    /// Every other block element (`p`, `li`, `h1`, `body`, …).
    Other,
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
    pub markup: Markup,
}

/// The kinds of markup [`parse`] recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Markup {
    /// An element tag. `attrs` is whether anything follows the name.
    Element {
        class: TagClass,
        closing: bool,
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

/// The longest tag name worth classifying; longer names are inline markup.
const MAX_NAME: usize = 10;

/// Parses the markup at `html[at]`, which must be `<`. Returns `None` when
/// the `<` does not start markup (e.g. `a < b`): it is then text.
pub fn parse(html: &[u8], at: usize, cleaning: Cleaning) -> Option<Tag> {
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
            let name_len = name_len(rest.get(1..)?);
            if name_len == 0 {
                return None;
            }
            let class = classify(rest.get(1..1 + name_len)?);
            let class = if let TagClass::Skip(_) = class {
                TagClass::Inline
            } else {
                class
            };
            let markup = Markup::Element {
                class,
                closing: true,
                attrs: false,
            };
            Some(Tag {
                end: tag_end(html, at + 2 + name_len),
                markup,
            })
        }
        c if c.is_ascii_alphabetic() => {
            let name_len = name_len(rest);
            let name = rest.get(..name_len)?;
            let end = tag_end(html, at + 1 + name_len);
            let attrs = html
                .get(at + 1 + name_len..end)
                .is_some_and(|a| a.len() > 1);
            let class = classify(name);
            let self_closing = end >= 2 && html.get(end - 2) == Some(&b'/');
            match class {
                TagClass::Skip(SkipKind::NoScript)
                    if cleaning == Cleaning::Furniture && !holds_escaped_markup(html, end) =>
                {
                    Some(Tag {
                        end,
                        markup: Markup::Element {
                            class: TagClass::Inline,
                            closing: false,
                            attrs,
                        },
                    })
                }
                TagClass::Skip(kind) if !self_closing => Some(skip_element(html, end, name, kind)),
                TagClass::Skip(_) => Some(Tag {
                    end,
                    markup: Markup::Dropped { title: None },
                }),
                class => Some(Tag {
                    end,
                    markup: Markup::Element {
                        class,
                        closing: false,
                        attrs,
                    },
                }),
            }
        }
        _ => None,
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

/// The length of the element name `bytes` starts with.
pub(super) fn name_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| !is_name_byte(b))
        .unwrap_or(bytes.len())
}

/// Whether `b` can be part of an element name.
pub(super) fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b':'
}

/// `bytes` in ASCII lowercase, in `buf`; `None` when longer than `buf`
/// (no name that long is looked for). Names are matched this way, with a
/// `match` on the lowercase bytes, without allocating.
pub(super) fn lowercase<'b, const N: usize>(
    bytes: &[u8],
    buf: &'b mut [u8; N],
) -> Option<&'b [u8]> {
    let lower = buf.get_mut(..bytes.len())?;
    for (l, b) in lower.iter_mut().zip(bytes) {
        *l = b.to_ascii_lowercase();
    }
    Some(lower)
}

/// Finds the end of a dropped element whose opening tag ends at `open_end`.
fn skip_element(html: &[u8], open_end: usize, name: &[u8], kind: SkipKind) -> Tag {
    match find_closing(html, open_end, name) {
        Some((close_start, close_end)) => {
            let title = (kind == SkipKind::Title).then_some((open_end, close_start));
            Tag {
                end: close_end,
                markup: Markup::Dropped { title },
            }
        }
        None if kind == SkipKind::RawText => Tag {
            end: html.len(),
            markup: Markup::Dropped { title: None },
        },
        // An unclosed <svg>, <noscript>, … would swallow the page: drop only the tag.
        None => Tag {
            end: open_end,
            markup: Markup::Dropped { title: None },
        },
    }
}

/// The byte range of the first `</name…>` at or after `from` (ASCII
/// case-insensitive).
fn find_closing(html: &[u8], from: usize, name: &[u8]) -> Option<(usize, usize)> {
    let hay = html.get(from..)?;
    CLOSING_TAG.find_iter(hay).find_map(|i| {
        let start = from + i;
        let after = html.get(start + 2..)?;
        let candidate = after.get(..name.len())?;
        let boundary = after
            .get(name.len())
            .is_none_or(|&b| !b.is_ascii_alphanumeric());
        (candidate.eq_ignore_ascii_case(name) && boundary).then(|| (start, tag_end(html, start)))
    })
}

/// Classifies a tag name (any case).
pub fn classify(name: &[u8]) -> TagClass {
    let mut buf = [0u8; MAX_NAME];
    let Some(lower) = lowercase(name, &mut buf) else {
        return TagClass::Inline;
    };
    match lower {
        b"a" => TagClass::Anchor,
        b"script" | b"style" => TagClass::Skip(SkipKind::RawText),
        b"title" => TagClass::Skip(SkipKind::Title),
        b"noscript" => TagClass::Skip(SkipKind::NoScript),
        b"template" | b"svg" | b"math" | b"iframe" | b"object" | b"select" | b"textarea"
        | b"button" => TagClass::Skip(SkipKind::Other),
        b"td" | b"th" => TagClass::Cell,
        b"main" => TagClass::Block(Block::Main),
        b"article" => TagClass::Block(Block::Article),
        b"nav" => TagClass::Block(Block::Nav),
        b"footer" => TagClass::Block(Block::Footer),
        b"aside" => TagClass::Block(Block::Aside),
        b"div" => TagClass::Block(Block::Div),
        b"section" => TagClass::Block(Block::Section),
        b"ul" => TagClass::Block(Block::Ul),
        b"ol" => TagClass::Block(Block::Ol),
        b"dl" => TagClass::Block(Block::Dl),
        b"table" => TagClass::Block(Block::Table),
        b"form" => TagClass::Block(Block::Form),
        b"header" => TagClass::Block(Block::Header),
        b"menu" => TagClass::Block(Block::Menu),
        b"details" => TagClass::Block(Block::Details),
        b"dialog" => TagClass::Block(Block::Dialog),
        b"p" | b"br" | b"li" | b"dt" | b"dd" | b"h1" | b"h2" | b"h3" | b"h4" | b"h5" | b"h6"
        | b"tr" | b"thead" | b"tbody" | b"tfoot" | b"caption" | b"blockquote" | b"pre" | b"hr"
        | b"fieldset" | b"legend" | b"figure" | b"figcaption" | b"address" | b"center"
        | b"summary" | b"body" | b"html" | b"option" | b"hgroup" | b"frameset" | b"frame" => {
            TagClass::Block(Block::Other)
        }
        _ => TagClass::Inline,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(html: &str) -> (TagClass, bool, bool, usize) {
        match parse(html.as_bytes(), 0, Cleaning::Papers) {
            Some(Tag {
                end,
                markup:
                    Markup::Element {
                        class,
                        closing,
                        attrs,
                    },
            }) => (class, closing, attrs, end),
            other => panic!("not an element: {other:?}"),
        }
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
    fn text_lt_is_not_markup() {
        assert_eq!(parse(b"< b", 0, Cleaning::Papers), None);
        assert_eq!(parse(b"<", 0, Cleaning::Papers), None);
        assert_eq!(parse(b"</ x", 0, Cleaning::Papers), None);
    }

    #[test]
    fn drops_scripts_comments_and_finds_title() {
        let html = b"<script>if (a</b) x='</scriptx>'</SCRIPT>after";
        assert_eq!(
            parse(html, 0, Cleaning::Papers),
            Some(Tag {
                end: 41,
                markup: Markup::Dropped { title: None }
            })
        );
        let html = b"<!-- a <p> -->x";
        assert_eq!(
            parse(html, 0, Cleaning::Papers),
            Some(Tag {
                end: 14,
                markup: Markup::Dropped { title: None }
            })
        );
        let html = b"<title>T &amp; U</title>rest";
        let title = Some((7, 16));
        assert_eq!(
            parse(html, 0, Cleaning::Papers),
            Some(Tag {
                end: 24,
                markup: Markup::Dropped { title }
            })
        );
    }

    #[test]
    fn unclosed_elements_are_bounded() {
        // An unclosed script runs to the end, as in browsers.
        assert_eq!(
            parse(b"<script>x", 0, Cleaning::Papers).map(|t| t.end),
            Some(9)
        );
        // An unclosed svg drops only its tag.
        assert_eq!(
            parse(b"<svg>x<p>y", 0, Cleaning::Papers).map(|t| t.end),
            Some(5)
        );
        // An unclosed comment runs to the end.
        assert_eq!(
            parse(b"<!-- x", 0, Cleaning::Papers).map(|t| t.end),
            Some(6)
        );
        // A tag without `>` runs to the end.
        assert_eq!(
            parse(b"<p class", 0, Cleaning::Papers).map(|t| t.end),
            Some(8)
        );
    }
}
