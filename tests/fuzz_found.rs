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

/// A record over the cap, read from a plain stream: its block is dropped
/// unbuffered, and the records after it kept offsets that many bytes too
/// early (the map reader had them right), so `dana extract -` wrote wrong
/// `offset` and `length` for them.
#[test]
fn a_stream_keeps_offsets_after_a_record_over_the_cap() {
    let record = |i: usize, body: &str| {
        format!(
            "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://example.com/{i}\r\nContent-Length: {}\r\n\r\n{body}\r\n\r\n",
            body.len()
        )
    };
    let records = [
        record(1, &"x".repeat(250)),
        record(2, "<p>small</p>"),
        record(3, &"y".repeat(300)),
    ];
    let data = records.concat().into_bytes();
    let cap = 100;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("over.warc");
    std::fs::write(&path, &data).unwrap_or_else(|e| panic!("{e}"));
    let ranges = |mut reader: dana::warc::WarcReader| {
        let mut out = Vec::new();
        while let Some(item) = reader.next() {
            let r = item.unwrap_or_else(|p| panic!("{p}"));
            out.push((r.offset, r.length, r.oversized()));
        }
        out
    };
    let from_file =
        ranges(dana::warc::WarcReader::open(&path, cap).unwrap_or_else(|e| panic!("{e}")));
    let mut expected = Vec::new();
    let mut offset = 0;
    for r in &records {
        expected.push((offset, Some(r.len() as u64), r.len() > 200));
        offset += r.len() as u64;
    }
    assert_eq!(from_file, expected);
    for buffer in [1, 64, 4096] {
        let stream = dana::warc::WarcReader::from_stream(
            "-".into(),
            std::io::BufReader::with_capacity(buffer, std::io::Cursor::new(data.clone())),
            cap,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ranges(stream), expected, "stream buffer of {buffer} bytes");
    }
}
