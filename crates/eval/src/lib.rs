//! The word-level LCS metric of the papers (token-level precision, recall
//! and F1 of the longest common subsequence), the gold-standard datasets it
//! runs on, and `crawlsift eval`'s runner and tables.

#![warn(missing_docs)]

pub mod dataset;
mod lcs;
pub mod metric;
pub mod runner;
pub mod table;
mod tokenize;

pub use dataset::{Dataset, Page};
pub use metric::{Score, Scorer};
pub use runner::{evaluate, summarise, Origin, PageResult, Source, Summary};

use std::path::{Path, PathBuf};

/// What can go wrong reading a dataset or writing results; every variant
/// names the file.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// Reading a file or listing a directory failed.
    #[error("{}", path.display())]
    Io {
        /// The file or directory being read.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// A gold or prediction text is not valid UTF-8.
    #[error("{}: not UTF-8 at byte {offset}; re-encode the file as UTF-8", path.display())]
    NotUtf8 {
        /// The text file.
        path: PathBuf,
        /// Byte offset of the first invalid sequence.
        offset: usize,
    },
    /// A page in `html/` has no `gold/<id>.txt`.
    #[error("{}: no gold text `{}` for this page; add it or remove the page", html.display(), gold.display())]
    MissingGold {
        /// The page's HTML file.
        html: PathBuf,
        /// The gold text file it should have.
        gold: PathBuf,
    },
    /// A page has both `<id>.html` and `<id>.html.gz`.
    #[error("{} and {} are the same page; keep one", first.display(), second.display())]
    TwoHtmlFiles {
        /// The file found first.
        first: PathBuf,
        /// The other file with the same id.
        second: PathBuf,
    },
    /// The dataset has no `html/` directory, or no pages in it.
    #[error("{}: no <id>.html or <id>.html.gz pages; is this a dataset directory?", dir.display())]
    NoPages {
        /// The `html/` directory.
        dir: PathBuf,
    },
    /// A line of `meta.jsonl` is not a JSON object with a string `id`.
    #[error("{} line {line}: {reason}; each line must be a JSON object with a string `id`", path.display())]
    BadMeta {
        /// The `meta.jsonl` file.
        path: PathBuf,
        /// 1-based number of the bad line.
        line: usize,
        /// What is wrong with it: the JSON error, or the missing `id`.
        reason: String,
    },
    /// Writing the per-page scores as CSV failed.
    #[error("{}", path.display())]
    Csv {
        /// The CSV file being written.
        path: PathBuf,
        /// The underlying CSV error.
        source: csv::Error,
    },
    /// The thread CPU clock used to time extraction cannot be read.
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
