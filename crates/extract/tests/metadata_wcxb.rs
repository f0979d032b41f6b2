//! Metadata accuracy on the real pages of wcxb_dev whose gold
//! (`metadata.jsonl`) has an author or a publish date: a floor below the
//! measured figures (ACCURACY.md), so that a regression fails.
//!
//! Matching, as `benches/metadata_accuracy.py` defines it: names are
//! compared as words (case and punctuation ignored, `and`/`&` between names
//! dropped); an author is right when the gold's words are a run of the
//! words read (several authors are joined with `, `), or the words read,
//! two or more, are a run of the gold's (the gold adds a title or
//! co-authors); a date is right when it is the gold's calendar day.
//!
//! `CRAWLSIFT_METADATA_MISSES=1` prints every page it gets wrong.

use crawlsift_extract::{Algorithm, Extractor};
use flate2::read::GzDecoder;
use std::io::Read;

#[path = "../../../tests/support/shared.rs"]
mod support;

/// The shared wcxb_dev dataset (TESTING.md); a missing folder fails naming it.
fn wcxb() -> String {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets/wcxb_dev")
        .display()
        .to_string()
}

/// Floors, below the measured accuracy (ACCURACY.md §10).
const AUTHOR_FLOOR: f64 = 0.80;
const DATE_FLOOR: f64 = 0.86;

/// A name as words: lowercased, punctuation dropped, the words that join
/// names (`and`, `&`) left out.
fn words(name: &str) -> Vec<String> {
    name.to_lowercase()
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | ';' | '(' | ')'))
        .filter(|w| !w.is_empty() && !matches!(*w, "and" | "&"))
        .map(str::to_owned)
        .collect()
}

/// Whether `inner` is a run of words in `outer`.
fn contains(outer: &[String], inner: &[String]) -> bool {
    !inner.is_empty() && outer.windows(inner.len()).any(|w| w == inner)
}

/// The author read is right when the gold's words are a run of its words,
/// or it has two words or more and they are a run of the gold's (a name
/// without the gold's title or co-authors).
fn author_right(gold: &str, got: &str) -> bool {
    let (gold, got) = (words(gold), words(got));
    contains(&got, &gold) || got.len() >= 2 && contains(&gold, &got)
}

#[test]
fn author_and_date_accuracy_on_wcxb_dev() {
    let wcxb = wcxb();
    let gold = std::fs::read_to_string(format!("{wcxb}/metadata.jsonl"))
        .expect("the shared wcxb_dev dataset (../shared/datasets/wcxb_dev)");
    let urls: std::collections::HashMap<String, String> =
        std::fs::read_to_string(format!("{wcxb}/meta.jsonl"))
            .expect("wcxb_dev meta.jsonl")
            .lines()
            .filter_map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).ok()?;
                Some((v["id"].as_str()?.to_owned(), v["url"].as_str()?.to_owned()))
            })
            .collect();
    let misses = std::env::var_os("CRAWLSIFT_METADATA_MISSES").is_some();
    let mut extractor = Extractor::new(Algorithm::DEFAULT);
    let (mut authors, mut authors_right, mut dates, mut dates_right) = (0, 0, 0, 0);
    let mut raw = Vec::new();
    for line in gold.lines() {
        let row: serde_json::Value = serde_json::from_str(line).expect("gold row");
        let id = row["id"].as_str().expect("id");
        let author = row["author"].as_str().filter(|a| !a.trim().is_empty());
        let date = row["publish_date"]
            .as_str()
            .filter(|d| !d.trim().is_empty());
        if author.is_none() && date.is_none() {
            continue;
        }
        raw.clear();
        let file = std::fs::File::open(format!("{wcxb}/html/{id}.html.gz")).expect("page");
        GzDecoder::new(file).read_to_end(&mut raw).expect("gzip");
        let page = extractor.extract_at(&raw, None, urls.get(id).map(String::as_str));
        let meta = page.metadata;
        if let Some(author) = author {
            authors += 1;
            let right = author_right(author, meta.author.as_deref().unwrap_or_default());
            authors_right += usize::from(right);
            if misses && !right {
                println!("author {id}: gold {author:?} got {:?}", meta.author);
            }
        }
        if let Some(date) = date {
            dates += 1;
            let got = meta.date_published.as_deref().unwrap_or_default();
            let right = got.len() >= 10 && date.len() >= 10 && got[..10] == date[..10];
            dates_right += usize::from(right);
            if misses && !right {
                println!(
                    "date {id}: gold {date:?} got {:?} modified {:?}",
                    meta.date_published, meta.date_modified
                );
            }
        }
    }
    let author_accuracy = authors_right as f64 / authors as f64;
    let date_accuracy = dates_right as f64 / dates as f64;
    println!(
        "author {authors_right}/{authors} = {author_accuracy:.3}; date {dates_right}/{dates} = {date_accuracy:.3}"
    );
    assert!(
        authors > 500 && dates > 500,
        "{authors} authors, {dates} dates"
    );
    assert!(
        author_accuracy >= AUTHOR_FLOOR,
        "author accuracy {author_accuracy:.3}"
    );
    assert!(
        date_accuracy >= DATE_FLOOR,
        "date accuracy {date_accuracy:.3}"
    );
}
