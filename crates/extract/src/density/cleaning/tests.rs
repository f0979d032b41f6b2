//! Tests of [`super`] (`cleaning.rs`).

use super::*;
use crate::density::Cleaning;
use crate::density::{kernel::Baseline, tags};
use proptest::prelude::*;

use crate::test_shared as support;

proptest! {
    #[test]
    fn may_hide_equals_scalar(tag in proptest::collection::vec(prop_oneof![Just(b'd'), Just(b'E'), Just(b'n'), Just(b'O'), any::<u8>()], 0..80)) {
        prop_assert_eq!(may_hide(&tag), may_hide_scalar(&tag));
    }

    #[test]
    fn separator_masks_equal_scalar(window in proptest::array::uniform16(any::<u8>())) {
        prop_assert_eq!(separators(&window), names::mask_in(&window, &SEPARATES));
    }
}

#[test]
fn every_word_is_read_in_any_case_and_only_whole() {
    for &(word, meaning) in WORDS {
        let upper = word.to_ascii_uppercase();
        for spelling in [word, &upper[..]] {
            let (len, key) = read_part(spelling);
            assert_eq!((len, WORD_TABLE.get(key)), (word.len(), meaning));
            let value = [spelling, b"-x"].concat();
            assert_eq!(WORD_TABLE.get(read_part(&value).1), meaning);
            let longer = [spelling, b"x"].concat();
            assert_eq!(WORD_TABLE.get(read_part(&longer).1), None);
        }
    }
    let long = b"comment_with_a_long_name";
    assert_eq!(read_part(&long[..]).0, 7);
    assert_eq!(read_part(b"commentswithoutanyseparators"), (28, 0));
}

fn furniture(tag: &str) -> Option<Cue> {
    match tags::parse(tag.as_bytes(), 0, Cleaning::Furniture, Baseline)?.markup {
        Markup::Element {
            class: TagClass::Block(block),
            ..
        } => furniture_cue(block, tag.as_bytes()),
        _ => None,
    }
}

#[test]
fn class_id_and_role_name_furniture() {
    use Cue::{Comments, Hidden, Strong, Weak};
    assert_eq!(
        furniture("<div class=\"post comment-list\">"),
        Some(Comments)
    );
    assert_eq!(furniture("<div id='share_buttons'>"), Some(Weak));
    assert_eq!(
        furniture("<section class=sidebar id=comments>"),
        Some(Comments)
    );
    assert_eq!(
        furniture("<div role=\"navigation\" class=\"x\">"),
        Some(Strong)
    );
    assert_eq!(furniture("<nav>"), Some(Strong));
    assert_eq!(
        furniture("<div role=\"dialog\" aria-modal=true>"),
        Some(Strong)
    );
    assert_eq!(furniture("<section role=COMPLEMENTARY>"), Some(Strong));
    assert_eq!(furniture("<aside class=\"elementor-section\">"), Some(Weak));
    assert_eq!(furniture("<FOOTER class=\"site\">"), Some(Strong));
    assert_eq!(furniture("<div hidden>"), Some(Hidden));
    assert_eq!(furniture("<div hidden class=\"sidebar\">"), Some(Weak));
    assert_eq!(furniture("<div class=\"author-bio\">"), Some(Weak));
    assert_eq!(furniture("<ul class=\"legends\">"), Some(Strong));
    assert_eq!(
        furniture("<div class=\"ai2html ai2html-box-v5\">"),
        Some(Weak)
    );
    assert_eq!(
        furniture("<div style=\"color: red; Display : None\">"),
        Some(Hidden)
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
        "<div role=\"alert\">",
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
        let tag = tags::parse(bytes, pos + lt, Cleaning::Furniture, Baseline).expect("markup");
        tracker.on_tag(bytes, pos + lt, &tag, None);
        pos = tag.end;
    }
    if tracker.furniture().is_none() {
        out.push_str(html.get(pos..).unwrap_or_default());
    }
    out
}

#[test]
fn hidden_elements_are_furniture_until_html_ends_them() {
    let hidden = "a<span style=\"color:red;display: none\">b<span>c</span>d</span>e";
    assert_eq!(kept(hidden), "ae");
    assert_eq!(kept("<div><P HIDDEN>a<div>b</div>c</div>"), "bc");
    assert_eq!(kept("<p style='display:none'>&nbsp;<p>b</p>"), "b");
    assert_eq!(kept("<ul><li hidden>a<li>b</ul>"), "b");
    assert_eq!(kept("<dl><dd hidden>a</dl>b"), "b");
    // Void elements hide nothing after them; other words are no cue.
    assert_eq!(
        kept("a<br hidden>b<img hidden>c<hr style=display:none>d"),
        "abcd"
    );
    assert_eq!(
        kept("<p class=none>a</p><span data-x=hidden>b</span>"),
        "ab"
    );
}

#[test]
fn nested_furniture_is_tracked_whole() {
    let html = "<div>a<div class=comments>b<div>c<div/>d</div>e</div>f</div>";
    assert_eq!(kept(html), "af");
    assert_eq!(kept("<p>a<nav>b<nav>c</nav>d</nav>e</p>"), "ae");
    // Unclosed furniture runs to the end, as in a parser's tree.
    assert_eq!(kept("a<aside>b<p>c"), "a");
}

/// Every container tag of `html`, with its block and where it is.
fn container_tags(html: &[u8]) -> Vec<(Block, usize, usize)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(lt) = html.get(pos..).and_then(|b| memchr::memchr(b'<', b)) {
        let at = pos + lt;
        match tags::parse(html, at, Cleaning::Furniture, Baseline) {
            Some(tag) => {
                if let Markup::Element {
                    class: TagClass::Block(block),
                    closing: false,
                    ..
                } = tag.markup
                {
                    out.push((block, at, tag.end));
                }
                pos = tag.end.max(at + 1);
            }
            None => pos = at + 1,
        }
    }
    out
}

#[test]
fn memo_gives_the_cues_of_the_tags_themselves() {
    use std::io::Read;
    // Pages of many repeated container tags (listings, a forum) and
    // articles, read one after the other through one memo: a cue from
    // the memo is the tag's own, and the page before leaves nothing.
    let root = support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets/wcxb_dev/html")
        .display()
        .to_string();
    let mut memo = CueMemo::default();
    let (mut tags, mut hits) = (0, 0);
    for id in ["dev-2908", "dev-2920", "dev-0514", "dev-0001", "dev-2936"] {
        let path = format!("{root}/{id}.html.gz");
        let mut html = Vec::new();
        flate2::read::MultiGzDecoder::new(std::fs::File::open(&path).expect(&path))
            .read_to_end(&mut html)
            .expect(&path);
        memo.start_page();
        let mut seen = std::collections::HashSet::new();
        for (block, at, end) in container_tags(&html) {
            let tag = &html[at..end];
            assert_eq!(
                memo.furniture_cue(block, &html, at, end),
                furniture_cue(block, tag),
                "{id} at {at}: {}",
                String::from_utf8_lossy(tag)
            );
            tags += 1;
            hits += usize::from(tag.len() >= MEMO_MIN_TAG && !seen.insert(tag.to_vec()));
        }
    }
    // The memo was used: many tags were met again in their page.
    assert!(
        tags > 1000 && hits > tags / 5,
        "{tags} tags, {hits} repeated"
    );
}

#[test]
fn memo_tells_tags_apart_and_pages_apart() {
    // Two tags at the same place of two pages, and many distinct tags
    // in one page (more than the memo's slots: some share a slot).
    let mut memo = CueMemo::default();
    let first = b"<div class=\"sidebar-widget-area\">";
    let second = b"<div class=\"article-content-area\">";
    for page in [&first[..], &second[..]] {
        memo.start_page();
        assert_eq!(
            memo.furniture_cue(Block::Div, page, 0, page.len()),
            furniture_cue(Block::Div, page)
        );
    }
    assert_eq!(furniture_cue(Block::Div, first), Some(Cue::Weak));
    assert_eq!(furniture_cue(Block::Div, second), None);
    let mut page = String::new();
    for i in 0..3000 {
        let name = if i % 3 == 0 { "nav-links" } else { "card-body" };
        page.push_str(&format!("<div class=\"{name} item-{i}\">x</div>"));
    }
    let html = page.as_bytes();
    memo.start_page();
    for _ in 0..2 {
        for (block, at, end) in container_tags(html) {
            assert_eq!(
                memo.furniture_cue(block, html, at, end),
                furniture_cue(block, &html[at..end])
            );
        }
    }
}
