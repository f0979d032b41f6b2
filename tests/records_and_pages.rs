//! Records and pages that are not one whole, plainly labelled HTTP response,
//! through the pipeline over crafted WARCs: segmented records, pages in
//! UTF-16 without a byte-order mark, labels whose decoder yields no text,
//! blocks that are not HTTP, and 206 Partial Content responses.

mod collect;
use collect::Collect;

use crawlsift::output::{Compression, Format, Formatter};
use crawlsift::pipeline::{self, FileStats, Input, Options, Progress};
use crawlsift::Algorithm;

/// One WARC record: `headers` are extra header lines (each ending in CRLF).
fn record(warc_type: &str, id: &str, uri: &str, headers: &str, block: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "WARC/1.1\r\nWARC-Type: {warc_type}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: {uri}\r\n{headers}Content-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

/// An HTTP response block.
fn http(status: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let mut block =
        format!("HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n\r\n").into_bytes();
    block.extend_from_slice(body);
    block
}

fn response(id: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    record("response", id, uri, "", block)
}

/// A page with one paragraph per string.
fn page(paragraphs: &[&str]) -> String {
    let body: String = paragraphs.iter().map(|p| format!("<p>{p}</p>\n")).collect();
    format!("<html><head><title>A page</title></head><body><article>{body}</article></body></html>")
}

/// Runs the pipeline over `data` with the record cap `cap`, read as a file
/// and as a stream: both must agree; returns the stats and the JSONL rows.
fn run_with_cap(data: &[u8], cap: u64) -> (FileStats, Vec<serde_json::Value>) {
    let options = Options {
        retry: Default::default(),
        algorithm: Algorithm::DEFAULT,
        page_timeout: Some(crawlsift::pipeline::DEFAULT_PAGE_TIMEOUT),
        workers: 2,
        max_record_bytes: cap,
        formatter: Formatter::new(Format::Jsonl, Compression::None),
        split_min_bytes: u64::MAX,
        signals: Default::default(),
        markdown: None,
        metadata: true,
    };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("crafted.warc");
    std::fs::write(&path, data).unwrap_or_else(|e| panic!("{e}"));
    let mut outputs = Vec::new();
    for input in [
        Input::Path(path.clone()),
        Input::stream("crafted.warc", std::io::Cursor::new(data.to_vec())),
    ] {
        let mut sink = Collect::default();
        let mut stats = pipeline::run_inputs(
            &[input],
            &options,
            &mut sink,
            &Progress::default(),
            &mut || {},
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let stats = stats.remove(0);
        let skipped: u64 = stats.skipped.values().sum();
        let failed: u64 = stats.failed.values().sum();
        assert_eq!(stats.read, stats.extracted + skipped + failed, "{stats:?}");
        let rows: Vec<serde_json::Value> = String::from_utf8_lossy(&sink.0)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
            .collect();
        assert_eq!(stats.extracted, rows.len() as u64, "{stats:?}");
        outputs.push((stats, rows));
    }
    let (stream, stream_rows) = outputs.pop().unwrap_or_default();
    let (file, rows) = outputs.pop().unwrap_or_default();
    assert_eq!(
        (
            file.read,
            file.extracted,
            &file.skipped,
            &file.failed,
            &rows
        ),
        (
            stream.read,
            stream.extracted,
            &stream.skipped,
            &stream.failed,
            &stream_rows
        ),
        "a file and a stream give the same"
    );
    (file, rows)
}

fn run(data: &[u8]) -> (FileStats, Vec<serde_json::Value>) {
    run_with_cap(data, 16 << 20)
}

/// The row of the page at `uri`.
fn row<'a>(rows: &'a [serde_json::Value], uri: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|row| row["url"] == uri)
        .unwrap_or_else(|| panic!("no page for {uri} in {rows:?}"))
}

/// A response cut into segments of about `size` bytes: the first segment
/// a `response` record, the others `continuation` records, the last with
/// the total length; `last` false leaves the last segment out.
fn segmented(id: &str, uri: &str, block: &[u8], size: usize, last: bool) -> Vec<Vec<u8>> {
    let parts: Vec<&[u8]> = block.chunks(size).collect();
    let mut records = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let number = i + 1;
        if number == 1 {
            records.push(record(
                "response",
                id,
                uri,
                "WARC-Segment-Number: 1\r\n",
                part,
            ));
            continue;
        }
        let is_last = number == parts.len();
        if is_last && !last {
            break;
        }
        let total = if is_last {
            format!("WARC-Segment-Total-Length: {}\r\n", block.len())
        } else {
            String::new()
        };
        records.push(record(
            "continuation",
            &format!("{id}-{number}"),
            uri,
            &format!(
                "WARC-Segment-Origin-ID: <urn:uuid:{id}>\r\nWARC-Segment-Number: {number}\r\n{total}"
            ),
            part,
        ));
    }
    records
}

/// A response block whose page is long enough to be cut in three, its last
/// paragraph saying `last`.
fn long_block(last: &str) -> Vec<u8> {
    let mut paragraphs = vec!["The first paragraph of a long page, with words enough to keep."; 20];
    paragraphs.push(last);
    http(
        "200 OK",
        "text/html; charset=utf-8",
        page(&paragraphs).as_bytes(),
    )
}

#[test]
fn segments_in_one_file_are_one_page() {
    let whole = long_block("The closing paragraph, which only the last segment holds.");
    let cut = long_block("The closing paragraph of a record whose last segment is lost.");
    let size = whole.len() / 3 + 1;
    let mut data = Vec::new();
    let mut records = segmented("a", "http://seg.example/whole", &whole, size, true);
    // A plain record between the segments.
    records.insert(
        2,
        response(
            "b",
            "http://seg.example/plain",
            &http(
                "200 OK",
                "text/html",
                page(&["A plain page between segments, whole."]).as_bytes(),
            ),
        ),
    );
    records.extend(segmented(
        "c",
        "http://seg.example/cut",
        &cut,
        cut.len() / 3 + 1,
        false,
    ));
    for r in &records {
        data.extend_from_slice(r);
    }
    let (stats, rows) = run(&data);
    assert_eq!(stats.read, 6, "{stats:?}");
    assert_eq!(stats.extracted, 3, "{stats:?}");
    // Each continuation is counted once, as a continuation.
    assert_eq!(stats.skipped_as("continuation"), 3, "{stats:?}");
    let whole_row = row(&rows, "http://seg.example/whole");
    assert_eq!(
        whole_row["truncated"],
        serde_json::Value::Null,
        "{whole_row}"
    );
    let text = whole_row["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("The closing paragraph, which only the last segment holds."),
        "{text}"
    );
    assert_eq!(whole_row["offset"], 0);
    // The segments' input is not whole: the page says so.
    let cut_row = row(&rows, "http://seg.example/cut");
    assert_eq!(cut_row["truncated"], "segment", "{cut_row}");
    assert!(!cut_row["text"]
        .as_str()
        .unwrap_or_default()
        .contains("is lost"));
    assert_eq!(
        row(&rows, "http://seg.example/plain")["truncated"],
        serde_json::Value::Null
    );
}

#[test]
fn segments_missing_their_start_or_their_order_are_counted_and_said() {
    let block = long_block("The end of a page whose segments come out of order.");
    let size = block.len() / 3 + 1;
    let mut records = segmented("d", "http://seg.example/order", &block, size, true);
    // Segment 3 before segment 2: the record is what segment 1 holds.
    records.swap(1, 2);
    // A continuation whose first segment is in another file.
    let orphan = segmented("e", "http://seg.example/orphan", &block, size, true);
    records.push(orphan[1].clone());
    let data: Vec<u8> = records.concat();
    let (stats, rows) = run(&data);
    assert_eq!(stats.read, 4, "{stats:?}");
    assert_eq!(stats.extracted, 1, "{stats:?}");
    assert_eq!(stats.skipped_as("continuation"), 3, "{stats:?}");
    assert_eq!(
        row(&rows, "http://seg.example/order")["truncated"],
        "segment"
    );
    // The continuations that continue nothing are reported with their offset.
    let said: Vec<&String> = stats
        .problems
        .iter()
        .filter(|p| p.contains("continuation record") && p.contains("byte offset"))
        .collect();
    assert_eq!(said.len(), 3, "{:?}", stats.problems);
    assert!(said.iter().any(|p| p.contains("urn:uuid:e>")), "{said:?}");
}

#[test]
fn segments_over_the_cap_or_too_many_at_once_stay_bounded() {
    let block = long_block("The end of a page too big once its segments are joined.");
    let size = block.len() / 3 + 1;
    let cap = (size + 100) as u64;
    let data: Vec<u8> = segmented("f", "http://seg.example/big", &block, size, true).concat();
    let (stats, rows) = run_with_cap(&data, cap);
    assert!(rows.is_empty(), "{rows:?}");
    assert_eq!(stats.read, 3, "{stats:?}");
    assert_eq!(
        (
            stats.skipped_as("too_large"),
            stats.skipped_as("continuation")
        ),
        (1, 2),
        "{stats:?}"
    );
    assert!(
        stats
            .problems
            .iter()
            .any(|p| p.contains("segments add up to") && p.contains("byte offset 0")),
        "{:?}",
        stats.problems
    );
    // Six segmented records open at once (all first segments, then all the
    // rest): those beyond the ones kept open are given as they are, marked.
    let size = block.len() / 2 + 1;
    let all: Vec<Vec<Vec<u8>>> = (0..6)
        .map(|i| {
            segmented(
                &format!("g{i}"),
                &format!("http://seg.example/g{i}"),
                &block,
                size,
                true,
            )
        })
        .collect();
    let mut data = Vec::new();
    for records in &all {
        data.extend_from_slice(&records[0]);
    }
    for records in &all {
        data.extend_from_slice(&records[1]);
    }
    let (stats, rows) = run(&data);
    assert_eq!((stats.read, stats.extracted), (12, 6), "{stats:?}");
    let truncated: Vec<&serde_json::Value> = rows.iter().map(|r| &r["truncated"]).collect();
    assert!(truncated.iter().any(|t| **t == "segment"), "{truncated:?}");
    assert!(truncated.iter().any(|t| t.is_null()), "{truncated:?}");
}

/// `text` in UTF-16, little- or big-endian, without a byte-order mark.
fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    text.encode_utf16()
        .flat_map(|u| {
            if big_endian {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            }
        })
        .collect()
}

#[test]
fn utf16_pages_labelled_without_a_byte_order_mark_are_read() {
    let words = "Ein Text in UTF-16, ohne Byte-Order-Mark, aber richtig ausgezeichnet: Grüße.";
    let html = page(&[words]);
    let meta = format!(
        "<html><head><meta charset=\"utf-16le\"><title>T</title></head><body><article><p>{words}</p></article></body></html>"
    );
    let mut data = Vec::new();
    for (i, (content_type, body)) in [
        ("text/html; charset=utf-16le", utf16(&html, false)),
        ("text/html; charset=UTF-16BE", utf16(&html, true)),
        ("text/html", utf16(&meta, false)),
    ]
    .iter()
    .enumerate()
    {
        data.extend(response(
            &format!("u{i}"),
            &format!("http://utf16.example/{i}"),
            &http("200 OK", content_type, body),
        ));
    }
    let (stats, rows) = run(&data);
    assert_eq!(
        (stats.extracted, stats.skipped_as("binary")),
        (3, 0),
        "{stats:?}"
    );
    for (i, charset) in ["UTF-16LE", "UTF-16BE", "UTF-16LE"].iter().enumerate() {
        let row = row(&rows, &format!("http://utf16.example/{i}"));
        assert_eq!(row["charset"], *charset, "{row}");
        assert!(
            row["text"].as_str().unwrap_or_default().contains(words),
            "{row}"
        );
    }
}

#[test]
fn labels_whose_decoder_gives_no_text_yield_to_the_bytes() {
    let words = "Plain words on a page whose label names a decoder that gives no text.";
    let chinese = "这是一个中文网页，服务器说它是 UTF-16，其实它是 UTF-8 编码的文字。";
    let mut data = Vec::new();
    for (i, (content_type, body)) in [
        ("text/html; charset=iso-2022-kr", page(&[words])),
        ("text/html; charset=hz-gb-2312", page(&[words])),
        ("text/html; charset=utf-16", page(&[chinese])),
        ("text/html; charset=utf-16be", page(&[words])),
    ]
    .iter()
    .enumerate()
    {
        data.extend(response(
            &format!("r{i}"),
            &format!("http://label.example/{i}"),
            &http("200 OK", content_type, body.as_bytes()),
        ));
    }
    let (stats, rows) = run(&data);
    assert_eq!(stats.extracted, 4, "{stats:?}");
    for (i, expected) in [words, words, chinese, words].iter().enumerate() {
        let row = row(&rows, &format!("http://label.example/{i}"));
        let text = row["text"].as_str().unwrap_or_default();
        assert!(text.contains(expected), "{row}");
        assert!(!text.contains('\u{fffd}'), "{row}");
        // The page says which encoding it was read as.
        assert_eq!(row["charset"], "UTF-8", "{row}");
    }
}

#[test]
fn a_block_that_is_not_http_is_reported_where_it_is() {
    let first = response(
        "h1",
        "http://http.example/fine",
        &http(
            "200 OK",
            "text/html",
            page(&["A fine page before a broken one."]).as_bytes(),
        ),
    );
    let broken = response(
        "h2",
        "http://http.example/broken",
        b"not an HTTP head at all",
    );
    let data = [first.clone(), broken].concat();
    let (stats, rows) = run(&data);
    assert_eq!(
        (stats.extracted, stats.failed_as("bad_http")),
        (1, 1),
        "{stats:?}"
    );
    assert_eq!(rows.len(), 1);
    let said: Vec<&String> = stats
        .problems
        .iter()
        .filter(|p| p.contains("not an HTTP response"))
        .collect();
    assert_eq!(said.len(), 1, "{:?}", stats.problems);
    let offset = format!(
        "record 2 at byte offset {} (http://http.example/broken)",
        first.len()
    );
    assert!(said[0].contains(&offset), "{said:?}");
    assert!(said[0].contains("crafted.warc"), "{said:?}");
}

#[test]
fn a_206_partial_content_page_is_marked_truncated() {
    let partial = http(
        "206 Partial Content",
        "text/html",
        page(&["The first bytes of a page served in a range, and no more."]).as_bytes(),
    );
    let whole = http(
        "200 OK",
        "text/html",
        page(&["A whole page, served whole."]).as_bytes(),
    );
    let mut data = response("p1", "http://range.example/partial", &partial);
    data.extend(response("p2", "http://range.example/whole", &whole));
    // The crawler's own reason wins over the status.
    data.extend(record(
        "response",
        "p3",
        "http://range.example/both",
        "WARC-Truncated: length\r\n",
        &partial,
    ));
    let (stats, rows) = run(&data);
    assert_eq!(stats.extracted, 3, "{stats:?}");
    assert_eq!(
        row(&rows, "http://range.example/partial")["truncated"],
        "partial"
    );
    assert_eq!(
        row(&rows, "http://range.example/partial")["http_status"],
        206
    );
    assert!(row(&rows, "http://range.example/whole")["truncated"].is_null());
    assert_eq!(
        row(&rows, "http://range.example/both")["truncated"],
        "length"
    );
}
