//! The page metadata in `crawlsift html --json` and `crawlsift extract`:
//! the fields of every row (the README's example runs in `readme.rs`).

mod common;

use common::{shared, stdout_of};
use std::process::Command;

const FIELDS: [&str; 6] = [
    "author",
    "date_published",
    "date_modified",
    "site_name",
    "description",
    "canonical_url",
];

/// `crawlsift extract` writes the six fields in every JSONL row, null when
/// the page does not state them, and some pages of a real crawl state them.
#[test]
fn every_extract_row_has_the_fields() {
    let warc = shared("dolma_sample-0000.warc.gz");
    let out = stdout_of(&["extract", "--quiet", warc.to_str().unwrap_or_default()]);
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert!(rows.len() > 10);
    for row in &rows {
        for field in FIELDS {
            assert!(
                row[field].is_null() || row[field].is_string(),
                "{field}: {}",
                row[field]
            );
        }
        if let Some(date) = row["date_published"].as_str() {
            assert!(
                crawlsift::metadata::parse_date(date).as_deref() == Some(date),
                "{date}"
            );
        }
    }
    let stated = rows
        .iter()
        .filter(|r| FIELDS.iter().any(|f| r[*f].is_string()))
        .count();
    assert!(stated > 0, "no page of the WARC states any metadata");
}

/// `--no-metadata` leaves the six fields null and nothing else changes;
/// an output written without the metadata is redone by a run with it.
#[test]
fn no_metadata_leaves_the_fields_null_and_is_a_resume_setting() {
    let warc = shared("dolma_sample-0000.warc.gz");
    let warc = warc.to_str().unwrap_or_default();
    let with: Vec<serde_json::Value> = stdout_of(&["extract", "--quiet", warc])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let without: Vec<serde_json::Value> = stdout_of(&["extract", "--quiet", "--no-metadata", warc])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(with.len(), without.len());
    assert!(with
        .iter()
        .any(|r| FIELDS.iter().any(|f| r[*f].is_string())));
    for (a, b) in with.iter().zip(&without) {
        let mut a = a.clone();
        for field in FIELDS {
            assert!(b[field].is_null(), "{field}: {}", b[field]);
            a[field] = serde_json::Value::Null;
        }
        assert_eq!(&a, b);
    }

    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = dir.path().to_str().unwrap_or_default();
    let run = |extra: &[&str]| {
        let mut args = vec!["extract", warc, "-o", out];
        args.extend_from_slice(extra);
        let o = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
            .args(&args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    run(&["--no-metadata"]);
    let again = run(&[]);
    assert!(
        again.contains("--no-metadata on (this run: off)"),
        "{again}"
    );
}
