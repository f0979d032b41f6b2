//! `crawlsift eval` end to end on small datasets copied from the shared ones.

use serde_json::Value;
use std::error::Error;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

type Result<T = ()> = std::result::Result<T, Box<dyn Error>>;

#[path = "../../../tests/support/shared.rs"]
mod support;

/// The shared datasets (TESTING.md); a missing folder fails naming it.
fn datasets() -> PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets")
}

/// Four small scrapinghub pages in four languages (ja, ko, pt, it).
const SCRAPINGHUB_IDS: &[&str] = &[
    "0ec95c7261d122f304728e90c983450ef1ce1e0b423546835c397d50aaf0d0f2",
    "11ea381ad92b5448cf66eae62f52ac565361a244c8881615fc6a7bb523cc0c32",
    "20b2b64916b00b25203c9f1bf14248922f4d522f18328e9f876cce116df0083e",
    "85439e26c41c75901820d01a13e8cea7836abb58635ea3986f71a163ab0311d3",
];

/// A wcxb page with gold, and one whose gold is empty (a JavaScript-only page).
const WCXB_IDS: &[&str] = &["dev-0001", "dev-0585"];

/// Copies pages of a shared dataset into `root/<name>`, with their
/// profile.jsonl lines (which carry `lang`) as meta.jsonl.
fn copy_dataset(root: &Path, name: &str, ids: &[&str]) -> Result<PathBuf> {
    let from = datasets().join(name);
    let to = root.join(name);
    fs::create_dir_all(to.join("html"))?;
    fs::create_dir_all(to.join("gold"))?;
    for id in ids {
        let html = format!("html/{id}.html.gz");
        let gold = format!("gold/{id}.txt");
        fs::copy(from.join(&html), to.join(&html))?;
        fs::copy(from.join(&gold), to.join(&gold))?;
    }
    let profile = fs::read_to_string(from.join("profile.jsonl"))?;
    let meta: String = profile
        .lines()
        .filter(|line| ids.iter().any(|id| line.contains(&format!("\"{id}\""))))
        .map(|line| format!("{line}\n"))
        .collect();
    fs::write(to.join("meta.jsonl"), meta)?;
    Ok(to)
}

fn crawlsift_eval(args: &[&str]) -> Result<Output> {
    let output = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
        .arg("eval")
        .args(args)
        .output()?;
    if !output.status.success() {
        return Err(format!(
            "crawlsift eval {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    Ok(output)
}

fn json_rows(args: &[&str]) -> Result<Vec<Value>> {
    let mut args = args.to_vec();
    args.extend(["--format", "json"]);
    let output = crawlsift_eval(&args)?;
    match serde_json::from_slice(&output.stdout)? {
        Value::Array(rows) => Ok(rows),
        other => Err(format!("expected a JSON array, got {other}").into()),
    }
}

fn field(row: &Value, name: &str) -> f64 {
    row.get(name).and_then(Value::as_f64).unwrap_or(f64::NAN)
}

#[test]
fn markdown_table_has_a_column_per_dataset_and_counts_pages() -> Result {
    let root = tempfile::tempdir()?;
    let scrapinghub = copy_dataset(root.path(), "scrapinghub", SCRAPINGHUB_IDS)?;
    let wcxb = copy_dataset(root.path(), "wcxb_dev", WCXB_IDS)?;
    let output = crawlsift_eval(&[
        scrapinghub.to_str().ok_or("path")?,
        wcxb.to_str().ok_or("path")?,
    ])?;
    let table = String::from_utf8(output.stdout)?;
    assert!(
        table.contains("| algorithm | scrapinghub | wcxb_dev |"),
        "{table}"
    );
    assert!(
        table.contains("| scrapinghub | addanag-plus | 4 | "),
        "{table}"
    );
    assert!(
        table.contains("| wcxb_dev | addanag-plus | 2 | "),
        "{table}"
    );
    Ok(())
}

#[test]
fn json_has_sensible_numbers_for_every_algorithm() -> Result {
    let root = tempfile::tempdir()?;
    let scrapinghub = copy_dataset(root.path(), "scrapinghub", SCRAPINGHUB_IDS)?;
    let wcxb = copy_dataset(root.path(), "wcxb_dev", WCXB_IDS)?;
    let csv = root.path().join("pages.csv");
    let rows = json_rows(&[
        scrapinghub.to_str().ok_or("path")?,
        wcxb.to_str().ok_or("path")?,
        "--algorithm",
        "all",
        "--csv",
        csv.to_str().ok_or("path")?,
    ])?;
    let algorithms = crawlsift::Algorithm::ALL.len();
    assert_eq!(rows.len(), 2 * algorithms);
    for row in &rows {
        let pages = row.get("pages").and_then(Value::as_u64);
        let expected = match row.get("dataset").and_then(Value::as_str) {
            Some("scrapinghub") => Some(4),
            Some("wcxb_dev") => Some(2),
            _ => None,
        };
        assert_eq!(pages, expected, "{row}");
        for name in ["mean_p", "mean_r", "mean_f1", "median_f1"] {
            assert!((0.0..=1.0).contains(&field(row, name)), "{name} in {row}");
        }
        assert!(field(row, "mb_per_s") > 0.0, "{row}");
    }

    // The CSV has a row per page × algorithm; the empty-gold page cannot be
    // matched by a non-empty extraction: recall 1, F1 0.
    let mut reader = csv::Reader::from_path(&csv)?;
    let records: Vec<csv::StringRecord> =
        reader.records().collect::<std::result::Result<_, _>>()?;
    assert_eq!(records.len(), 6 * algorithms);
    let empty_gold: Vec<_> = records
        .iter()
        .filter(|r| r.get(1) == Some("dev-0585"))
        .collect();
    assert_eq!(empty_gold.len(), algorithms);
    for record in empty_gold {
        assert_eq!(record.get(7), Some("0"), "{record:?}");
        if record.get(6) != Some("0") {
            assert_eq!(
                (record.get(4), record.get(5)),
                (Some("1.0"), Some("0.0")),
                "{record:?}"
            );
        }
    }
    Ok(())
}

#[test]
fn breakdown_by_a_meta_field() -> Result {
    let root = tempfile::tempdir()?;
    let scrapinghub = copy_dataset(root.path(), "scrapinghub", SCRAPINGHUB_IDS)?;
    let rows = json_rows(&[scrapinghub.to_str().ok_or("path")?, "--by", "lang"])?;
    let groups: Vec<(Option<&str>, Option<u64>)> = rows
        .iter()
        .map(|r| {
            (
                r.get("group").and_then(Value::as_str),
                r.get("pages").and_then(Value::as_u64),
            )
        })
        .collect();
    assert_eq!(
        groups,
        [
            (None, Some(4)),
            (Some("it"), Some(1)),
            (Some("ja"), Some(1)),
            (Some("ko"), Some(1)),
            (Some("pt"), Some(1))
        ]
    );
    Ok(())
}

#[test]
fn gold_as_predictions_scores_exactly_one() -> Result {
    let root = tempfile::tempdir()?;
    let scrapinghub = copy_dataset(root.path(), "scrapinghub", SCRAPINGHUB_IDS)?;
    let wcxb = copy_dataset(root.path(), "wcxb_dev", WCXB_IDS)?;
    // DIR/<dataset name>/<id>.txt layout.
    let pred = root.path().join("perfect");
    for dataset in [&scrapinghub, &wcxb] {
        let name = dataset.file_name().ok_or("name")?;
        fs::create_dir_all(pred.join(name))?;
        for entry in fs::read_dir(dataset.join("gold"))? {
            let path = entry?.path();
            fs::copy(&path, pred.join(name).join(path.file_name().ok_or("name")?))?;
        }
    }
    let rows = json_rows(&[
        scrapinghub.to_str().ok_or("path")?,
        wcxb.to_str().ok_or("path")?,
        "--pred",
        pred.to_str().ok_or("path")?,
    ])?;
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(
            row.get("algorithm").and_then(Value::as_str),
            Some("perfect")
        );
        for name in ["mean_p", "mean_r", "mean_f1", "median_f1"] {
            assert_eq!(field(row, name), 1.0, "{name} in {row}");
        }
        assert_eq!(row.get("mb_per_s"), Some(&Value::Null));
    }
    Ok(())
}

#[test]
fn empty_and_missing_predictions_score_zero() -> Result {
    let root = tempfile::tempdir()?;
    let scrapinghub = copy_dataset(root.path(), "scrapinghub", SCRAPINGHUB_IDS)?;
    // DIR/<id>.txt layout: all empty, one missing.
    let pred = root.path().join("empty");
    fs::create_dir_all(&pred)?;
    for id in SCRAPINGHUB_IDS.iter().skip(1) {
        fs::write(pred.join(format!("{id}.txt")), "")?;
    }
    let output = crawlsift_eval(&[
        scrapinghub.to_str().ok_or("path")?,
        "--pred",
        pred.to_str().ok_or("path")?,
        "--label",
        "nothing",
    ])?;
    let stderr = String::from_utf8(output.stderr)?;
    assert!(
        stderr.contains("scrapinghub: 1 of 4 pages have no prediction"),
        "{stderr}"
    );
    let table = String::from_utf8(output.stdout)?;
    assert!(table.contains("| nothing | 0.000 |"), "{table}");
    assert!(
        table.contains("| scrapinghub | nothing | 4 | 0.000 | 0.000 | 0.000 | 0.000 | – |"),
        "{table}"
    );
    Ok(())
}

#[test]
fn unknown_algorithm_and_bad_dataset_fail_with_a_message() -> Result {
    let root = tempfile::tempdir()?;
    let scrapinghub = copy_dataset(root.path(), "scrapinghub", SCRAPINGHUB_IDS)?;
    let unknown = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
        .args([
            "eval",
            scrapinghub.to_str().ok_or("path")?,
            "--algorithm",
            "nope",
        ])
        .output()?;
    assert!(!unknown.status.success());
    assert!(String::from_utf8(unknown.stderr)?.contains("unknown algorithm `nope`"));

    let not_a_dataset = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
        .arg("eval")
        .arg(datasets())
        .output()?;
    assert!(!not_a_dataset.status.success());
    let stderr = String::from_utf8(not_a_dataset.stderr)?;
    assert!(stderr.contains("datasets/html"), "{stderr}");
    Ok(())
}
