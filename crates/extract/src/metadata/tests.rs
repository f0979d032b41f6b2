//! Each source of the metadata on hand-made pages, and the bounds on bad
//! input.

use super::{Metadata, MetadataReader, MetadataSettings};
use std::time::Instant;

fn read(html: &str) -> Metadata {
    let mut out = Metadata::default();
    MetadataReader::new(MetadataSettings::default()).read(
        html,
        Some("https://a.example/x/y"),
        &mut out,
    );
    out
}

#[test]
fn json_ld_graph_with_authors_by_reference_and_publisher() {
    let m = read(
        r##"<head><script type="application/ld+json">{"@context":"https://schema.org","@graph":[
        {"@type":"WebSite","@id":"#site","name":"Site"},
        {"@type":"Person","@id":"#ann","name":"Ann Lee"},
        {"@type":["Article","NewsArticle"],"author":{"@id":"#ann"},"datePublished":"2025-09-04T10:30:00+02:00",
         "dateModified":"2025-09-05","publisher":{"@type":"Organization","name":"The Times"}}]}</script></head>"##,
    );
    assert_eq!(m.author.as_deref(), Some("Ann Lee"));
    assert_eq!(
        m.date_published.as_deref(),
        Some("2025-09-04T10:30:00+02:00")
    );
    assert_eq!(m.date_modified.as_deref(), Some("2025-09-05"));
    assert_eq!(m.site_name.as_deref(), Some("Site"));
}

#[test]
fn json_ld_arrays_of_nodes_and_of_authors() {
    let m = read(
        r#"<script type="application/ld+json">[{"@type":"BreadcrumbList"},
        {"@type":"BlogPosting","author":[{"@type":"Person","name":"Ann Lee"},"Bo Chen"],
         "datePublished":"2024-01-31"}]</script>"#,
    );
    assert_eq!(m.author.as_deref(), Some("Ann Lee, Bo Chen"));
    assert_eq!(m.date_published.as_deref(), Some("2024-01-31"));
}

#[test]
fn an_organisation_as_author_gives_way_to_a_byline() {
    let m = read(
        r#"<head><script type="application/ld+json">{"@type":"Article",
        "author":{"@type":"Organization","name":"Big Clinic"},"datePublished":"2024-01-31"}</script></head>
        <body><span class="byline__name">By Jane Doe</span></body>"#,
    );
    assert_eq!(m.author.as_deref(), Some("Jane Doe"));
}

#[test]
fn invalid_json_ld_falls_back_to_a_key_scan() {
    let m = read(
        r#"<script type="application/ld+json">{"@type":"Article","datePublished":"2023-05-18",,, </script>"#,
    );
    assert_eq!(m.date_published.as_deref(), Some("2023-05-18"));
    assert_eq!(m.author, None);
    // Raw newlines inside strings, which JSON forbids, are read.
    let m = read("<script type=\"application/ld+json\">{\"@type\":\"Article\",\"author\":\"Ann\nLee\"}</script>");
    assert_eq!(m.author.as_deref(), Some("Ann Lee"));
}

#[test]
fn five_megabytes_of_json_ld_take_linear_time() {
    let mut page = String::from(r#"<script type="application/ld+json">{"@type":"Article","x":["#);
    while page.len() < 5 << 20 {
        page.push_str(r#"{"a":[1,2,3],"b":"text"},"#);
    }
    page.push_str(r#"0],"datePublished":"2025-01-02"}</script>"#);
    let start = Instant::now();
    let m = read(&page);
    // Past the parse cap, only the first megabyte is scanned for dates.
    assert_eq!(m.date_published, None);
    assert!(start.elapsed().as_secs_f64() < 2.0, "{:?}", start.elapsed());
    let unclosed =
        "<script type=\"application/ld+json\">{\"a\":".to_string() + &"[".repeat(5 << 20);
    let start = Instant::now();
    assert_eq!(read(&unclosed), Metadata::default());
    assert!(start.elapsed().as_secs_f64() < 2.0, "{:?}", start.elapsed());
}

#[test]
fn opengraph_and_meta_names() {
    let m = read(
        r#"<html><head><meta property="og:site_name" content="The &amp; Times">
        <meta property="article:published_time" content="2025-09-04T10:30:00Z">
        <meta property="article:modified_time" content="2025-09-06T08:00:00Z">
        <meta property="article:author" content="https://facebook.com/ann">
        <meta name="author" content="By Ann Lee">
        <meta name="description" content="A   summary.">
        <link rel="canonical" href="/news/a"></head><body></body></html>"#,
    );
    assert_eq!(m.site_name.as_deref(), Some("The & Times"));
    assert_eq!(
        m.date_published.as_deref(),
        Some("2025-09-04T10:30:00+00:00")
    );
    assert_eq!(
        m.date_modified.as_deref(),
        Some("2025-09-06T08:00:00+00:00")
    );
    assert_eq!(m.author.as_deref(), Some("Ann Lee"));
    assert_eq!(m.description.as_deref(), Some("A summary."));
    assert_eq!(m.canonical_url.as_deref(), Some("https://a.example/news/a"));
}

#[test]
fn dublin_core() {
    let m = read(
        r#"<head><meta name="DC.creator" content="Ann Lee"><meta name="DC.date" content="2019-08-16"></head>"#,
    );
    assert_eq!(m.author.as_deref(), Some("Ann Lee"));
    assert_eq!(m.date_published.as_deref(), Some("2019-08-16"));
}

#[test]
fn time_elements_and_bylines_only_when_the_head_has_nothing() {
    let body = r#"<body><nav><a href="/">Home</a></nav><article><h1>T</h1>
        <div class="post-meta">By <a rel="author" href="/u/ann">Ann Lee</a>
        <time datetime="2024-03-01T05:00:00">March 1, 2024</time></div><p>Text.</p></article></body>"#;
    let m = read(body);
    assert_eq!(m.author.as_deref(), Some("Ann Lee"));
    assert_eq!(m.date_published.as_deref(), Some("2024-03-01T05:00:00"));
    let with_head = format!(
        r#"<head><meta name="author" content="Bo Chen"><meta name="date" content="2020-01-02"></head>{body}"#
    );
    let m = read(&with_head);
    assert_eq!(m.author.as_deref(), Some("Bo Chen"));
    assert_eq!(m.date_published.as_deref(), Some("2020-01-02"));
}

#[test]
fn a_shown_date_with_its_label() {
    let m = read(
        r#"<body><p class="post-date">Published on July 8, 2025</p><p class="date">Last updated: Dec 12, 2025</p></body>"#,
    );
    assert_eq!(m.date_published.as_deref(), Some("2025-07-08"));
    assert_eq!(m.date_modified.as_deref(), Some("2025-12-12"));
}

#[test]
fn nothing_stated_is_all_none() {
    assert_eq!(
        read("<title>T</title><p>Just text, 2025-01-01.</p>"),
        Metadata::default()
    );
    assert_eq!(read(""), Metadata::default());
    assert_eq!(
        read("<meta name=date content=yesterday>"),
        Metadata::default()
    );
}
