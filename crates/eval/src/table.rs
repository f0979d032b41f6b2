//! `crawlsift eval` outputs: Markdown tables laid out like the papers' Tables 3
//! and 4, JSON summaries, and a per-page CSV.

use super::dataset::Dataset;
use super::runner::{PageResult, Source, Summary};
use super::EvalError;
use serde::Serialize;
use std::fmt::Write;
use std::path::Path;

/// Heading of the column of summaries over all pages when grouping.
const ALL_PAGES: &str = "all pages";

/// A table of mean F1 (rows = algorithms, columns = datasets; or, with
/// groups, one table per dataset with a column per group), then a table of
/// all the aggregates.
pub fn markdown(summaries: &[Summary]) -> String {
    let mut out = String::new();
    let datasets = distinct(summaries.iter().map(|s| s.dataset.as_str()));
    let algorithms = distinct(summaries.iter().map(|s| s.algorithm.as_str()));
    let grouped = summaries.iter().any(|s| s.group.is_some());
    let f1 = |dataset: &str, algorithm: &str, group: Option<&str>| {
        summaries
            .iter()
            .find(|s| {
                s.dataset == dataset && s.algorithm == algorithm && s.group.as_deref() == group
            })
            .map_or_else(|| "–".to_string(), |s| format!("{:.3}", s.mean_f1))
    };

    if grouped {
        for dataset in &datasets {
            let groups = distinct(
                summaries
                    .iter()
                    .filter(|s| s.dataset == *dataset)
                    .filter_map(|s| s.group.as_deref()),
            );
            let _ = writeln!(out, "Mean F1 on {dataset} by group:\n");
            let columns: Vec<Option<&str>> = std::iter::once(None)
                .chain(groups.iter().map(|g| Some(*g)))
                .collect();
            let headings: Vec<&str> = columns.iter().map(|g| g.unwrap_or(ALL_PAGES)).collect();
            row(&mut out, "algorithm", &headings);
            rule(&mut out, headings.len() + 1);
            for algorithm in &algorithms {
                let cells: Vec<String> =
                    columns.iter().map(|g| f1(dataset, algorithm, *g)).collect();
                row(&mut out, algorithm, &cells);
            }
            out.push('\n');
        }
    } else {
        out.push_str("Mean F1:\n\n");
        row(&mut out, "algorithm", &datasets);
        rule(&mut out, datasets.len() + 1);
        for algorithm in &algorithms {
            let cells: Vec<String> = datasets.iter().map(|d| f1(d, algorithm, None)).collect();
            row(&mut out, algorithm, &cells);
        }
        out.push('\n');
    }

    let mut headings = vec!["algorithm"];
    if grouped {
        headings.push("group");
    }
    headings.extend([
        "pages",
        "mean P",
        "mean R",
        "mean F1",
        "median F1",
        "MB/s/core",
        "page type right",
        "confidence ρ",
    ]);
    row(&mut out, "dataset", &headings);
    rule(&mut out, headings.len() + 1);
    for s in summaries {
        let mut cells = vec![s.algorithm.clone()];
        if grouped {
            cells.push(s.group.clone().unwrap_or_else(|| ALL_PAGES.to_string()));
        }
        cells.push(s.pages.to_string());
        cells.extend([s.mean_p, s.mean_r, s.mean_f1, s.median_f1].map(|v| format!("{v:.3}")));
        cells.push(
            s.mb_per_s
                .map_or_else(|| "–".to_string(), |v| format!("{v:.1}")),
        );
        for v in [s.page_type_accuracy, s.confidence_spearman] {
            cells.push(v.map_or_else(|| "–".to_string(), |v| format!("{v:.3}")));
        }
        row(&mut out, &s.dataset, &cells);
    }
    out
}

/// The summaries as one JSON array.
pub fn json(summaries: &[Summary]) -> String {
    // Summaries hold only strings and numbers, which always serialise.
    serde_json::to_string_pretty(summaries).unwrap_or_default()
}

/// One CSV row per page × source.
#[derive(Serialize)]
struct CsvRow<'a> {
    dataset: &'a str,
    id: &'a str,
    algorithm: &'a str,
    precision: f64,
    recall: f64,
    f1: f64,
    extracted_tokens: usize,
    gold_tokens: usize,
}

/// Writes every page's score as CSV to `out`, the file at `path`.
pub fn write_csv(
    out: impl std::io::Write,
    path: &Path,
    datasets: &[Dataset],
    sources: &[Source],
    results: &[PageResult],
) -> Result<(), EvalError> {
    let err = |source| EvalError::Csv {
        path: path.to_path_buf(),
        source,
    };
    let mut writer = csv::Writer::from_writer(out);
    for r in results {
        let dataset = datasets.get(r.dataset);
        let row = CsvRow {
            dataset: dataset.map_or("", |d| d.name.as_str()),
            id: dataset
                .and_then(|d| d.pages.get(r.page))
                .map_or("", |p| p.id.as_str()),
            algorithm: sources.get(r.source).map_or("", Source::label),
            precision: r.score.precision,
            recall: r.score.recall,
            f1: r.score.f1,
            extracted_tokens: r.score.extracted_tokens,
            gold_tokens: r.score.gold_tokens,
        };
        writer.serialize(row).map_err(err)?;
    }
    writer.flush().map_err(|e| err(e.into()))
}

/// The distinct items, in order of first appearance.
fn distinct<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen
}

fn row(out: &mut String, first: &str, cells: &[impl AsRef<str>]) {
    out.push_str("| ");
    out.push_str(first);
    for cell in cells {
        out.push_str(" | ");
        out.push_str(cell.as_ref());
    }
    out.push_str(" |\n");
}

fn rule(out: &mut String, columns: usize) {
    out.push('|');
    out.push_str(&"---|".repeat(columns));
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(dataset: &str, algorithm: &str, group: Option<&str>, f1: f64) -> Summary {
        Summary {
            dataset: dataset.into(),
            algorithm: algorithm.into(),
            group: group.map(Into::into),
            pages: 3,
            mean_p: 0.5,
            mean_r: 0.25,
            mean_f1: f1,
            median_f1: 0.125,
            mb_per_s: None,
            page_type_accuracy: None,
            confidence_spearman: None,
        }
    }

    #[test]
    fn f1_table_has_algorithms_as_rows_and_datasets_as_columns() {
        let table = markdown(&[
            summary("a", "danag", None, 0.5),
            summary("a", "dana", None, 0.25),
            summary("b", "danag", None, 0.75),
        ]);
        assert!(
            table.contains("| algorithm | a | b |\n|---|---|---|\n"),
            "{table}"
        );
        assert!(table.contains("| danag | 0.500 | 0.750 |"), "{table}");
        assert!(table.contains("| dana | 0.250 | – |"), "{table}");
        assert!(
            table.contains("| a | danag | 3 | 0.500 | 0.250 | 0.500 | 0.125 | – |"),
            "{table}"
        );
    }

    #[test]
    fn groups_become_columns_per_dataset() {
        let table = markdown(&[
            summary("a", "danag", None, 0.5),
            summary("a", "danag", Some("en"), 0.25),
            summary("a", "danag", Some("zh"), 0.75),
        ]);
        assert!(
            table.contains("| algorithm | all pages | en | zh |"),
            "{table}"
        );
        assert!(
            table.contains("| danag | 0.500 | 0.250 | 0.750 |"),
            "{table}"
        );
        assert!(table.contains("| a | danag | zh | 3 |"), "{table}");
    }
}
