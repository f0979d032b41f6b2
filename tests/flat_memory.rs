//! Peak resident memory does not grow with the input's size: the pages of
//! the memory-mapped file behind the reader are handed back to the kernel.
//! Alone in its test binary, so that the process's peak (`VmHWM`) is this
//! test's.

#![cfg(target_os = "linux")]

use crawlsift::output::{Compression, Format, Formatter, Rendered};
use crawlsift::pipeline::{self, FileStats, Options, Progress, Sink, Skipped};
use crawlsift::Algorithm;
use flate2::write::GzEncoder;
use std::io::Write;
use std::path::{Path, PathBuf};

struct Discard;

impl Sink for Discard {
    fn sequential(&self) -> bool {
        false
    }
    fn write(&mut self, _file: usize, _page: Rendered) -> std::io::Result<()> {
        Ok(())
    }
    fn finish(&mut self, _file: usize, _stats: &FileStats) -> std::io::Result<Option<PathBuf>> {
        Ok(None)
    }
}

const MIB: usize = 1 << 20;

/// One `response` record holding a 1 MiB image: a candidate, so its block is
/// read and copied, but not HTML, so the workers skip it at once.
fn record() -> Vec<u8> {
    // Bytes that do not repeat within the record (a plain LCG).
    let mut x: u32 = 12345;
    let body: Vec<u8> = (0..MIB)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect();
    let mut block = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    block.extend_from_slice(&body);
    let mut out = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://big.example/\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    out.extend_from_slice(&block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

/// Writes `unit` `n` times to `path`.
fn write_repeated(path: &Path, unit: &[u8], n: usize) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for _ in 0..n {
        file.write_all(unit).unwrap();
    }
    file.flush().unwrap();
}

/// The process's peak resident memory so far, in bytes.
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM in /proc/self/status");
    let kb: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .unwrap();
    kb * 1024
}

fn extract(inputs: &[PathBuf], records: u64) {
    let options = Options {
        retry: Default::default(),
        algorithm: Algorithm::DEFAULT,
        page_timeout: Some(crawlsift::pipeline::DEFAULT_PAGE_TIMEOUT),
        workers: 2,
        max_record_bytes: 16 << 20,
        formatter: Formatter::new(Format::Jsonl, Compression::None),
        // One input, two workers: the gzip file is inflated in parts by two threads.
        split_min_bytes: 64 << 20,
        markdown: None,
        metadata: true,
        signals: Default::default(),
    };
    for input in inputs {
        let stats = pipeline::run(
            std::slice::from_ref(input),
            &options,
            &mut Discard,
            &Progress::default(),
            &mut || {},
        )
        .unwrap();
        assert_eq!(stats[0].error, None);
        assert_eq!(stats[0].read, records, "{:?}", stats[0]);
        assert_eq!(stats[0].skipped.get(&Skipped::NotHtml), Some(&records));
    }
}

#[test]
fn peak_memory_does_not_grow_with_the_input() {
    let record = record();
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::none());
    gz.write_all(&record).unwrap();
    let member = gz.finish().unwrap();

    let dir = tempfile::tempdir().unwrap();
    let (small, big) = (16, 192);
    let files = |n: usize| {
        let plain = dir.path().join(format!("{n}.warc"));
        let gzip = dir.path().join(format!("{n}.warc.gz"));
        write_repeated(&plain, &record, n);
        write_repeated(&gzip, &member, n);
        vec![plain, gzip]
    };
    let small_files = files(small);
    let big_files = files(big);

    extract(&small_files, small as u64);
    let after_small = peak_rss();
    extract(&big_files, big as u64);
    let after_big = peak_rss();
    // Were the big files' pages kept, the peak would grow by most of 192 MiB.
    let growth = after_big.saturating_sub(after_small);
    assert!(
        growth < 48 * MIB as u64,
        "peak RSS grew by {} MiB from {small} MiB to {big} MiB inputs ({} -> {} MiB)",
        growth / MIB as u64,
        after_small / MIB as u64,
        after_big / MIB as u64
    );
}
