//! Real pages for the benchmarks: the scrapinghub dataset of `../shared`.

use std::io::Read;

#[path = "../../tests/support/shared.rs"]
mod support;

/// Every scrapinghub page, gunzipped, in file-name order.
pub fn scrapinghub_pages() -> Vec<Vec<u8>> {
    let dir = support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets/scrapinghub/html");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            let mut raw = Vec::new();
            flate2::read::MultiGzDecoder::new(file)
                .read_to_end(&mut raw)
                .unwrap_or_else(|e| panic!("{path:?}: {e}"));
            raw
        })
        .collect()
}

/// The default algorithm's text of every scrapinghub page, in file-name
/// order.
#[allow(dead_code)] // not every benchmark that includes this module calls it
pub fn scrapinghub_texts() -> Vec<String> {
    let mut extractor = crawlsift::Extractor::new(crawlsift::Algorithm::DEFAULT);
    scrapinghub_pages()
        .iter()
        .map(|raw| extractor.extract(raw, None).text.to_owned())
        .collect()
}
