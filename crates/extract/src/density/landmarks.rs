//! The landmarks of a page: where the tags the page metadata reads are,
//! noted by the counting pass ([`super::scan`]) as it meets them, so that
//! the metadata reader ([`crate::metadata`]) reads those tags and a few
//! bounded windows around them and never searches or walks the page itself.
//!
//! The pass already recognises every tag and knows its class and name key;
//! noting one is a compare on those and, for the few tags kept, a push of
//! an offset into a vector reused from page to page. Only the opening tag
//! of a `<script>` is read further (for `ld+json`, with one short search).
//! Every list is capped, so a page of 100,000 `<meta>` tags or an `<h1>`
//! every ten bytes costs memory bounded by the caps.
//!
//! Data flows one way: the pass fills a [`Landmarks`]; the metadata reader
//! takes it as it is.

use super::kernel::Baseline;
use super::names::{fold, key_of};
use super::tags::{self, Block, Markup, TagClass};
use super::Cleaning;
use memchr::memmem::Finder;
use std::sync::LazyLock;

/// The name keys (as [`super::tags::Markup::Element`] holds them) of the
/// elements noted.
const META: u64 = fold(key_of(b"meta"));
const LINK: u64 = fold(key_of(b"link"));
const TIME: u64 = fold(key_of(b"time"));
const H1: u64 = fold(key_of(b"h1"));
const HEAD: u64 = fold(key_of(b"head"));
const BODY: u64 = fold(key_of(b"body"));

/// The most `<meta>`/`<link>` tags noted on one page.
pub const MAX_META: usize = 1024;
/// The most JSON-LD scripts noted on one page.
pub const MAX_JSON_LD: usize = 32;
/// The most `<h1>` tags noted on one page.
pub const MAX_H1: usize = 16;
/// The most `<time>` tags noted on one page.
pub const MAX_TIME: usize = 64;

/// Where the tags of one page that the metadata reads are, as byte offsets
/// into the page, in page order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Landmarks {
    /// Each `<meta>` and `<link>` tag, from its `<` to just past its `>`,
    /// at most [`MAX_META`].
    pub meta: Vec<(u32, u32)>,
    /// The content of each `<script>` whose opening tag says `ld+json`:
    /// from just past its opening tag to its end tag (or the end of the
    /// page when it has none), at most [`MAX_JSON_LD`].
    pub json_ld: Vec<(u32, u32)>,
    /// The start of each `<h1>` tag, at most [`MAX_H1`].
    pub h1: Vec<u32>,
    /// Each `<time>` tag, from its `<` to just past its `>`, at most
    /// [`MAX_TIME`].
    pub time: Vec<(u32, u32)>,
    /// Where the head ends: just past the first `</head>`, or at the first
    /// `<body>` when that comes first; `None` when the page has neither.
    pub head_end: Option<u32>,
}

/// The `ld+json` of a JSON-LD script's `type`, searched for in the opening
/// tags of scripts only.
static LD_JSON: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"ld+json"));

impl Landmarks {
    /// Empties the lists for a new page, keeping their memory.
    pub fn clear(&mut self) {
        self.meta.clear();
        self.json_ld.clear();
        self.h1.clear();
        self.time.clear();
        self.head_end = None;
    }

    /// The bytes the lists hold on the heap.
    pub fn heap_bytes(&self) -> usize {
        crate::heap_bytes(&self.meta)
            + crate::heap_bytes(&self.json_ld)
            + crate::heap_bytes(&self.h1)
            + crate::heap_bytes(&self.time)
    }

    /// Notes the element tag `html[at..end]` of `class`, whose name has the
    /// key `name`, when it is one of the landmarks: a compare or two on
    /// what the tag recogniser gives, the class first.
    #[inline(always)]
    pub(super) fn element(
        &mut self,
        class: TagClass,
        name: u64,
        closing: bool,
        at: usize,
        end: usize,
    ) {
        match class {
            TagClass::Void
                if !closing && (name == META || name == LINK) && self.meta.len() < MAX_META =>
            {
                self.meta.push((at as u32, end as u32));
            }
            TagClass::Block(Block::Other) if !closing => {
                if name == H1 {
                    if self.h1.len() < MAX_H1 {
                        self.h1.push(at as u32);
                    }
                } else if name == BODY {
                    self.head_end.get_or_insert(at as u32);
                }
            }
            TagClass::Inline if !closing && name == TIME && self.time.len() < MAX_TIME => {
                self.time.push((at as u32, end as u32));
            }
            TagClass::Inline if closing && name == HEAD => {
                self.head_end.get_or_insert(end as u32);
            }
            _ => {}
        }
    }

    /// Notes the dropped element `html[at..end]` (a comment, a script, a
    /// style, …) when it is a `<script>` whose opening tag says `ld+json`.
    #[inline]
    pub(super) fn dropped(&mut self, html: &[u8], at: usize, end: usize) {
        let is_script = html
            .get(at + 1..at + 7)
            .is_some_and(|name| name.eq_ignore_ascii_case(b"script"));
        if is_script && self.json_ld.len() < MAX_JSON_LD {
            self.script(html, at, end);
        }
    }

    /// [`Self::dropped`] for a `<script>` element: its opening tag is read
    /// for `ld+json`, and its content's end is its end tag's `<`.
    fn script(&mut self, html: &[u8], at: usize, end: usize) {
        let element = html.get(at..end).unwrap_or_default();
        let Some(open_end) = memchr::memchr(b'>', element).map(|gt| gt + 1) else {
            return;
        };
        if LD_JSON.find(&element[..open_end]).is_none() {
            return;
        }
        // A closed script ends with `</script …>`, whose `<` is the last
        // one; an unclosed one runs to the end of the page.
        let content = &element[open_end..];
        let content_end = match memchr::memrchr(b'<', content) {
            Some(lt)
                if content
                    .get(lt + 2..lt + 8)
                    .is_some_and(|n| n.eq_ignore_ascii_case(b"script"))
                    && content.get(lt + 1) == Some(&b'/') =>
            {
                lt
            }
            _ => content.len(),
        };
        self.json_ld
            .push(((at + open_end) as u32, (at + open_end + content_end) as u32));
    }
}

/// The landmarks of `html` without the counting pass, for the algorithms
/// that do not run it (the element-based ones): a walk from `<` to `<`
/// with the same tag recogniser, under [`Cleaning::Furniture`] as the
/// default algorithm's pass, so that every algorithm reads the same
/// metadata. Linear in the page, as the pass.
pub fn collect(html: &[u8], landmarks: &mut Landmarks) {
    let html = html
        .get(..html.len().min(tags::MAX_PAGE))
        .unwrap_or_default();
    landmarks.clear();
    let mut unclosed = tags::Unclosed::new(html);
    let mut pos = 0;
    while let Some(lt) = html.get(pos..).and_then(|rest| memchr::memchr(b'<', rest)) {
        pos += lt;
        match tags::parse_in(html, pos, Cleaning::Furniture, Baseline, &mut unclosed) {
            Some(tag) => {
                match tag.markup {
                    Markup::Element {
                        class,
                        name,
                        closing,
                        ..
                    } => landmarks.element(class, name, closing, pos, tag.end),
                    Markup::Dropped { .. } => landmarks.dropped(html, pos, tag.end),
                }
                pos = tag.end.max(pos + 1);
            }
            None => pos += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::density::{LinkRule, Rules, Scratch};
    use std::time::{Duration, Instant};

    /// The landmarks the counting pass notes (the default algorithm's
    /// rules), checked to be the ones [`collect`] finds.
    fn noted(html: &str) -> Landmarks {
        let mut scratch = Scratch::default();
        let rules = Rules {
            links: LinkRule::Normalise,
            cleaning: Cleaning::Furniture,
        };
        scratch.scan(html.as_bytes(), rules);
        let mut collected = Landmarks::default();
        collect(html.as_bytes(), &mut collected);
        assert_eq!(scratch.landmarks, collected);
        scratch.landmarks
    }

    /// [`noted`] on a thread of its own, failing past `seconds` (a loop
    /// that never ends, or a quadratic one, fails instead of hanging).
    fn noted_within(html: String, seconds: u64) -> Landmarks {
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = send.send(noted(&html));
        });
        receive
            .recv_timeout(Duration::from_secs(seconds))
            .expect("the landmarks are noted in time")
    }

    #[test]
    fn the_tags_the_metadata_reads() {
        let html = r#"<html><head><META name=a content=b><link rel=canonical href=/x>
            <script type="application/ld+json">{"a":"</p>"}</script><script>var ld_json;</script>
            <!-- <meta name=c> --></head><body><h1 class=t>T</h1><H1>U</H1>
            <p><time datetime="2025-01-02">Jan 2</time></p><script>x="<h1>"</script></body>"#;
        let found = noted(html);
        let at = |needle: &str| html.find(needle).unwrap_or(usize::MAX) as u32;
        let end = |needle: &str| at(needle) + needle.len() as u32;
        assert_eq!(
            found.meta,
            [
                (at("<META"), end("<META name=a content=b>")),
                (at("<link"), end("<link rel=canonical href=/x>"))
            ]
        );
        assert_eq!(found.json_ld, [(end("ld+json\">"), at("</script>"))]);
        assert_eq!(found.h1, [at("<h1 class"), at("<H1>")]);
        assert_eq!(
            found.time,
            [(at("<time"), end("<time datetime=\"2025-01-02\">"))]
        );
        assert_eq!(found.head_end, Some(end("</head>")));
        // `<body>` ends the head when it comes first; an unclosed JSON-LD
        // script runs to the end of the page.
        let html = "<meta name=a><body><script type=application/ld+json>{\"a\":";
        let found = noted(html);
        assert_eq!(found.head_end, Some(at_of(html, "<body>")));
        assert_eq!(found.json_ld, [(at_of(html, "{"), html.len() as u32)]);
    }

    fn at_of(html: &str, needle: &str) -> u32 {
        html.find(needle).unwrap_or(usize::MAX) as u32
    }

    /// Hostile shapes: linear in the page, every list within its cap, no
    /// panic.
    #[test]
    fn hostile_pages_stay_linear_and_bounded() {
        let start = Instant::now();
        // A 5 MB JSON-LD script.
        let mut page = String::from("<script type=\"application/ld+json\">[");
        while page.len() < 5 << 20 {
            page.push_str(r#"{"a":[1,2,3],"b":"<p>text</p>"},"#);
        }
        page.push_str("0]</script><h1>T</h1>");
        let found = noted_within(page.clone(), 10);
        assert_eq!(found.json_ld.len(), 1);
        assert_eq!(found.h1, [at_of(&page, "<h1>")]);
        // 100,000 `<meta>` tags, and as many JSON-LD scripts.
        let found = noted_within("<meta name=a content=b>".repeat(100_000), 10);
        assert_eq!(found.meta.len(), MAX_META);
        let found = noted_within(
            "<script type=application/ld+json>{}</script>".repeat(100_000),
            10,
        );
        assert_eq!(found.json_ld.len(), MAX_JSON_LD);
        // An `<h1>` every 10 bytes, and as many `<time>`.
        let found = noted_within("<h1>12345".repeat(500_000), 10);
        assert_eq!(found.h1.len(), MAX_H1);
        let found = noted_within("<time>1234".repeat(500_000), 10);
        assert_eq!(found.time.len(), MAX_TIME);
        // Pages ending inside a tag, a quoted value, a script's end tag.
        for page in [
            "<meta name=\"a",
            "<meta",
            "<h1",
            "<time datetime='",
            "<head></he",
            "<script type=application/ld+json>{}</scr",
            "<script type=application/ld+json",
        ] {
            let found = noted_within(page.to_owned(), 10);
            assert!(found
                .json_ld
                .iter()
                .all(|&(a, b)| a <= b && b as usize <= page.len()));
            assert!(found
                .meta
                .iter()
                .all(|&(a, b)| a < b && b as usize <= page.len()));
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{:?}",
            start.elapsed()
        );
    }
}
