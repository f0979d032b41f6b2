//! `--markdown`: the text unchanged, and the structure of real pages of
//! `../shared/datasets/` carried over (the README's example runs in
//! `readme.rs`).

mod common;

use common::{jsonl, os, shared};
use std::path::PathBuf;

/// The shared datasets (TESTING.md); a missing folder fails naming it.
fn datasets() -> PathBuf {
    common::shared_data("datasets")
}

fn html(args: &[&str]) -> String {
    common::stdout_of(&[&["html"], args].concat())
}

/// The pages of a dataset, sorted.
fn pages(dataset: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(datasets().join(dataset).join("html"))
        .unwrap_or_else(|e| panic!("{dataset}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    paths
}

/// Text as a Markdown line renders it, roughly: links as their text,
/// escapes and emphasis marks dropped, whitespace collapsed, lowercase.
fn rendered(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(char::is_ascii_punctuation) => {
                out.extend(chars.next());
            }
            '*' | '_' | '`' => {}
            c => out.push(c),
        }
    }
    out.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The text of a Markdown heading or list item line, if it is one.
fn structure(line: &str) -> Option<(bool, String)> {
    let mut rest = line.trim_start();
    while let Some(r) = rest.strip_prefix("> ") {
        rest = r.trim_start();
    }
    let hashes = rest.bytes().take_while(|&b| b == b'#').count();
    if (1..=6).contains(&hashes) {
        return rest
            .get(hashes..)?
            .strip_prefix(' ')
            .map(|t| (true, rendered(t)));
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let item = rest
        .strip_prefix("- ")
        .or_else(|| rest.strip_prefix("* "))
        .or_else(|| {
            rest.get(digits..)?
                .strip_prefix(". ")
                .filter(|_| digits > 0)
        });
    item.map(|t| (false, rendered(t)))
}

/// On the wcxb_dev pages with gold Markdown: a heading or list item of the
/// gold whose text is a line of crawlsift's text is a heading or list item
/// of crawlsift's Markdown; a page whose gold has a table has one; the
/// text is the same with and without Markdown.
#[test]
fn wcxb_structure_is_carried() {
    let all = pages("wcxb_dev");
    assert!(all.len() > 1000);
    // Every fifth page keeps the test to seconds.
    let chosen: Vec<&PathBuf> = all.iter().step_by(5).collect();
    let args: Vec<&str> = chosen.iter().filter_map(|p| p.to_str()).collect();
    let plain = jsonl(html(&[&["--json"], &args[..]].concat()).as_bytes());
    let rows = jsonl(html(&[&["--json", "--markdown"], &args[..]].concat()).as_bytes());
    assert_eq!(rows.len(), chosen.len());
    let (mut headings, mut items, mut tables) = ((0, 0), (0, 0), (0, 0));
    for ((path, row), plain) in chosen.iter().zip(&rows).zip(&plain) {
        assert_eq!(row["text"], plain["text"], "{}", path.display());
        let id = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".html.gz"))
            .unwrap_or_default();
        let gold = datasets().join(format!("wcxb_dev/markdown/{id}.md"));
        let Ok(gold) = std::fs::read_to_string(gold) else {
            continue;
        };
        let text = row["text"].as_str().unwrap_or_default();
        let lines: std::collections::HashSet<String> = text.lines().map(rendered).collect();
        let markdown = row["markdown"].as_str().unwrap_or_default();
        let ours: std::collections::HashSet<(bool, String)> =
            markdown.lines().filter_map(structure).collect();
        for (heading, line) in gold.lines().filter_map(structure) {
            if line.is_empty() || !lines.contains(&line) {
                continue;
            }
            let count = if heading { &mut headings } else { &mut items };
            count.0 += 1;
            count.1 += usize::from(ours.contains(&(heading, line)));
        }
        if gold
            .lines()
            .any(|l| l.starts_with('|') && l.contains("---"))
        {
            tables.0 += 1;
            tables.1 += usize::from(markdown.lines().any(|l| l.contains("| --- |")));
        }
    }
    let recall = |(n, ok): (usize, usize)| ok as f64 / n.max(1) as f64;
    eprintln!("headings {headings:?}, list items {items:?}, tables {tables:?}");
    assert!(headings.0 > 100 && recall(headings) > 0.85, "{headings:?}");
    assert!(items.0 > 100 && recall(items) > 0.8, "{items:?}");
    assert!(tables.0 > 3 && recall(tables) > 0.6, "{tables:?}");
}

/// Pages of the shared sets with math: their TeX comes out as LaTeX.
#[test]
fn math_of_real_pages_is_latex() {
    let with_math: Vec<PathBuf> = ["readability_tests", "wcxb_dev"]
        .iter()
        .flat_map(|d| pages(d))
        .filter(|p| {
            let raw = std::fs::read(p).unwrap_or_default();
            let mut html = Vec::new();
            let _ =
                std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&raw[..]), &mut html);
            let has = |needle: &[u8]| html.windows(needle.len()).any(|w| w == needle);
            has(b"application/x-tex") || has(b"math/tex")
        })
        .collect();
    assert!(!with_math.is_empty(), "the shared sets have pages with TeX");
    let args: Vec<&str> = with_math.iter().filter_map(|p| p.to_str()).collect();
    let rows = jsonl(html(&[&["--json", "--markdown"], &args[..]].concat()).as_bytes());
    let latex = rows
        .iter()
        .filter(|r| {
            let md = r["markdown"].as_str().unwrap_or_default();
            md.contains('$') && md.contains('\\')
        })
        .count();
    eprintln!("{latex} of {} pages with TeX give LaTeX", rows.len());
    assert!(latex * 2 >= rows.len(), "{latex} of {}", rows.len());
}

/// `extract --markdown` adds `markdown` to JSONL beside an unchanged text;
/// WET is the same with and without it.
#[test]
fn extract_adds_markdown_and_leaves_text_and_wet() {
    let warc = shared("dolma_sample-0000.warc.gz");
    let run = |args: &[&str]| {
        let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|a| os(a)).collect();
        all.push(warc.as_os_str());
        let out = common::crawlsift(&all);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let plain = jsonl(&run(&["-q"]));
    let with = jsonl(&run(&["-q", "--markdown"]));
    assert_eq!(plain.len(), with.len());
    assert!(plain.len() > 10);
    for (p, w) in plain.iter().zip(&with) {
        assert_eq!(p["text"], w["text"]);
        assert!(p.get("markdown").is_none());
        assert!(w["markdown"].is_string());
    }
    // WET: the same records but for their ids and dates.
    let wet = |args: &[&str]| {
        let mut text = String::new();
        let raw = run(args);
        std::io::Read::read_to_string(&mut flate2::read::MultiGzDecoder::new(&raw[..]), &mut text)
            .unwrap_or_else(|e| panic!("{e}"));
        text.lines()
            .filter(|l| {
                !l.starts_with("WARC-Record-ID:")
                    && !l.starts_with("WARC-Date:")
                    && !l.starts_with("WARC-Warcinfo-ID:")
            })
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let plain_wet = wet(&["-q", "--format", "wet"]);
    assert!(plain_wet.len() > 100);
    assert_eq!(plain_wet, wet(&["-q", "--format", "wet", "--markdown"]));
    // An element-based algorithm renders none: null, present.
    let ccb = jsonl(&run(&["-q", "--markdown", "--algorithm", "ccb"]));
    assert!(ccb.iter().all(|r| r["markdown"].is_null()));
}
