//! A record over the cap in a plain `.warc` is skipped without its block
//! staying resident: the map's pages are searched (for a record start that
//! would show its Content-Length lies) a chunk at a time and handed back.
//! Alone in its test binary, so that the process's peak (`VmHWM`) is this
//! test's.

#![cfg(target_os = "linux")]

use crawlsift::warc::WarcReader;
use std::io::{Seek, SeekFrom, Write};

/// The process's peak resident memory so far, in bytes.
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb << 10)
}

#[test]
fn an_oversized_record_is_skipped_without_paging_it_in() {
    const BLOCK: u64 = 768 << 20;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("big.warc");
    let mut file = std::fs::File::create(&path).unwrap_or_else(|e| panic!("{e}"));
    let head = format!(
        "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://big/\r\nContent-Length: {BLOCK}\r\n\r\n"
    );
    file.write_all(head.as_bytes())
        .unwrap_or_else(|e| panic!("{e}"));
    // The block is a hole (zeros, no disk): each page is still a page of
    // memory once the map touches it.
    file.seek(SeekFrom::Current(BLOCK as i64))
        .unwrap_or_else(|e| panic!("{e}"));
    file.write_all(
        b"\r\n\r\nWARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://small/\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    drop(file);

    let before = peak_rss();
    let mut reader = WarcReader::open(&path, 16 << 20).unwrap_or_else(|e| panic!("{e}"));
    let mut seen = Vec::new();
    while let Some(item) = reader.next() {
        let record = item.unwrap_or_else(|e| panic!("{e}"));
        seen.push((record.content_length, record.oversized()));
    }
    assert_eq!(seen, [(BLOCK, true), (2, false)]);
    let grown = peak_rss().saturating_sub(before);
    assert!(
        grown < 64 << 20,
        "peak RSS grew by {} MiB reading past a {} MiB record",
        grown >> 20,
        BLOCK >> 20
    );
}
