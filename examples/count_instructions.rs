//! A target for counting instructions with callgrind, which machine load
//! does not change (the clock does, ±1–3 % on a shared machine): the
//! extraction of every page of a dataset directory with the default
//! algorithm, the cleaning pass of `--signals --filter gopher,c4,fineweb`
//! over the extracted texts of the shared datasets (twice), or the language
//! identification of those texts (the sample `crawlsift extract` reads of each,
//! twice). Only the calls named below are counted (`--toggle-collect`):
//! reading and gunzipping the pages are not.
//!
//! ```sh
//! cargo build --release --example count_instructions
//! valgrind --tool=callgrind --toggle-collect='count_instructions::extract_page' \
//!     target/release/examples/count_instructions extract ../shared/datasets/wcxb_dev
//! valgrind --tool=callgrind --toggle-collect='count_instructions::analyse_text' \
//!     target/release/examples/count_instructions signals
//! valgrind --tool=callgrind --toggle-collect='count_instructions::identify' \
//!     target/release/examples/count_instructions lang
//! ```
//!
//! callgrind prints the instructions counted ("Collected"): a measure of
//! a change that the machine's load does not move.

use crawlsift::signals::{Analyser, Config, RuleSet};
use crawlsift::{Algorithm, Extractor};
use crawlsift_eval::Dataset;
use std::path::{Path, PathBuf};

#[path = "../tests/support/shared.rs"]
mod support;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let mut extractor = Extractor::new(Algorithm::DEFAULT);
    match mode.as_str() {
        "extract" => {
            let dir =
                PathBuf::from(args.next().ok_or_else(|| {
                    anyhow::anyhow!("usage: count_instructions extract DATASET_DIR")
                })?);
            let mut chars = 0;
            let pages = pages(&dir)?;
            for page in &pages {
                chars += extract_page(&mut extractor, page);
            }
            eprintln!("{} pages, {chars} bytes of text", pages.len());
        }
        "signals" => {
            let texts = dataset_texts(&mut extractor)?;
            let sets = [RuleSet::Gopher, RuleSet::C4, RuleSet::FineWeb];
            let mut analyser = Analyser::new(Config {
                signals: true,
                minhash: false,
            });
            let mut kept = 0;
            for _ in 0..2 {
                for text in &texts {
                    kept += usize::from(analyse_text(&mut analyser, text, &sets));
                }
            }
            eprintln!("{} texts twice, {kept} kept", texts.len());
        }
        "lang" => {
            let texts = dataset_texts(&mut extractor)?;
            let mut found = 0;
            for _ in 0..2 {
                for text in &texts {
                    found += usize::from(identify(text));
                }
            }
            eprintln!("{} texts twice, {found} with a language", texts.len());
        }
        _ => anyhow::bail!("usage: count_instructions extract DATASET_DIR | signals | lang"),
    }
    Ok(())
}

/// The texts the extractor gives of the shared datasets' pages.
fn dataset_texts(extractor: &mut Extractor) -> anyhow::Result<Vec<String>> {
    let root = support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets");
    let mut texts = Vec::new();
    for dataset in ["scrapinghub", "wcxb_dev", "daniel_dev", "readability_tests"] {
        for page in pages(&root.join(dataset))? {
            texts.push(extractor.extract(&page, None).text.to_owned());
        }
    }
    Ok(texts)
}

/// The raw pages of a dataset directory, in the order of their ids
/// (`crawlsift eval`'s reader).
fn pages(dir: &Path) -> anyhow::Result<Vec<Vec<u8>>> {
    let dataset = Dataset::open(dir)?;
    let mut pages = Vec::with_capacity(dataset.pages.len());
    for page in &dataset.pages {
        let mut raw = Vec::new();
        page.read_html(&mut raw)?;
        pages.push(raw);
    }
    Ok(pages)
}

/// One page through the extractor: the call callgrind counts.
#[inline(never)]
fn extract_page(extractor: &mut Extractor, page: &[u8]) -> usize {
    extractor.extract(page, None).text.len()
}

/// One text's language (what `crawlsift extract` writes as `lang`): the call
/// callgrind counts.
#[inline(never)]
fn identify(text: &str) -> bool {
    crawlsift::signals::lang::identify(text).is_some()
}

/// One text through the cleaning pass: the call callgrind counts.
#[inline(never)]
fn analyse_text(analyser: &mut Analyser, text: &str, sets: &[RuleSet]) -> bool {
    analyser.analyse_or_drop(text, sets).is_ok()
}
