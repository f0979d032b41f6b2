//! `peer-dom-smoothie DATASET_DIR OUT_DIR`: the dom_smoothie (Readability)
//! baseline, same contract as `benches/peers/extract.py`: writes
//! `OUT_DIR/<dataset>/<id>.txt` for each `html/<id>.html.gz` (empty on error)
//! and prints one JSON line with the extraction CPU time.
//!
//! dom_smoothie takes `&str`, so the page is decoded first: as UTF-8 when the
//! bytes are valid UTF-8, else with the charset `profile.jsonl` declares
//! (encoding_rs label lookup), else as UTF-8 with replacement characters.
//! Decoding counts as extraction time; gunzip and file I/O do not.

use std::collections::HashMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cpu_time::ProcessTime;
use dom_smoothie::{Config, Readability, TextMode};
use encoding_rs::Encoding;

/// Page id -> declared charset label, from the dataset's profile.jsonl (if any).
fn declared_charsets(dataset_dir: &Path) -> Result<HashMap<String, String>> {
    let path = dataset_dir.join("profile.jsonl");
    let mut out = HashMap::new();
    let Ok(text) = fs::read_to_string(&path) else {
        return Ok(out);
    };
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let obj: serde_json::Value = serde_json::from_str(line)
            .with_context(|| format!("{}: line {} is not JSON", path.display(), n + 1))?;
        if let (Some(id), Some(cs)) = (obj["id"].as_str(), obj["declared_charset"].as_str()) {
            out.insert(id.to_owned(), cs.to_owned());
        }
    }
    Ok(out)
}

fn decode(raw: &[u8], declared: Option<&str>) -> String {
    if let Ok(s) = std::str::from_utf8(raw) {
        return s.to_owned();
    }
    let encoding = declared
        .and_then(|label| Encoding::for_label(label.as_bytes()))
        .unwrap_or(encoding_rs::UTF_8);
    encoding.decode_without_bom_handling(raw).0.into_owned()
}

fn extract(html: String) -> Result<String> {
    let cfg = Config {
        // Formatted keeps block boundaries as line breaks; Raw glues words of
        // adjacent blocks together, which would unfairly cost word-level F1.
        text_mode: TextMode::Formatted,
        ..Default::default()
    };
    let mut readability = Readability::new(html, None, Some(cfg))?;
    Ok(readability.parse()?.text_content.to_string())
}

fn main() -> Result<()> {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [dataset_dir, out_dir] = args.as_slice() else {
        bail!("usage: peer-dom-smoothie DATASET_DIR OUT_DIR (DATASET_DIR holds html/<id>.html.gz)");
    };
    let dataset = dataset_dir
        .canonicalize()
        .with_context(|| format!("cannot open dataset dir {}", dataset_dir.display()))?
        .file_name()
        .context("dataset dir has no name")?
        .to_string_lossy()
        .into_owned();
    let charsets = declared_charsets(dataset_dir)?;
    let html_dir = dataset_dir.join("html");
    let mut files: Vec<PathBuf> = fs::read_dir(&html_dir)
        .with_context(|| format!("cannot list {}", html_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
        .collect();
    files.sort();
    let target = out_dir.join(&dataset);
    fs::create_dir_all(&target).with_context(|| format!("cannot create {}", target.display()))?;

    let (mut pages, mut errors, mut html_bytes) = (0u64, 0u64, 0u64);
    let mut cpu = std::time::Duration::ZERO;
    for path in &files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let id = name.trim_end_matches(".html.gz");
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(fs::File::open(path)?)
            .read_to_end(&mut raw)
            .with_context(|| format!("{}: not a readable gzip file", path.display()))?;
        let start = ProcessTime::now();
        let text = match extract(decode(&raw, charsets.get(id).map(String::as_str))) {
            Ok(text) => text,
            Err(err) => {
                errors += 1;
                eprintln!("dom_smoothie: {}: {err}", path.display());
                String::new()
            }
        };
        cpu += start.elapsed();
        fs::write(target.join(format!("{id}.txt")), text)?;
        pages += 1;
        html_bytes += raw.len() as u64;
    }
    let secs = cpu.as_secs_f64();
    let line = serde_json::json!({
        "tool": "dom_smoothie",
        "dataset": dataset,
        "pages": pages,
        "errors": errors,
        "html_bytes": html_bytes,
        "cpu_seconds": (secs * 1000.0).round() / 1000.0,
        "mb_per_s_core": if secs > 0.0 { Some((html_bytes as f64 / 1e6 / secs * 100.0).round() / 100.0) } else { None },
    });
    println!("{line}");
    Ok(())
}
