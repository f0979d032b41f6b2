//! `pipeline::run_inputs` over byte streams gives what `run` gives over the
//! same files, and `Progress::stop` ends a run early.

mod collect;
use collect::Collect;

use crawlsift::output::{Compression, Format, Formatter};
use crawlsift::pipeline::{self, FileStats, Input, Options, Progress};
use crawlsift::Algorithm;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::Ordering;

#[path = "support/shared.rs"]
mod support;

/// A file of the shared WARC samples (TESTING.md); a missing folder fails naming it.
fn shared(name: &str) -> std::path::PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), &format!("warc/{name}"))
}

/// Hands out at most `n` bytes per read, as a slow network stream would.
struct Trickle<R>(R, usize);

impl<R: Read> Read for Trickle<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.1);
        self.0.read(&mut buf[..n])
    }
}

fn options() -> Options {
    Options {
        retry: Default::default(),
        algorithm: Algorithm::DEFAULT,
        page_timeout: Some(crawlsift::pipeline::DEFAULT_PAGE_TIMEOUT),
        workers: 2,
        max_record_bytes: 16 << 20,
        formatter: Formatter::new(Format::Jsonl, Compression::None),
        split_min_bytes: u64::MAX,
        markdown: None,
        metadata: true,
        signals: Default::default(),
    }
}

fn run(inputs: &[Input], progress: &Progress) -> (std::io::Result<Vec<FileStats>>, Vec<u8>) {
    let mut sink = Collect::default();
    let stats = pipeline::run_inputs(inputs, &options(), &mut sink, progress, &mut || {});
    (stats, sink.0)
}

/// The JSONL rows, for readable failures.
fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn open(path: &Path) -> std::fs::File {
    std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_stream_reads_like_its_file() {
    for name in [
        "resiliparse_warcfile.warc.gz",
        "warcio_example-iana.org-chunked.warc",
        "warcio_example-trunc.warc",
        "pywb_example-wpull.warc.gz",
    ] {
        let path = shared(name);
        let label = path.display().to_string();
        let (by_path, pages_by_path) = run(&[Input::Path(path.clone())], &Progress::default());
        let by_path = by_path.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(by_path[0].read > 0, "{name}: nothing read");
        for (how, input) in [
            ("file", Input::stream(label.clone(), open(&path))),
            (
                "7 bytes a read",
                Input::stream(label.clone(), Trickle(open(&path), 7)),
            ),
            (
                "1 byte a read",
                Input::stream(label.clone(), Trickle(open(&path), 1)),
            ),
        ] {
            let (by_stream, pages) = run(&[input], &Progress::default());
            let by_stream = by_stream.unwrap_or_else(|e| panic!("{name}: {e}"));
            let (got, want) = (lines(&pages), lines(&pages_by_path));
            assert_eq!(got.len(), want.len(), "{name}, {how}: page count");
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g, w, "{name}, {how}: pages differ");
            }
            let (a, b) = (&by_stream[0], &by_path[0]);
            assert_eq!(
                (
                    a.read,
                    a.extracted,
                    &a.skipped,
                    &a.failed,
                    &a.problems,
                    a.bytes
                ),
                (
                    b.read,
                    b.extracted,
                    &b.skipped,
                    &b.failed,
                    &b.problems,
                    b.bytes
                ),
                "{name}, {how}"
            );
        }
    }
}

#[test]
fn a_stream_that_is_not_warc_is_an_error_with_its_name() {
    let html = b"<html><body>not an archive</body></html>".repeat(10);
    let input = Input::stream("page.html", std::io::Cursor::new(html));
    let (stats, pages) = run(&[input], &Progress::default());
    let stats = stats.unwrap_or_else(|e| panic!("{e}"));
    assert!(pages.is_empty());
    let error = stats[0].error.clone().unwrap_or_default();
    assert!(error.starts_with("page.html: not a WARC file"), "{error}");
}

#[test]
fn a_failing_stream_is_reported_not_panicked() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let (stats, _) = run(&[Input::stream("broken", Broken)], &Progress::default());
    let stats = stats.unwrap_or_else(|e| panic!("{e}"));
    let error = stats[0].error.clone().unwrap_or_default();
    assert_eq!(error, "cannot read broken: disk on fire");
}

#[test]
fn stop_ends_the_run_with_interrupted() {
    let progress = Progress::default();
    progress.stop.store(true, Ordering::Relaxed);
    let path = shared("resiliparse_warcfile.warc.gz");
    let (stats, _) = run(&[Input::Path(path)], &progress);
    match stats {
        Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::Interrupted),
        Ok(s) => panic!("not stopped: {s:?}"),
    }
}
