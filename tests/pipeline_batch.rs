//! Many tiny records travel between the pipeline's threads in batches: the
//! output and every count are the same with one worker and with four, over
//! a plain file (records are slices of the map), a gzip file and a stream.

use crawlsift::output::{Compression, Format, Formatter, Rendered};
use crawlsift::pipeline::{self, FileStats, Input, Options, Progress, Sink};
use crawlsift::Algorithm;
use flate2::write::GzEncoder;
use std::io::Write;
use std::path::PathBuf;

/// Keeps every page's bytes, per input.
struct Collect {
    sequential: bool,
    pages: Vec<Vec<u8>>,
}

impl Sink for Collect {
    fn sequential(&self) -> bool {
        self.sequential
    }
    fn write(&mut self, file: usize, page: Rendered) -> std::io::Result<()> {
        match page {
            Rendered::Bytes(bytes) => self.pages[file].extend_from_slice(&bytes),
            Rendered::Row(row) => return Err(std::io::Error::other(format!("a row: {}", row.url))),
        }
        Ok(())
    }
    fn finish(&mut self, _file: usize, _stats: &FileStats) -> std::io::Result<Option<PathBuf>> {
        Ok(None)
    }
}

/// What the crafted WARC holds, counted as it is written.
#[derive(Debug, Default, PartialEq)]
struct Crafted {
    records: u64,
    html: u64,
    requests: u64,
    not_found: u64,
    not_html: u64,
    bad_http: u64,
}

fn record(out: &mut Vec<u8>, warc_type: &str, uri: &str, block: &[u8]) {
    write!(
        out,
        "WARC/1.0\r\nWARC-Type: {warc_type}\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{:012}>\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
        out.len(),
        block.len()
    )
    .unwrap();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
}

/// `n` records, mostly tiny HTML responses, some big ones (over a batch's
/// bytes together), requests, 404s, images and unparsable HTTP heads; one
/// `Vec` per record so that the caller can gzip each as its own member.
fn craft(n: u64) -> (Vec<Vec<u8>>, Crafted) {
    let mut crafted = Crafted::default();
    let mut records = Vec::new();
    for i in 0..n {
        let mut out = Vec::new();
        let uri = format!("http://tiny.example/{i}");
        let html = if i % 97 == 0 {
            // About 300 kB: a few of these fill a batch by bytes.
            format!(
                "<html><head><title>Big {i}</title></head><body>{}</body></html>",
                format!("<p>Paragraph {i} of a long page with words in it.</p>").repeat(6000)
            )
        } else {
            format!("<html><head><title>Page {i}</title></head><body><article><h1>Page {i}</h1><p>Record number {i} says something short but real enough.</p></article></body></html>")
        };
        let (status, content_type) = match i % 10 {
            7 => ("404 Not Found", "text/html"),
            8 => ("200 OK", "image/png"),
            _ => ("200 OK", "text/html; charset=utf-8"),
        };
        if i % 11 == 5 {
            record(
                &mut out,
                "request",
                &uri,
                b"GET / HTTP/1.1\r\nHost: tiny.example\r\n\r\n",
            );
            crafted.requests += 1;
        } else if i % 13 == 6 {
            record(&mut out, "response", &uri, b"not an HTTP head at all");
            crafted.bad_http += 1;
        } else {
            let body = if content_type == "image/png" {
                b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec()
            } else {
                html.into_bytes()
            };
            let mut block = format!(
                "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )
            .into_bytes();
            block.extend_from_slice(&body);
            record(&mut out, "response", &uri, &block);
            match i % 10 {
                7 => crafted.not_found += 1,
                8 => crafted.not_html += 1,
                _ => crafted.html += 1,
            }
        }
        crafted.records += 1;
        records.push(out);
    }
    (records, crafted)
}

fn gzip_members(records: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for record in records {
        let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(record).unwrap();
        out.extend_from_slice(&gz.finish().unwrap());
    }
    out
}

fn run(inputs: &[Input], workers: usize, sequential: bool) -> (Vec<FileStats>, Vec<Vec<u8>>) {
    let options = Options {
        retry: Default::default(),
        algorithm: Algorithm::DEFAULT,
        page_timeout: Some(crawlsift::pipeline::DEFAULT_PAGE_TIMEOUT),
        workers,
        max_record_bytes: 16 << 20,
        formatter: Formatter::new(Format::Jsonl, Compression::None),
        split_min_bytes: u64::MAX,
        markdown: None,
        metadata: true,
        signals: Default::default(),
    };
    let mut sink = Collect {
        sequential,
        pages: vec![Vec::new(); inputs.len()],
    };
    let stats = pipeline::run_inputs(
        inputs,
        &options,
        &mut sink,
        &Progress::default(),
        &mut || {},
    )
    .expect("the run completes");
    (stats, sink.pages)
}

fn check_counts(stats: &FileStats, crafted: &Crafted) {
    assert_eq!(stats.error, None, "{}", stats.file);
    assert_eq!(stats.read, crafted.records, "{stats:?}");
    assert_eq!(stats.extracted, crafted.html, "{stats:?}");
    let skipped = |r: &str| stats.skipped_as(r);
    let failed = |r: &str| stats.failed_as(r);
    assert_eq!(skipped("request"), crafted.requests, "{stats:?}");
    assert_eq!(skipped("http_status"), crafted.not_found, "{stats:?}");
    assert_eq!(skipped("not_html"), crafted.not_html, "{stats:?}");
    assert_eq!(failed("bad_http"), crafted.bad_http, "{stats:?}");
}

/// The page URLs of a JSONL output, in order.
fn urls(jsonl: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(jsonl)
        .lines()
        .map(|line| {
            let row: serde_json::Value = serde_json::from_str(line).expect("a JSON row");
            row["url"].as_str().expect("a url").to_owned()
        })
        .collect()
}

#[test]
fn many_tiny_records_give_the_same_output_and_counts_with_one_and_four_workers() {
    let (records, crafted) = craft(3000);
    let plain = records.concat();
    let gz = gzip_members(&records);
    let dir = tempfile::tempdir().unwrap();
    let plain_path = dir.path().join("tiny.warc");
    let gz_path = dir.path().join("tiny.warc.gz");
    std::fs::write(&plain_path, &plain).unwrap();
    std::fs::write(&gz_path, &gz).unwrap();
    let inputs = || {
        vec![
            Input::Path(plain_path.clone()),
            Input::Path(gz_path.clone()),
            Input::stream("tiny-stream.warc.gz", std::io::Cursor::new(gz.clone())),
        ]
    };
    // The HTML responses, in input order: what every output must list.
    let expected: Vec<String> = (0..crafted.records)
        .filter(|i| i % 11 != 5 && i % 13 != 6 && i % 10 != 7 && i % 10 != 8)
        .map(|i| format!("http://tiny.example/{i}"))
        .collect();
    assert_eq!(expected.len() as u64, crafted.html);

    let (stats_1, pages_1) = run(&inputs(), 1, true);
    for sequential in [true, false] {
        let (stats_4, pages_4) = run(&inputs(), 4, sequential);
        for (file, (one, four)) in stats_1.iter().zip(&stats_4).enumerate() {
            check_counts(one, &crafted);
            check_counts(four, &crafted);
            assert_eq!(one.skipped, four.skipped);
            assert_eq!(one.failed, four.failed);
            assert_eq!(urls(&pages_1[file]), expected, "{}", one.file);
            assert!(
                pages_1[file] == pages_4[file],
                "{}: the output differs between -j 1 and -j 4 (sequential sink: {sequential})",
                one.file
            );
        }
    }
}
