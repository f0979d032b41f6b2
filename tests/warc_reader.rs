//! The WARC reader over every real sample in ../shared/warc.

use crawlsift::warc::{ProblemKind, WarcReader};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[path = "support/shared.rs"]
mod support;
const CAP: u64 = 16 << 20;

#[derive(Debug, Default)]
struct Summary {
    types: BTreeMap<String, u64>,
    uris: Vec<String>,
    problems: Vec<crawlsift::warc::Problem>,
    ranges: Vec<(u64, Option<u64>)>,
}

fn summarize(path: &Path) -> Summary {
    let mut reader = WarcReader::open(path, CAP).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Summary::default();
    while let Some(item) = reader.next() {
        match item {
            Ok(r) => {
                let kind = r.headers.warc_type().unwrap_or_default().into_owned();
                *s.types.entry(kind).or_default() += 1;
                s.uris
                    .push(r.headers.target_uri().unwrap_or_default().into_owned());
                s.ranges.push((r.offset, r.length));
            }
            Err(p) => s.problems.push(p),
        }
    }
    s
}

fn shared(name: &str) -> PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), &format!("warc/{name}"))
}

fn inventory() -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(shared("inventory.json")).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// Record counts by type match warcio's inventory on every file warcio read
/// without error, and every gzip record (member layout) knows its exact range.
#[test]
fn every_shared_file_matches_the_inventory() {
    for entry in inventory() {
        let name = entry["file"].as_str().unwrap_or_default();
        let s = summarize(&shared(name));
        let expected: BTreeMap<String, u64> = entry["records"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
                    .collect()
            })
            .unwrap_or_default();
        println!("{name}: {:?} problems {:?}", s.types, s.problems);
        match name {
            // warcio refuses these; see the dedicated tests.
            "warcio_example-bad-non-chunked.warc.gz"
            | "warcio_example-wrong-chunks.warc.gz"
            | "resiliparse_clipped.warc.gz" => {}
            _ => {
                assert_eq!(s.types, expected, "{name}");
                assert!(s.problems.is_empty(), "{name}: {:?}", s.problems);
                assert!(
                    s.ranges.iter().all(|(_, len)| len.is_some()),
                    "{name}: a record without a range"
                );
            }
        }
    }
}

fn problems_of(path: &Path) -> Vec<crawlsift::warc::Problem> {
    summarize(path).problems
}

/// (WARC-Type, WARC-Target-URI) of every record, as the warc crate reads them.
fn oracle_records<R: std::io::BufRead>(
    reader: std::io::Result<warc::WarcReader<R>>,
) -> Vec<(String, Option<String>)> {
    let reader = reader.unwrap_or_else(|e| panic!("{e}"));
    reader
        .iter_records()
        .map(|record| {
            let record = record.unwrap_or_else(|e| panic!("{e}"));
            let uri = record.header(warc::WarcHeader::TargetURI);
            (record.warc_type().to_string(), uri.map(|u| u.into_owned()))
        })
        .collect()
}

/// The warc crate, an independent reader, sees the same records on the
/// well-formed files it can read (it needs CRLF headers and reads gzip as
/// one stream).
#[test]
fn same_records_as_the_warc_crate() {
    let files = [
        "cc_whirlwind.warc.gz",
        "resiliparse_warcfile.warc.gz",
        "dolma_sample-0000.warc.gz",
        "pywb_iana.warc.gz",
        "warcio_example-iana.org-chunked.warc",
        "warcio_example-space-in-target-uri.warc.gz",
    ];
    for name in files {
        let path = shared(name);
        let oracle = if name.ends_with(".gz") {
            oracle_records(warc::WarcReader::from_path_gzip(&path))
        } else {
            oracle_records(warc::WarcReader::from_path(&path))
        };
        let mut ours = Vec::new();
        let mut reader = WarcReader::open(&path, CAP).unwrap_or_else(|e| panic!("{e}"));
        while let Some(item) = reader.next() {
            let record = item.unwrap_or_else(|p| panic!("{p}"));
            let uri = record
                .headers
                .get("WARC-Target-URI")
                .map(|u| u.into_owned());
            ours.push((
                record.headers.warc_type().unwrap_or_default().into_owned(),
                uri,
            ));
        }
        assert!(!ours.is_empty());
        assert_eq!(ours, oracle, "{name}");
    }
}

#[test]
fn truncated_file_reports_the_cut_with_file_and_offset() {
    let problems = problems_of(&shared("resiliparse_clipped.warc.gz"));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(
        (problems[0].kind, problems[0].offset, problems[0].number),
        (ProblemKind::Truncated, 0, 1)
    );
    let message = problems[0].to_string();
    assert!(
        message.contains("resiliparse_clipped.warc.gz") && message.contains("offset 0"),
        "{message}"
    );
}

/// A single-gzip-stream file reads whole; its records have no own range.
#[test]
fn single_gzip_stream_reads_every_record() {
    let s = summarize(&shared("warcio_example-bad-non-chunked.warc.gz"));
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    assert_eq!(s.types.values().sum::<u64>(), 6);
    assert_eq!(s.ranges.first(), Some(&(0, None)));
}

/// Stdin-style streaming gives the same records, offsets and lengths as the map.
#[test]
fn stream_and_map_agree() {
    for name in [
        "resiliparse_warcfile.warc.gz",
        "warcio_example-iana.org-chunked.warc",
    ] {
        let path = shared(name);
        let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{e}"));
        let mut stream = WarcReader::from_stream(
            name.into(),
            std::io::BufReader::with_capacity(4096, file),
            CAP,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut streamed = Vec::new();
        while let Some(item) = stream.next() {
            let r = item.unwrap_or_else(|p| panic!("{p}"));
            streamed.push((r.offset, r.length, r.block.len()));
        }
        let mapped = summarize(&path).ranges;
        assert_eq!(
            streamed.iter().map(|r| (r.0, r.1)).collect::<Vec<_>>(),
            mapped,
            "{name}"
        );
    }
}

/// Flip bytes inside one gzip member of a real file: that record is lost and
/// reported at its member's offset; every other record is still read.
#[test]
fn corrupt_gzip_member_is_skipped_and_reported() {
    let path = shared("resiliparse_warcfile.warc.gz");
    let clean = summarize(&path);
    let (offset, length) = clean.ranges[5];
    let length = length.unwrap_or(0);
    let mut bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
    let middle = (offset + length / 2) as usize;
    for b in &mut bytes[middle..middle + 16] {
        *b ^= 0x5a;
    }
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let damaged = dir.path().join("damaged.warc.gz");
    std::fs::write(&damaged, bytes).unwrap_or_else(|e| panic!("{e}"));
    let s = summarize(&damaged);
    assert_eq!(s.problems.len(), 1, "{:?}", s.problems);
    assert_eq!(
        (
            s.problems[0].kind,
            s.problems[0].offset,
            s.problems[0].number
        ),
        (ProblemKind::CorruptGzip, offset, 6)
    );
    assert_eq!(s.ranges.len(), clean.ranges.len() - 1);
    assert_eq!(s.ranges[5], clean.ranges[6], "resumed at the next member");
}

/// A wrong Content-Length in an uncompressed file: that record is reported,
/// the reader resumes at the next `WARC/` line.
#[test]
fn wrong_content_length_resyncs() {
    let text = std::fs::read(shared("warcio_example-iana.org-chunked.warc"))
        .unwrap_or_else(|e| panic!("{e}"));
    let clean = summarize(&shared("warcio_example-iana.org-chunked.warc"));
    let needle = b"Content-Length: ";
    // The second record's Content-Length (the response), made 500 bytes short.
    let positions: Vec<usize> = text
        .windows(needle.len())
        .enumerate()
        .filter(|(_, w)| w == needle)
        .map(|(i, _)| i)
        .collect();
    let at = positions[1] + needle.len();
    let end = at + text[at..].iter().position(|&b| b == b'\r').unwrap_or(0);
    let value: u64 = std::str::from_utf8(&text[at..end])
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let damaged = [
        &text[..at],
        (value - 500).to_string().as_bytes(),
        &text[end..],
    ]
    .concat();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("damaged.warc");
    std::fs::write(&path, damaged).unwrap_or_else(|e| panic!("{e}"));
    let s = summarize(&path);
    assert_eq!(s.problems.len(), 1, "{:?}", s.problems);
    assert_eq!(
        (s.problems[0].kind, s.problems[0].number),
        (ProblemKind::BadContentLength, 2)
    );
    assert_eq!(s.ranges.len(), clean.ranges.len() - 1);
    assert_eq!(s.ranges.last(), clean.ranges.last());
}

#[test]
fn empty_and_non_warc_files() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let empty = dir.path().join("empty.warc");
    std::fs::write(&empty, b"").unwrap_or_else(|e| panic!("{e}"));
    let s = summarize(&empty);
    assert!(s.types.is_empty() && s.problems.is_empty());
    let html = dir.path().join("page.warc");
    std::fs::write(&html, b"<html><body>not a warc\0\0</body></html>")
        .unwrap_or_else(|e| panic!("{e}"));
    let problems = problems_of(&html);
    assert_eq!(problems.len(), 1);
    assert_eq!(
        (problems[0].kind, problems[0].offset),
        (ProblemKind::NotWarc, 0)
    );
}

/// A 200 MB single-line HTML record: read zero-copy from the map when under
/// the cap, skipped unbuffered (block empty) when over it; the next record
/// is read either way.
#[test]
fn huge_single_line_record() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("huge.warc");
    let size = 200usize << 20;
    let mut body = Vec::with_capacity(size + 100);
    body.extend_from_slice(b"<html><body><p>");
    body.resize(size - 18, b'x');
    body.extend_from_slice(b"</p></body></html>");
    let head = format!(
        "WARC/1.1\r\nWARC-Type: resource\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let tail = b"\r\n\r\nWARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 2\r\n\r\nok\r\n\r\n";
    let file = [head.as_bytes(), &body, tail].concat();
    drop(body);
    std::fs::write(&path, file).unwrap_or_else(|e| panic!("{e}"));
    for (cap, first_block) in [(u64::MAX, size), (16 << 20, 0)] {
        let mut reader = WarcReader::open(&path, cap).unwrap_or_else(|e| panic!("{e}"));
        let mut blocks = Vec::new();
        while let Some(item) = reader.next() {
            let r = item.unwrap_or_else(|p| panic!("{p}"));
            blocks.push((r.block.len(), r.oversized()));
        }
        assert_eq!(blocks, vec![(first_block, first_block == 0), (2, false)]);
    }
}

/// Every file in ../shared/warc, whatever it is, is read to the end without
/// a panic; the LZ4 one is refused by name, the WET and WAT files are WARCs.
#[test]
fn every_file_in_shared_reads_to_the_end() {
    let entries = std::fs::read_dir(shared("")).unwrap_or_else(|e| panic!("{e}"));
    let mut seen = 0;
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match WarcReader::open(&path, CAP) {
            Err(e) => assert!(
                name.ends_with(".lz4") && e.to_string().contains("LZ4"),
                "{name}: {e}"
            ),
            Ok(mut reader) => {
                let mut records = 0;
                while let Some(item) = reader.next() {
                    records += u64::from(item.is_ok());
                }
                if name.ends_with(".wet.gz") || name.ends_with(".wat.gz") {
                    assert_eq!(records, 2, "{name}");
                }
            }
        }
        seen += 1;
    }
    assert!(seen >= 28, "{seen} files");
}
