//! What the WARC targets share: turning fuzz bytes into an input file,
//! reading it with each of crawlsift's readers, and the invariants every reader
//! must keep on any input.

use crawlsift::output::{Compression, Format, Formatter, Rendered};
use crawlsift::pipeline::{FileStats, Input, Options, Progress, SignalOptions, Sink};
use crawlsift::warc::{ProblemKind, Split, WarcReader};
use crawlsift::Algorithm;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a reader returned for one item, enough to compare two readers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Record {
        number: u64,
        offset: u64,
        length: Option<u64>,
        version: String,
        content_length: u64,
        block: Vec<u8>,
    },
    Problem {
        number: u64,
        offset: u64,
        kind: ProblemKind,
    },
}

/// Reads every item of `reader`, checking what holds for any input:
/// consecutive record numbers, blocks within the cap and of their declared
/// length unless oversized, problems that say where they are.
/// `input_len` bounds the item count: every item consumes input.
pub fn drain(mut reader: WarcReader, cap: u64, input_len: usize) -> Vec<Item> {
    let name = reader.name().to_string();
    let mut items = Vec::new();
    while let Some(item) = reader.next() {
        let number = items.len() as u64 + 1;
        let item = match item {
            Ok(r) => {
                assert!(r.block.len() as u64 <= cap, "block over the cap {cap}");
                assert!(
                    r.block.len() as u64 == r.content_length || r.block.is_empty(),
                    "a block is whole or, oversized, empty"
                );
                assert!(!r.oversized() || r.content_length > cap);
                Item::Record {
                    number: r.number,
                    offset: r.offset,
                    length: r.length,
                    version: r.version.to_string(),
                    content_length: r.content_length,
                    block: r.block.to_vec(),
                }
            }
            Err(p) => {
                let message = p.to_string();
                assert!(
                    message.starts_with(&name) && message.contains("byte offset"),
                    "a problem names its file and offset: {message}"
                );
                Item::Problem {
                    number: p.number,
                    offset: p.offset,
                    kind: p.kind,
                }
            }
        };
        let (Item::Record { number: n, .. } | Item::Problem { number: n, .. }) = &item;
        assert_eq!(*n, number, "items are numbered 1, 2, 3, … : {item:?}");
        items.push(item);
        assert!(
            items.len() <= 2 * input_len + 2,
            "more items than the input has bytes: the reader does not advance"
        );
    }
    items
}

/// A file in a directory of this process, rewritten for every input.
pub struct Scratch {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join(name);
        Scratch { _dir: dir, path }
    }

    pub fn write(&self, data: &[u8]) -> &Path {
        std::fs::write(&self.path, data).expect("the temporary file is writable");
        &self.path
    }
}

/// gzip of `data` in one member.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(data).expect("in memory");
    gz.finish().expect("in memory")
}

/// One gzip member per record, as Common Crawl writes: `data` is cut before
/// every `WARC/` and each piece is compressed alone.
pub fn gzip_members(data: &[u8]) -> Vec<u8> {
    let mut starts: Vec<usize> = memchr_starts(data, b"WARC/");
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    starts.push(data.len());
    starts
        .windows(2)
        .flat_map(|w| gzip(&data[w[0]..w[1]]))
        .collect()
}

fn memchr_starts(data: &[u8], needle: &[u8]) -> Vec<usize> {
    data.windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .map(|(i, _)| i)
        .collect()
}

/// Record caps the targets pick from: tiny ones make oversized records.
pub const CAPS: [u64; 8] = [0, 16, 100, 1000, 4096, 1 << 16, 1 << 20, 16 << 20];

/// The per-input pipeline statistics must add up, and the pages written
/// must be those counted extracted.
pub fn check_stats(stats: &FileStats, pages: u64) {
    let skipped: u64 = stats.skipped.values().sum();
    let failed: u64 = stats.failed.values().sum();
    assert_eq!(
        stats.read,
        stats.extracted + skipped + failed,
        "read = extracted + skipped + failed: {stats:?}"
    );
    assert_eq!(stats.extracted, pages, "pages written = extracted");
}

/// Counts the pages the pipeline hands over, checking each is JSON.
#[derive(Default)]
pub struct Count {
    pub pages: u64,
}

impl Sink for Count {
    fn sequential(&self) -> bool {
        true
    }
    fn write(&mut self, _file: usize, page: Rendered) -> std::io::Result<()> {
        if let Rendered::Bytes(bytes) = page {
            let line = bytes.strip_suffix(b"\n").expect("a JSONL line ends in \\n");
            assert!(!line.contains(&b'\n'), "one line per page");
            check_jsonl_line(line);
        }
        self.pages += 1;
        Ok(())
    }
    fn finish(&mut self, _file: usize, _stats: &FileStats) -> std::io::Result<Option<PathBuf>> {
        Ok(None)
    }
}

/// A JSONL line is a UTF-8 object.
fn check_jsonl_line(line: &[u8]) {
    let text = std::str::from_utf8(line).expect("JSONL is UTF-8");
    assert!(text.starts_with('{') && text.ends_with('}'), "{text}");
}

/// Runs the whole pipeline (one worker, the default algorithm) over `input`.
pub fn pipeline(input: Input, cap: u64) -> (FileStats, u64) {
    let options = Options {
        retry: Default::default(),
        algorithm: Algorithm::DEFAULT,
        page_timeout: None,
        workers: 1,
        max_record_bytes: cap,
        formatter: Formatter::new(Format::Jsonl, Compression::None),
        split_min_bytes: u64::MAX,
        markdown: None,
        metadata: true,
        signals: SignalOptions::default(),
    };
    let mut sink = Count::default();
    let mut stats = crawlsift::pipeline::run_inputs(
        &[input],
        &options,
        &mut sink,
        &Progress::default(),
        &mut || {},
    )
    .expect("the sink never fails");
    assert_eq!(stats.len(), 1);
    let stats = stats.remove(0);
    check_stats(&stats, sink.pages);
    (stats, sink.pages)
}

/// Reads `path` split between `threads` threads in parts of `part` bytes.
pub fn open_split(path: &Path, cap: u64, threads: usize, part: u64) -> WarcReader {
    let split = Split {
        threads,
        min_file_bytes: 0,
        max_part_bytes: part.max(1),
    };
    WarcReader::open_split(path, cap, split).expect("the file exists")
}
