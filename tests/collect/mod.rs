//! A pipeline sink for the integration tests that run the pipeline in
//! process: it keeps every rendered page's bytes, in order.

use crawlsift::output::Rendered;
use crawlsift::pipeline::{FileStats, Sink};
use std::path::PathBuf;

/// Keeps every page's bytes.
#[derive(Default)]
pub struct Collect(pub Vec<u8>);

impl Sink for Collect {
    fn sequential(&self) -> bool {
        true
    }
    fn write(&mut self, _file: usize, page: Rendered) -> std::io::Result<()> {
        match page {
            Rendered::Bytes(bytes) => self.0.extend_from_slice(&bytes),
            Rendered::Row(row) => {
                return Err(std::io::Error::other(format!(
                    "a JSONL run sent a row ({})",
                    row.url
                )))
            }
        }
        Ok(())
    }
    fn finish(&mut self, _file: usize, _stats: &FileStats) -> std::io::Result<Option<PathBuf>> {
        Ok(None)
    }
}
