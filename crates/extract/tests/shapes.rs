//! Every algorithm on pages of the shapes that would make a step
//! super-linear (`benches/common/shapes.rs`; speed is measured by
//! `benches/scaling.rs`, never asserted here): the results are well formed,
//! the Markdown too (fences closed, table rows as wide as their header), the
//! extractor's buffers stay within a small multiple of the page, and the
//! page timeout stops a real page.

#[path = "../../../benches/common/shapes.rs"]
mod shapes;

#[path = "../../../tests/support/shared.rs"]
mod support;

use crawlsift_extract::{Algorithm, Extractor, MarkdownOptions, PageTimeout};
use shapes::Shape;
use std::io::Read;
use std::time::Duration;

/// The characters of `text` but whitespace.
fn content(text: &str) -> usize {
    text.chars().filter(|c| !c.is_whitespace()).count()
}

#[test]
fn every_algorithm_gives_well_formed_text_on_every_shape() {
    let mut plain = Extractor::new(Algorithm::Plain);
    for shape in Shape::ALL {
        let page = shape.page(60_000);
        let all = plain.extract(page.as_bytes(), None).text.to_string();
        // The page's own text: what the shape put there, no markup.
        assert!(!all.contains('<'), "{}: {all:.200}", shape.name());
        let expected = match shape {
            Shape::TinyLines => "x",
            Shape::OneLine => "word0",
            Shape::Nested => "deep text",
            Shape::Cards => "Product number 0",
            Shape::Links => "Link number 0",
            Shape::Numbered => "This is line number 0 of",
            Shape::Unclosed => "Text 0 more words here and some more",
            Shape::WideTable => "c0 c1 c2",
            Shape::SpanChaos => "",
            Shape::NestedTables => "a",
            Shape::LongTable => "Name Value",
            Shape::OpenPre => "The code:\nfn f0() {",
            Shape::BrokenMath => "Formula 0:",
            Shape::OpenCode => "Call run(0) with `ticks` and more words",
            Shape::DeepLists => "item 0",
        };
        assert!(all.starts_with(expected), "{}: {all:.200}", shape.name());
        for &algorithm in Algorithm::ALL {
            let mut extractor = Extractor::new(algorithm);
            let first = extractor.extract(page.as_bytes(), None);
            let (title, text) = (first.title.to_string(), first.text.to_string());
            let (lines, selection) = (first.lines, first.selection);
            let context = format!("{algorithm} on {}", shape.name());
            assert_eq!(title, "Shape", "{context}");
            // The text given is the page's text, or part of it: no markup,
            // no more of it, each word from the page (Filter 1 leaves
            // anchor text out, which can split a word of the page).
            assert!(!text.contains('<'), "{context}: {text:.200}");
            assert!(content(&text) <= content(&all), "{context}");
            for word in text.split_whitespace().take(1000) {
                assert!(all.contains(word), "{context}: {word:?}");
            }
            if let Some(selection) = selection {
                assert!(selection.lines.0 <= selection.lines.1, "{context}");
                assert!(
                    selection.lines.1 < lines,
                    "{context}: {selection:?} of {lines}"
                );
            }
            // The buffers kept from the page give the same text again.
            let again = extractor.extract(page.as_bytes(), None);
            assert_eq!(again.text, text, "{context}");
        }
    }
}

/// The line of Markdown `line` without its container prefix: `> `, list
/// markers and their indent.
fn unprefixed(line: &str) -> &str {
    let mut rest = line;
    loop {
        let before = rest.len();
        rest = rest.trim_start_matches(' ');
        rest = rest.strip_prefix("> ").unwrap_or(rest);
        rest = rest.strip_prefix("- ").unwrap_or(rest);
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest.get(digits..).is_some_and(|r| r.starts_with(". ")) {
            rest = rest.get(digits + 2..).unwrap_or_default();
        }
        if rest.len() == before {
            return rest;
        }
    }
}

/// The cells of a GFM table row: its `|`s not escaped by a backslash, but
/// one.
fn cells(row: &str) -> usize {
    let (mut pipes, mut backslashes) = (0, 0);
    for b in row.bytes() {
        if b == b'|' && backslashes % 2 == 0 {
            pipes += 1;
        }
        backslashes = if b == b'\\' { backslashes + 1 } else { 0 };
    }
    pipes - 1
}

/// What is wrong with `md` as Markdown: a code fence left open, or a GFM
/// table row (or delimiter row) not as wide as its header. The number of
/// table rows under the delimiter rows is returned when nothing is.
fn check_markdown(md: &str) -> Result<usize, String> {
    let mut fence: Option<usize> = None;
    let mut table: Option<(usize, bool)> = None;
    let mut rows = 0;
    for (n, line) in md.lines().enumerate() {
        let body = unprefixed(line);
        let ticks = body.bytes().take_while(|&b| b == b'`').count();
        if let Some(open) = fence {
            if ticks >= open && body.trim_end().len() == ticks {
                fence = None;
            }
            continue;
        }
        if ticks >= 3 {
            if body.get(ticks..).is_some_and(|lang| lang.contains('`')) {
                return Err(format!(
                    "line {n}: a fence with a backtick after it: {line:.80}"
                ));
            }
            fence = Some(ticks);
            table = None;
            continue;
        }
        if body.starts_with('|') {
            let width = cells(body);
            match table {
                None => table = Some((width, false)),
                Some((header, delimiter)) => {
                    if width != header {
                        return Err(format!(
                            "line {n}: {width} cells under a header of {header}: {line:.80}"
                        ));
                    }
                    if !delimiter && !body.starts_with("| --- |") {
                        return Err(format!(
                            "line {n}: no delimiter row under the header: {line:.80}"
                        ));
                    }
                    if delimiter {
                        rows += 1;
                    }
                    table = Some((header, true));
                }
            }
        } else {
            if matches!(table, Some((_, false))) {
                return Err(format!("line {n}: a table header alone: {line:.80}"));
            }
            table = None;
        }
    }
    match fence {
        Some(ticks) => Err(format!("a fence of {ticks} backticks never closed")),
        None => Ok(rows),
    }
}

#[test]
fn the_markdown_is_well_formed_on_every_shape() {
    for shape in Shape::ALL {
        let page = shape.page(200_000);
        for &algorithm in Algorithm::ALL {
            let context = format!("{algorithm} on {}", shape.name());
            let text = Extractor::new(algorithm)
                .extract(page.as_bytes(), None)
                .text
                .to_string();
            let options = MarkdownOptions {
                links: true,
                images: true,
            };
            let mut extractor = Extractor::new(algorithm).with_markdown(options);
            let page_url = Some("https://example.com/a/");
            let result = extractor.extract_at(page.as_bytes(), None, page_url);
            assert_eq!(result.text, text, "{context}: the text changed");
            let Some(md) = result.markdown.map(str::to_string) else {
                continue;
            };
            // The renderer writes a `String`; valid UTF-8 is checked again
            // on the bytes, as a reader of the output would.
            assert!(std::str::from_utf8(md.as_bytes()).is_ok(), "{context}");
            assert!(
                md.len() <= 16 * page.len() + 64,
                "{context}: {} bytes",
                md.len()
            );
            if let Err(e) = check_markdown(&md) {
                panic!("{context}: {e}");
            }
        }
    }
}

#[test]
fn a_table_of_100000_rows_is_one_gfm_table() {
    let page = Shape::LongTable.page(4_000_000);
    let rows = page.matches("<tr>").count();
    assert!(rows > 100_000, "{rows} rows");
    let mut extractor =
        Extractor::new(Algorithm::DEFAULT).with_markdown(MarkdownOptions::default());
    let md = extractor
        .extract(page.as_bytes(), None)
        .markdown
        .unwrap_or_default()
        .to_string();
    assert!(
        md.starts_with("| Name | Value |\n| --- | --- |\n| row 0 | 0 |"),
        "{md:.200}"
    );
    // The header, then every data row under it.
    assert_eq!(check_markdown(&md), Ok(rows - 1));
}

#[test]
fn the_default_algorithm_keeps_the_text_of_each_shape() {
    let mut extractor = Extractor::new(Algorithm::DEFAULT);
    let mut text_of = |shape: Shape| {
        let page = shape.page(200_000);
        extractor.extract(page.as_bytes(), None).text.to_string()
    };
    // Numbered lines are no copies of each other: all of them are given.
    let numbered = text_of(Shape::Numbered);
    let lines = Shape::Numbered.page(200_000).matches("<p>").count();
    assert_eq!(numbered.lines().count(), lines);
    assert!(numbered
        .lines()
        .all(|l| l.starts_with("This is line number")));
    // An unclosed `<svg>` drops its tag, not the rest of the page.
    let unclosed = text_of(Shape::Unclosed);
    assert!(unclosed.lines().count() > 1000, "{unclosed:.300}");
    assert!(unclosed
        .lines()
        .all(|l| l.ends_with("more words here and some more")));
    assert!(text_of(Shape::Cards).contains("$1.99"));
    assert_eq!(text_of(Shape::Nested), "deep text");
}

#[test]
fn buffers_stay_within_a_small_multiple_of_a_nested_page() {
    // A page every few bytes of which opens or closes an element: a line
    // per tag (on the nested page, folded past a run of 4,096 lines of
    // markup only; `tests/peak_memory.rs` bounds the peak there). The
    // buffers kept by the extractor (not the page) are measured after
    // extracting it.
    let mut over = Vec::new();
    for shape in [Shape::Nested, Shape::TinyLines] {
        let page = shape.page(2_000_000);
        for &algorithm in Algorithm::ALL {
            let mut extractor = Extractor::new(algorithm);
            extractor.extract(page.as_bytes(), None);
            let held = extractor.heap_bytes();
            // A line every 5.5 bytes (`<div>`, `</div>`) is 32 bytes of
            // counts and, for AdDANAg+, 24 of parts: 10 bytes a byte, and
            // more while the line vector grows (its capacity doubles).
            // The token-based algorithms hold 12 bytes a token (a token
            // every 3 bytes of `<p>x</p>`), CCB and ACCB also a value per
            // character, in `f32`, and two work copies of it: 12 bytes a
            // byte. Measured: at most 12.8 (AdDANAg+), 16.6 (TCCB), 27.4
            // (CCB).
            let most = match algorithm {
                Algorithm::Ccb | Algorithm::Accb => 30,
                Algorithm::Tccb | Algorithm::Cetr => 18,
                _ => 14,
            };
            if held > most * page.len() {
                over.push(format!("{algorithm} on {}: {held} bytes", shape.name()));
            }
        }
    }
    assert!(over.is_empty(), "{over:?} for pages of 2 MB");
}

/// A real page of the shared datasets, gunzipped.
fn real_page() -> Vec<u8> {
    let dir = support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets/scrapinghub/html");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let path = files.first().expect("a page");
    let mut raw = Vec::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(path).expect("open"))
        .read_to_end(&mut raw)
        .expect("gunzip");
    raw
}

#[test]
fn a_spent_page_timeout_stops_every_algorithm_and_the_next_page_goes_on() {
    let raw = real_page();
    for &algorithm in Algorithm::ALL {
        let mut unlimited = Extractor::new(algorithm);
        let expected = unlimited.extract(&raw, None).text.to_string();
        assert!(
            !expected.is_empty() || algorithm == Algorithm::Dana,
            "{algorithm}"
        );

        let mut extractor = Extractor::new(algorithm).with_page_timeout(Some(Duration::ZERO));
        assert_eq!(extractor.page_timeout(), Some(Duration::ZERO));
        let err = extractor.try_extract(&raw, None).map(|_| ()).unwrap_err();
        assert_eq!(
            err,
            PageTimeout {
                limit: Duration::ZERO
            }
        );
        assert!(err.to_string().contains("page timeout"), "{err}");
        // `extract` applies no timeout; a generous one does not trip; the
        // extractor is whole after a page was stopped.
        assert_eq!(extractor.extract(&raw, None).text, expected, "{algorithm}");
        extractor.set_page_timeout(Some(Duration::from_secs(3600)));
        let page = extractor
            .try_extract(&raw, None)
            .expect("within the timeout");
        assert_eq!(page.text, expected, "{algorithm}");
    }
}
