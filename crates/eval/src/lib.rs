//! The word-level LCS metric of the papers (token-level precision, recall
//! and F1 of the longest common subsequence), the gold-standard datasets it
//! runs on, and `crawlsift eval`'s runner and tables.

pub mod dataset;
pub mod lcs;
pub mod metric;
pub mod runner;
pub mod table;
pub mod tokenize;

pub use dataset::{Dataset, Page};
pub use metric::{Score, Scorer};
pub use runner::{evaluate, summarise, Origin, PageResult, Source, Summary};

use std::path::{Path, PathBuf};

/// What can go wrong reading a dataset or writing results; every variant
/// names the file.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("{}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: not UTF-8 at byte {offset}; re-encode the file as UTF-8", path.display())]
    NotUtf8 { path: PathBuf, offset: usize },
    #[error("{}: no gold text `{}` for this page; add it or remove the page", html.display(), gold.display())]
    MissingGold { html: PathBuf, gold: PathBuf },
    #[error("{} and {} are the same page; keep one", first.display(), second.display())]
    TwoHtmlFiles { first: PathBuf, second: PathBuf },
    #[error("{}: no <id>.html or <id>.html.gz pages; is this a dataset directory?", dir.display())]
    NoPages { dir: PathBuf },
    #[error("{} line {line}: {reason}; each line must be a JSON object with a string `id`", path.display())]
    BadMeta {
        path: PathBuf,
        line: usize,
        reason: String,
    },
    #[error("{}", path.display())]
    Csv { path: PathBuf, source: csv::Error },
    #[error("cannot read this thread's CPU clock to time extraction: {0}")]
    CpuClock(std::io::Error),
}

impl EvalError {
    fn io(path: &Path, source: std::io::Error) -> Self {
        EvalError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
