//! What the counting pass sets apart before counting: the papers'
//! pre-processing, or dana's, which also marks the page furniture.
//!
//! The papers remove scripts, styles and comments before counting (the
//! dropped elements of [`super::tags`]). What line densities cannot tell
//! from an article is text that is just as dense but is not the article:
//! comment threads, sidebars, "related stories", cookie banners. Pages name
//! these parts in their markup: `<nav>`, `<aside>`, `<footer>`, and elements
//! whose `class`, `id` or `role` names a furniture word. Under
//! [`Cleaning::Furniture`] the counting pass puts them on lines of their
//! own, marked [`super::Line::furniture`], and AdDANAg+ values them as
//! markup only. They are marked rather than removed because class names
//! mislead now and then (a whole article inside `and-w-sidebar`); the
//! algorithm can then still read the page without the marks. Tracking them
//! is a small state machine over the tags the pass parses anyway
//! ([`Tracker`]): no lookahead, no DOM, linear in the page.

use super::tags::{Block, Markup, Tag, TagClass};

/// What is removed before counting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Cleaning {
    /// The papers' pre-processing: scripts, styles, comments and the other
    /// non-text elements ([`TagClass::Skip`]).
    #[default]
    Papers,
    /// Also marks the page furniture: `<nav>`, `<aside>`, `<footer>` and
    /// elements named as furniture by `class`/`id`/`role`. `<noscript>` is
    /// read as markup (forum software serves the whole page text there)
    /// unless it holds escaped markup.
    Furniture,
}

/// How surely markup names furniture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cue {
    /// `<nav>`, `<footer>`, navigation roles and comment threads: hardly ever
    /// wrap an article.
    Strong,
    /// Other names (`sidebar`, `share`, `related`, …, and `<aside>`) and
    /// hidden elements: now and then a layout wraps the article in one.
    Weak,
}

/// The furniture element the pass is inside (which element, its nesting depth and
/// cue), how many `<main>` and `<article>` elements it is inside, and how
/// many outermost `<article>` elements it has seen.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tracker {
    open: Option<Open>,
    main: u32,
    article: u32,
    articles: u32,
}

#[derive(Clone, Copy, Debug)]
struct Open {
    block: Block,
    depth: u32,
    cue: Cue,
}

impl Tracker {
    /// The cue of the furniture the text at this point is inside, if any.
    pub fn furniture(&self) -> Option<Cue> {
        self.open.map(|open| open.cue)
    }

    /// Whether the text at this point is inside `<main>`: when a page has
    /// one, what lies outside it is furniture too (a weak cue).
    pub fn in_main(&self) -> bool {
        self.main > 0
    }

    /// Whether the text at this point is inside `<article>`: when a page has
    /// exactly one (not a list of article cards), what lies outside it is
    /// furniture too (a weak cue).
    pub fn in_article(&self) -> bool {
        self.article > 0
    }

    /// How many outermost `<article>` elements the page had so far.
    pub fn articles(&self) -> u32 {
        self.articles
    }

    /// Follows one tag (`tag` parsed at `html[at]`). Unclosed furniture runs
    /// to the end of the page, as in an HTML parser's tree.
    #[inline]
    pub fn on_tag(&mut self, html: &[u8], at: usize, tag: &Tag) {
        // Furniture, `<main>` and `<article>` are block elements: other tags
        // neither open nor close them.
        let Markup::Element {
            class: TagClass::Block(block),
            closing,
            ..
        } = tag.markup
        else {
            return;
        };
        match block {
            Block::Main => self.main = nest(self.main, closing),
            Block::Article => {
                self.articles += u32::from(!closing && self.article == 0);
                self.article = nest(self.article, closing);
            }
            _ => {}
        }
        // The tag's bytes are looked at only on furniture boundaries.
        let bytes = || html.get(at..tag.end).unwrap_or_default();
        let self_closing = || bytes().ends_with(b"/>");
        if let Some(open) = &mut self.open {
            if block == open.block {
                if closing {
                    open.depth -= 1;
                } else if !self_closing() {
                    open.depth += 1;
                }
                if open.depth == 0 {
                    self.open = None;
                }
            }
            return;
        }
        if closing || self_closing() {
            return;
        }
        if let Some(cue) = furniture_cue(block, bytes()) {
            self.open = Some(Open {
                block,
                depth: 1,
                cue,
            });
        }
    }
}

/// The nesting depth after an opening or closing tag.
fn nest(depth: u32, closing: bool) -> u32 {
    if closing {
        depth.saturating_sub(1)
    } else {
        depth.saturating_add(1)
    }
}

/// How surely the opening tag `tag` of a `block` element names furniture,
/// if it does.
fn furniture_cue(block: Block, tag: &[u8]) -> Option<Cue> {
    // Only containers are read: a paragraph, list item or cell inside
    // furniture is already inside its container.
    let mut cue = match block {
        Block::Nav | Block::Footer => return Some(Cue::Strong),
        Block::Aside => Some(Cue::Weak),
        Block::Div
        | Block::Section
        | Block::Ul
        | Block::Ol
        | Block::Dl
        | Block::Table
        | Block::Form
        | Block::Header
        | Block::Menu
        | Block::Details
        | Block::Dialog => None,
        Block::Main | Block::Article | Block::Other => return None,
    };
    for (attr, value) in attributes(tag) {
        let named = match attr {
            Attribute::Class | Attribute::Id => names_cue(value),
            Attribute::Role => ROLES
                .iter()
                .any(|r| value.eq_ignore_ascii_case(r))
                .then_some(Cue::Strong),
            Attribute::Hidden => Some(Cue::Weak),
            Attribute::Style => hides(value).then_some(Cue::Weak),
        };
        cue = strongest(cue, named);
    }
    cue
}

/// The surer of two cues (either may be absent).
fn strongest(a: Option<Cue>, b: Option<Cue>) -> Option<Cue> {
    match (a, b) {
        (Some(Cue::Strong), _) | (_, Some(Cue::Strong)) => Some(Cue::Strong),
        (a, b) => a.or(b),
    }
}

/// `bytes` in ASCII lowercase, in `buf`; `None` when longer than `buf`
/// (no name that long is looked for). Names are matched this way, with a
/// `match` on the lowercase bytes, without allocating.
fn lowercase<'b, const N: usize>(bytes: &[u8], buf: &'b mut [u8; N]) -> Option<&'b [u8]> {
    let lower = buf.get_mut(..bytes.len())?;
    for (l, b) in lower.iter_mut().zip(bytes) {
        *l = b.to_ascii_lowercase();
    }
    Some(lower)
}

/// ARIA roles of furniture.
const ROLES: &[&[u8]] = &[b"navigation", b"contentinfo", b"menu", b"menubar"];

/// What one part of a class or id says (parts are separated by `-` and
/// `_`, so `comment-list` has the part `comment` but `commentary` has not).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Word {
    /// A comment thread.
    Comments,
    /// Other furniture.
    Furniture,
    /// A layout, a position or a state of the element, which makes a
    /// furniture word not its name: `content-sidebar-wrap`, `under-menu`,
    /// `has-sidebar`, `modal-enabled`.
    NotAName,
}

/// Classifies one class/id part (any case) with a `match` on its lowercase
/// bytes: this runs for every class of every block tag.
fn word(part: &[u8]) -> Option<Word> {
    let mut buf = [0u8; 16];
    Some(match lowercase(part, &mut buf)? {
        b"comment" | b"comments" | b"commentlist" | b"respond" | b"disqus" => Word::Comments,
        b"nav" | b"navbar" | b"navigation" | b"menu" | b"breadcrumb" | b"breadcrumbs"
        | b"sidebar" | b"share" | b"sharing" | b"sharedaddy" | b"social" | b"related"
        | b"recommended" | b"outbrain" | b"taboola" | b"footer" | b"copyright" | b"ad" | b"ads"
        | b"advert" | b"advertisement" | b"sponsored" | b"promo" | b"newsletter" | b"subscribe"
        | b"toc" | b"pagination" | b"pager" | b"search" | b"login" | b"signup" | b"masthead"
        | b"topbar" | b"toolbar" | b"tags" | b"tagcloud" | b"author" | b"byline" | b"sponsor"
        | b"partners" | b"rating" | b"print" | b"skip" | b"cookie" | b"cookies" | b"consent"
        | b"popup" | b"modal" => Word::Furniture,
        b"has" | b"with" | b"no" | b"is" | b"and" | b"w" | b"show" | b"hide" | b"enable"
        | b"under" | b"above" | b"below" | b"after" | b"before" | b"enabled" | b"open"
        | b"active" | b"visible" | b"fixed" | b"sticky" | b"l" | b"layout" | b"wrap"
        | b"content" | b"main" | b"body" | b"page" | b"template" | b"col" | b"column" | b"grid" => {
            Word::NotAName
        }
        _ => return None,
    })
}

/// The bytes [`names_cue`] stops at: whitespace, part separators and
/// utility-class characters.
static SEPARATES: [bool; 256] = super::byte_set(b" \t\n\r\x0C-_[:/.(");

/// The cue of a `class` or `id` value: the strongest of its
/// whitespace-separated tokens'. A token's cue is the strongest of its parts'
/// (split at `-` and `_`); BEM modifiers (after `--`) name nothing, and a
/// token with a layout word ([`Word::NotAName`]) or a utility-class character
/// (`h-[--nav-height]`, `md:flex`) names nothing at all. One pass over the
/// bytes: this runs for every container tag with a class or id.
fn names_cue(value: &[u8]) -> Option<Cue> {
    /// How the current token reads so far.
    #[derive(Clone, Copy, PartialEq)]
    enum Token {
        /// Parts are still read.
        Open(Option<Cue>),
        /// After `--`: the cue so far stands, the rest is not read.
        Done(Option<Cue>),
        /// The token names nothing.
        Void,
    }
    let mut cue = None;
    let mut token = Token::Open(None);
    let mut part = 0; // start of the current part
    let mut from = 0;
    while from <= value.len() {
        // Only separators and utility characters matter: jump to the next.
        let i = value
            .get(from..)
            .and_then(|rest| rest.iter().position(|&b| SEPARATES[usize::from(b)]))
            .map_or(value.len(), |at| from + at);
        from = i + 1;
        let b = value.get(i).copied().unwrap_or(b' ');
        let Token::Open(so_far) = token else {
            if b.is_ascii_whitespace() {
                if let Token::Done(c) = token {
                    cue = strongest(cue, c);
                }
                token = Token::Open(None);
                part = i + 1;
            }
            continue;
        };
        match b {
            b'[' | b':' | b'/' | b'.' | b'(' => token = Token::Void,
            b'-' | b'_' | b' ' | b'\t' | b'\n' | b'\r' | 0x0C => {
                let read = match word(value.get(part..i).unwrap_or_default()) {
                    Some(Word::NotAName) => Token::Void,
                    Some(Word::Comments) => Token::Open(Some(Cue::Strong)),
                    Some(Word::Furniture) => Token::Open(strongest(so_far, Some(Cue::Weak))),
                    None => Token::Open(so_far),
                };
                token = match read {
                    Token::Open(c) if b.is_ascii_whitespace() => {
                        cue = strongest(cue, c);
                        Token::Open(None)
                    }
                    Token::Open(c) if b == b'-' && value.get(i + 1) == Some(&b'-') => {
                        Token::Done(c)
                    }
                    Token::Void if b.is_ascii_whitespace() => Token::Open(None),
                    read => read,
                };
                part = i + 1;
            }
            _ => {}
        }
    }
    cue
}

/// The attributes [`furniture_cue`] reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Attribute {
    Class,
    Id,
    Role,
    /// `hidden`: not rendered.
    Hidden,
    Style,
}

/// Whether an inline style hides the element (`display: none`,
/// `visibility: hidden`).
fn hides(style: &[u8]) -> bool {
    let mut squeezed = [0u8; 64];
    let mut len = 0;
    let mut declarations = style.split(|&b| b == b';');
    declarations.any(|declaration| {
        // Most declarations are neither `display` nor `visibility`.
        let first = declaration.trim_ascii_start().first();
        if !first.is_some_and(|b| matches!(b.to_ascii_lowercase(), b'd' | b'v')) {
            return false;
        }
        len = 0;
        for &b in declaration.iter().filter(|b| !b.is_ascii_whitespace()) {
            if let Some(slot) = squeezed.get_mut(len) {
                *slot = b.to_ascii_lowercase();
                len += 1;
            }
        }
        matches!(
            squeezed.get(..len),
            Some(b"display:none" | b"visibility:hidden")
        )
    })
}

/// The attributes of an opening tag that can name furniture, with their
/// values (quotes removed).
fn attributes(tag: &[u8]) -> impl Iterator<Item = (Attribute, &[u8])> {
    let mut rest = tag.get(1..tag.len().saturating_sub(1)).unwrap_or_default();
    // Skip the element name.
    let name = rest
        .iter()
        .position(|b| b.is_ascii_whitespace() || *b == b'/')
        .unwrap_or(rest.len());
    rest = rest.get(name..).unwrap_or_default();
    std::iter::from_fn(move || loop {
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
        let value = if let Some(v) = after.strip_prefix(b"=") {
            let v = v.trim_ascii_start();
            let (value, tail) = match v.first() {
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
            };
            rest = tail;
            value
        } else {
            rest = after;
            &[][..]
        };
        let mut buf = [0u8; 6];
        let attr = match lowercase(name, &mut buf) {
            Some(b"class") => Attribute::Class,
            Some(b"id") => Attribute::Id,
            Some(b"role") => Attribute::Role,
            Some(b"hidden") => Attribute::Hidden,
            Some(b"style") => Attribute::Style,
            _ => continue,
        };
        return Some((attr, value));
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::density::tags;

    fn furniture(tag: &str) -> Option<Cue> {
        match tags::parse(tag.as_bytes(), 0, Cleaning::Furniture)?.markup {
            Markup::Element {
                class: TagClass::Block(block),
                ..
            } => furniture_cue(block, tag.as_bytes()),
            _ => None,
        }
    }

    #[test]
    fn class_id_and_role_name_furniture() {
        use Cue::{Strong, Weak};
        assert_eq!(furniture("<div class=\"post comment-list\">"), Some(Strong));
        assert_eq!(furniture("<div id='share_buttons'>"), Some(Weak));
        assert_eq!(
            furniture("<section class=sidebar id=comments>"),
            Some(Strong)
        );
        assert_eq!(
            furniture("<div role=\"navigation\" class=\"x\">"),
            Some(Strong)
        );
        assert_eq!(furniture("<nav>"), Some(Strong));
        assert_eq!(furniture("<aside class=\"elementor-section\">"), Some(Weak));
        assert_eq!(furniture("<FOOTER class=\"site\">"), Some(Strong));
        assert_eq!(furniture("<div hidden>"), Some(Weak));
        assert_eq!(furniture("<div class=\"author-bio\">"), Some(Weak));
        assert_eq!(
            furniture("<div style=\"color: red; Display : None\">"),
            Some(Weak)
        );
        assert_eq!(furniture("<div style=\"display:nonesuch\">"), None);
        for not in [
            "<div class=\"commentary entry-content\">",
            "<div class=\"layout has-sidebar with-comments\">",
            "<div class=\"content-sidebar-wrap under-menu modal-enabled\">",
            "<div class=\"docs--sidebar h-[--main-nav-height] md:nav nav.x\">",
            "<article class=\"comment\">",
            "<p class=\"share\">",
            "<div data-class=\"comment\" title='id=nav'>",
            "<div class>",
        ] {
            assert_eq!(furniture(not), None, "{not}");
        }
    }

    fn kept(html: &str) -> String {
        let bytes = html.as_bytes();
        let mut tracker = Tracker::default();
        let (mut out, mut pos) = (String::new(), 0);
        while let Some(lt) = bytes.get(pos..).and_then(|b| memchr::memchr(b'<', b)) {
            if tracker.furniture().is_none() {
                out.push_str(html.get(pos..pos + lt).unwrap_or_default());
            }
            let tag = tags::parse(bytes, pos + lt, Cleaning::Furniture).expect("markup");
            tracker.on_tag(bytes, pos + lt, &tag);
            pos = tag.end;
        }
        if tracker.furniture().is_none() {
            out.push_str(html.get(pos..).unwrap_or_default());
        }
        out
    }

    #[test]
    fn nested_furniture_is_tracked_whole() {
        let html = "<div>a<div class=comments>b<div>c<div/>d</div>e</div>f</div>";
        assert_eq!(kept(html), "af");
        assert_eq!(kept("<p>a<nav>b<nav>c</nav>d</nav>e</p>"), "ae");
        // Unclosed furniture runs to the end, as in a parser's tree.
        assert_eq!(kept("a<aside>b<p>c"), "a");
    }
}
