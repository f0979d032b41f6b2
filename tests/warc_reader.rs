//! The WARC reader over every real sample in ../shared/warc.

use dana::warc::{ProblemKind, WarcReader};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/warc");
const CAP: u64 = 16 << 20;

#[derive(Debug, Default)]
struct Summary {
    types: BTreeMap<String, u64>,
    uris: Vec<String>,
    problems: Vec<dana::warc::Problem>,
    ranges: Vec<(u64, Option<u64>)>,
}

fn summarize(path: &Path) -> Summary {
    let mut reader = WarcReader::open(path, CAP).unwrap_or_else(|e| panic!("{e}"));
    let mut s = Summary::default();
    while let Some(item) = reader.next() {
        match item {
            Ok(r) => {
                let kind = r.headers.warc_type().unwrap_or_default().into_owned();
                *s.types.entry(kind).or_default() += 1;
                s.uris
                    .push(r.headers.target_uri().unwrap_or_default().into_owned());
                s.ranges.push((r.offset, r.length));
            }
            Err(p) => s.problems.push(p),
        }
    }
    s
}

fn shared(name: &str) -> PathBuf {
    Path::new(SHARED).join(name)
}

fn inventory() -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(shared("inventory.json")).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// Record counts by type match warcio's inventory on every file warcio read
/// without error, and every gzip record (member layout) knows its exact range.
#[test]
fn every_shared_file_matches_the_inventory() {
    for entry in inventory() {
        let name = entry["file"].as_str().unwrap_or_default();
        let s = summarize(&shared(name));
        let expected: BTreeMap<String, u64> = entry["records"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
                    .collect()
            })
            .unwrap_or_default();
        println!("{name}: {:?} problems {:?}", s.types, s.problems);
        match name {
            // warcio refuses these; see the dedicated tests.
            "warcio_example-bad-non-chunked.warc.gz"
            | "warcio_example-wrong-chunks.warc.gz"
            | "resiliparse_clipped.warc.gz" => {}
            _ => {
                assert_eq!(s.types, expected, "{name}");
                assert!(s.problems.is_empty(), "{name}: {:?}", s.problems);
                assert!(
                    s.ranges.iter().all(|(_, len)| len.is_some()),
                    "{name}: a record without a range"
                );
            }
        }
    }
}
