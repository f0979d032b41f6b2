//! `write_parquet`: pages into a Parquet file by the Rust writer of
//! `crawlsift extract --format parquet`, under a temporary name renamed once complete.

use super::*;

/// Main-text extraction from HTML pages and WARC archives (crawlsift, in Rust).
/// Writes pages to a Parquet file with the columns of `crawlsift extract --format parquet`.
///
/// `pages` is any iterable of :class:`Page` (a :func:`read_warc` reader, a
/// list, a generator that filters them). Row groups are written as they
/// fill, so memory stays bounded however many pages there are. Returns the
/// number of rows written. The file is written under a temporary name
/// (`.NAME.partial`) in the same directory and renamed to `path` once
/// complete: a failure (a page that is not a :class:`Page`, an iterable
/// that raises, a full disk) leaves nothing at `path` and removes the
/// temporary file.
/// The first page decides the optional columns: `markdown` when it was
/// read with `markdown=True`, `signals`, `filter_*`, `exact_key` when it
/// has signals, `minhash` when it has MinHash values (pages of one
/// `read_warc(markdown=..., signals=..., minhash=...)` all alike).
#[pyfunction]
pub(crate) fn write_parquet(pages: &Bound<'_, PyAny>, path: PathBuf) -> PyResult<u64> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| PyValueError::new_err(format!("{} names no file", path.display())))?;
    let temp = path.with_file_name(format!(".{name}.partial"));
    let written = write_parquet_to(pages, &path, &temp);
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// [`write_parquet`] into `temp`, then renamed to `path`.
fn write_parquet_to(pages: &Bound<'_, PyAny>, path: &Path, temp: &Path) -> PyResult<u64> {
    let io_err = |e: crawlsift::output::parquet::ParquetError| {
        PyOSError::new_err(format!("cannot write Parquet file {}: {e}", path.display()))
    };
    let os_err = |e: io::Error| {
        PyOSError::new_err(format!("cannot write Parquet file {}: {e}", path.display()))
    };
    let mut pages = pages.try_iter()?.peekable();
    let columns = match pages.peek() {
        Some(Ok(first)) => match first.cast::<Page>() {
            Ok(page) => Columns {
                markdown: page.get().row.markdown.is_some(),
                signals: page.get().row.signals.is_some(),
                minhash: page.get().row.minhash.is_some(),
            },
            Err(_) => Columns::default(),
        },
        _ => Columns::default(),
    };
    let mut writer = crawlsift::output::parquet::ParquetWriter::create_with_columns(temp, columns)
        .map_err(io_err)?;
    for page in pages {
        let page = page?;
        let page = page.cast::<Page>().map_err(|_| {
            PyTypeError::new_err(format!(
                "write_parquet takes crawlsift.Page objects, got {}",
                page.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
        writer.push(page.get().row.clone()).map_err(io_err)?;
    }
    let rows = writer.rows();
    let file = writer
        .finish()
        .map_err(io_err)?
        .into_inner()
        .map_err(|e| os_err(e.into_error()))?;
    file.sync_all().map_err(os_err)?;
    std::fs::rename(temp, path).map_err(os_err)?;
    Ok(rows)
}
