//! crawlsift: main text of every HTML page in web-crawl archives, the
//! engine people embed.
//!
//! This crate is the pipeline; the workspace's focused crates do the parts,
//! and each can be used alone:
//! - [`warc`] (`crawlsift-warc`): WARC records from a memory map or any byte
//!   stream, gzip members inflated in parallel, damage reported and
//!   survived;
//! - [`extract`] (`crawlsift-extract`): HTML bytes to main text (charset,
//!   HTTP payloads, the line-density core, every algorithm);
//! - [`signals`] (`crawlsift-signals`): language, quality signals and
//!   filters (Gopher, C4, FineWeb) and duplicate keys of a text.
//!
//! Its own modules:
//! - [`analysis`]: what is computed from each text and which pages are
//!   dropped;
//! - [`pipeline`]: inputs fanned out to workers and written back in order,
//!   every record accounted (read = extracted + skipped + failed);
//! - [`output`]: JSONL, WET, text and Parquet, and the resume records;
//! - [`sinks`]: where the pipeline's pages go: one file per input in a
//!   directory (resumable), or stdout;
//! - [`remote`]: `http(s)://` inputs, streamed, resumed with `Range`
//!   requests.

#![warn(missing_docs)]

pub mod analysis;
pub mod output;
pub mod pipeline;
pub mod remote;
pub mod sinks;

pub use crawlsift_extract as extract;
pub use crawlsift_extract::{
    algorithms, charset, http, metadata, Algorithm, Extraction, Extractor, MarkdownOptions,
    Metadata, MetadataSettings, PageTimeout,
};
pub use crawlsift_signals as signals;
pub use crawlsift_warc as warc;
