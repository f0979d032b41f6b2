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
//! ([`Dropper`]): no lookahead, no DOM, linear in the page.

use super::tags::{Markup, Tag, TagClass};

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

/// The furniture element the pass is inside: its name and nesting depth.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dropper {
    open: Option<Open>,
}

#[derive(Clone, Copy, Debug)]
struct Open {
    name: [u8; NAME],
    len: usize,
    depth: u32,
}

/// Furniture element names longer than this are not tracked.
const NAME: usize = 10;

impl Dropper {
    /// Whether the text at this point is inside furniture.
    pub fn dropping(&self) -> bool {
        self.open.is_some()
    }

    /// Follows one tag (`tag` parsed at `html[at]`). Unclosed furniture runs
    /// to the end of the page, as in an HTML parser's tree.
    pub fn on_tag(&mut self, cleaning: Cleaning, html: &[u8], at: usize, tag: &Tag) {
        let Markup::Element { class, closing, .. } = tag.markup else {
            return;
        };
        let bytes = html.get(at..tag.end).unwrap_or_default();
        if let Some(open) = &mut self.open {
            if element_name(bytes, closing).eq_ignore_ascii_case(open.name()) {
                if closing {
                    open.depth -= 1;
                } else if !bytes.ends_with(b"/>") {
                    open.depth += 1;
                }
                if open.depth == 0 {
                    self.open = None;
                }
            }
            return;
        }
        if closing || cleaning != Cleaning::Furniture || class != TagClass::Block {
            return;
        }
        let name = element_name(bytes, false);
        if name.len() > NAME || bytes.ends_with(b"/>") || !is_furniture(name, bytes) {
            return;
        }
        let mut open = Open {
            name: [0; NAME],
            len: name.len(),
            depth: 1,
        };
        open.name
            .iter_mut()
            .zip(name)
            .for_each(|(to, &from)| *to = from);
        self.open = Some(open);
    }
}

impl Open {
    fn name(&self) -> &[u8] {
        self.name.get(..self.len).unwrap_or_default()
    }
}

/// The element name of the tag `bytes` (which starts with `<`).
fn element_name(bytes: &[u8], closing: bool) -> &[u8] {
    let name = bytes.get(1 + usize::from(closing)..).unwrap_or_default();
    let len = name
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || b == b'-' || b == b':'))
        .unwrap_or(name.len());
    name.get(..len).unwrap_or_default()
}

/// Whether the opening tag `tag` (element `name`) is page furniture.
fn is_furniture(name: &[u8], tag: &[u8]) -> bool {
    const ELEMENTS: &[&[u8]] = &[b"nav", b"aside", b"footer"];
    const NEVER: &[&[u8]] = &[b"body", b"html", b"main", b"article"];
    if ELEMENTS.iter().any(|e| name.eq_ignore_ascii_case(e)) {
        return true;
    }
    if NEVER.iter().any(|e| name.eq_ignore_ascii_case(e)) {
        return false;
    }
    attributes(tag).any(|(attr, value)| match attr {
        Attribute::Class | Attribute::Id => value
            .split(|b| b.is_ascii_whitespace())
            .any(names_furniture),
        Attribute::Role => ROLES.iter().any(|r| value.eq_ignore_ascii_case(r)),
    })
}

/// ARIA roles of furniture.
const ROLES: &[&[u8]] = &[
    b"navigation",
    b"complementary",
    b"contentinfo",
    b"menu",
    b"menubar",
    b"dialog",
    b"alertdialog",
];

/// Words that name furniture when they are a whole part of a class or id
/// (parts are separated by `-` and `_`): `comment-list`, `share_buttons`,
/// `site-footer`, but not `commentary` or `navigator`.
const WORDS: &[&[u8]] = &[
    b"comment",
    b"comments",
    b"commentlist",
    b"respond",
    b"disqus",
    b"nav",
    b"navbar",
    b"navigation",
    b"menu",
    b"breadcrumb",
    b"breadcrumbs",
    b"sidebar",
    b"share",
    b"sharing",
    b"sharedaddy",
    b"social",
    b"related",
    b"recommended",
    b"outbrain",
    b"taboola",
    b"footer",
    b"copyright",
    b"ad",
    b"ads",
    b"advert",
    b"advertisement",
    b"sponsored",
    b"promo",
    b"newsletter",
    b"subscribe",
    b"cookie",
    b"cookies",
    b"consent",
    b"popup",
    b"modal",
];

/// Leading parts that make a class a state of the element, not its name
/// (`has-sidebar`, `with-comments`, `no-ads`).
const STATES: &[&[u8]] = &[b"has", b"with", b"no", b"is", b"show", b"hide", b"enable"];

/// Whether one class or id token names furniture.
fn names_furniture(token: &[u8]) -> bool {
    let mut parts = token
        .split(|&b| b == b'-' || b == b'_')
        .filter(|p| !p.is_empty());
    let Some(first) = parts.next() else {
        return false;
    };
    let word = |p: &[u8]| WORDS.iter().any(|w| p.eq_ignore_ascii_case(w));
    if STATES.iter().any(|s| first.eq_ignore_ascii_case(s)) {
        return false;
    }
    word(first) || parts.any(word)
}

/// The attributes [`is_furniture`] reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Attribute {
    Class,
    Id,
    Role,
}

/// The `class`, `id` and `role` attributes of an opening tag, with their
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
                    let end = body.iter().position(|&b| b == q).unwrap_or(body.len());
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
        let attr = if name.eq_ignore_ascii_case(b"class") {
            Attribute::Class
        } else if name.eq_ignore_ascii_case(b"id") {
            Attribute::Id
        } else if name.eq_ignore_ascii_case(b"role") {
            Attribute::Role
        } else {
            continue;
        };
        return Some((attr, value));
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::density::tags;

    fn furniture(tag: &str) -> bool {
        let name = element_name(tag.as_bytes(), false);
        is_furniture(name, tag.as_bytes())
    }

    #[test]
    fn class_id_and_role_name_furniture() {
        assert!(furniture("<div class=\"post comment-list\">"));
        assert!(furniture("<div id='share_buttons'>"));
        assert!(furniture("<section class=sidebar>"));
        assert!(furniture("<div role=\"navigation\" class=\"x\">"));
        assert!(furniture("<nav>"));
        assert!(furniture("<FOOTER class=\"site\">"));
        assert!(!furniture("<div class=\"commentary entry-content\">"));
        assert!(!furniture(
            "<div class=\"layout has-sidebar with-comments\">"
        ));
        assert!(!furniture("<article class=\"comment\">"));
        assert!(!furniture("<div data-class=\"comment\" title='id=nav'>"));
        assert!(!furniture("<div class>"));
    }

    fn kept(html: &str) -> String {
        let bytes = html.as_bytes();
        let mut dropper = Dropper::default();
        let (mut out, mut pos) = (String::new(), 0);
        while let Some(lt) = bytes.get(pos..).and_then(|b| memchr::memchr(b'<', b)) {
            if !dropper.dropping() {
                out.push_str(html.get(pos..pos + lt).unwrap_or_default());
            }
            let tag = tags::parse(bytes, pos + lt, Cleaning::Furniture).expect("markup");
            dropper.on_tag(Cleaning::Furniture, bytes, pos + lt, &tag);
            pos = tag.end;
        }
        if !dropper.dropping() {
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
