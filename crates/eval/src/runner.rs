//! Scores every page of every dataset with every source (an algorithm, or
//! texts another tool wrote), in parallel over pages, and aggregates.

use super::dataset::{read_text, Dataset, Page};
use super::metric::{Score, Scorer};
use super::EvalError;
use cpu_time::ThreadTime;
use crawlsift_extract::{Algorithm, Extractor};
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
                    let text = extractor.extract(html, None).text;
                    let cpu = start.try_elapsed().map_err(EvalError::CpuClock)?;
                    (
                        text,
                        Origin::Extracted {
                            html_bytes: html.len(),
                            cpu,
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
                        Origin::Extracted { html_bytes, cpu } => (b + html_bytes, t + cpu),
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
            }
        })
        .collect()
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
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[0.1, 0.5, 0.9]), 0.5);
        assert_eq!(median(&[0.0, 0.5, 0.7, 1.0]), 0.6);
        assert_eq!(median(&[0.25]), 0.25);
        assert_eq!(median(&[]), 0.0);
    }
}
