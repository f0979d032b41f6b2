//! Every algorithm on every page of the shared datasets: no panic, and real
//! text out where the gold has text.
//!
//! Content code blurring (CCB, ACCB) runs at ~20 MB/s, so it gets every
//! page of scrapinghub, daniel_dev and readability_tests; the other
//! algorithms also get all 1,497 pages of wcxb_dev (~420 MB).

use crawlsift::{Algorithm, Extractor};
use crawlsift_eval::dataset::{read_text, Dataset};

#[path = "support/shared.rs"]
mod support;

/// The shared datasets (TESTING.md); a missing folder fails naming it.
fn datasets() -> std::path::PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets")
}

/// For each algorithm: pages with non-empty output, pages with non-empty gold.
fn run(dataset: &str, algorithms: &[Algorithm]) -> Vec<(Algorithm, usize, usize)> {
    let data = Dataset::open(&datasets().join(dataset)).expect("shared dataset");
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunks: Vec<_> = data
        .pages
        .chunks(data.pages.len().div_ceil(workers))
        .collect();
    let per_worker: Vec<Vec<(usize, usize)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|pages| {
                scope.spawn(move || {
                    let mut extractors: Vec<_> =
                        algorithms.iter().map(|&a| Extractor::new(a)).collect();
                    let mut counts = vec![(0, 0); algorithms.len()];
                    let (mut html, mut gold) = (Vec::new(), Vec::new());
                    for page in pages.iter() {
                        page.read_html(&mut html).expect("page");
                        let has_gold = !read_text(&page.gold, &mut gold)
                            .expect("gold")
                            .trim()
                            .is_empty();
                        for (extractor, count) in extractors.iter_mut().zip(&mut counts) {
                            let out = extractor.extract(&html, None);
                            assert!(
                                out.text.len() <= 4 * html.len() + 16,
                                "{}: runaway output",
                                page.id
                            );
                            count.0 += usize::from(has_gold && !out.text.trim().is_empty());
                            count.1 += usize::from(has_gold);
                        }
                    }
                    counts
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker panicked"))
            .collect()
    });
    algorithms
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            let (found, gold) = per_worker
                .iter()
                .fold((0, 0), |acc, w| (acc.0 + w[i].0, acc.1 + w[i].1));
            (a, found, gold)
        })
        .collect()
}

/// The DANAg family finds text on at least 95 % of the pages whose gold has
/// text; the baselines on at least 70 % (TCCB, BTE and DSC treat a Chinese
/// paragraph as one word and often find nothing there); DANA is empty on
/// Latin-script pages by design.
fn check(dataset: &str, algorithms: &[Algorithm]) {
    for (algorithm, found, gold) in run(dataset, algorithms) {
        eprintln!("{dataset}/{algorithm}: text on {found} of {gold} pages with gold");
        assert!(gold > 0, "{dataset}: no gold");
        let percent = match algorithm {
            Algorithm::Dana => 0,
            Algorithm::Danag
            | Algorithm::Addanag
            | Algorithm::DanagFilter1
            | Algorithm::DanagFilter2 => 95,
            _ => 70,
        };
        assert!(
            found * 100 >= gold * percent,
            "{dataset}/{algorithm}: text on {found} of {gold} pages"
        );
    }
}

#[test]
fn every_algorithm_on_every_page_of_the_small_datasets() {
    for dataset in ["scrapinghub", "daniel_dev", "readability_tests"] {
        check(dataset, Algorithm::ALL);
    }
}

#[test]
fn fast_algorithms_on_every_page_of_wcxb_dev() {
    let fast: Vec<_> = Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| !matches!(a, Algorithm::Ccb | Algorithm::Accb))
        .collect();
    check("wcxb_dev", &fast);
}
