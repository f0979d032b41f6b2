//! `crawlsift eval`: score extractions against gold-standard datasets with the
//! papers' word-level LCS metric.

use anyhow::Context;
use crawlsift::Algorithm;
use crawlsift_eval::{self as eval, Dataset, Origin, Source};
use std::fs::File;
use std::io::Write;
use std::num::NonZeroUsize;
use std::path::PathBuf;

#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    Markdown,
    Json,
}

#[derive(clap::Args)]
pub struct Args {
    /// Dataset directories, each with html/<id>.html[.gz], gold/<id>.txt and
    /// optionally meta.jsonl.
    #[arg(required = true, value_name = "DATASET_DIR")]
    datasets: Vec<PathBuf>,
    /// Algorithms to score, comma-separated, or `all` [default: addanag-plus,
    /// unless --pred is given].
    #[arg(short, long, value_delimiter = ',')]
    algorithm: Vec<String>,
    /// Also break the scores down by this meta.jsonl field (e.g. lang,
    /// page_type).
    #[arg(long, value_name = "FIELD")]
    by: Option<String>,
    /// Markdown tables, or a JSON array with one object per dataset ×
    /// algorithm [× group].
    #[arg(long, value_enum, default_value = "markdown")]
    format: Format,
    /// Write every page's score to this CSV file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Score <id>.txt texts another tool wrote, from DIR/<dataset name>/ if
    /// it exists, else from DIR/; a missing file scores as an empty
    /// extraction. Repeatable.
    #[arg(long, value_name = "DIR")]
    pred: Vec<PathBuf>,
    /// Row label for each --pred, in order [default: the directory's name].
    #[arg(long, value_name = "NAME")]
    label: Vec<String>,
    /// Algorithm 1's gap for the line-density algorithms: how many lines may
    /// separate main-content regions.
    #[arg(long, default_value_t = crawlsift::algorithms::DEFAULT_GAP)]
    gap: usize,
    /// Worker threads [default: all cores].
    #[arg(short, long)]
    jobs: Option<NonZeroUsize>,
}

/// Scored when neither --algorithm nor --pred is given.
const DEFAULT_ALGORITHM: Algorithm = Algorithm::DEFAULT;

pub fn run(args: Args) -> anyhow::Result<u8> {
    let sources = sources(&args)?;
    let datasets = args
        .datasets
        .iter()
        .map(|dir| Dataset::open(dir))
        .collect::<Result<Vec<_>, _>>()?;
    let jobs = args
        .jobs
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);

    // Created before the run so that a bad path fails at once.
    let csv = match &args.csv {
        Some(path) => Some((
            path,
            File::create(path).with_context(|| format!("--csv {}", path.display()))?,
        )),
        None => None,
    };

    let results = eval::evaluate(&datasets, &sources, jobs, args.gap)?;
    report_missing_predictions(&datasets, &sources, &results);
    if let Some((path, file)) = csv {
        eval::table::write_csv(file, path, &datasets, &sources, &results)?;
    }
    let summaries = eval::summarise(&datasets, &sources, &results, args.by.as_deref());
    match args.format {
        Format::Markdown => write!(std::io::stdout(), "{}", eval::table::markdown(&summaries))?,
        Format::Json => writeln!(std::io::stdout(), "{}", eval::table::json(&summaries))?,
    }
    Ok(0)
}

/// The algorithms asked for, then the prediction directories.
fn sources(args: &Args) -> anyhow::Result<Vec<Source>> {
    if !args.label.is_empty() && args.label.len() != args.pred.len() {
        anyhow::bail!(
            "{} --label for {} --pred: give one label per --pred, in the same order, or none",
            args.label.len(),
            args.pred.len()
        );
    }
    let mut algorithms: Vec<Algorithm> = Vec::new();
    for name in &args.algorithm {
        let named = if name.eq_ignore_ascii_case("all") {
            Algorithm::ALL.to_vec()
        } else {
            vec![name.parse()?]
        };
        for algorithm in named {
            if !algorithms.contains(&algorithm) {
                algorithms.push(algorithm);
            }
        }
    }
    if algorithms.is_empty() && args.pred.is_empty() {
        algorithms.push(DEFAULT_ALGORITHM);
    }
    let mut sources: Vec<Source> = algorithms.into_iter().map(Source::Algorithm).collect();
    for (i, dir) in args.pred.iter().enumerate() {
        if !dir.is_dir() {
            anyhow::bail!("--pred {}: not a directory", dir.display());
        }
        let label = match args.label.get(i) {
            Some(label) => label.clone(),
            None => dir
                .canonicalize()
                .with_context(|| format!("--pred {}", dir.display()))?
                .file_name()
                .map_or_else(
                    || dir.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                ),
        };
        sources.push(Source::Predictions {
            label,
            dir: dir.clone(),
        });
    }
    Ok(sources)
}

/// Says on stderr how many pages had no prediction file, per dataset × --pred.
fn report_missing_predictions(
    datasets: &[Dataset],
    sources: &[Source],
    results: &[eval::PageResult],
) {
    for (d, dataset) in datasets.iter().enumerate() {
        for (s, source) in sources.iter().enumerate() {
            let missing = results
                .iter()
                .filter(|r| {
                    r.dataset == d && r.source == s && r.origin == Origin::MissingPrediction
                })
                .count();
            if let (Source::Predictions { dir, .. }, 1..) = (source, missing) {
                eprintln!(
                    "crawlsift eval: {}: {missing} of {} pages have no prediction in {} (scored as empty extractions)",
                    dataset.name,
                    dataset.pages.len(),
                    dir.display()
                );
            }
        }
    }
}
