//! The metadata's CPU cost, for instruction counts under callgrind (not
//! run by `cargo test`: `#[ignore]`):
//!
//! ```sh
//! cargo test -p crawlsift-extract --test metadata_cost --no-run
//! CRAWLSIFT_METADATA=off valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/debug/deps/metadata_cost-* --ignored
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/debug/deps/metadata_cost-* --ignored
//! ```
//!
//! Every page of the shared datasets, extracted with the default algorithm,
//! with the metadata (the default) or without (`CRAWLSIFT_METADATA=off`);
//! `CRAWLSIFT_METADATA=gunzip` only reads the pages, to take that out.

use crawlsift_extract::{Algorithm, Extractor, MetadataSettings};
use flate2::read::GzDecoder;
use std::io::Read;

#[path = "../../../tests/support/shared.rs"]
mod support;

#[test]
#[ignore = "a workload for callgrind, not a test"]
fn extract_every_dataset_page() {
    let mode = std::env::var("CRAWLSIFT_METADATA").unwrap_or_default();
    let off = mode == "off";
    let mut extractor =
        Extractor::new(Algorithm::DEFAULT).with_metadata((!off).then(MetadataSettings::default));
    let mut pages = Vec::new();
    for dataset in std::fs::read_dir(support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets"))
        .expect("shared datasets")
    {
        let html = dataset.expect("entry").path().join("html");
        if let Ok(entries) = std::fs::read_dir(&html) {
            pages.extend(entries.filter_map(|e| e.ok().map(|e| e.path())));
        }
    }
    pages.sort();
    // `CRAWLSIFT_METADATA_STEP=n`: every n-th page only, for a quicker run.
    let step = std::env::var("CRAWLSIFT_METADATA_STEP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let pages: Vec<_> = pages.into_iter().step_by(step).collect();
    let (mut bytes, mut stated) = (0, 0);
    let mut raw = Vec::new();
    for path in &pages {
        raw.clear();
        let file = std::fs::File::open(path).expect("page");
        GzDecoder::new(file).read_to_end(&mut raw).expect("gzip");
        bytes += raw.len();
        if mode == "gunzip" {
            continue;
        }
        let page = extractor.extract(&raw, None);
        stated += usize::from(page.metadata.date_published.is_some());
    }
    println!(
        "{} pages, {bytes} bytes, {stated} with a publish date",
        pages.len()
    );
}
