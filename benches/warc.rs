//! Reader throughput on the data-samples files: records/s and decompressed MB/s
//! of walking every record (no HTTP parsing, no extraction).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dana::warc::WarcReader;
use std::path::Path;

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data-samples");

/// Walks every record; returns the bytes of all blocks.
fn walk(path: &Path) -> u64 {
    let mut reader = match WarcReader::open(path, u64::MAX) {
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

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("warc_reader");
    for name in ["resiliparse_warcfile.warc.gz", "dolma_sample-0000.warc.gz"] {
        let path = Path::new(SAMPLES).join(name);
        group.throughput(Throughput::Bytes(walk(&path)));
        group.bench_function(name, |b| b.iter(|| walk(&path)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
