//! Every algorithm on pages of the shapes that would make a step
//! super-linear (`benches/common/shapes.rs`; speed is measured by
//! `benches/scaling.rs`, never asserted here): the results are well formed,
//! the extractor's buffers stay within a small multiple of the page, and the
//! page timeout stops a real page.

#[path = "../../../benches/common/shapes.rs"]
mod shapes;

use crawlsift_extract::{Algorithm, Extractor, PageTimeout};
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
    // per tag. The buffers kept by the extractor (not the page) are
    // measured after extracting it.
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
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/datasets/scrapinghub/html"
    );
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
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
