//! Pages as Arrow record batches: `read_warc_batches` (the pipeline of
//! `read_warc`, its rows gathered into batches by crawlsift's
//! `output::arrow`, with the Parquet output's columns) and `extract_batch`
//! (a column of HTML in, a batch out). Batches cross into Python through the
//! Arrow C data interface (the PyCapsule protocol, `__arrow_c_array__`):
//! no Python object per page.

use super::*;
use arrow_array::cast::AsArray;
use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, Array, ArrayRef, RecordBatch, StringArray, StructArray};
use arrow_schema::{DataType, Field, Schema};
use crawlsift::output::arrow::Batcher;
use pyo3::types::PyCapsule;

/// Rows per batch of `read_warc_batches` by default.
const BATCH_ROWS: usize = 8192;
/// A batch is also sent once its rows hold this many bytes of text, so
/// memory stays bounded whatever `batch_rows` is.
const BATCH_BYTES: usize = 32 << 20;
/// Batches a `read_warc_batches` pipeline may hold ready before Python takes them.
const BATCHES_AHEAD: usize = 2;

/// A sink that gathers the pipeline's rows into record batches of at most
/// `batch_rows` rows (one input's rows per batch) and sends them to the
/// Python iterator over a bounded channel.
struct BatchSink {
    tx: Sender<Message>,
    batcher: Batcher,
    rows: Vec<PageRow>,
    bytes: usize,
    batch_rows: usize,
}

impl BatchSink {
    fn flush(&mut self) -> io::Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let batch = self.batcher.batch(&self.rows).map_err(io::Error::other)?;
        self.rows.clear();
        self.bytes = 0;
        self.tx
            .send(Message::Batch(batch))
            .map_err(|_| io::Error::other("the Python iterator was closed"))
    }
}

impl Sink for BatchSink {
    fn sequential(&self) -> bool {
        true
    }
    fn write(&mut self, _file: usize, page: Rendered) -> io::Result<()> {
        let Rendered::Row(row) = page else {
            return Err(io::Error::other(
                "crawlsift's Python binding asks the pipeline for rows, not serialised pages",
            ));
        };
        self.bytes += row.text.len()
            + row
                .markdown
                .as_ref()
                .and_then(Option::as_ref)
                .map_or(0, String::len);
        self.rows.push(*row);
        if self.rows.len() >= self.batch_rows || self.bytes >= BATCH_BYTES {
            self.flush()?;
        }
        Ok(())
    }
    fn finish(&mut self, _file: usize, _stats: &FileStats) -> io::Result<Option<PathBuf>> {
        self.flush()?;
        Ok(None)
    }
    fn abandon(&mut self, _file: usize) {
        // The pages read before the input failed were extracted: they are
        // yielded, as `read_warc` yields them.
        let _ = self.flush();
    }
}

/// One Arrow array (a record batch as a struct array) on its way to
/// Python: `__arrow_c_array__` gives it away once.
#[pyclass(frozen, module = "crawlsift", name = "_ArrowArray")]
struct ArrowArray {
    array: Mutex<Option<(FFI_ArrowSchema, FFI_ArrowArray)>>,
}

#[pymethods]
impl ArrowArray {
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        // The schema is the batch's own; a requested one is not cast to.
        let _ = requested_schema;
        let (schema, array) = self
            .array
            .lock()
            .ok()
            .and_then(|mut a| a.take())
            .ok_or_else(|| PyRuntimeError::new_err("this Arrow array was already exported"))?;
        Ok((
            PyCapsule::new_with_value(py, schema, c"arrow_schema")?,
            PyCapsule::new_with_value(py, array, c"arrow_array")?,
        ))
    }
}

/// `batch` as a `pyarrow.RecordBatch`, through the C data interface.
pub(crate) fn to_pyarrow<'py>(py: Python<'py>, batch: RecordBatch) -> PyResult<Bound<'py, PyAny>> {
    let data = StructArray::from(batch).into_data();
    let (array, schema) = to_ffi(&data)
        .map_err(|e| PyRuntimeError::new_err(format!("cannot export a batch: {e}")))?;
    let exported = Bound::new(
        py,
        ArrowArray {
            array: Mutex::new(Some((schema, array))),
        },
    )?;
    py.import(intern!(py, "pyarrow"))?
        .call_method1(intern!(py, "record_batch"), (exported,))
}

/// The iterator `read_warc_batches` returns: `pyarrow.RecordBatch`es of
/// the pages of its input, in input order.
#[pyclass(module = "crawlsift")]
pub(crate) struct WarcBatches {
    reader: WarcReader,
}

#[pymethods]
impl WarcBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.reader.recv(py)? {
            Some(Message::Batch(batch)) => to_pyarrow(py, batch).map(Some),
            Some(_) => Err(PyRuntimeError::new_err(
                "read_warc_batches' pipeline sent a page, not a batch",
            )),
            None => Ok(None),
        }
    }

    /// The run's statistics once every batch was taken, as `read_warc`'s
    /// `stats`: `file`, `bytes`, `read`, `extracted`, `skipped` and `failed`
    /// (counts by reason), `problems`, `error`. For a directory the counts
    /// are summed over its files, and `files` lists each file's. `None`
    /// before the end.
    #[getter]
    fn stats(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.reader.stats(py)
    }

    /// Stops reading and waits for the threads to end (Ctrl-C interrupts
    /// the wait). Iterating afterwards yields nothing.
    fn close(&mut self, py: Python<'_>) -> PyResult<()> {
        self.reader.close(py)
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&mut self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) {
        let _ = self.reader.stop(py, Some(DROP_WAIT));
    }
}

/// Iterates the extracted pages of a WARC file as `pyarrow.RecordBatch`es
/// of at most `batch_rows` rows, built in Rust and handed over through the
/// Arrow C data interface (no Python object per page).
///
/// `source` and the options are `read_warc`'s; `source` may also be a
/// directory, whose `*.warc` and `*.warc.gz` files are read in name order
/// (as `crawlsift extract DIR` reads them). The columns are those of
/// `crawlsift extract --format parquet` with the same options (`markdown`,
/// `signals`, `filter_*`, `exact_key`, `minhash` when asked for), with the
/// types `pyarrow.parquet` reads that file's columns as. A batch holds the
/// pages of one input, in input order; it is also cut at 32 MiB of text.
/// The GIL is released while pages are extracted and while waiting for
/// the next batch, and Ctrl-C raises `KeyboardInterrupt`. `stats` holds
/// the run's counts after the last batch; damaged records are
/// `crawlsift.WarcWarning`s, an input that could not be read raises
/// `OSError` after the batches before it, as with `read_warc`.
#[pyfunction]
#[pyo3(
    signature = (source, *, batch_rows=BATCH_ROWS, algorithm=Algorithm::DEFAULT.name(), threads=None, max_record_bytes=crawlsift::pipeline::DEFAULT_MAX_RECORD_BYTES, signals=false, minhash=false, filter=None, lang=true, http_min_rate=None, page_timeout=crawlsift::pipeline::DEFAULT_PAGE_TIMEOUT.as_secs_f64(), markdown=false, markdown_links=false, markdown_images=false),
    text_signature = "(source, *, batch_rows=8192, algorithm='addanag-plus', threads=None, max_record_bytes=16777216, signals=False, minhash=False, filter=None, lang=True, http_min_rate=None, page_timeout=10.0, markdown=False, markdown_links=False, markdown_images=False)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn read_warc_batches(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    batch_rows: usize,
    algorithm: &str,
    threads: Option<usize>,
    max_record_bytes: u64,
    signals: bool,
    minhash: bool,
    filter: Option<&Bound<'_, PyAny>>,
    lang: bool,
    http_min_rate: Option<u64>,
    page_timeout: f64,
    markdown: bool,
    markdown_links: bool,
    markdown_images: bool,
) -> PyResult<WarcBatches> {
    if batch_rows == 0 {
        return Err(PyValueError::new_err("batch_rows must be at least 1"));
    }
    let args = ReadArgs {
        algorithm,
        threads,
        max_record_bytes,
        signals,
        minhash,
        filter,
        lang,
        http_min_rate,
        page_timeout,
        markdown,
        markdown_links,
        markdown_images,
    };
    let reader = start_reading(py, source, &args, true, BATCHES_AHEAD, |tx, options| {
        let columns = Columns {
            markdown: options.markdown.is_some(),
            signals: options.signals.signals,
            minhash: options.signals.minhash,
        };
        Box::new(BatchSink {
            tx,
            batcher: Batcher::new(columns),
            rows: Vec::with_capacity(batch_rows.min(BATCH_ROWS)),
            bytes: 0,
            batch_rows,
        })
    })?;
    Ok(WarcBatches { reader })
}

/// The arrays of a column given as a pyarrow `Array`, `ChunkedArray` (its
/// chunks) or any object with `__arrow_c_array__`.
fn import_column(column: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<ArrayRef>> {
    let py = column.py();
    if column.hasattr(intern!(py, "__arrow_c_array__"))? {
        let pair = column.call_method0(intern!(py, "__arrow_c_array__"))?;
        let (schema, array): (Bound<'_, PyCapsule>, Bound<'_, PyCapsule>) = pair.extract()?;
        let schema = schema.pointer_checked(Some(c"arrow_schema"))?;
        let array = array.pointer_checked(Some(c"arrow_array"))?;
        // SAFETY: the capsules are named as the Arrow PyCapsule interface
        // names them, so they hold an `ArrowSchema` and an `ArrowArray`;
        // `from_raw` moves the array out and marks the capsule's copy
        // released, so the capsule's destructor frees nothing twice.
        let data = unsafe {
            let array = FFI_ArrowArray::from_raw(array.as_ptr().cast());
            from_ffi(array, &*schema.as_ptr().cast::<FFI_ArrowSchema>())
        }
        .map_err(|e| PyValueError::new_err(format!("cannot import {what}: {e}")))?;
        return Ok(vec![make_array(data)]);
    }
    if column.hasattr(intern!(py, "chunks"))? {
        let mut arrays = Vec::new();
        for chunk in column.getattr(intern!(py, "chunks"))?.try_iter()? {
            arrays.extend(import_column(&chunk?, what)?);
        }
        return Ok(arrays);
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be a pyarrow Array or ChunkedArray (or have __arrow_c_array__), not {}",
        column.get_type().name()?
    )))
}

/// One row's HTML: its bytes, and whether they are already text (UTF-8).
type Html<'a> = Option<(&'a [u8], bool)>;

/// The values of a binary or string array.
fn html_values<'a>(array: &'a dyn Array, what: &str) -> PyResult<Vec<Html<'a>>> {
    let n = array.len();
    let rows: Vec<Html<'_>> = match array.data_type() {
        DataType::Binary => {
            let a = array.as_binary::<i32>();
            (0..n)
                .map(|i| a.is_valid(i).then(|| (a.value(i), false)))
                .collect()
        }
        DataType::LargeBinary => {
            let a = array.as_binary::<i64>();
            (0..n)
                .map(|i| a.is_valid(i).then(|| (a.value(i), false)))
                .collect()
        }
        DataType::BinaryView => {
            let a = array.as_binary_view();
            (0..n)
                .map(|i| a.is_valid(i).then(|| (a.value(i), false)))
                .collect()
        }
        DataType::Utf8 => {
            let a = array.as_string::<i32>();
            (0..n)
                .map(|i| a.is_valid(i).then(|| (a.value(i).as_bytes(), true)))
                .collect()
        }
        DataType::LargeUtf8 => {
            let a = array.as_string::<i64>();
            (0..n)
                .map(|i| a.is_valid(i).then(|| (a.value(i).as_bytes(), true)))
                .collect()
        }
        DataType::Utf8View => {
            let a = array.as_string_view();
            (0..n)
                .map(|i| a.is_valid(i).then(|| (a.value(i).as_bytes(), true)))
                .collect()
        }
        DataType::Null => vec![None; n],
        other => {
            return Err(PyTypeError::new_err(format!(
                "{what} must hold binary or string values, not {other}"
            )))
        }
    };
    Ok(rows)
}

/// The values of a string column (`url`), as `Option<&str>` per row.
fn url_values(array: &dyn Array) -> PyResult<Vec<Option<&str>>> {
    let values = html_values(array, "url")?;
    values
        .into_iter()
        .map(|v| {
            v.map(|(bytes, _)| {
                std::str::from_utf8(bytes)
                    .map_err(|e| PyValueError::new_err(format!("a url is not UTF-8: {e}")))
            })
            .transpose()
        })
        .collect()
}

/// One row of `extract_batch`: the page's fields, or why there is none.
type Outcome = Result<(Extracted, Extras), String>;

/// Extracts the main text of every row of a column of HTML pages into one
/// `pyarrow.RecordBatch`, a row per input row in order.
///
/// `html` is a pyarrow `Array` or `ChunkedArray` of binary values (pages as
/// bytes, their charset found as `extract` finds it) or strings (already
/// decoded), or any object with `__arrow_c_array__`; `url` an optional
/// array of the same length (each page's links resolve against it; kept
/// as the `url` column). The columns are those of the page schema that
/// apply to a page without a WARC record (`url`, `charset`, `title`,
/// `text`, `algorithm`, `lang`, `lang_score` and the page metadata:
/// `author`, `date_published`, `date_modified`, `site_name`,
/// `description`, `canonical_url`), the optional ones asked
/// for (`markdown`, `signals`, `filter_*`, `exact_key`, `minhash`, as
/// `read_warc_batches` gives them), then `error`: null for an extracted
/// page, else why there is no text (`null_html`, `timeout`, or
/// `filter:<rule set>:<rule>` for a page that `filter` drops), and the
/// page's other columns are null. `threads` workers (all cores when None)
/// extract with the GIL released.
#[pyfunction]
#[pyo3(
    signature = (html, url=None, *, algorithm=Algorithm::DEFAULT.name(), threads=None, signals=false, minhash=false, filter=None, page_timeout=crawlsift::pipeline::DEFAULT_PAGE_TIMEOUT.as_secs_f64(), markdown=false, markdown_links=false, markdown_images=false),
    text_signature = "(html, url=None, *, algorithm='addanag-plus', threads=None, signals=False, minhash=False, filter=None, page_timeout=10.0, markdown=False, markdown_links=False, markdown_images=False)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn extract_batch<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    url: Option<&Bound<'py, PyAny>>,
    algorithm: &str,
    threads: Option<usize>,
    signals: bool,
    minhash: bool,
    filter: Option<&Bound<'py, PyAny>>,
    page_timeout: f64,
    markdown: bool,
    markdown_links: bool,
    markdown_images: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let algorithm = parse_algorithm(algorithm)?;
    let options = signal_options(signals, minhash, filter)?;
    let markdown = markdown_options(markdown, markdown_links, markdown_images)?;
    let timeout = parse_page_timeout(page_timeout)?;
    let workers = match threads {
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let html_arrays = import_column(html, "html")?;
    let mut pages: Vec<Html<'_>> = Vec::new();
    for array in &html_arrays {
        pages.extend(html_values(array.as_ref(), "html")?);
    }
    let url_arrays = url
        .filter(|u| !u.is_none())
        .map(|u| import_column(u, "url"))
        .transpose()?;
    let urls: Option<Vec<Option<&str>>> = match &url_arrays {
        Some(arrays) => {
            let mut urls = Vec::new();
            for array in arrays {
                urls.extend(url_values(array.as_ref())?);
            }
            if urls.len() != pages.len() {
                return Err(PyValueError::new_err(format!(
                    "url has {} rows, html {}: give one url per page",
                    urls.len(),
                    pages.len()
                )));
            }
            Some(urls)
        }
        None => None,
    };
    let url_of = |i: usize| urls.as_ref().and_then(|u| u[i]);
    let one = |i: usize| -> Outcome {
        let Some((raw, is_text)) = pages[i] else {
            return Err("null_html".into());
        };
        let charset = is_text.then_some("utf-8");
        let extracted = extract_here(algorithm, markdown, raw, charset, url_of(i), timeout)
            .map_err(|_| "timeout".to_owned())?;
        let extras = analyse_here(&options, &extracted.1)
            .map_err(|(set, rule)| format!("filter:{set}:{rule}"))?;
        Ok((extracted, extras))
    };
    let n = pages.len();
    let outcomes: Vec<Outcome> = py.detach(|| {
        let workers = workers.min(n).max(1);
        if workers == 1 {
            return (0..n).map(one).collect();
        }
        // Rows dealt out in contiguous chunks, one per worker.
        let chunk = n.div_ceil(workers);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..n)
                .step_by(chunk)
                .map(|start| {
                    let one = &one;
                    scope
                        .spawn(move || (start..(start + chunk).min(n)).map(one).collect::<Vec<_>>())
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        })
    });
    if outcomes.len() != n {
        return Err(PyRuntimeError::new_err("an extraction thread panicked"));
    }
    let batch = outcome_batch(
        algorithm,
        Columns {
            markdown: markdown.is_some(),
            signals: options.signals,
            minhash: options.minhash,
        },
        &outcomes,
        (0..n).map(url_of).collect(),
    )
    .map_err(|e| PyRuntimeError::new_err(format!("cannot build the batch: {e}")))?;
    to_pyarrow(py, batch)
}

/// The columns of the page schema `extract_batch` gives.
const EXTRACT_COLUMNS: [&str; 15] = [
    "url",
    "charset",
    "title",
    "text",
    "algorithm",
    "lang",
    "lang_score",
    "author",
    "date_published",
    "date_modified",
    "site_name",
    "description",
    "canonical_url",
    "page_type",
    "confidence",
];

/// The batch of `extract_batch`: the outcomes as page rows through the
/// page schema's batcher, the columns that apply kept, nulls where a row
/// has no page, and the `error` column.
fn outcome_batch(
    algorithm: Algorithm,
    columns: Columns,
    outcomes: &[Outcome],
    urls: Vec<Option<&str>>,
) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let rows: Vec<PageRow> = outcomes
        .iter()
        .map(|outcome| match outcome {
            Ok(((title, text, encoding, markdown, metadata, page_type, confidence), extras)) => {
                PageRow {
                    charset: (*encoding).to_owned(),
                    title: title.clone(),
                    text: text.clone(),
                    author: metadata.author.clone(),
                    date_published: metadata.date_published.clone(),
                    date_modified: metadata.date_modified.clone(),
                    site_name: metadata.site_name.clone(),
                    description: metadata.description.clone(),
                    canonical_url: metadata.canonical_url.clone(),
                    page_type: page_type.map(str::to_owned),
                    confidence: *confidence,
                    algorithm: algorithm.name().to_owned(),
                    lang: extras.lang.clone(),
                    lang_score: extras.lang_score,
                    markdown: columns.markdown.then(|| markdown.clone()),
                    signals: extras.signals.clone(),
                    filters: extras.filters,
                    exact_key: extras.exact_key,
                    minhash: extras.minhash.clone(),
                    ..PageRow::default()
                }
            }
            // A placeholder whose values the null mask hides.
            Err(_) => placeholder(columns),
        })
        .collect();
    let batcher = Batcher::new(columns);
    let full = batcher.batch(&rows)?;
    let valid: arrow_array::BooleanArray = outcomes.iter().map(|o| Some(o.is_ok())).collect();
    let mask = arrow_buffer::NullBuffer::from(valid.values().clone());
    let schema = full.schema();
    let mut fields: Vec<Field> = Vec::new();
    let mut arrays: Vec<ArrayRef> = Vec::new();
    for (field, array) in schema.fields().iter().zip(full.columns()) {
        let name = field.name().as_str();
        if name == "url" {
            fields.push(Field::new("url", DataType::Utf8, true));
            arrays.push(Arc::new(StringArray::from(urls.clone())));
            continue;
        }
        if FIELDS.iter().any(|f| f.name == name) && !EXTRACT_COLUMNS.contains(&name) {
            continue;
        }
        let nulls = arrow_buffer::NullBuffer::union(array.nulls(), Some(&mask));
        let data = array.to_data().into_builder().nulls(nulls).build()?;
        fields.push(field.as_ref().clone().with_nullable(true));
        arrays.push(make_array(data));
    }
    let errors: StringArray = outcomes
        .iter()
        .map(|o| o.as_ref().err().map(String::as_str))
        .collect();
    fields.push(Field::new("error", DataType::Utf8, true));
    arrays.push(Arc::new(errors));
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays)
}

/// A row for a page that has none: the optional values present (hidden by
/// the null mask) so that the batcher takes it.
fn placeholder(columns: Columns) -> PageRow {
    let extras = if columns.signals || columns.minhash {
        analyse_here(
            &SignalOptions {
                no_lang: false,
                signals: columns.signals,
                minhash: columns.minhash,
                filter: Vec::new(),
            },
            "",
        )
        .unwrap_or_default()
    } else {
        Extras::default()
    };
    PageRow {
        markdown: columns.markdown.then_some(None),
        signals: extras.signals,
        filters: extras.filters,
        exact_key: extras.exact_key,
        minhash: extras.minhash,
        ..PageRow::default()
    }
}
