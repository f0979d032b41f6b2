//! Throughput of every algorithm on real pages: all scrapinghub pages,
//! gunzipped once, extracted one after the other by one `Extractor`.

mod common;

use crawlsift::{Algorithm, Extractor};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn algorithms(c: &mut Criterion) {
    let pages = common::scrapinghub_pages();
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
