//! Prints the full `Analysis` (language, signals, filters, exact key,
//! MinHash) of every gold text and every extracted text of the given dataset
//! directories (default: the shared datasets), one JSON object per line, in
//! a fixed order: a change to `crawlsift::signals` that must not change results
//! is checked by diffing this output before and after it.
//!
//! cargo run --release --example signals_dump [-- DATASET_DIR... ] > analysis.jsonl

use crawlsift::signals::{Analyser, Config};
use crawlsift::{Algorithm, Extractor};
use std::io::{Read, Write};
use std::path::PathBuf;

#[path = "../tests/support/shared.rs"]
mod support;

fn sorted_files(dir: PathBuf) -> anyhow::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.sort();
    Ok(files)
}

fn main() -> anyhow::Result<()> {
    let mut dirs: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if dirs.is_empty() {
        let shared = support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets");
        dirs = sorted_files(shared)?;
    }
    let mut analyser = Analyser::new(Config {
        signals: true,
        minhash: true,
    });
    let mut extractor = Extractor::new(Algorithm::DEFAULT);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for dir in &dirs {
        for file in sorted_files(dir.join("gold"))? {
            let text = String::from_utf8_lossy(&std::fs::read(&file)?).into_owned();
            let analysis = serde_json::to_string(&analyser.analyse(&text))?;
            writeln!(out, "{}\tgold\t{analysis}", file.display())?;
        }
        for file in sorted_files(dir.join("html"))? {
            let bytes = std::fs::read(&file)?;
            let mut raw = Vec::new();
            if bytes.starts_with(&[0x1f, 0x8b]) {
                flate2::read::MultiGzDecoder::new(bytes.as_slice()).read_to_end(&mut raw)?;
            } else {
                raw = bytes;
            }
            let text = extractor.extract(&raw, None).text.to_owned();
            let analysis = serde_json::to_string(&analyser.analyse(&text))?;
            writeln!(out, "{}\textracted\t{analysis}", file.display())?;
        }
    }
    out.flush()?;
    Ok(())
}
