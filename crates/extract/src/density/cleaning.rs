//! What the counting pass sets apart before counting: the papers'
//! pre-processing, or crawlsift's, which also marks the page furniture.
//!
//! The papers remove scripts, styles and comments before counting (the
//! dropped elements of [`super::tags`]). What line densities cannot tell
//! from an article is text that is just as dense but is not the article:
//! comment threads, sidebars, "related stories", cookie banners. Pages name
//! these parts in their markup: `<nav>`, `<aside>`, `<footer>`, and elements
//! whose `class`, `id` or `role` names a furniture word. Under
//! [`Cleaning::Furniture`](super::Cleaning::Furniture) the counting pass puts them on lines of their
//! own, marked [`super::Line::furniture`], and AdDANAg+ values them as
//! markup only. They are marked rather than removed because class names
//! mislead now and then (a whole article inside `and-w-sidebar`); the
//! algorithm can then still read the page without the marks. Tracking them
//! is a small state machine over the tags the pass parses anyway
//! ([`Tracker`]): no lookahead, no DOM, linear in the page.

use super::kernel::{Baseline, Vector, V128};
use super::names::{self, Key, Table, WINDOW};
use super::tags::{Block, Markup, Tag, TagClass};

/// How surely markup names furniture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cue {
    /// Hidden elements (`hidden`, `display: none`, `visibility: hidden`):
    /// as sure as [`Cue::Weak`], told apart because a browser lays none of
    /// their markup out (AdDANAg+ charges none for a hidden `<span>` inside
    /// a paragraph, such as the MathML beside a formula's image).
    Hidden,
    /// Other names (`sidebar`, `share`, `related`, …, and `<aside>`):
    /// now and then a layout wraps the article in one.
    Weak,
    /// `<nav>`, `<footer>`, navigation roles and gallery captions: hardly
    /// ever wrap an article.
    Strong,
    /// Comment threads (`comment`, `respond`, `disqus`, …): as sure as
    /// [`Cue::Strong`], told apart because on a forum the posts are the
    /// content.
    Comments,
}

/// The furniture element the pass is inside (which element, its nesting depth and
/// cue), how many `<main>` and `<article>` elements it is inside, and how
/// many outermost `<article>` elements it has seen.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tracker {
    open: Option<Open>,
    /// How many furniture elements it has opened (wrapping).
    opened: u32,
    main: u32,
    article: u32,
    articles: u32,
}

#[derive(Clone, Copy, Debug)]
struct Open {
    /// The element's name ([`Markup::Element::name`]).
    name: u64,
    depth: u32,
    cue: Cue,
    ends: Ends,
}

/// How the end of a furniture element is found. HTML ends some elements
/// without their end tag; a hidden `<p>` or `<li>` that waited for its own
/// would hide the rest of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ends {
    /// At the end tag that pairs with its start tag (same-name tags nest).
    Nested,
    /// `<p>`: at the next block tag, opening or closing.
    AtBlock,
    /// `<li>`, `<dt>`, `<dd>`, `<option>`, rows and cells: at the next tag
    /// of the same name or the next closing block tag.
    AtSibling,
}

impl Ends {
    fn of(name: u64) -> Ends {
        const SIBLINGS: [u64; 9] = [
            key(b"li"),
            key(b"dt"),
            key(b"dd"),
            key(b"option"),
            key(b"tr"),
            key(b"td"),
            key(b"th"),
            key(b"thead"),
            key(b"tbody"),
        ];
        if name == key(b"p") {
            Ends::AtBlock
        } else if SIBLINGS.contains(&name) {
            Ends::AtSibling
        } else {
            Ends::Nested
        }
    }
}

/// The [`Markup::Element::name`] of the element `name`.
const fn key(name: &[u8]) -> u64 {
    names::fold(names::key_of(name))
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

    /// How many furniture elements it has opened so far (wrapping): tells
    /// apart a tag that ends furniture and opens the next (`<li hidden>`
    /// after `<li hidden>`) from one inside it.
    pub fn opened(&self) -> u32 {
        self.opened
    }

    /// How many outermost `<article>` elements the page had so far.
    pub fn articles(&self) -> u32 {
        self.articles
    }

    /// Follows one tag (`tag` parsed at `html[at]`). Unclosed furniture runs
    /// to the end of the page, as in an HTML parser's tree. Always inlined:
    /// it has two callers (the counting pass and [`super::nested`]'s walk),
    /// and left to the compiler it is not inlined into the pass, which made
    /// that walk cost more than twice as much.
    ///
    /// `memo`, when given, remembers the cues of the page's container tags
    /// ([`CueMemo`]); it must have been started on this page.
    #[inline(always)]
    pub fn on_tag(&mut self, html: &[u8], at: usize, tag: &Tag, memo: Option<&mut CueMemo>) {
        let Markup::Element {
            class,
            name,
            closing,
            attrs,
        } = tag.markup
        else {
            return;
        };
        match class {
            TagClass::Block(Block::Main) => self.main = nest(self.main, closing),
            TagClass::Block(Block::Article) => {
                self.articles += u32::from(!closing && self.article == 0);
                self.article = nest(self.article, closing);
            }
            _ => {}
        }
        // The tag's bytes are looked at only on furniture boundaries.
        let bytes = || html.get(at..tag.end).unwrap_or_default();
        let self_closing = || bytes().ends_with(b"/>");
        if let Some(open) = &mut self.open {
            let block = matches!(class, TagClass::Block(_) | TagClass::Cell);
            let ended = match open.ends {
                Ends::Nested => {
                    if name == open.name {
                        if closing {
                            open.depth -= 1;
                        } else if !self_closing() {
                            open.depth += 1;
                        }
                    }
                    // Its last end tag ends it; no other tag opens furniture.
                    if open.depth == 0 {
                        self.open = None;
                    }
                    return;
                }
                Ends::AtBlock => block,
                Ends::AtSibling => name == open.name || closing && block,
            };
            if !ended {
                return;
            }
            // The tag that ended it may open furniture of its own.
            self.open = None;
        }
        if closing || self_closing() {
            return;
        }
        let cue = match class {
            TagClass::Block(Block::Other) | TagClass::Inline | TagClass::Cell if attrs => {
                hidden_cue(bytes())
            }
            TagClass::Block(Block::Other) => None,
            TagClass::Block(block) => match memo {
                Some(memo) => memo.furniture_cue(block, html, at, tag.end),
                None => furniture_cue(block, bytes()),
            },
            _ => None,
        };
        if let Some(cue) = cue {
            self.opened = self.opened.wrapping_add(1);
            self.open = Some(Open {
                name,
                depth: 1,
                cue,
                ends: Ends::of(name),
            });
        }
    }
}

/// The cue of an element that is not a container (`<p>`, `<span>`, `<li>`,
/// …): hidden ones are furniture that stays out of the text, as in a
/// browser (and in Readability). A weak cue, as for hidden containers.
fn hidden_cue(tag: &[u8]) -> Option<Cue> {
    if !may_hide(tag) {
        return None;
    }
    attributes(tag)
        .any(|(attr, value)| hides(attr, value))
        .then_some(Cue::Hidden)
}

/// Whether `tag` holds `dde` or `non` in any case, as `hidden` and `none`
/// do: most tags do not, and their attributes are not read. 16 positions a
/// step, with the two bytes after each read from shifted loads.
fn may_hide(tag: &[u8]) -> bool {
    let step = |bytes: &[u8; 18]| -> bool {
        let lower = |i: usize| V128::load(Baseline, &bytes[i..]).or_byte(0x20);
        let (v0, v1, v2) = (lower(0), lower(1), lower(2));
        let dde = v0.eq(b'd') & v1.eq(b'd') & v2.eq(b'e');
        let non = v0.eq(b'n') & v1.eq(b'o') & v2.eq(b'n');
        (dde | non).any()
    };
    let mut from = 0;
    while let Some(bytes) = tag.get(from..).and_then(|rest| rest.first_chunk::<18>()) {
        if step(bytes) {
            return true;
        }
        from += 16;
    }
    // The last 18 bytes again, overlapping what was read (a tag shorter than
    // that is padded): no copy for the tail of most tags.
    match tag.last_chunk::<18>() {
        Some(last) => step(last),
        None => step(&super::padded(tag, 0)),
    }
}

/// [`may_hide`] a byte at a time: the definition.
#[cfg(test)]
fn may_hide_scalar(tag: &[u8]) -> bool {
    tag.windows(3).any(|w| {
        let lower = [w[0] | 0x20, w[1] | 0x20, w[2] | 0x20];
        matches!(&lower, b"dde" | b"non")
    })
}

/// The nesting depth after an opening or closing tag.
fn nest(depth: u32, closing: bool) -> u32 {
    if closing {
        depth.saturating_sub(1)
    } else {
        depth.saturating_add(1)
    }
}

/// The cues of a page's container tags, by their bytes: a page repeats its
/// container tags (a listing's 40 `<div class="product-card …">`, a
/// thread's posts), and reading a tag's attributes and class names
/// (`furniture_cue`) costs about 1,300 instructions, the largest part of
/// the furniture marks. A direct-mapped table of 512 slots keyed by the
/// tag's xxh3 hash; a hit is checked byte for byte against the earlier tag
/// in the same page (a tag's cue depends on its bytes alone), so the memo
/// never changes a cue. On wcxb_dev 41 % of the container tags are
/// distinct; tags shorter than `MEMO_MIN_TAG` (24 bytes) are read at once.
#[derive(Debug, Default)]
pub struct CueMemo {
    slots: Vec<MemoSlot>,
    /// The slots of this page carry this stamp (0: none yet).
    page: u16,
}

/// 16 bytes: the table is read at random, so its size is its cost.
#[derive(Clone, Copy, Debug, Default)]
struct MemoSlot {
    /// The low bits of the tag's hash (its top bits are the slot's index).
    check: u32,
    /// Where the tag is in the page, and its length.
    start: u32,
    len: u32,
    page: u16,
    cue: Option<Cue>,
}

/// Bits of a [`CueMemo`] slot's index.
const MEMO_BITS: u32 = 9;
/// Tags shorter than this (`<div>`, `<ul class="x">`) are read without the
/// memo: hashing and comparing them costs about what reading them does.
const MEMO_MIN_TAG: usize = 24;

impl CueMemo {
    /// The bytes its table holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        crate::heap_bytes(&self.slots)
    }

    /// Starts a page: the tags remembered are those of the page before,
    /// whose offsets mean nothing in this one.
    pub fn start_page(&mut self) {
        if self.slots.is_empty() {
            self.slots = vec![MemoSlot::default(); 1 << MEMO_BITS];
        }
        self.page = self.page.wrapping_add(1);
        if self.page == 0 {
            self.slots.fill(MemoSlot::default());
            self.page = 1;
        }
    }

    /// [`furniture_cue`] of the tag `html[at..end]`, from the memo when the
    /// page had the same tag before.
    fn furniture_cue(&mut self, block: Block, html: &[u8], at: usize, end: usize) -> Option<Cue> {
        let tag = html.get(at..end).unwrap_or_default();
        if tag.len() < MEMO_MIN_TAG || self.page == 0 {
            return furniture_cue(block, tag);
        }
        let hash = xxhash_rust::xxh3::xxh3_64(tag);
        let check = hash as u32;
        let page = self.page;
        let Some(slot) = self.slots.get_mut((hash >> (64 - MEMO_BITS)) as usize) else {
            return furniture_cue(block, tag);
        };
        let earlier = slot.start as usize..slot.start as usize + slot.len as usize;
        if slot.page == page && slot.check == check && html.get(earlier) == Some(tag) {
            return slot.cue;
        }
        let cue = furniture_cue(block, tag);
        if let (Ok(start), Ok(len)) = (u32::try_from(at), u32::try_from(tag.len())) {
            *slot = MemoSlot {
                check,
                start,
                len,
                page,
                cue,
            };
        }
        cue
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
        // `<br hidden>` ends where it starts.
        Block::Main | Block::Article | Block::Other | Block::Void => return None,
    };
    for (attr, value) in attributes(tag) {
        let named = match attr {
            Attribute::Class | Attribute::Id => names_cue(value),
            Attribute::Role => ROLES
                .iter()
                .any(|r| value.eq_ignore_ascii_case(r))
                .then_some(Cue::Strong),
            Attribute::Hidden | Attribute::Style => hides(attr, value).then_some(Cue::Hidden),
        };
        cue = strongest(cue, named);
    }
    cue
}

/// The surer of two cues (either may be absent); a name that marks
/// furniture wins over hiding.
fn strongest(a: Option<Cue>, b: Option<Cue>) -> Option<Cue> {
    a.max(b)
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

/// ARIA roles of furniture: navigation, the page's footer, menus, and
/// what Readability drops besides: dialogs and complementary content.
const ROLES: &[&[u8]] = &[
    b"navigation",
    b"contentinfo",
    b"menu",
    b"menubar",
    b"dialog",
    b"alertdialog",
    b"complementary",
];

/// What one part of a class or id says (parts are separated by `-` and
/// `_`, so `comment-list` has the part `comment` but `commentary` has not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Word {
    /// A comment thread.
    Comments,
    /// The captions of a picture gallery (Readability drops `legends`
    /// outright): never the article, however much text they hold.
    Legends,
    /// Other furniture.
    Furniture,
    /// A layout, a position or a state of the element, which makes a
    /// furniture word not its name: `content-sidebar-wrap`, `under-menu`,
    /// `has-sidebar`, `modal-enabled`.
    NotAName,
}

/// The words of class/id parts that mean something, in lowercase.
const WORDS: &[(&[u8], Option<Word>)] = {
    use Word::{Comments, Furniture, Legends, NotAName};
    &[
        (b"comment", Some(Comments)),
        (b"comments", Some(Comments)),
        (b"commentlist", Some(Comments)),
        (b"respond", Some(Comments)),
        (b"disqus", Some(Comments)),
        // A product's customer reviews: the gold standards leave them out
        // as they leave out an article's comments, and like comments they
        // are read when the page is nothing else (addanag-plus's
        // `THREAD_SHARE`). The plural only: an article that is a review
        // names its body `review`.
        (b"reviews", Some(Comments)),
        (b"nav", Some(Furniture)),
        (b"navbar", Some(Furniture)),
        (b"navigation", Some(Furniture)),
        (b"menu", Some(Furniture)),
        (b"breadcrumb", Some(Furniture)),
        (b"breadcrumbs", Some(Furniture)),
        (b"sidebar", Some(Furniture)),
        (b"share", Some(Furniture)),
        (b"sharing", Some(Furniture)),
        (b"sharedaddy", Some(Furniture)),
        (b"social", Some(Furniture)),
        (b"related", Some(Furniture)),
        (b"relatedposts", Some(Furniture)),
        (b"recommended", Some(Furniture)),
        (b"outbrain", Some(Furniture)),
        (b"taboola", Some(Furniture)),
        (b"footer", Some(Furniture)),
        (b"copyright", Some(Furniture)),
        (b"ad", Some(Furniture)),
        (b"ads", Some(Furniture)),
        (b"advert", Some(Furniture)),
        (b"advertisement", Some(Furniture)),
        (b"sponsored", Some(Furniture)),
        (b"promo", Some(Furniture)),
        (b"newsletter", Some(Furniture)),
        (b"subscribe", Some(Furniture)),
        (b"toc", Some(Furniture)),
        (b"pagination", Some(Furniture)),
        (b"pager", Some(Furniture)),
        (b"search", Some(Furniture)),
        (b"login", Some(Furniture)),
        (b"signup", Some(Furniture)),
        (b"masthead", Some(Furniture)),
        (b"topbar", Some(Furniture)),
        (b"toolbar", Some(Furniture)),
        (b"tags", Some(Furniture)),
        (b"tagcloud", Some(Furniture)),
        (b"author", Some(Furniture)),
        (b"byline", Some(Furniture)),
        (b"sponsor", Some(Furniture)),
        (b"partners", Some(Furniture)),
        (b"rating", Some(Furniture)),
        (b"print", Some(Furniture)),
        (b"skip", Some(Furniture)),
        (b"cookie", Some(Furniture)),
        (b"cookies", Some(Furniture)),
        (b"consent", Some(Furniture)),
        // Legal small print under a product or an offer (footnotes of a
        // phone's claims, a fund's fees, "images simulated"): the gold
        // standards leave it out as they do a copyright line. On wcxb_dev
        // products .6253 → .6277 (iRobot `dev-4212` .82 → .93, Samsung
        // `dev-3060` .18 → .29), a service page gains (Merrill Edge
        // `dev-4654`, .65 → .79) and one whose gold keeps its disclaimer
        // loses (GEICO `dev-0112`, .98 → .90); both halves gain, no other
        // dataset loses. The plural takes another word's slot in
        // `WORD_TABLE`; `footnotes` loses a Readability test.
        (b"disclaimer", Some(Furniture)),
        (b"popup", Some(Furniture)),
        (b"modal", Some(Furniture)),
        (b"legends", Some(Legends)),
        // The text labels of an ai2html chart (Readability drops them).
        (b"ai2html", Some(Furniture)),
        (b"has", Some(NotAName)),
        (b"with", Some(NotAName)),
        (b"no", Some(NotAName)),
        (b"is", Some(NotAName)),
        (b"and", Some(NotAName)),
        (b"w", Some(NotAName)),
        (b"show", Some(NotAName)),
        (b"hide", Some(NotAName)),
        (b"enable", Some(NotAName)),
        (b"under", Some(NotAName)),
        (b"above", Some(NotAName)),
        (b"below", Some(NotAName)),
        (b"after", Some(NotAName)),
        (b"before", Some(NotAName)),
        (b"enabled", Some(NotAName)),
        (b"open", Some(NotAName)),
        (b"active", Some(NotAName)),
        (b"visible", Some(NotAName)),
        (b"fixed", Some(NotAName)),
        (b"sticky", Some(NotAName)),
        (b"l", Some(NotAName)),
        (b"layout", Some(NotAName)),
        (b"wrap", Some(NotAName)),
        (b"content", Some(NotAName)),
        (b"main", Some(NotAName)),
        (b"body", Some(NotAName)),
        (b"page", Some(NotAName)),
        (b"template", Some(NotAName)),
        (b"col", Some(NotAName)),
        (b"column", Some(NotAName)),
        (b"grid", Some(NotAName)),
    ]
};

/// [`WORDS`] by key. The multiplier gives each word a slot of its own.
static WORD_TABLE: Table<Option<Word>, 256> = Table::new(WORDS, None, 0x2902_ed0e_f5e7_4375);

/// The bytes [`names_cue`] stops at: whitespace, part separators and
/// utility-class characters.
#[cfg(test)]
static SEPARATES: [bool; 256] = super::byte_set(b" \t\n\r\x0C-_[:/.(");

/// The part `rest` starts with: its length (to the next separator or the
/// end) and its word key (0 for parts of 16 bytes or more, which are no
/// word). The end of a value reads as a space, as the window's padding.
#[inline]
fn read_part(rest: &[u8]) -> (usize, Key) {
    names::read(rest, b' ', separators)
}

/// Bit `i` set when `window[i]` is in [`SEPARATES`].
#[inline]
fn separators(window: &[u8; WINDOW]) -> u32 {
    let v = V128::load(Baseline, window);
    // Tab and LF, FF and CR, space; `-` `.` `/`; `(` `:` `[` `_`.
    let space = v.in_range(b'\t', 2) | v.in_range(0x0C, 2) | v.eq(b' ');
    let punct = v.in_range(b'-', 3) | v.eq(b'(') | v.eq(b':') | v.eq(b'[') | v.eq(b'_');
    (space | punct).mask()
}

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
    let mut from = 0;
    while from <= value.len() {
        // Only separators and utility characters matter: jump to the next,
        // reading the part before it as a word key on the way.
        let (len, key) = read_part(value.get(from..).unwrap_or_default());
        let i = from + len;
        from = i + 1;
        let b = value.get(i).copied().unwrap_or(b' ');
        let Token::Open(so_far) = token else {
            if b.is_ascii_whitespace() {
                if let Token::Done(c) = token {
                    cue = strongest(cue, c);
                }
                token = Token::Open(None);
            }
            continue;
        };
        match b {
            b'[' | b':' | b'/' | b'.' | b'(' => token = Token::Void,
            b'-' | b'_' | b' ' | b'\t' | b'\n' | b'\r' | 0x0C => {
                let read = match WORD_TABLE.get(key) {
                    Some(Word::NotAName) => Token::Void,
                    Some(Word::Comments) => Token::Open(Some(Cue::Comments)),
                    Some(Word::Legends) => Token::Open(Some(Cue::Strong)),
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

/// Whether the attribute `attr` with `value` hides its element: `hidden`,
/// or a `style` with `display: none` or `visibility: hidden`.
fn hides(attr: Attribute, value: &[u8]) -> bool {
    match attr {
        Attribute::Hidden => true,
        Attribute::Style => hiding_style(value),
        Attribute::Class | Attribute::Id | Attribute::Role => false,
    }
}

/// Whether an inline style hides the element (`display: none`,
/// `visibility: hidden`).
fn hiding_style(style: &[u8]) -> bool {
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
    let inside = tag.get(1..tag.len().saturating_sub(1)).unwrap_or_default();
    // Skip the element name.
    let name = inside
        .iter()
        .position(|b| b.is_ascii_whitespace() || *b == b'/')
        .unwrap_or(inside.len());
    super::tags::attributes(inside.get(name..).unwrap_or_default()).filter_map(|(name, value)| {
        let mut buf = [0u8; 6];
        let attr = match lowercase(name, &mut buf) {
            Some(b"class") => Attribute::Class,
            Some(b"id") => Attribute::Id,
            Some(b"role") => Attribute::Role,
            Some(b"hidden") => Attribute::Hidden,
            Some(b"style") => Attribute::Style,
            _ => return None,
        };
        Some((attr, value))
    })
}

#[cfg(test)]
mod tests;
