//! Writes, for every page of the datasets named on the command line, the
//! cues of addanag-plus's page type and confidence models
//! (`crawlsift_extract::algorithms::page_type`), the page's `page_type`
//! label (when its `meta.jsonl` has one) and the extraction's F1 against
//! the gold, as CSV on standard output: what `benches/page_type/fit.py`
//! fits the models on.
//!
//! ```sh
//! cargo run --release -p crawlsift-eval --example page_cues -- ../shared/datasets/* > cues.csv
//! ```

use crawlsift_eval::dataset::read_text;
use crawlsift_eval::{Dataset, Scorer};
use crawlsift_extract::{Algorithm, Extractor};
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut extractor = Extractor::new(Algorithm::AddanagPlus);
    let (mut html, mut gold) = (Vec::new(), Vec::new());
    let mut scorer = Scorer::new();
    let columns: Vec<String> = (0..crawlsift_extract::algorithms::page_type::CUES)
        .map(|i| format!("x{i}"))
        .collect();
    println!(
        "dataset,index,id,label,f1,page_type,confidence,{}",
        columns.join(",")
    );
    for dir in std::env::args().skip(1) {
        let dataset = Dataset::open(Path::new(&dir))?;
        for (index, page) in dataset.pages.iter().enumerate() {
            page.read_html(&mut html)?;
            let gold = read_text(&page.gold, &mut gold)?.to_owned();
            let url = page.meta.get("url").and_then(|u| u.as_str());
            let extraction = extractor.extract_at(&html, None, url);
            let f1 = scorer.score(extraction.text, &gold).f1;
            let cues = extraction.cues.unwrap_or_default().vector();
            let label = page
                .meta
                .get("page_type")
                .and_then(|t| t.as_str())
                .unwrap_or("");
            let cues: Vec<String> = cues.iter().map(|c| format!("{c}")).collect();
            println!(
                "{},{index},{},{label},{f1},{},{},{}",
                dataset.name,
                page.id,
                extraction.page_type.map_or("", |t| t.as_str()),
                extraction.confidence.unwrap_or(0.0),
                cues.join(",")
            );
        }
    }
    Ok(())
}
