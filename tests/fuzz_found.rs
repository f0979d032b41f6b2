//! Inputs the fuzz targets (fuzz/, see FUZZING.md) found to break the
//! library, minimised, each checked as its target checks it.

use dana::{charset, Algorithm, Extractor};

/// Every algorithm extracts nothing, without panicking, from pages that
/// have no virtual lines: CETR smoothed its empty list of line ratios with
/// a Gaussian whose mirrored ends divided by the list's length.
#[test]
fn every_algorithm_takes_a_page_without_lines() {
    let pages: [&[u8]; 5] = [
        b"",
        b" \n\t",
        b"<html></html>",
        b"<script>var x = 1;</script><!-- nothing -->",
        b"\xff\xfe",
    ];
    for &algorithm in Algorithm::ALL {
        for page in pages {
            let mut extractor = Extractor::new(algorithm);
            let extraction = extractor.extract(page, None);
            assert_eq!(
                (extraction.title, extraction.text),
                ("", ""),
                "{} on {page:?}",
                algorithm.name()
            );
        }
    }
    let mut buffer = String::new();
    assert_eq!(charset::decode(b"", None, &mut buffer).text, "");
}
