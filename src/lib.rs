//! dana: main-text extraction from HTML pages and web-crawl archives with the
//! DANA family of line-density algorithms.
//!
//! The crate is organised by concern:
//! - [`charset`]: finding a page's encoding and decoding it to UTF-8;
//! - [`density`]: the shared line-density core (tag recogniser, counting
//!   kernel, smoothing, regions, text out);
//! - [`algorithms`]: the algorithms built on that core, selectable by name,
//!   and the [`Extractor`] that runs them.

pub mod algorithms;
pub mod charset;
pub mod density;
pub mod eval;

pub use algorithms::{Algorithm, Extraction, Extractor};
