//! Throughput of `crawlsift::signals` on real extracted texts, beside the
//! extraction that produced them: every scrapinghub page is extracted once
//! with the default algorithm (outside the timed loops), then one
//! `Analyser` per configuration analyses all the texts. Every benchmark's
//! throughput is in bytes of extracted text, so the ratio of two MB/s
//! figures is the ratio of their times; `extract` is the extraction of the
//! same pages (HTML in, text out).

mod common;

use crawlsift::signals::{Analyser, Config};
use crawlsift::{Algorithm, Extractor};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn signals(c: &mut Criterion) {
    let pages = common::scrapinghub_pages();
    let texts = common::scrapinghub_texts();
    let mut extractor = Extractor::new(Algorithm::DEFAULT);
    let bytes: usize = texts.iter().map(String::len).sum();
    let mut group = c.benchmark_group("signals-scrapinghub");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(10);
    group.bench_function("extract", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|raw| extractor.extract(raw, None).text.len())
                .sum::<usize>()
        })
    });
    let configs = [
        ("lang", Config::default()),
        (
            "signals",
            Config {
                signals: true,
                minhash: false,
            },
        ),
        (
            "signals+minhash",
            Config {
                signals: true,
                minhash: true,
            },
        ),
    ];
    for (name, config) in configs {
        let mut analyser = Analyser::new(config);
        group.bench_function(name, |b| {
            b.iter(|| {
                texts
                    .iter()
                    .map(|text| {
                        let a = analyser.analyse(text);
                        a.lang.map_or(0, str::len) + a.minhash.map_or(0, |m| m.len())
                    })
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, signals);
criterion_main!(benches);
