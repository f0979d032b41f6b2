//! Throughput of every algorithm on real pages: all scrapinghub pages,
//! gunzipped once, extracted one after the other by one `Extractor`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dana::{Algorithm, Extractor};
use std::io::Read;

fn pages() -> Vec<Vec<u8>> {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/datasets/scrapinghub/html"
    );
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let mut raw = Vec::new();
            flate2::read::MultiGzDecoder::new(file)
                .read_to_end(&mut raw)
                .unwrap_or_else(|e| panic!("{path:?}: {e}"));
            raw
        })
        .collect()
}

fn algorithms(c: &mut Criterion) {
    let pages = pages();
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group("scrapinghub");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(10);
    for &algorithm in Algorithm::ALL {
        let mut extractor = Extractor::new(algorithm);
        group.bench_function(algorithm.name(), |b| {
            b.iter(|| {
                pages
                    .iter()
                    .map(|raw| extractor.extract(raw, None).text.len())
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, algorithms);
criterion_main!(benches);
