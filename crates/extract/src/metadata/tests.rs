//! Each source of the metadata on hand-made pages, and the bounds on bad
//! input.

use super::{Metadata, MetadataReader, MetadataSettings};
use crate::density::landmarks::{self, Landmarks};
use std::time::Instant;

use crate::test_shared as support;

/// The landmarks of `html`, as the element-based algorithms collect them
/// (the same as the counting pass notes: `landmarks` tests).
fn landmarks_of(html: &str) -> Landmarks {
    let mut found = Landmarks::default();
    landmarks::collect(html.as_bytes(), &mut found);
    found
}

fn read(html: &str) -> Metadata {
    let mut out = Metadata::default();
    MetadataReader::new(MetadataSettings::default()).read(
        html,
        Some("https://a.example/x/y"),
        &landmarks_of(html),
        None,
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
        r#"<head><meta name="author" content="Bo Chen"><meta name="date" content="2024-03-01T09:00:00+01:00"></head>{body}"#
    );
    let m = read(&with_head);
    assert_eq!(m.author.as_deref(), Some("Bo Chen"));
    // The page shows the head's day: the head's precise value is kept.
    assert_eq!(
        m.date_published.as_deref(),
        Some("2024-03-01T09:00:00+01:00")
    );
}

/// A page of wcxb_dev (`../shared/datasets/wcxb_dev`), read with its URL.
fn wcxb(id: &str) -> Metadata {
    use std::io::Read;
    let dir = support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets/wcxb_dev");
    let file = std::fs::File::open(dir.join(format!("html/{id}.html.gz")))
        .expect("the shared wcxb_dev dataset (../shared/datasets/wcxb_dev)");
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut raw)
        .expect("gzip");
    let meta = std::fs::read_to_string(dir.join("meta.jsonl")).expect("meta.jsonl");
    let url = meta
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["id"] == id)
        .and_then(|v| v["url"].as_str().map(str::to_owned));
    let mut out = Metadata::default();
    let html = String::from_utf8_lossy(&raw);
    MetadataReader::new(MetadataSettings::default()).read(
        &html,
        url.as_deref(),
        &landmarks_of(&html),
        None,
        &mut out,
    );
    out
}

#[test]
fn the_dateline_under_the_title_when_nothing_else_states_a_date() {
    // `<h1>…</h1><p class="text-muted …">December 15, 2025</p>`.
    assert_eq!(
        wcxb("dev-0431").date_published.as_deref(),
        Some("2025-12-15")
    );
    // React's `<p> <!-- -->Dec 17, 2025</p>`: comments part text pieces.
    assert_eq!(
        wcxb("dev-0446").date_published.as_deref(),
        Some("2025-12-17")
    );
    // The first `<h1>` is the site's name; the date is under the second.
    assert_eq!(
        wcxb("dev-4439").date_published.as_deref(),
        Some("2025-12-04")
    );
}

#[test]
fn a_dateline_labelled_as_an_update_is_the_date_of_a_page_with_no_other() {
    // `Updated: December 31, 2024` is all the page shows as its date.
    let m = wcxb("dev-0322");
    assert_eq!(m.date_published.as_deref(), Some("2024-12-31"));
    assert_eq!(m.date_modified.as_deref(), Some("2024-12-31"));
}

#[test]
fn the_dateline_wins_over_the_head_unless_it_is_the_modification_day() {
    // `Published Apr 26, 2023` under the title; the head says 2025-08-21.
    let m = wcxb("dev-0358");
    assert_eq!(m.date_published.as_deref(), Some("2023-04-26"));
    assert_eq!(m.date_modified.as_deref(), Some("2025-08-20"));
    let page = |dateline: &str| {
        read(&format!(
            r#"<head><meta property="article:published_time" content="2024-01-10T10:00:00+02:00">
            <meta property="article:modified_time" content="2025-06-01T10:00:00+02:00"></head>
            <body><h1>Title</h1><p>{dateline}</p><p>Text.</p></body>"#
        ))
        .date_published
    };
    assert_eq!(page("March 3, 2023").as_deref(), Some("2023-03-03"));
    // The modification day, a day next to the head's, an update: the
    // head's date stays.
    for dateline in ["June 1, 2025", "January 11, 2024", "Updated March 3, 2023"] {
        assert_eq!(
            page(dateline).as_deref(),
            Some("2024-01-10T10:00:00+02:00"),
            "{dateline}"
        );
    }
}

#[test]
fn the_day_in_the_url_path() {
    // `/articles/2025-12-15+Rust+GCC+backend…`, no date anywhere else.
    assert_eq!(
        wcxb("dev-0494").date_published.as_deref(),
        Some("2025-12-15")
    );
    // `2025-12-19T02:41:41+00:00` in the head, `/2025/12/18/` in the URL:
    // the page's local day.
    assert_eq!(
        wcxb("dev-0479").date_published.as_deref(),
        Some("2025-12-18")
    );
}

#[test]
fn the_byline_under_the_title() {
    // `By <a>Dr. Vahid Osman</a> - Mar 27, 2024`: a label, the name in the
    // next element.
    assert_eq!(wcxb("dev-0190").author.as_deref(), Some("Dr. Vahid Osman"));
    // `by Jon Foster - 2025-09-13` in one text node.
    assert_eq!(wcxb("dev-0497").author.as_deref(), Some("Jon Foster"));
    // `by: <!-- -->Ziyi Xu<!-- -->, …`
    assert_eq!(wcxb("dev-0407").author.as_deref(), Some("Ziyi Xu"));
    let page = |line: &str| {
        read(&format!(
            "<body><h1>Title</h1><p>{line}</p><p>Text.</p></body>"
        ))
        .author
    };
    assert_eq!(page("By Ann Lee · 4 min read").as_deref(), Some("Ann Lee"));
    // `by` in prose is no byline.
    assert_eq!(page("Made by integrating two tools"), None);
    assert_eq!(page("by integrating two tools"), None);
}

#[test]
fn published_date_and_modified_date_meta_names() {
    let m = wcxb("dev-4512");
    assert_eq!(m.date_published.as_deref(), Some("2021-02-16"));
    assert_eq!(m.date_modified.as_deref(), Some("2024-07-30"));
}

#[test]
fn a_shown_date_with_its_label() {
    let m = read(
        r#"<body><p class="post-date">Published on July 8, 2025</p><p class="date">Last updated: Dec 12, 2025</p></body>"#,
    );
    assert_eq!(m.date_published.as_deref(), Some("2025-07-08"));
    assert_eq!(m.date_modified.as_deref(), Some("2025-12-12"));
}

fn read_at(html: &str, url: &str) -> Metadata {
    let mut out = Metadata::default();
    MetadataReader::new(MetadataSettings::default()).read(
        html,
        Some(url),
        &landmarks_of(html),
        None,
        &mut out,
    );
    out
}

#[test]
fn a_time_element_by_the_title_states_its_date() {
    let page = |meta: &str| {
        read(&format!(
            r#"<head>{meta}</head><body><h1>Title</h1><ul><li><span>Start date</span>
            <time class="u-dt" datetime="2025-12-19T04:25:38+0500">Yesterday at 4:25 AM</time></li></ul>
            <p>Text.</p></body>"#
        ))
    };
    // A relative date shown (never read), its `datetime` stated.
    assert_eq!(
        page("").date_published.as_deref(),
        Some("2025-12-19T04:25:38+05:00")
    );
    // It wins over the head's date as a dateline does.
    let m = page(r#"<meta property="article:published_time" content="2025-01-31T12:00:00Z">"#);
    assert_eq!(
        m.date_published.as_deref(),
        Some("2025-12-19T04:25:38+05:00")
    );
    // wcxb_dev: `<time datetime="2017-03-01T12:00:00Z">03/01/2017</time>`
    // (the text's order of day and month is not stated; the attribute's
    // is); Stack Overflow's `Asked <time datetime="2018-06-08 09:28:03Z">7
    // years, 9 months ago</time>`.
    assert_eq!(
        wcxb("dev-0370").date_published.as_deref(),
        Some("2017-03-01T12:00:00+00:00")
    );
    assert_eq!(
        wcxb("dev-4310").date_published.as_deref().map(|d| &d[..10]),
        Some("2018-06-08")
    );
}

#[test]
fn a_time_element_labelled_inside_or_showing_its_local_day() {
    let page = |time: &str| {
        read(&format!(
            r#"<head><meta property="article:published_time" content="2025-12-01"></head>
            <body><h1>Title</h1><p>{time}</p><p>Text.</p></body>"#
        ))
    };
    // `Last Updated:` inside the element: an update, the head's date stays.
    let m = page(
        r#"<time datetime="2025-12-17" class="byline__pubdate">Last Updated: Dec 17, 2025</time>"#,
    );
    assert_eq!(m.date_published.as_deref(), Some("2025-12-01"));
    assert_eq!(m.date_modified.as_deref(), Some("2025-12-17"));
    // The text shows the instant's day in the page's time zone (Yahoo,
    // readability_tests): that day is the dateline.
    let m = read(
        r#"<head><meta name="date" content="2016-11-20"></head><body><h1>Title</h1>
        <time class="date" datetime="2016-12-01T23:29:49.000Z">December 2, 2016</time></body>"#,
    );
    assert_eq!(m.date_published.as_deref(), Some("2016-12-02"));
}

#[test]
fn a_members_join_date_is_not_the_pages() {
    let m = read(
        r#"<body><h1>Thread</h1><div class="message-user"><dl><dt>Joined</dt><dd>Nov 4, 2011</dd></dl>
        <p>Joined: Sun Dec 17, 2023</p><p>Member since 12 March 2019</p></div><p>Text.</p></body>"#,
    );
    assert_eq!(m.date_published, None);
}

#[test]
fn a_spaced_hyphen_parts_a_dateline_not_prose() {
    // hamy.xyz (wcxb_dev): `<span>Essay - Published: 2025.12.17 | </span>`.
    assert_eq!(
        wcxb("dev-0488").date_published.as_deref(),
        Some("2025-12-17")
    );
    // A range in prose is no dateline (iatronet.gr, daniel_dev).
    let m = read(
        "<body><h1>Title</h1><ul><li>Υποβολή και έγκριση των Εκθέσεων του Διοικητικού          Συμβουλίου, που αφορούν την εταιρική χρήση 01/01/2010 - 31/12/2010.</li></ul></body>",
    );
    assert_eq!(m.date_published, None);
}

#[test]
fn the_modification_date_seen_in_another_time_zone_is_no_dateline() {
    // primermagazine.com (wcxb_dev): `September 27, 2023` shown, the head's
    // modification `2023-09-28T00:49:54+00:00` (the same instant in the
    // Americas); the head's publish date stays.
    assert_eq!(
        wcxb("dev-4692").date_published.as_deref(),
        Some("2022-02-16T07:53:25+00:00")
    );
}

#[test]
fn the_urls_day_wins_over_another_day() {
    let html = r#"<head><meta name="date" content="2026-02-16"></head><body><p>Text.</p></body>"#;
    let m = read_at(html, "https://a.example/blog/2023/october/03/a-title/");
    assert_eq!(m.date_published.as_deref(), Some("2023-10-03"));
    // A day next to a day stated without a time: a time-zone shift, the
    // head's stays.
    let m = read_at(html, "https://a.example/2026/02/15/a-title/");
    assert_eq!(m.date_published.as_deref(), Some("2026-02-16"));
    assert_eq!(
        wcxb("dev-4690").date_published.as_deref(),
        Some("2023-10-03")
    );
}

#[test]
fn microsoft_learns_date() {
    // learn.microsoft.com: `<meta name="ms.date"
    // content="2025-02-23T00:00:00Z">` is the date its pages show.
    assert_eq!(
        wcxb("dev-4411").date_published.as_deref().map(|d| &d[..10]),
        Some("2025-02-23")
    );
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

/// Reads `html` on a thread of its own and fails if that takes over ten
/// seconds (a loop that never ends fails the test instead of hanging it).
fn read_within_ten_seconds(html: String) -> Metadata {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(read(&html));
    });
    receive
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("the metadata reader ends")
}

#[test]
fn titles_whose_windows_reach_past_the_end_of_the_page() {
    // A second and third <h1> within the first one's window, on a page
    // that ends before that window does: each later window is empty.
    let m = read_within_ten_seconds(
        "<body><h1>Site</h1><h1>Story</h1><p>By Ann Lee</p><p>March 4, 2025</p><h1>Más</h1>é"
            .into(),
    );
    assert_eq!(m.author.as_deref(), Some("Ann Lee"));
    assert_eq!(m.date_published.as_deref(), Some("2025-03-04"));
    // The real page that showed it (daniel_dev).
    let path = support::shared_path(
        env!("CARGO_MANIFEST_DIR"),
        "datasets/daniel_dev/html/20120117_udr.chinatimes.com_ac0a77b9d7e6a46bdf448753b26bee24f61e4ad7f38eb5ab3ff4db58.html.gz",
    );
    let mut html = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(&path).expect("the shared page")),
        &mut html,
    )
    .expect("gzip");
    read_within_ten_seconds(String::from_utf8_lossy(&html).into_owned());
}

#[test]
fn hostile_landmarks_read_in_linear_time() {
    // 100,000 `<meta>` tags: the reader reads the first the pass noted.
    let m = read_within_ten_seconds(format!(
        "<head>{}<meta name=author content='Ann Lee'></head><body><h1>T</h1></body>",
        "<meta name=x content=y>".repeat(100_000)
    ));
    assert_eq!(m.author, None);
    // An `<h1>` every 10 bytes, a `<time>` every 30, a page ending inside
    // a tag: every window stays bounded.
    let m = read_within_ten_seconds(format!(
        "<body>{}{}<p>By Ann Lee</p><meta name=\"author",
        "<h1>T</h1>".repeat(100_000),
        "<time>x</time><i class=author>".repeat(30_000)
    ));
    assert_eq!(m.date_published, None);
    let m = read_within_ten_seconds("<head><meta name=author content='Ann Lee'><h1".into());
    assert_eq!(m.author.as_deref(), Some("Ann Lee"));
}
