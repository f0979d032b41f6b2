//! Speed of `crawlsift::signals` against extraction, on one core.
//!
//! Extracts every page of the given dataset directories (default: the shared
//! datasets) with the default algorithm, then times, over the extracted
//! texts: language id alone, `--signals` (rules + exact key, language
//! included), `--signals --filter gopher,c4,fineweb` (a dropped text
//! stops at its first failure) and `--signals --minhash`, then without the
//! language (`--no-lang`), then each rule set alone (as `--filter SET`
//! computes it, words included where the set needs them). Prints MB/s of text and the time as
//! a share of extraction time. Times are the thread's CPU time (best of
//! three), so other processes on the machine change them little.
//!
//! cargo run --release --example signals_speed [-- DATASET_DIR... ]

use cpu_time::ThreadTime;
use crawlsift::signals::{dedup, lang, Analyser, Config, RuleSet};
use crawlsift::{Algorithm, Extractor};
use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

#[path = "../tests/support/shared.rs"]
mod support;

const ROUNDS: usize = 3;

fn main() -> anyhow::Result<()> {
    let mut dirs: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if dirs.is_empty() {
        let shared = support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets");
        for entry in std::fs::read_dir(&shared)? {
            dirs.push(entry?.path());
        }
        dirs.sort();
    }
    let mut pages = Vec::new();
    for dir in &dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("html"))?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        files.sort();
        for file in files {
            let bytes = std::fs::read(&file)?;
            let mut raw = Vec::new();
            if bytes.starts_with(&[0x1f, 0x8b]) {
                flate2::read::MultiGzDecoder::new(bytes.as_slice()).read_to_end(&mut raw)?;
            } else {
                raw = bytes;
            }
            pages.push(raw);
        }
    }
    let html_bytes: usize = pages.iter().map(Vec::len).sum();
    let mut extractor = Extractor::new(Algorithm::DEFAULT);
    let mut texts = Vec::with_capacity(pages.len());
    let mut extraction = Duration::MAX;
    for round in 0..ROUNDS {
        let start = ThreadTime::now();
        for page in &pages {
            let text = extractor.extract(page, None).text;
            if round == 0 {
                texts.push(text.to_owned());
            }
        }
        extraction = extraction.min(start.elapsed());
    }
    let text_bytes: usize = texts.iter().map(String::len).sum();
    println!(
        "{} pages, {:.1} MB HTML, {:.1} MB text; extraction {:.0} MB/s of HTML ({:.3} s)",
        pages.len(),
        html_bytes as f64 / 1e6,
        text_bytes as f64 / 1e6,
        html_bytes as f64 / 1e6 / extraction.as_secs_f64(),
        extraction.as_secs_f64()
    );
    let signals = Config {
        signals: true,
        minhash: false,
    };
    let minhash = Config {
        signals: true,
        minhash: true,
    };
    let cleaning = [RuleSet::Gopher, RuleSet::C4, RuleSet::FineWeb];
    let modes: [(&str, Option<Config>, bool, &[RuleSet]); 7] = [
        ("language id", None, true, &[]),
        ("lang only (Analyser)", Some(Config::default()), true, &[]),
        ("--signals", Some(signals), true, &[]),
        ("--signals --filter", Some(signals), true, &cleaning),
        ("--signals --minhash", Some(minhash), true, &[]),
        ("--signals --no-lang", Some(signals), false, &[]),
        ("... --minhash --no-lang", Some(minhash), false, &[]),
    ];
    println!(
        "{:<22} {:>12} {:>20}",
        "mode", "MB/s text", "% of extraction"
    );
    for (name, config, lang, filter) in modes {
        let mut best = Duration::MAX;
        let mut sink = 0usize;
        for _ in 0..ROUNDS {
            let start = ThreadTime::now();
            match config {
                None => {
                    for text in &texts {
                        sink += lang::identify(text).map_or(0, |l| l.code.len());
                    }
                }
                Some(config) => {
                    let mut analyser = Analyser::new(config);
                    if !lang {
                        analyser = analyser.without_lang();
                    }
                    for text in &texts {
                        // Without a rule set `analyse_or_drop` is `analyse`.
                        if let Ok(analysis) = analyser.analyse_or_drop(text, filter) {
                            sink += analysis.lang.map_or(0, str::len);
                            sink += analysis.exact_key.map_or(0, |k| k as usize & 1);
                        }
                    }
                }
            }
            best = best.min(start.elapsed());
        }
        std::hint::black_box(sink);
        println!(
            "{:<22} {:>12.1} {:>19.1}%",
            name,
            text_bytes as f64 / 1e6 / best.as_secs_f64(),
            100.0 * best.as_secs_f64() / extraction.as_secs_f64()
        );
    }
    // Each rule set alone (as `--filter SET` computes it for a page,
    // tokenization included where the set needs words), without language.
    let sets = [
        ("gopher_quality", RuleSet::GopherQuality),
        ("gopher_repetition", RuleSet::GopherRepetition),
        ("c4", RuleSet::C4),
        ("fineweb", RuleSet::FineWeb),
    ];
    for (name, set) in sets {
        let mut analyser = Analyser::new(Config::default()).without_lang();
        let mut best = Duration::MAX;
        let mut sink = 0usize;
        for _ in 0..ROUNDS {
            let start = ThreadTime::now();
            for text in &texts {
                sink += analyser.analyse_or_drop(text, &[set]).is_ok() as usize;
            }
            best = best.min(start.elapsed());
        }
        std::hint::black_box(sink);
        println!(
            "{:<22} {:>12.1} {:>19.1}%",
            format!("only {name}"),
            text_bytes as f64 / 1e6 / best.as_secs_f64(),
            100.0 * best.as_secs_f64() / extraction.as_secs_f64()
        );
    }
    // The normalisation and the exact key alone.
    let (mut out, mut scratch) = (String::new(), String::new());
    let mut best = Duration::MAX;
    let mut sink = 0u64;
    for _ in 0..ROUNDS {
        let start = ThreadTime::now();
        for text in &texts {
            dedup::simplify(text, &mut out, &mut scratch);
            sink ^= dedup::exact_key(&out);
        }
        best = best.min(start.elapsed());
    }
    std::hint::black_box(sink);
    println!(
        "{:<22} {:>12.1} {:>19.1}%",
        "only exact key",
        text_bytes as f64 / 1e6 / best.as_secs_f64(),
        100.0 * best.as_secs_f64() / extraction.as_secs_f64()
    );
    Ok(())
}
