//! What a batch job's log gets when stderr is not a terminal (it is a pipe
//! here): a line per input as it ends, progress lines every
//! `--progress-interval` seconds, and the documented exit codes.

mod common;

use common::*;
use std::collections::BTreeMap;

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The `input N/M done:` lines, by file name: (read, extracted, skipped, failed).
fn done_lines(stderr: &str) -> BTreeMap<String, (u64, u64, u64, u64)> {
    let mut lines = BTreeMap::new();
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix("crawlsift: input ") else {
            continue;
        };
        let Some((_, rest)) = rest.split_once(" done: ") else {
            continue;
        };
        let Some((file, counts)) = rest.rsplit_once(": read ") else {
            continue;
        };
        let numbers: Vec<u64> = counts
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .filter_map(|s| s.parse().ok())
            .collect();
        assert!(counts.ends_with(" s"), "{line}");
        lines.insert(
            file.to_string(),
            (numbers[0], numbers[1], numbers[2], numbers[3]),
        );
    }
    lines
}

#[test]
fn a_line_per_input_progress_lines_and_exit_1_when_an_input_fails() {
    let dir = tempdir();
    let good = shared("dolma_sample-0000.warc.gz");
    // A real WARC cut short mid-record, as by a crashed writer.
    let whole =
        std::fs::read(shared("resiliparse_warcfile.warc.gz")).unwrap_or_else(|e| panic!("{e}"));
    let cut = dir.path().join("cut.warc.gz");
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap_or_else(|e| panic!("{e}"));
    let missing = dir.path().join("missing.warc.gz");
    let stats = dir.path().join("stats.json");
    let out = crawlsift(&[
        good.as_os_str(),
        cut.as_os_str(),
        missing.as_os_str(),
        os("-o"),
        dir.path().join("out").as_os_str(),
        os("--stats"),
        stats.as_os_str(),
        os("--progress-interval"),
        os("0.001"),
        os("-j"),
        os("1"),
    ]);
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let stats: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&stats).unwrap_or_else(|e| panic!("{e}")))
            .unwrap_or_else(|e| panic!("{e}"));
    let done = done_lines(&stderr);
    assert_eq!(done.len(), 2, "{stderr}");
    for file in stats.as_array().into_iter().flatten() {
        let name = file["file"].as_str().unwrap_or_default();
        if file["error"].is_string() {
            assert!(
                stderr.lines().any(|l| l.starts_with("crawlsift: input ")
                    && l.contains(" failed: ")
                    && l.contains(name)),
                "no failed line for {name}: {stderr}"
            );
            continue;
        }
        let sum = |v: &serde_json::Value| -> u64 {
            v.as_object()
                .map(|m| m.values().filter_map(|n| n.as_u64()).sum())
                .unwrap_or(0)
        };
        let expected = (
            file["read"].as_u64().unwrap_or(0),
            file["extracted"].as_u64().unwrap_or(0),
            sum(&file["skipped"]),
            sum(&file["failed"]),
        );
        assert_eq!(done.get(name), Some(&expected), "{name}: {stderr}");
        assert!(expected.0 > 0);
    }
    // The damaged file read on with its problem counted, not failed whole.
    assert!(done[&cut.display().to_string()].3 > 0, "{stderr}");
    // The lines come in the order the inputs end, numbered.
    let first = stderr.find("crawlsift: input 1/3 ").unwrap_or(usize::MAX);
    let last = stderr.find("crawlsift: input 3/3 ").unwrap_or(0);
    let total = stderr.find("total: 3 files").unwrap_or(0);
    assert!(first < last && last < total, "{stderr}");
    let progress: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("crawlsift: progress: "))
        .collect();
    assert!(!progress.is_empty(), "{stderr}");
    assert!(
        progress
            .iter()
            .all(|l| l.contains(" MB") && l.contains(" records, ") && l.contains(" records/s")),
        "{progress:?}"
    );
}

#[test]
fn no_progress_lines_at_0_nothing_with_quiet_and_exit_0() {
    let good = shared("cc_whirlwind.warc.gz");
    let out = crawlsift(&[good.as_os_str(), os("--progress-interval"), os("0")]);
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("crawlsift: progress:"), "{stderr}");
    assert_eq!(done_lines(&stderr).len(), 1, "{stderr}");

    let quiet = crawlsift(&[good.as_os_str(), os("--quiet")]);
    assert_eq!(quiet.status.code(), Some(0));
    assert!(quiet.stderr.is_empty(), "{}", stderr_of(&quiet));
}

#[test]
fn usage_errors_exit_2() {
    let good = shared("cc_whirlwind.warc.gz");
    for args in [
        vec![good.as_os_str(), os("--progress-interval"), os("-1")],
        vec![good.as_os_str(), os("--no-such-option")],
        vec![os("--format"), os("parquet"), good.as_os_str()],
    ] {
        let out = crawlsift(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr_of(&out));
        assert!(out.stdout.is_empty());
    }
}
