//! WARC throughput: the reader alone (records/s and decompressed MB/s of
//! walking every record, sequential and split over two inflating threads),
//! flate2's inflate alone (the bound), and `crawlsift extract` end to end in
//! process (reader → workers → ordered JSONL to a null sink), on the
//! data-samples files and, when `CRAWLSIFT_BENCH_WARC` names one, on a big file
//! such as the 1.1 GB one of benches/make_bench_warc.py (benches/warc_throughput.sh
//! times the real binary against the other tools on it).

use crawlsift::output::{Compression, Format, Formatter, Rendered};
use crawlsift::pipeline::{self, FileStats, Options, Progress, Sink};
use crawlsift::warc::{Split, WarcReader};
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use std::io::Read;
use std::path::{Path, PathBuf};

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data-samples");

/// Two inflating threads, whatever the file size (default part sizes).
fn split2() -> Split {
    Split {
        min_file_bytes: 0,
        ..Split::new(2)
    }
}

/// Walks every record; returns the bytes of all blocks.
fn walk(path: &Path, split: Split) -> u64 {
    let mut reader = match WarcReader::open_split(path, u64::MAX, split) {
        Ok(reader) => reader,
        Err(e) => panic!("{e}"),
    };
    let mut bytes = 0;
    while let Some(item) = reader.next() {
        if let Ok(record) = item {
            bytes += record.block.len() as u64;
        }
    }
    bytes
}

/// Inflates a whole multi-member gzip file held in memory; returns its size.
fn inflate(data: &[u8]) -> u64 {
    let mut decoder = flate2::bufread::MultiGzDecoder::new(data);
    let mut out = vec![0; 1 << 20];
    let mut total = 0;
    loop {
        match decoder.read(&mut out) {
            Ok(0) => return total,
            Ok(n) => total += n as u64,
            Err(e) => panic!("{e}"),
        }
    }
}

/// Counts the output instead of writing it.
struct NullSink(u64);

impl Sink for NullSink {
    fn sequential(&self) -> bool {
        true
    }
    fn write(&mut self, _file: usize, page: Rendered) -> std::io::Result<()> {
        if let Rendered::Bytes(bytes) = page {
            self.0 += bytes.len() as u64;
        }
        Ok(())
    }
    fn finish(&mut self, _file: usize, _stats: &FileStats) -> std::io::Result<Option<PathBuf>> {
        Ok(None)
    }
}

/// `crawlsift extract --format jsonl -j workers` over `path` (split when big, as
/// the binary does); returns the JSONL bytes.
fn extract(path: &Path, workers: usize) -> u64 {
    let options = Options {
        retry: Default::default(),
        algorithm: crawlsift::Algorithm::DEFAULT,
        page_timeout: Some(crawlsift::pipeline::DEFAULT_PAGE_TIMEOUT),
        workers,
        max_record_bytes: 16 << 20,
        formatter: Formatter::new(Format::Jsonl, Compression::None),
        split_min_bytes: Split::new(workers).min_file_bytes,
        markdown: None,
        metadata: true,
        signals: Default::default(),
    };
    let mut sink = NullSink(0);
    let inputs = [path.to_path_buf()];
    if let Err(e) = pipeline::run(
        &inputs,
        &options,
        &mut sink,
        &Progress::default(),
        &mut || {},
    ) {
        panic!("{e}");
    }
    sink.0
}

fn on_file(group: &mut BenchmarkGroup<'_, WallTime>, path: &Path) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let decompressed = walk(path, Split::new(1));
    group.throughput(Throughput::Bytes(decompressed));
    group.bench_function(format!("read/{name}"), |b| {
        b.iter(|| walk(path, Split::new(1)))
    });
    let gzip = name.ends_with(".gz");
    if gzip {
        group.bench_function(format!("read_split2/{name}"), |b| {
            b.iter(|| walk(path, split2()))
        });
        let data = std::fs::read(path).unwrap_or_else(|e| panic!("{e}"));
        group.bench_function(format!("inflate_flate2/{name}"), |b| {
            b.iter(|| inflate(&data))
        });
    }
    for workers in [1, 2] {
        group.bench_function(format!("extract_j{workers}/{name}"), |b| {
            b.iter(|| extract(path, workers))
        });
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("warc");
    for name in ["resiliparse_warcfile.warc.gz", "dolma_sample-0000.warc.gz"] {
        on_file(&mut group, &Path::new(SAMPLES).join(name));
    }
    group.finish();
    if let Some(big) = std::env::var_os("CRAWLSIFT_BENCH_WARC") {
        let mut group = c.benchmark_group("warc_big");
        group.sample_size(10);
        on_file(&mut group, Path::new(&big));
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
