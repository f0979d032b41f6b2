//! `--page-timeout`: a page over its CPU budget is counted as `failed:
//! timeout` with its record and offset, and the rest of the input goes on.

mod common;

use common::{crawlsift, jsonl, os, shared, tempdir};
use std::process::Command;

/// The per-file stats of `crawlsift extract --stats` on `warc` with `args`,
/// its JSONL rows and stderr.
fn run(warc: &std::path::Path, args: &[&str]) -> (serde_json::Value, usize, String) {
    let dir = tempdir();
    let stats = dir.path().join("stats.json");
    let mut all = vec![warc.as_os_str(), os("--stats"), stats.as_os_str()];
    all.extend(args.iter().map(|a| os(a)));
    let out = crawlsift(&all);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stderr}");
    let text = std::fs::read_to_string(&stats).unwrap_or_else(|e| panic!("{e}"));
    let stats: Vec<serde_json::Value> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    (stats[0].clone(), jsonl(&out.stdout).len(), stderr)
}

#[test]
fn a_spent_budget_fails_each_page_as_timeout_and_the_file_goes_on() {
    let warc = shared("cc_whirlwind.warc.gz");
    let (full, rows, _) = run(&warc, &["--quiet"]);
    let extracted = full["extracted"].as_u64().unwrap_or(0);
    assert!(extracted > 0 && rows as u64 == extracted, "{full}");
    // A nanosecond: every page stops at its first check.
    let (stats, rows, stderr) = run(&warc, &["--page-timeout", "0.000000001"]);
    assert_eq!(rows, 0);
    assert_eq!(stats["extracted"], 0, "{stats}");
    assert_eq!(stats["read"], full["read"], "{stats}");
    assert_eq!(stats["failed"]["timeout"], extracted, "{stats}");
    assert_eq!(stats["skipped"], full["skipped"], "{stats}");
    let problems = stats["problems"].as_array().cloned().unwrap_or_default();
    assert!(!problems.is_empty());
    for problem in &problems {
        let problem = problem.as_str().unwrap_or_default();
        assert!(
            problem.starts_with(&format!("{}: record ", warc.display()))
                && problem.contains("at byte offset ")
                && problem.contains("page timeout"),
            "{problem}"
        );
    }
    assert!(stderr.contains("timeout"), "{stderr}");
    // 0 turns the budget off; the default leaves every page.
    let (off, rows, _) = run(&warc, &["--quiet", "--page-timeout", "0"]);
    assert_eq!(
        (off["extracted"].as_u64(), rows as u64),
        (Some(extracted), extracted)
    );
}

#[test]
fn html_reports_a_page_over_its_budget_and_refuses_a_negative_one() {
    let page = common::shared_data("datasets/readability_tests/html");
    let mut pages: Vec<_> = std::fs::read_dir(page)
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    pages.sort();
    let html = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_crawlsift"))
            .arg("html")
            .args(args)
            .args(&pages[..2])
            .output()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let out = html(&["--page-timeout", "1e-9"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    // Both files are reported: the first one stopped does not end the run.
    assert_eq!(stderr.matches("crawlsift: ").count(), 2, "{stderr}");
    assert_eq!(stderr.matches("page timeout of 1ns").count(), 2, "{stderr}");
    let out = html(&[]);
    assert!(out.status.success() && !out.stdout.is_empty());
    let out = html(&["--page-timeout=-1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("0 or more"),
        "{stderr}"
    );
}

/// The budget shapes an output (a page over it is failed, not written):
/// a rerun with another `--page-timeout` redoes an output, as another
/// `--algorithm` does, and one with the same budget keeps it.
#[test]
fn a_rerun_with_another_budget_redoes_the_output() {
    let warc = shared("cc_whirlwind.warc.gz");
    let dir = tempdir();
    let output = dir.path().join("cc_whirlwind.jsonl");
    let into = |budget: &str| {
        let out = crawlsift(&[
            warc.as_os_str(),
            os("-o"),
            dir.path().as_os_str(),
            os("--page-timeout"),
            os(budget),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{stderr}");
        let rows = jsonl(&std::fs::read(&output).unwrap_or_default()).len();
        (stderr, rows)
    };
    let (_, none) = into("0.000000001");
    assert_eq!(none, 0, "every page over a nanosecond's budget");
    let (stderr, same) = into("0.000000001");
    assert!(stderr.contains("skipping") && same == 0, "{stderr}");
    let (stderr, all) = into("0");
    assert!(
        stderr.contains("redoing") && stderr.contains("--page-timeout 0.000000001 (this run: off)"),
        "{stderr}"
    );
    assert!(all > 0, "the pages the nanosecond failed: {stderr}");
    let (stderr, _) = into("10");
    assert!(stderr.contains("(this run: 10)"), "{stderr}");
}
