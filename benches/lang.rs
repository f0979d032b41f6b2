//! Language identification alone: upstream `whatlang` 0.18 against its fork
//! `crawlsift-lang` (what crawlsift uses), on the texts crawlsift extracts from the
//! scrapinghub pages, cut as crawlsift cuts them (the first `MAX_BYTES`) and short
//! (the first 64 bytes: the fixed cost per text). Throughput is in bytes of text
//! identified.

mod common;

use crawlsift::signals::lang::{head, MAX_BYTES};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn lang(c: &mut Criterion) {
    let texts = common::scrapinghub_texts();
    for (name, max) in [("sample", MAX_BYTES), ("64B", 64)] {
        let samples: Vec<&str> = texts.iter().map(|t| head(t, max)).collect();
        let bytes: usize = samples.iter().map(|s| s.len()).sum();
        let mut group = c.benchmark_group(format!("lang-{name}"));
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_function("whatlang", |b| {
            b.iter(|| {
                samples
                    .iter()
                    .filter_map(|s| whatlang::detect(s))
                    .map(|i| i.lang() as usize)
                    .sum::<usize>()
            })
        });
        group.bench_function("crawlsift-lang", |b| {
            b.iter(|| {
                samples
                    .iter()
                    .filter_map(|s| crawlsift_lang::detect(s))
                    .map(|i| i.lang() as usize)
                    .sum::<usize>()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, lang);
criterion_main!(benches);
