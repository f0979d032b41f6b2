//! Scores every page of every dataset with every source (an algorithm, or
//! texts another tool wrote), in parallel over pages, and aggregates.

use super::dataset::{read_text, Dataset, Page};
use super::metric::{Score, Scorer};
use super::EvalError;
use cpu_time::ThreadTime;
use crawlsift_extract::{algorithms::PageType, Algorithm, Extractor};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// Where the texts being scored come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// crawlsift's own extraction.
    Algorithm(Algorithm),
    /// `<id>.txt` files another tool wrote, in `dir/<dataset name>/` if that
    /// exists, else in `dir/`.
    Predictions {
        /// The row label in tables.
        label: String,
        /// The directory holding the `<id>.txt` files.
        dir: PathBuf,
    },
}

impl Source {
    /// The row label in tables.
    pub fn label(&self) -> &str {
        match self {
            Source::Algorithm(algorithm) => algorithm.name(),
            Source::Predictions { label, .. } => label,
        }
    }
}

/// How the scored text of a page was obtained.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Origin {
    /// Extracted from `html_bytes` of raw HTML in `cpu` of thread CPU time.
    Extracted {
        /// Size of the page's raw (gunzipped) HTML.
        html_bytes: usize,
        /// Thread CPU time the extraction took.
        cpu: Duration,
        /// The page type the extractor gave (addanag-plus only).
        page_type: Option<PageType>,
        /// The confidence the extractor gave (addanag-plus only).
        confidence: Option<f32>,
    },
    /// Read from the source's `<id>.txt` prediction file.
    Predicted,
    /// No prediction file: scored as an empty extraction.
    MissingPrediction,
}

/// The score of one page with one source; indices into the inputs of
/// [`evaluate`].
#[derive(Clone, Debug)]
pub struct PageResult {
    /// Index of the dataset.
    pub dataset: usize,
    /// Index of the page in its dataset's `pages`.
    pub page: usize,
    /// Index of the source.
    pub source: usize,
    /// The page's score with that source.
    pub score: Score,
    /// How the scored text was obtained.
    pub origin: Origin,
}

/// What a worker does for one source on one dataset.
enum Plan {
    Extract(Algorithm),
    Read(PathBuf),
}

/// Scores all pages on `jobs` threads, extracting with Algorithm 1's `gap`
/// (line-density algorithms); results are sorted by dataset, page, source.
/// The first error stops the run.
pub fn evaluate(
    datasets: &[Dataset],
    sources: &[Source],
    jobs: usize,
    gap: usize,
) -> Result<Vec<PageResult>, EvalError> {
    let plans: Vec<Vec<Plan>> = datasets
        .iter()
        .map(|dataset| {
            sources
                .iter()
                .map(|source| match source {
                    Source::Algorithm(algorithm) => Plan::Extract(*algorithm),
                    Source::Predictions { dir, .. } => {
                        let own = dir.join(&dataset.name);
                        Plan::Read(if own.is_dir() { own } else { dir.clone() })
                    }
                })
                .collect()
        })
        .collect();
    let work: Vec<(usize, usize, &Page)> = datasets
        .iter()
        .enumerate()
        .flat_map(|(d, dataset)| {
            dataset
                .pages
                .iter()
                .enumerate()
                .map(move |(p, page)| (d, p, page))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);

    let outcomes: Vec<Result<Vec<PageResult>, EvalError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut worker = Worker::new(sources.len(), gap);
                    let mut results = Vec::new();
                    while !failed.load(Ordering::Relaxed) {
                        let Some(&(d, p, page)) = work.get(next.fetch_add(1, Ordering::Relaxed))
                        else {
                            break;
                        };
                        let plans = plans.get(d).map_or(&[][..], Vec::as_slice);
                        if let Err(err) = worker.score_page((d, p), page, plans, &mut results) {
                            failed.store(true, Ordering::Relaxed);
                            return Err(err);
                        }
                    }
                    Ok(results)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });

    let mut results = Vec::with_capacity(work.len() * sources.len());
    for outcome in outcomes {
        results.extend(outcome?);
    }
    results.sort_by_key(|r| (r.dataset, r.page, r.source));
    Ok(results)
}

/// One thread's extractors and buffers.
struct Worker {
    scorer: Scorer,
    gap: usize,
    /// One per source that extracts, made on first use.
    extractors: Vec<Option<Extractor>>,
    html: Vec<u8>,
    gold: Vec<u8>,
    prediction: Vec<u8>,
}

impl Worker {
    fn new(sources: usize, gap: usize) -> Self {
        Worker {
            scorer: Scorer::new(),
            gap,
            extractors: (0..sources).map(|_| None).collect(),
            html: Vec::new(),
            gold: Vec::new(),
            prediction: Vec::new(),
        }
    }

    fn score_page(
        &mut self,
        (dataset, index): (usize, usize),
        page: &Page,
        plans: &[Plan],
        results: &mut Vec<PageResult>,
    ) -> Result<(), EvalError> {
        let Worker {
            scorer,
            gap,
            extractors,
            html,
            gold,
            prediction,
        } = self;
        if plans.iter().any(|plan| matches!(plan, Plan::Extract(_))) {
            page.read_html(html)?;
        }
        let gold = read_text(&page.gold, gold)?;
        for (source, (plan, extractor)) in plans.iter().zip(extractors.iter_mut()).enumerate() {
            let (text, origin) = match plan {
                Plan::Extract(algorithm) => {
                    let extractor =
                        extractor.get_or_insert_with(|| Extractor::new(*algorithm).with_gap(*gap));
                    let start = ThreadTime::try_now().map_err(EvalError::CpuClock)?;
                    // The URL, when the page's meta has one, as a crawl gives it.
                    let url = page.meta.get("url").and_then(|u| u.as_str());
                    let extraction = extractor.extract_at(html, None, url);
                    let cpu = start.try_elapsed().map_err(EvalError::CpuClock)?;
                    (
                        extraction.text,
                        Origin::Extracted {
                            html_bytes: html.len(),
                            cpu,
                            page_type: extraction.page_type,
                            confidence: extraction.confidence,
                        },
                    )
                }
                Plan::Read(dir) => {
                    read_prediction(&dir.join(format!("{}.txt", page.id)), prediction)?
                }
            };
            let score = scorer.score(text, gold);
            results.push(PageResult {
                dataset,
                page: index,
                source,
                score,
                origin,
            });
        }
        Ok(())
    }
}

/// A prediction file's text, or an empty one if there is no such file.
fn read_prediction<'a>(path: &Path, buf: &'a mut Vec<u8>) -> Result<(&'a str, Origin), EvalError> {
    match read_text(path, buf) {
        Ok(text) => Ok((text, Origin::Predicted)),
        Err(EvalError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(("", Origin::MissingPrediction))
        }
        Err(err) => Err(err),
    }
}

/// Aggregate scores of one dataset × source, or of one group of its pages.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The dataset's name.
    pub dataset: String,
    /// The source's label: an algorithm's name or a predictions label.
    pub algorithm: String,
    /// The group's label (see [`Page::meta_label`]); `None` for the summary
    /// over all pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Number of pages aggregated.
    pub pages: usize,
    /// Mean precision over the pages.
    pub mean_p: f64,
    /// Mean recall over the pages.
    pub mean_r: f64,
    /// Mean F1 over the pages.
    pub mean_f1: f64,
    /// Median F1 over the pages.
    pub median_f1: f64,
    /// Raw HTML MB per second of extraction CPU time (one core); none for
    /// predictions.
    pub mb_per_s: Option<f64>,
    /// The share of the pages whose `meta.jsonl` `page_type` the extractor
    /// gave, over the pages with one; none without such pages or types.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_type_accuracy: Option<f64>,
    /// Spearman's rank correlation of the extractor's confidence with the
    /// pages' F1; none without confidences.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence_spearman: Option<f64>,
}

/// One summary per dataset × source over all pages, then, with `by`, one per
/// value of that `meta.jsonl` field.
pub fn summarise(
    datasets: &[Dataset],
    sources: &[Source],
    results: &[PageResult],
    by: Option<&str>,
) -> Vec<Summary> {
    let mut groups: BTreeMap<(usize, usize, Option<String>), Vec<&PageResult>> = BTreeMap::new();
    for result in results {
        let key = (result.dataset, result.source, None);
        groups.entry(key).or_default().push(result);
        let page = datasets
            .get(result.dataset)
            .and_then(|d| d.pages.get(result.page));
        if let (Some(field), Some(page)) = (by, page) {
            let key = (result.dataset, result.source, Some(page.meta_label(field)));
            groups.entry(key).or_default().push(result);
        }
    }
    groups
        .into_iter()
        .map(|((d, s, group), results)| {
            let pages = results.len();
            let mean = |f: fn(&Score) -> f64| {
                results.iter().map(|r| f(&r.score)).sum::<f64>() / pages as f64
            };
            let mut f1s: Vec<f64> = results.iter().map(|r| r.score.f1).collect();
            f1s.sort_by(f64::total_cmp);
            let (bytes, cpu) =
                results
                    .iter()
                    .fold((0usize, Duration::ZERO), |(b, t), r| match r.origin {
                        Origin::Extracted {
                            html_bytes, cpu, ..
                        } => (b + html_bytes, t + cpu),
                        _ => (b, t),
                    });
            Summary {
                dataset: datasets.get(d).map(|d| d.name.clone()).unwrap_or_default(),
                algorithm: sources
                    .get(s)
                    .map(|s| s.label().to_string())
                    .unwrap_or_default(),
                group,
                pages,
                mean_p: mean(|s| s.precision),
                mean_r: mean(|s| s.recall),
                mean_f1: mean(|s| s.f1),
                median_f1: median(&f1s),
                mb_per_s: (!cpu.is_zero()).then(|| bytes as f64 / 1e6 / cpu.as_secs_f64()),
                page_type_accuracy: type_accuracy(datasets.get(d), &results),
                confidence_spearman: confidence_spearman(&results),
            }
        })
        .collect()
}

/// The share of `results` whose page type is their page's `meta.jsonl`
/// `page_type`, over those with both.
fn type_accuracy(dataset: Option<&Dataset>, results: &[&PageResult]) -> Option<f64> {
    let (mut right, mut all) = (0usize, 0usize);
    for r in results {
        let Origin::Extracted {
            page_type: Some(predicted),
            ..
        } = r.origin
        else {
            continue;
        };
        let label = dataset
            .and_then(|d| d.pages.get(r.page))
            .and_then(|p| p.meta.get("page_type"))
            .and_then(|t| t.as_str());
        if let Some(label) = label {
            all += 1;
            right += usize::from(label == predicted.as_str());
        }
    }
    (all > 0).then(|| right as f64 / all as f64)
}

/// Spearman's rank correlation of the results' confidences with their F1
/// (ties ranked by their mean rank), over the results with a confidence.
fn confidence_spearman(results: &[&PageResult]) -> Option<f64> {
    let pairs: Vec<(f64, f64)> = results
        .iter()
        .filter_map(|r| match r.origin {
            Origin::Extracted {
                confidence: Some(c),
                ..
            } => Some((f64::from(c), r.score.f1)),
            _ => None,
        })
        .collect();
    if pairs.len() < 2 {
        return None;
    }
    let a = ranks(pairs.iter().map(|p| p.0));
    let b = ranks(pairs.iter().map(|p| p.1));
    pearson(&a, &b)
}

/// The ranks of `values` from 0, ties given their mean rank.
fn ranks(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut order: Vec<(usize, f64)> = values.enumerate().collect();
    order.sort_by(|x, y| x.1.total_cmp(&y.1));
    let mut ranks = vec![0.0; order.len()];
    let mut start = 0;
    while start < order.len() {
        let value = order.get(start).map_or(0.0, |o| o.1);
        let end = order
            .iter()
            .skip(start)
            .position(|o| o.1 != value)
            .map_or(order.len(), |n| start + n);
        let mean = (start + end - 1) as f64 / 2.0;
        for &(i, _) in order.get(start..end).unwrap_or_default() {
            if let Some(r) = ranks.get_mut(i) {
                *r = mean;
            }
        }
        start = end;
    }
    ranks
}

/// Pearson's correlation of `a` and `b`; none when either is constant.
fn pearson(a: &[f64], b: &[f64]) -> Option<f64> {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        ab += (x - ma) * (y - mb);
        aa += (x - ma) * (x - ma);
        bb += (y - mb) * (y - mb);
    }
    (aa > 0.0 && bb > 0.0).then(|| ab / (aa * bb).sqrt())
}

/// The median of sorted values; 0 for none.
fn median(sorted: &[f64]) -> f64 {
    let mid = sorted.len() / 2;
    let upper = sorted.get(mid).copied().unwrap_or(0.0);
    match sorted.len() % 2 {
        0 => mid
            .checked_sub(1)
            .and_then(|i| sorted.get(i))
            .map_or(upper, |lower| (lower + upper) / 2.0),
        _ => upper,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_ranks_with_ties() {
        assert_eq!(
            ranks([3.0, 1.0, 2.0, 1.0].into_iter()),
            [3.0, 0.5, 2.0, 0.5]
        );
        let a = ranks([1.0, 2.0, 3.0, 4.0].into_iter());
        let b = ranks([10.0, 20.0, 15.0, 40.0].into_iter());
        // d² = 0 + 1 + 1 + 0: 1 − 6·2 / (4·15) = 0.8.
        let rho = pearson(&a, &b).unwrap_or_default();
        assert!((rho - 0.8).abs() < 1e-12, "{rho}");
        assert_eq!(pearson(&a, &[1.0; 4]), None);
    }

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[0.1, 0.5, 0.9]), 0.5);
        assert_eq!(median(&[0.0, 0.5, 0.7, 1.0]), 0.6);
        assert_eq!(median(&[0.25]), 0.25);
        assert_eq!(median(&[]), 0.0);
    }
}
