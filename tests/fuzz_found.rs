//! Inputs the fuzz targets (fuzz/, see FUZZING.md) found to break the
//! library, minimised, each checked as its target checks it.

use crawlsift::{charset, Algorithm, Extractor};

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
/// early (the map reader had them right), so `crawlsift extract -` wrote wrong
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
    let ranges = |mut reader: crawlsift::warc::WarcReader| {
        let mut out = Vec::new();
        while let Some(item) = reader.next() {
            let r = item.unwrap_or_else(|p| panic!("{p}"));
            out.push((r.offset, r.length, r.oversized()));
        }
        out
    };
    let from_file =
        ranges(crawlsift::warc::WarcReader::open(&path, cap).unwrap_or_else(|e| panic!("{e}")));
    let mut expected = Vec::new();
    let mut offset = 0;
    for r in &records {
        expected.push((offset, Some(r.len() as u64), r.len() > 200));
        offset += r.len() as u64;
    }
    assert_eq!(from_file, expected);
    for buffer in [1, 64, 4096] {
        let stream = crawlsift::warc::WarcReader::from_stream(
            "-".into(),
            std::io::BufReader::with_capacity(buffer, std::io::Cursor::new(data.clone())),
            cap,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ranges(stream), expected, "stream buffer of {buffer} bytes");
    }
}

/// The items a reader returns: number, offset and `record` or the problem.
fn items(mut reader: crawlsift::warc::WarcReader) -> Vec<(u64, u64, String)> {
    let mut out = Vec::new();
    while let Some(item) = reader.next() {
        out.push(match item {
            Ok(r) => (r.number, r.offset, "record".to_string()),
            Err(p) => (p.number, p.offset, p.kind.reason().to_string()),
        });
    }
    out
}

/// `data` as a `.warc.gz` file, as streams read in pieces of 1 B to
/// 256 KiB, and split between threads in parts of 64 B and 4 KiB: each
/// gives `expected`.
fn every_reader_gives(data: &[u8], expected: &[(u64, u64, &str)]) {
    let expected: Vec<(u64, u64, String)> = expected
        .iter()
        .map(|&(n, offset, what)| (n, offset, what.to_string()))
        .collect();
    let cap = 1 << 20;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("damaged.warc.gz");
    std::fs::write(&path, data).unwrap_or_else(|e| panic!("{e}"));
    let file = crawlsift::warc::WarcReader::open(&path, cap).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(items(file), expected, "the file");
    for buffer in [1, 64, 4096, 65536, 256 << 10] {
        let stream = crawlsift::warc::WarcReader::from_stream(
            "-".into(),
            std::io::BufReader::with_capacity(buffer, std::io::Cursor::new(data.to_vec())),
            cap,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(items(stream), expected, "stream buffer of {buffer} bytes");
    }
    for part in [64, 4096] {
        let split = crawlsift::warc::Split {
            threads: 2,
            min_file_bytes: 0,
            max_part_bytes: part,
        };
        let reader = crawlsift::warc::WarcReader::open_split(&path, cap, split)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(items(reader), expected, "split in parts of {part} bytes");
    }
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap_or_else(|e| panic!("{e}"));
    e.finish().unwrap_or_else(|e| panic!("{e}"))
}

/// A record whose `Content-Length` (10, or `ten`) is wrong, with 400 KB
/// after its block: more than a stream or the record reader reads at once.
fn bad_records() -> [String; 2] {
    let filler: String = (0..70_000).map(|i| format!("{i:x} ")).collect();
    assert!(filler.len() > 300_000);
    [
        format!("WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 10\r\n\r\n0123456789{filler}"),
        format!("WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: ten\r\n\r\n{filler}"),
    ]
}

fn good_record(i: usize, body: &str) -> String {
    format!(
        "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://example.com/{i}\r\nContent-Length: {}\r\n\r\n{body}\r\n\r\n",
        body.len()
    )
}

/// A gzip member whose CRC fails (its deflate data intact, so zlib finds
/// the damage only at the member's end) holding a record that is bad in
/// itself (`bad_records`). A stream inflates such a member in pieces
/// and its record reader judged the record before the damage showed, so
/// it reported `bad_content_length` and then `corrupt_gzip` at the same
/// offset, while the map, inflating the member whole, reported only
/// `corrupt_gzip`: one damage is one problem, the same whichever reader
/// and read size.
#[test]
fn a_record_in_a_member_with_a_bad_crc_is_one_problem() {
    for bad in bad_records() {
        let first = gzip(good_record(1, "<p>first</p>").as_bytes());
        let mut damaged = gzip(bad.as_bytes());
        let n = damaged.len();
        damaged[n - 8] ^= 0x55; // the CRC-32 in the member's trailer
        let last = gzip(good_record(3, "<p>last</p>").as_bytes());
        let data = [first.clone(), damaged.clone(), last].concat();
        let (a, b) = (first.len() as u64, (first.len() + damaged.len()) as u64);
        every_reader_gives(
            &data,
            &[(1, 0, "record"), (2, a, "corrupt_gzip"), (3, b, "record")],
        );
    }
}

/// The same record in a member cut short (100 bytes before its end, its
/// output so far over the 256 KiB the record reader asks for at once) at
/// the end of the file: the map and streams judged the record on that
/// output and reported `bad_content_length`, then `truncated` at the same
/// offset; the split reader only `truncated` (found by `warc_split`).
#[test]
fn a_record_in_a_member_cut_short_is_one_problem() {
    for bad in bad_records() {
        let damaged = gzip(bad.as_bytes());
        let first = gzip(good_record(1, "<p>first</p>").as_bytes());
        for before in [&[][..], &first] {
            let cut = &damaged[..damaged.len() - 100];
            let data = [before, cut].concat();
            let at = before.len() as u64;
            let mut expected = vec![(1, 0, "record"), (2, at, "truncated")];
            if before.is_empty() {
                expected.remove(0);
                expected[0].0 = 1;
            }
            every_reader_gives(&data, &expected);
        }
    }
}
