//! crawlsift: main-text extraction from HTML pages and web-crawl archives with the
//! DANA family of line-density algorithms.
//!
//! The crate is organised by concern:
//! - [`charset`]: finding a page's encoding and decoding it to UTF-8;
//! - [`density`]: the shared line-density core (tag recogniser, counting
//!   kernel, smoothing, regions, text out);
//! - [`algorithms`]: the algorithms built on that core, selectable by name,
//!   and the [`Extractor`] that runs them;
//! - [`warc`], [`http`], [`pipeline`], [`output`]: reading crawl archives
//!   (zero-copy), HTTP payloads, the parallel ordered pipeline, and JSONL /
//!   WET / text outputs;
//! - [`remote`]: `http(s)://` inputs, streamed, resumed with `Range` requests;
//! - [`eval`]: the word-level LCS metric of the papers and the evaluation
//!   runner;
//! - [`signals`]: language, quality signals and filters (Gopher, C4,
//!   FineWeb) and duplicate keys of an extracted text.

pub mod algorithms;
pub mod charset;
pub mod density;
pub mod eval;
pub mod http;
pub mod output;
pub mod pipeline;
pub mod remote;
pub mod signals;
pub mod warc;

pub use algorithms::{Algorithm, Extraction, Extractor};
