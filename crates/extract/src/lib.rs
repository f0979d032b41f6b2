//! crawlsift-extract: the main text of an HTML page, with the DANA family
//! of line-density algorithms (DANA, DANAg, AdDANAg, Filters 1–3, and
//! crawlsift's AdDANAg+), content code blurring (CCB, ACCB, TCCB) and the
//! classic baselines, all on one vectorised counting core: no DOM, no
//! allocation per line, no I/O.
//!
//! ```
//! use crawlsift_extract::{Algorithm, Extractor};
//!
//! let page = b"<html><head><title>A page</title></head><body>\
//!     <nav><a href='/'>Home</a> <a href='/news'>News</a></nav>\
//!     <article><p>The main text of the page is this paragraph, which is long \
//!     enough and has no links in it, so every algorithm keeps it.</p></article>\
//!     </body></html>";
//! let mut extractor = Extractor::new(Algorithm::DEFAULT);
//! let page = extractor.extract(page, None);
//! assert_eq!(page.title, "A page");
//! assert!(page.text.starts_with("The main text of the page"));
//! ```
//!
//! The crate is organised by concern:
//! - [`charset`]: finding a page's encoding and decoding it to UTF-8;
//! - [`http`]: HTTP responses inside WARC records (head, de-chunking,
//!   content decoding, is it HTML);
//! - `density`: the shared line-density core (tag recogniser, counting
//!   kernel, smoothing, regions, text out), public with the `internals`
//!   feature;
//! - [`algorithms`]: the algorithms built on that core, selectable by name,
//!   and the [`Extractor`] that runs them;
//! - [`metadata`]: what the page says about itself (author, dates, site,
//!   description, canonical URL), read beside the extraction.

#![warn(missing_docs)]

pub mod algorithms;
mod budget;
pub mod charset;
// The line-density core is this crate's inside: public only with the
// `internals` feature, for the benchmarks and fuzz targets that time or
// probe its parts.
#[cfg(feature = "internals")]
pub mod density;
#[cfg(not(feature = "internals"))]
#[allow(dead_code, unused_imports)] // what only the benches and tests reach
mod density;
pub mod http;
pub mod metadata;

pub use algorithms::{Algorithm, Extraction, Extractor, MarkdownOptions};
pub use budget::PageTimeout;
pub use density::Selection;
pub use metadata::{Metadata, MetadataSettings};

/// The bytes a vector holds on the heap (its capacity, not its length).
pub(crate) fn heap_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

/// The instruction set the hot loops run with on this CPU (`avx2`, `sse2`,
/// or `scalar` elsewhere), chosen once per process; `CRAWLSIFT_KERNELS=sse2`
/// forces the baseline.
pub fn kernels() -> &'static str {
    crawlsift_simd::chosen()
}

/// The CPU features this build of the extractor was compiled to use
/// everywhere (a build for a newer CPU, `-C target-cpu=native`) that this
/// CPU lacks: empty for the portable default build. Checked first thing, it
/// lets a program say so rather than die of an illegal instruction.
pub fn missing_cpu_features() -> Vec<&'static str> {
    crawlsift_simd::missing_compiled_features()
}

/// Where the shared test data is (TESTING.md), for the unit tests.
#[cfg(test)]
#[path = "../../../tests/support/shared.rs"]
pub(crate) mod test_shared;
