//! Charset work against extraction, on the same pages in UTF-8 and in the
//! legacy encoding of their language: daniel_dev's Chinese, Russian, Greek
//! and Polish pages (all UTF-8 as stored) re-encoded to GBK, windows-1251,
//! windows-1253 and windows-1250 (characters the encoding lacks become
//! numeric references, as browsers submit them). Each language is extracted
//! three ways: as UTF-8 (labelled so), in its legacy encoding labelled by
//! HTTP, and in its legacy encoding mislabelled UTF-8 in HTTP and `<meta>`
//! (the detector decides). Throughput is in bytes of each variant; the
//! times compare the same pages.

use crawlsift::{Algorithm, Extractor};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use encoding_rs::Encoding;
use std::io::Read;

#[path = "../tests/support/shared.rs"]
mod support;

/// The UTF-8 pages of daniel_dev in `lang`, gunzipped, in id order.
fn pages(lang: &str) -> Vec<Vec<u8>> {
    let daniel = support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets/daniel_dev")
        .display()
        .to_string();
    let profile = std::fs::read_to_string(format!("{daniel}/profile.jsonl"))
        .unwrap_or_else(|e| panic!("{daniel}/profile.jsonl: {e}"));
    let mut ids: Vec<String> = profile
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|p| p["lang"] == lang && p["html_utf8"] == true)
        .filter_map(|p| p["id"].as_str().map(str::to_string))
        .collect();
    ids.sort();
    ids.iter()
        .map(|id| {
            let path = format!("{daniel}/html/{id}.html.gz");
            let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let mut raw = Vec::new();
            flate2::read::MultiGzDecoder::new(file)
                .read_to_end(&mut raw)
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            raw
        })
        .collect()
}

fn charset(c: &mut Criterion) {
    for (lang, label) in [
        ("zh", "gbk"),
        ("ru", "windows-1251"),
        ("el", "windows-1253"),
        ("pl", "windows-1250"),
    ] {
        let utf8 = pages(lang);
        let encoding = Encoding::for_label(label.as_bytes()).unwrap_or_else(|| panic!("{label}"));
        let legacy: Vec<Vec<u8>> = utf8
            .iter()
            .map(|raw| {
                let text = String::from_utf8_lossy(raw);
                encoding.encode(&text).0.into_owned()
            })
            .collect();
        let mut group = c.benchmark_group(format!("charset-{lang}"));
        group.sample_size(10);
        let mut extractor = Extractor::new(Algorithm::DEFAULT);
        for (name, set, http) in [
            ("utf-8", &utf8, "utf-8"),
            (label, &legacy, label),
            ("mislabelled-utf-8", &legacy, "utf-8"),
        ] {
            group.throughput(Throughput::Bytes(set.iter().map(|p| p.len() as u64).sum()));
            group.bench_function(name, |b| {
                b.iter(|| {
                    set.iter()
                        .map(|raw| extractor.extract(raw, Some(http)).text.len())
                        .sum::<usize>()
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, charset);
criterion_main!(benches);
