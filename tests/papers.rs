//! Each algorithm's defining behaviour on small hand-made pages, as the papers
//! describe it, and the encodings of real pages from the shared datasets.

mod common;

use common::shared_page;
use crawlsift::{Algorithm, Extractor};

fn extract(algorithm: Algorithm, html: &str) -> String {
    Extractor::new(algorithm)
        .extract(html.as_bytes(), None)
        .text
        .to_string()
}

/// An English navigation menu with many links.
fn menu() -> String {
    let items: String = (0..12)
        .map(|i| format!("<li><a href=\"/section/{i}/index.html\">Section number {i}</a></li>\n"))
        .collect();
    format!("<ul class=\"navigation-menu\">\n{items}</ul>\n")
}

#[test]
fn dana_finds_arabic_main_content_among_english_markup() {
    let arabic =
        "<p>هذا نص عربي طويل يتحدث عن الأخبار اليومية في المدينة والمناطق المجاورة لها.</p>\n";
    let page = format!(
        "<html><head><title>News</title></head><body>{}<div class=\"article\">{}</div>\
         <div class=\"footer\"><p>Copyright 2011 Example News Network. All rights reserved.</p></div></body></html>",
        menu(),
        arabic.repeat(5)
    );
    let text = extract(Algorithm::Dana, &page);
    assert!(text.contains("هذا نص عربي طويل"), "{text}");
    assert!(!text.contains("Section number"), "{text}");
    assert!(!text.contains("Copyright"), "{text}");
    assert_eq!(text.lines().count(), 5);
}

/// A Wikipedia-like paragraph: every few words a link with a long URL.
fn link_rich_paragraph() -> String {
    let words = [
        "Ceres",
        "asteroid belt",
        "Mars",
        "Jupiter",
        "dwarf planet",
        "Dawn",
    ];
    let body: String = words
        .iter()
        .cycle()
        .take(24)
        .map(|w| {
            format!(
                "the <a href=\"https://en.wikipedia.org/wiki/{}\" title=\"{w}\" class=\"mw-redirect\">{w}</a> is ",
                w.replace(' ', "_")
            )
        })
        .collect();
    format!("<p>{body}</p>")
}

#[test]
fn addanag_keeps_link_rich_content_that_danag_loses() {
    let page = format!(
        "<body><div><p>Short intro line of plain text here.</p></div>{}{}<div><p>Footer text.</p></div></body>",
        menu(),
        link_rich_paragraph()
    );
    let danag = extract(Algorithm::Danag, &page);
    let addanag = extract(Algorithm::Addanag, &page);
    assert!(
        addanag.contains("dwarf planet is the Dawn"),
        "AdDANAg lost it: {addanag}"
    );
    assert!(!danag.contains("dwarf planet"), "DANAg kept it: {danag}");
    // Filter 2 (attributes dropped) also keeps it; Filter 1 drops the anchor text.
    assert!(extract(Algorithm::DanagFilter2, &page).contains("dwarf planet"));
    assert!(!extract(Algorithm::DanagFilter1, &page).contains("dwarf planet"));
}

#[test]
fn algorithm_1_merges_regions_within_gap() {
    let para = "<p>A long paragraph of main content text that clearly outweighs its markup.</p>";
    // Two content blocks separated by `n` lines of pure markup.
    let page = |n: usize| {
        let filler = "<div class=\"advertisement-slot\"></div>".repeat(n);
        format!("<body>{}{filler}{}</body>", para.repeat(6), para.repeat(3))
    };
    let paragraphs = |gap: usize, n: usize| {
        Extractor::new(Algorithm::Danag)
            .with_gap(gap)
            .extract(page(n).as_bytes(), None)
            .text
            .lines()
            .count()
    };
    assert_eq!(
        paragraphs(20, 10),
        9,
        "10 filler lines are within a gap of 20"
    );
    assert_eq!(paragraphs(20, 40), 6, "40 filler lines are not");
    assert_eq!(paragraphs(160, 40), 9, "but they are within 160");
}

#[test]
fn headings_lists_and_entities_come_out_as_paragraphs() {
    let page = "<body><article><h1>Caf&eacute; &amp; Bar</h1><p>First&nbsp;paragraph, long enough to be content.</p>\
                <ul><li>Item one of the list in the article</li><li>Item two of the list in the article</li></ul>\
                </article></body>";
    let text = extract(Algorithm::Danag, page);
    assert_eq!(
        text,
        "Café & Bar\nFirst paragraph, long enough to be content.\n\
         Item one of the list in the article\nItem two of the list in the article"
    );
}

/// The longest line of the gold text: it must come out whatever the encoding.
fn gold_sentence(gold: &str) -> String {
    let line = gold
        .lines()
        .max_by_key(|l| l.chars().count())
        .unwrap_or_default();
    line.split_whitespace()
        .take(8)
        .collect::<Vec<_>>()
        .join(" ")
}

fn assert_extracts(raw: &[u8], http: Option<&str>, sentence: &str, encoding: &str) {
    let mut extractor = Extractor::new(Algorithm::Addanag);
    let page = extractor.extract(raw, http);
    assert_eq!(page.encoding, encoding);
    let flat = page.text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(sentence), "missing {sentence:?}");
}

#[test]
fn chinese_page_declared_gb2312_but_utf8_and_reencoded_to_gbk() {
    // A real daniel_dev page: UTF-8 bytes that still declare gb2312.
    let id = "20111209_finance.ce.cn_3d5502a97074009069edc19ec55e81c69c63cd2f8d07142b7229888f";
    let (html, gold) = shared_page("daniel_dev", id);
    let sentence = gold_sentence(&gold);
    assert!(String::from_utf8_lossy(&html[..4096.min(html.len())])
        .to_lowercase()
        .contains("gb2312"));
    assert_extracts(&html, None, &sentence, "UTF-8");
    // The same page really in GBK: declared (meta), declared by HTTP, undeclared.
    let utf8 = String::from_utf8(html).expect("utf-8 page");
    let (gbk, _, _) = encoding_rs::GBK.encode(&utf8);
    assert_extracts(&gbk, None, &sentence, "GBK");
    assert_extracts(&gbk, Some("gbk"), &sentence, "GBK");
    let undeclared = utf8.replace("gb2312", "").replace("GB2312", "");
    let (gbk, _, _) = encoding_rs::GBK.encode(&undeclared);
    assert_extracts(&gbk, None, &sentence, "GBK");
}

#[test]
fn russian_page_in_windows_1251_declared_and_undeclared() {
    // A real daniel_dev page (UTF-8, declared utf-8), re-encoded to windows-1251.
    let id = "20111128_www.pravda.ru_27bffe1b5efb7f55921254f786a83f2d2856be99f278bd9c8bf0896a";
    let (html, gold) = shared_page("daniel_dev", id);
    let sentence = gold_sentence(&gold);
    let utf8 = String::from_utf8(html).expect("utf-8 page");
    let declared = utf8.replacen("charset=utf-8", "charset=windows-1251", 1);
    assert_ne!(declared, utf8);
    // Still UTF-8 bytes, now declaring windows-1251: read as UTF-8.
    assert_extracts(declared.as_bytes(), None, &sentence, "UTF-8");
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(&declared);
    assert_extracts(&cp1251, None, &sentence, "windows-1251");
    assert_extracts(&cp1251, Some("bogus-label"), &sentence, "windows-1251");
    // Mislabelled utf-8, and unlabelled: the detector finds windows-1251.
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(&utf8);
    assert_extracts(&cp1251, None, &sentence, "windows-1251");
    // Counted as labelled (UTF-8) first, then again once decoded: the text
    // is the one of the same page in UTF-8, to the byte.
    for algorithm in [Algorithm::Dana, Algorithm::AddanagPlus] {
        let mut extractor = Extractor::new(algorithm);
        let expected = extractor.extract(utf8.as_bytes(), None).text.to_string();
        assert_eq!(extractor.extract(&cp1251, None).text, expected);
    }
    let unlabelled = utf8.replacen("charset=utf-8", "", 1);
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(&unlabelled);
    assert_extracts(&cp1251, None, &sentence, "windows-1251");
}

#[test]
fn utf16_page_with_bom() {
    let page = "<html><body><p>Ein deutscher Absatz über Straßen und Häuser, lang genug für Inhalt.</p></body></html>";
    let mut raw = vec![0xFE, 0xFF];
    raw.extend(page.encode_utf16().flat_map(u16::to_be_bytes));
    let mut extractor = Extractor::new(Algorithm::Addanag);
    let out = extractor.extract(&raw, Some("utf-8"));
    assert_eq!(out.encoding, "UTF-16BE");
    assert!(out.text.contains("über Straßen"));
}
