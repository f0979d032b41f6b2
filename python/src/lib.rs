//! `crawlsift._crawlsift`: the thin PyO3 layer over the crawlsift crate. Everything that
//! extracts, reads WARC files or counts lives in crawlsift; these files convert
//! arguments and results, release the GIL around the work, and turn
//! errors into Python exceptions (nothing here unwraps input-derived data).

use crawlsift::output::parquet::Columns;
use crawlsift::output::schema::Value;
use crawlsift::output::{
    key_hex, signals_value, Compression, Format, Formatter, PageRow, Rendered, FIELDS,
};
use crawlsift::pipeline::{self, FileStats, Input, Options, Progress, SignalOptions, Sink};
use crawlsift::remote::RetryPolicy;
use crawlsift::signals::{Analyser, Filters, RuleSet};
use crawlsift::warc::Split;
use crawlsift::{Algorithm, Extractor, MarkdownOptions, PageTimeout};
use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender};
use pyo3::exceptions::{
    PyAttributeError, PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError,
    PyRuntimeError, PyTimeoutError, PyTypeError, PyUserWarning, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};
use pyo3::{create_exception, intern};
use std::cell::RefCell;
use std::ffi::CString;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

create_exception!(
    crawlsift,
    WarcWarning,
    PyUserWarning,
    "A damaged stretch of a WARC file (file, offset, record number); reading went on past it."
);

mod arrow;
mod parquet;
mod signals;

use signals::{add_analyses, analyse_here, filters_dict, signal_options, signals_dict, Extras};

/// Pages a `read_warc` pipeline may hold ready before Python takes them.
const PAGES_AHEAD: usize = 64;

fn parse_algorithm(name: &str) -> PyResult<Algorithm> {
    name.parse::<Algorithm>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `page_timeout=` in seconds: `None` (no limit) for 0.
fn parse_page_timeout(seconds: f64) -> PyResult<Option<Duration>> {
    crawlsift::pipeline::page_timeout_from_secs(seconds).map_err(PyValueError::new_err)
}

/// An `OSError` of the subclass Python uses for `kind`, with crawlsift's message.
fn os_error(kind: io::ErrorKind, message: String) -> PyErr {
    match kind {
        io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
        io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// The result of `crawlsift.extract`.
#[pyclass(frozen, module = "crawlsift")]
struct Extraction {
    /// The main text: paragraphs separated by newlines.
    #[pyo3(get)]
    text: String,
    /// The page's `<title>`, entities decoded, whitespace collapsed.
    #[pyo3(get)]
    title: String,
    /// The encoding the page was decoded from (WHATWG name).
    #[pyo3(get)]
    encoding: String,
    /// The algorithm's name.
    #[pyo3(get)]
    algorithm: String,
    /// The `url` given to `extract`, if any.
    #[pyo3(get)]
    url: Option<String>,
    /// With `markdown=True`: the main content as Markdown (headings, lists,
    /// tables, code, math as LaTeX), the same regions as `text`; `None`
    /// otherwise, and for the element-based algorithms.
    #[pyo3(get)]
    markdown: Option<String>,
    /// The page's author as it states it (JSON-LD, `<meta>`, byline),
    /// several joined with `, `; `None` when it states none.
    #[pyo3(get)]
    author: Option<String>,
    /// When the page was first published, ISO 8601 (`2025-09-04`, or with
    /// time and offset); `None` when it states none that parses.
    #[pyo3(get)]
    date_published: Option<String>,
    /// When the page was last modified, as `date_published`.
    #[pyo3(get)]
    date_modified: Option<String>,
    /// The site's or publisher's name; `None` when the page states none.
    #[pyo3(get)]
    site_name: Option<String>,
    /// The page's own summary (`og:description`, `<meta name=description>`).
    #[pyo3(get)]
    description: Option<String>,
    /// The page's canonical URL (`<link rel=canonical>`, `og:url`),
    /// resolved against `url` when that is given.
    #[pyo3(get)]
    canonical_url: Option<String>,
    /// What kind of page it is: `article`, `forum`, `product`, `listing`,
    /// `collection`, `documentation` or `service`; `None` for the
    /// algorithms other than addanag-plus.
    #[pyo3(get)]
    page_type: Option<&'static str>,
    /// The extraction's expected word-level F1 in [0, 1], to send the least
    /// sure pages to another extractor; `None` for the algorithms other
    /// than addanag-plus.
    #[pyo3(get)]
    confidence: Option<f64>,
    extras: Extras,
}

#[pymethods]
impl Extraction {
    /// The text's language: ISO 639-1 code, else 639-3; `None` when it has
    /// too few letters.
    #[getter]
    fn lang(&self) -> Option<String> {
        self.extras.lang.clone()
    }
    /// Confidence of `lang` in [0, 1] (0 without a language).
    #[getter]
    fn lang_score(&self) -> f64 {
        self.extras.lang_score
    }
    /// With `signals=True`: the raw values of the rule sets, as the JSONL
    /// `signals` object; else `None`.
    #[getter]
    fn signals<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        signals_dict(py, self.extras.signals.as_ref())
    }
    /// With `signals=True`: per rule set (`gopher_quality`,
    /// `gopher_repetition`, `c4`, `fineweb`) `None` when the page passes,
    /// else the first rule it fails; else `None`.
    #[getter]
    fn filters<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        filters_dict(py, self.extras.filters)
    }
    /// With `signals=True`: the exact-duplicate key (16 hex digits); else `None`.
    #[getter]
    fn exact_key(&self) -> Option<String> {
        self.extras.exact_key.map(key_hex)
    }
    /// With `minhash=True`: the 112 MinHash values (`None` for fewer than 5
    /// words); else `None`.
    #[getter]
    fn minhash(&self) -> Option<Vec<u64>> {
        self.extras.minhash.clone().flatten()
    }

    fn __repr__(&self) -> String {
        format!(
            "Extraction(title={:?}, text=<{} chars>, encoding={:?}, algorithm={:?})",
            self.title,
            self.text.chars().count(),
            self.encoding,
            self.algorithm
        )
    }
}

thread_local! {
    /// One extractor per algorithm, Markdown options and thread: its
    /// buffers are reused across calls.
    static EXTRACTORS: RefCell<Vec<(Option<MarkdownOptions>, Extractor)>> = const { RefCell::new(Vec::new()) };
}

/// What [`extract_here`] gives: title, text, encoding, Markdown, metadata,
/// page type and confidence.
type Extracted = (
    String,
    String,
    &'static str,
    Option<String>,
    crawlsift::Metadata,
    Option<&'static str>,
    Option<f64>,
);

/// Extracts with this thread's extractor for `algorithm` and `markdown`,
/// links resolved against `url`, or `Err` past the page timeout (`None`:
/// no limit).
fn extract_here(
    algorithm: Algorithm,
    markdown: Option<MarkdownOptions>,
    raw: &[u8],
    charset: Option<&str>,
    url: Option<&str>,
    timeout: Option<Duration>,
) -> Result<Extracted, PageTimeout> {
    let run = |extractor: &mut Extractor| {
        extractor.set_page_timeout(timeout);
        let page = extractor.try_extract_at(raw, charset, url)?;
        Ok((
            page.title.to_owned(),
            page.text.to_owned(),
            page.encoding,
            page.markdown.map(str::to_owned),
            page.metadata.clone(),
            page.page_type.map(|t| t.as_str()),
            page.confidence.map(f64::from),
        ))
    };
    EXTRACTORS.with(|cell| {
        let mut extractors = cell.borrow_mut();
        let found = extractors
            .iter_mut()
            .find(|(m, e)| e.algorithm() == algorithm && *m == markdown);
        match found {
            Some((_, extractor)) => run(extractor),
            None => {
                let mut extractor = Extractor::new(algorithm);
                if let Some(options) = markdown {
                    extractor = extractor.with_markdown(options);
                }
                let result = run(&mut extractor);
                extractors.push((markdown, extractor));
                result
            }
        }
    })
}

/// The Markdown options of `markdown=`, `markdown_links=`,
/// `markdown_images=`.
fn markdown_options(
    markdown: bool,
    links: bool,
    images: bool,
) -> PyResult<Option<MarkdownOptions>> {
    if !markdown && (links || images) {
        return Err(PyValueError::new_err(
            "markdown_links and markdown_images need markdown=True",
        ));
    }
    Ok(markdown.then_some(MarkdownOptions { links, images }))
}

/// Extracts the main text of one HTML page.
///
/// `html` is the page as `bytes` (its charset is found as `crawlsift html` finds
/// it: byte-order mark, the charset of `content_type`, `<meta>`, then
/// detection) or as `str` (already decoded). `content_type` is the HTTP
/// `Content-Type` value, e.g. `"text/html; charset=windows-1252"`. `url` is
/// kept on the result. The GIL is released while the page is extracted.
/// The result always has the text's `lang` and `lang_score`; `signals=True`
/// adds `signals`, `filters` and `exact_key`, `minhash=True` `minhash`, as
/// `crawlsift extract --signals --minhash` does. `markdown=True` adds
/// `markdown`, the same regions as Markdown (`None` for the element-based
/// algorithms); `markdown_links=True` keeps links as `[text](url)`,
/// resolved against `url`, `markdown_images=True` gives images as their
/// alt text. `filter` (`"gopher,c4,fineweb"`
/// or a list of those names, as `--filter`) returns `None` for a page that
/// fails one of those rule sets. `page_timeout` is the CPU time in seconds
/// the extraction may take (`0`: no limit), as `--page-timeout`: past it
/// the extraction is stopped and `TimeoutError` raised.
/// Raises `ValueError` for an unknown algorithm or rule set or a negative
/// `page_timeout`, `TypeError` for an `html` that is neither `bytes` nor
/// `str`.
#[pyfunction]
// The text signature spells the defaults out for `inspect`
// (python/tests/test_schema.py checks them against DEFAULT_ALGORITHM).
#[pyo3(
    signature = (html, *, content_type=None, url=None, algorithm=Algorithm::DEFAULT.name(), signals=false, minhash=false, filter=None, markdown=false, markdown_links=false, markdown_images=false, page_timeout=crawlsift::pipeline::DEFAULT_PAGE_TIMEOUT.as_secs_f64()),
    text_signature = "(html, *, content_type=None, url=None, algorithm='addanag-plus', signals=False, minhash=False, filter=None, markdown=False, markdown_links=False, markdown_images=False, page_timeout=10.0)"
)]
#[allow(clippy::too_many_arguments)]
fn extract(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    content_type: Option<&str>,
    url: Option<String>,
    algorithm: &str,
    signals: bool,
    minhash: bool,
    filter: Option<&Bound<'_, PyAny>>,
    markdown: bool,
    markdown_links: bool,
    markdown_images: bool,
    page_timeout: f64,
) -> PyResult<Option<Extraction>> {
    let algorithm = parse_algorithm(algorithm)?;
    let options = signal_options(signals, minhash, filter)?;
    let markdown = markdown_options(markdown, markdown_links, markdown_images)?;
    let timeout = parse_page_timeout(page_timeout)?;
    let page_url = url.as_deref();
    let work = |raw: &[u8], charset: Option<&str>| {
        let (title, text, encoding, markdown, metadata, page_type, confidence) =
            extract_here(algorithm, markdown, raw, charset, page_url, timeout)?;
        let extras = analyse_here(&options, &text);
        Ok::<_, PageTimeout>((
            (title, text, encoding, markdown),
            (metadata, page_type, confidence),
            extras,
        ))
    };
    let ((title, text, encoding, markdown), (metadata, page_type, confidence), extras) =
        if let Ok(bytes) = html.cast::<PyBytes>() {
            let raw = bytes.as_bytes();
            let charset = content_type.and_then(crawlsift::http::charset);
            py.detach(|| work(raw, charset))
        } else if let Ok(string) = html.cast::<PyString>() {
            let decoded = string.to_cow()?;
            let raw = decoded.as_bytes();
            py.detach(|| work(raw, Some("utf-8")))
        } else {
            return Err(PyTypeError::new_err(format!(
                "html must be bytes or str, not {}",
                html.get_type().name()?
            )));
        }
        .map_err(|timeout| PyTimeoutError::new_err(timeout.to_string()))?;
    let Ok(extras) = extras else {
        return Ok(None);
    };
    Ok(Some(Extraction {
        text,
        title,
        encoding: encoding.to_owned(),
        algorithm: algorithm.name().to_owned(),
        url,
        markdown,
        author: metadata.author,
        date_published: metadata.date_published,
        date_modified: metadata.date_modified,
        site_name: metadata.site_name,
        description: metadata.description,
        canonical_url: metadata.canonical_url,
        page_type,
        confidence,
        extras,
    }))
}

/// One extracted page of a WARC file: the fields of a `crawlsift extract`
/// JSONL row. The fields of the page schema (`crawlsift.COLUMNS`) are
/// attributes read from the Rust row; the optional analyses are getters.
#[pyclass(frozen, module = "crawlsift")]
struct Page {
    row: PageRow,
}

/// A field's value as a Python object.
fn value_to_py<'py>(py: Python<'py>, value: Value<'_>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Str(s) => s.into_pyobject(py)?.into_any(),
        Value::U64(v) => v.into_pyobject(py)?.into_any(),
        Value::U16(v) => v.into_pyobject(py)?.into_any(),
        Value::F64(v) => v.into_pyobject(py)?.into_any(),
        Value::Null => py.None().into_bound(py),
    })
}

#[pymethods]
impl Page {
    /// A field of the page schema (`url`, `text`, `lang`, …; see
    /// `crawlsift.COLUMNS`).
    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        match FIELDS.iter().position(|f| f.name == name) {
            Some(i) => value_to_py(py, self.row.value(i).unwrap_or(Value::Null)),
            None => Err(PyAttributeError::new_err(format!(
                "'Page' object has no attribute '{name}'"
            ))),
        }
    }

    fn __dir__(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = FIELDS.iter().map(|f| f.name).collect();
        names.extend([
            "markdown",
            "signals",
            "filters",
            "exact_key",
            "minhash",
            "to_dict",
        ]);
        names
    }

    /// With `markdown=True`: the main content as Markdown (`None` for the
    /// element-based algorithms); else `None`.
    #[getter]
    fn markdown(&self) -> Option<String> {
        self.row.markdown.clone().flatten()
    }

    /// With `signals=True`: the raw values of the rule sets (the JSONL
    /// `signals` object); else `None`.
    #[getter]
    fn signals<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        signals_dict(py, self.row.signals.as_ref())
    }
    /// With `signals=True`: per rule set `None` when the page passes, else
    /// the first rule it fails; else `None`.
    #[getter]
    fn filters<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        filters_dict(py, self.row.filters)
    }
    /// With `signals=True`: the exact-duplicate key (16 hex digits); else `None`.
    #[getter]
    fn exact_key(&self) -> Option<String> {
        self.row.exact_key.map(key_hex)
    }
    /// With `minhash=True`: the 112 MinHash values (`None` for fewer than 5
    /// words); else `None`.
    #[getter]
    fn minhash(&self) -> Option<Vec<u64>> {
        self.row.minhash.clone().flatten()
    }

    /// The page as a dict, equal to the JSON object of `crawlsift extract`'s JSONL row.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (field, value) in FIELDS.iter().zip(self.row.values()) {
            d.set_item(field.name, value_to_py(py, value)?)?;
        }
        let r = &self.row;
        if let Some(markdown) = &r.markdown {
            d.set_item("markdown", markdown)?;
        }
        add_analyses(
            py,
            &d,
            r.signals.as_ref(),
            r.filters,
            r.exact_key,
            &r.minhash,
        )?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "Page(url={:?}, offset={}, title={:?}, text=<{} chars>)",
            self.row.url,
            self.row.offset,
            self.row.title,
            self.row.text.chars().count()
        )
    }
}

/// What the pipeline thread sends to the iterator.
enum Message {
    Page(Box<Page>),
    /// A record batch of pages (`read_warc_batches`).
    Batch(arrow_array::RecordBatch),
    Done(io::Result<Vec<FileStats>>),
}

/// A sink that parses each JSONL row back into a [`Page`] and hands it to
/// the Python iterator over a bounded channel (so memory stays bounded when
/// Python is slower than the pipeline).
struct ChannelSink {
    pages: Sender<Message>,
}

impl Sink for ChannelSink {
    fn sequential(&self) -> bool {
        true
    }
    fn write(&mut self, _file: usize, page: Rendered) -> io::Result<()> {
        let Rendered::Row(row) = page else {
            return Err(io::Error::other(
                "crawlsift's Python binding asks the pipeline for rows, not serialised pages",
            ));
        };
        self.pages
            .send(Message::Page(Box::new(Page::from(*row))))
            .map_err(|_| io::Error::other("the Python iterator was closed"))
    }
    fn finish(&mut self, _file: usize, _stats: &FileStats) -> io::Result<Option<PathBuf>> {
        Ok(None)
    }
}

impl From<PageRow> for Page {
    fn from(row: PageRow) -> Self {
        Page { row }
    }
}

/// What a file-like object's `read()` raised, kept to be raised again by
/// the iterator.
type Raised = Arc<Mutex<Option<PyErr>>>;

/// A binary file-like object as a Rust reader: `read(n)` under the GIL.
/// After `read()` raises (or returns something other than bytes) it reports
/// the error once, then end of input: the pipeline stops there, and the
/// exception itself waits in `raised` for the iterator to raise.
struct PyReader {
    source: Py<PyAny>,
    name: String,
    /// Bytes read so far: the input offset of the next byte.
    position: u64,
    raised: Raised,
    failed: bool,
}

impl PyReader {
    fn read_once(&self, py: Python<'_>, buf: &mut [u8]) -> io::Result<usize> {
        let data = match self
            .source
            .bind(py)
            .call_method1(intern!(py, "read"), (buf.len(),))
        {
            Ok(data) => data,
            Err(e) => {
                // The problem reported with it names the offset.
                let message = format!("the file-like object's read() raised {e}");
                let note = format!(
                    "crawlsift.read_warc: raised by read() of {} at byte offset {}; the pages before it were yielded",
                    self.name, self.position
                );
                let value = e.value(py);
                // PEP 678 notes (Python 3.11+) show under the traceback.
                // (An exception that takes no note is raised without one.)
                let _ = if value.hasattr(intern!(py, "add_note")).unwrap_or(false) {
                    value
                        .call_method1(intern!(py, "add_note"), (note,))
                        .map(drop)
                } else {
                    value.setattr(intern!(py, "__notes__"), vec![note])
                };
                if let Ok(mut raised) = self.raised.lock() {
                    raised.get_or_insert(e);
                }
                return Err(io::Error::other(message));
            }
        };
        let copy = |bytes: &[u8], buf: &mut [u8]| match buf.get_mut(..bytes.len()) {
            Some(head) => {
                head.copy_from_slice(bytes);
                Ok(bytes.len())
            }
            None => Err(io::Error::other(format!(
                "the file-like object's read({}) returned {} bytes",
                buf.len(),
                bytes.len()
            ))),
        };
        if let Ok(bytes) = data.cast::<PyBytes>() {
            copy(bytes.as_bytes(), buf)
        } else if let Ok(array) = data.cast::<PyByteArray>() {
            copy(&array.to_vec(), buf)
        } else if data.is_none() {
            Err(io::Error::other(
                "the file-like object's read() returned None (a non-blocking stream with no data ready); give a blocking stream",
            ))
        } else if data.is_instance_of::<PyString>() {
            Err(io::Error::other(
                "the file-like object's read() returned str, not bytes; open it in binary mode ('rb')",
            ))
        } else {
            let type_name = data
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            Err(io::Error::other(format!(
                "the file-like object's read() returned {type_name}, not bytes"
            )))
        }
    }
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.failed || buf.is_empty() {
            return Ok(0);
        }
        match Python::attach(|py| self.read_once(py, buf)) {
            Ok(n) => {
                self.position += n as u64;
                Ok(n)
            }
            Err(e) => {
                self.failed = true;
                Err(e)
            }
        }
    }
}

/// Statistics as the Python objects `json.loads` makes of them.
fn stats_to_py<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    let json = serde_json::to_string(value)
        .map_err(|e| PyRuntimeError::new_err(format!("cannot convert statistics: {e}")))?;
    Ok(py.import("json")?.call_method1("loads", (json,))?.unbind())
}

/// The iterator `read_warc` returns: the pages of a WARC file, in file order.
#[pyclass(module = "crawlsift")]
struct WarcReader {
    pages: Option<Receiver<Message>>,
    thread: Option<JoinHandle<()>>,
    progress: Arc<Progress>,
    stats: Option<Py<PyAny>>,
    /// What a file-like source's `read()` raised.
    raised: Raised,
    /// The source was a directory: `stats` sums its files.
    directory: bool,
}

/// How long dropping a reader (or leaving its `with` block) waits for its
/// threads before leaving them to end by themselves: a thread blocked in a
/// read (a stalled server, a pipe with no writer) must not hold up Ctrl-C.
const DROP_WAIT: Duration = Duration::from_millis(500);
/// How often waits wake to let Ctrl-C through.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

impl WarcReader {
    /// Stops the pipeline and waits for its threads (with the GIL released,
    /// since a reader thread may be waiting for it to call `read`): at most
    /// `wait` (then they end by themselves), or, without a limit, until they
    /// end or Ctrl-C raises `KeyboardInterrupt`.
    fn stop(&mut self, py: Python<'_>, wait: Option<Duration>) -> PyResult<()> {
        self.progress.stop.store(true, Ordering::Relaxed);
        self.pages = None;
        let Some(thread) = self.thread.take() else {
            return Ok(());
        };
        let started = Instant::now();
        let mut checked = started;
        while !thread.is_finished() {
            let poll = match wait {
                Some(limit) => match limit.checked_sub(started.elapsed()) {
                    Some(left) => left.min(Duration::from_millis(10)),
                    None => return Ok(()),
                },
                None => Duration::from_millis(10),
            };
            py.detach(|| std::thread::sleep(poll));
            if wait.is_none() && checked.elapsed() >= SIGNAL_POLL {
                py.check_signals()?;
                checked = Instant::now();
            }
        }
        let _ = py.detach(|| thread.join());
        Ok(())
    }

    /// The next page or batch; `None` at the end (after [`Self::finish`]).
    /// Waits with the GIL released, waking to let Ctrl-C through.
    fn recv(&mut self, py: Python<'_>) -> PyResult<Option<Message>> {
        loop {
            let Some(pages) = &self.pages else {
                return Ok(None);
            };
            let message = py.detach(|| pages.recv_timeout(SIGNAL_POLL));
            match message {
                Ok(Message::Done(result)) => {
                    self.pages = None;
                    self.finish(py, result)?;
                    return Ok(None);
                }
                Ok(message) => return Ok(Some(message)),
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(RecvTimeoutError::Disconnected) => {
                    self.pages = None;
                    self.thread = None;
                    return Err(PyRuntimeError::new_err(
                        "the extraction thread ended without a result",
                    ));
                }
            }
        }
    }

    /// The pipeline is done: keep its stats, warn of each problem, and raise
    /// if the input could not be read.
    fn finish(&mut self, py: Python<'_>, result: io::Result<Vec<FileStats>>) -> PyResult<()> {
        if let Some(thread) = self.thread.take() {
            let _ = py.detach(|| thread.join());
        }
        let stats = result.map_err(|e| os_error(e.kind(), e.to_string()))?;
        let file = if self.directory {
            pipeline::totals(&stats)
        } else {
            match stats.first() {
                Some(file) => file.clone(),
                None => {
                    return Err(PyRuntimeError::new_err(
                        "the pipeline returned no statistics",
                    ))
                }
            }
        };
        let dict = stats_to_py(py, &file)?;
        if self.directory {
            let files = stats_to_py(py, &stats)?;
            dict.bind(py).set_item("files", files)?;
        }
        self.stats = Some(dict);
        let category = py.get_type::<WarcWarning>();
        for problem in &file.problems {
            let message = CString::new(problem.replace('\0', "\\0"))
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            PyErr::warn(py, &category, &message, 1)?;
        }
        // The exception a file-like source raised, as it was (type and
        // traceback), with a note giving the offset.
        if let Some(raised) = self.raised.lock().ok().and_then(|mut r| r.take()) {
            return Err(raised);
        }
        let errors: Vec<&str> = stats.iter().filter_map(|f| f.error.as_deref()).collect();
        match errors[..] {
            [] => Ok(()),
            [one] => Err(PyOSError::new_err(one.to_owned())),
            ref many => Err(PyOSError::new_err(format!(
                "{} inputs could not be read: {}",
                many.len(),
                many.join("; ")
            ))),
        }
    }
}

#[pymethods]
impl WarcReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Page>> {
        match self.recv(py)? {
            Some(Message::Page(page)) => Ok(Some(*page)),
            Some(_) => Err(PyRuntimeError::new_err(
                "read_warc's pipeline sent a batch, not a page",
            )),
            None => Ok(None),
        }
    }

    /// Per-input statistics once every page was taken, as `crawlsift extract
    /// --stats` writes them: `file`, `bytes`, `read`, `extracted`, `skipped`
    /// and `failed` (counts by reason), `problems`, `error`, `output`.
    /// `None` before the end.
    #[getter]
    fn stats(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.stats.as_ref().map(|s| s.clone_ref(py))
    }

    /// Stops reading and waits for the threads to end (Ctrl-C interrupts
    /// the wait). Iterating afterwards yields nothing.
    fn close(&mut self, py: Python<'_>) -> PyResult<()> {
        self.stop(py, None)
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&mut self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) {
        let _ = self.stop(py, Some(DROP_WAIT));
    }
}

impl Drop for WarcReader {
    fn drop(&mut self) {
        if self.thread.is_some() {
            Python::attach(|py| {
                let _ = self.stop(py, Some(DROP_WAIT));
            });
        }
    }
}

/// Opens the path or URL `path` for `read_warc` (on a thread of its own:
/// opening a pipe or a URL may block). A directory is refused with a
/// message that says so; a pipe, character device or socket is read as a
/// stream.
fn open_path(
    path: PathBuf,
    max_record_bytes: u64,
    split: Split,
    retry: &RetryPolicy,
) -> Result<crawlsift::warc::WarcReader, crawlsift::warc::OpenError> {
    let name = path.display().to_string();
    let err = |source| crawlsift::warc::OpenError {
        file: name.clone(),
        source,
    };
    if name != "-" && !crawlsift::remote::is_url(&name) {
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => {
                return Err(err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "it is a directory; read_warc reads one WARC file: pass each of its files \
                     (e.g. for p in sorted(pathlib.Path(d).glob('*.warc*')))",
                )))
            }
            Ok(meta) if !meta.is_file() => {
                // A pipe has no size and cannot be mapped: read it as it comes.
                let file = std::fs::File::open(&path).map_err(err)?;
                let mut input = std::io::BufReader::with_capacity(256 << 10, file);
                crawlsift::warc::check_compression(
                    std::io::BufRead::fill_buf(&mut input).map_err(err)?,
                )
                .map_err(err)?;
                return crawlsift::warc::WarcReader::from_stream(
                    name.clone(),
                    input,
                    max_record_bytes,
                )
                .map_err(err);
            }
            _ => {}
        }
    }
    Input::Path(path).open(max_record_bytes, split, retry)
}

/// Runs `open` on a thread of its own and waits for it with the GIL
/// released, waking every `SIGNAL_POLL` so that Ctrl-C raises
/// `KeyboardInterrupt` (the thread then ends by itself, its result dropped).
fn wait_interruptibly<T: Send + 'static>(
    py: Python<'_>,
    open: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = bounded(1);
    std::thread::Builder::new()
        .name("crawlsift-open".into())
        .spawn(move || {
            let _ = tx.send(open());
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    loop {
        match py.detach(|| rx.recv_timeout(SIGNAL_POLL)) {
            Ok(result) => return Ok(result),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "the thread opening the input ended without a result",
                ))
            }
        }
    }
}

/// Iterates the extracted pages of a WARC file (`.warc` or `.warc.gz`) with
/// the pipeline of `crawlsift extract`: `threads` workers (all cores when None),
/// at most 256 records and 4 MiB of blocks per worker (plus one record) in
/// flight, each at most `max_record_bytes` (larger records are skipped and
/// counted as `too_large`).
///
/// `source` is a path (`str` or `os.PathLike`; `"-"` is stdin; a named
/// pipe is read as a stream), an `http(s)://` URL, or a binary file-like
/// object with `read(n)`; a file-like object's `name`, when it is a `str`,
/// names the input (else `"-"`). Each item is a `crawlsift.Page`. A path
/// or URL is opened (requested) once, here: one that cannot be opened
/// raises `OSError` (`FileNotFoundError`, `IsADirectoryError` for a
/// directory, ...) here; an input that turns out not to be WARC raises
/// `OSError` at the end of the iteration. When a file-like object's
/// `read()` raises, the iteration raises that same exception once the pages
/// before it are yielded, with a note giving the byte offset. Damaged
/// records do not raise: they are counted in `stats` and each is reported
/// as a `crawlsift.WarcWarning`. Ctrl-C raises `KeyboardInterrupt` within
/// a fraction of a second, also while no page arrives.
///
/// A URL is read as `crawlsift extract` reads one, configured by the same
/// `CRAWLSIFT_HTTP_*` environment variables; `http_min_rate` (bytes per
/// second, default `CRAWLSIFT_HTTP_MIN_RATE` or 1024) is the slowest a
/// connection may deliver, averaged over `CRAWLSIFT_HTTP_TIMEOUT` (60 s),
/// before it is dropped and resumed (a failed try; 0 for no minimum).
///
/// Each page has its `lang` and `lang_score`; `signals=True` adds
/// `signals`, `filters` and `exact_key`, `minhash=True` `minhash`, and
/// `filter` (`"gopher,c4,fineweb"` or a list of names) drops the pages that
/// fail those rule sets, counted in `stats["skipped"]` under
/// `filter:<rule set>:<rule>`: as `crawlsift extract --signals --minhash --filter`.
/// `lang=False` is `--no-lang`: no language identification (`lang` is
/// `None`, `lang_score` 0), about 6 % less CPU than with it.
/// `page_timeout` is the CPU time in seconds one page's extraction may take
/// (`0`: no limit), as `--page-timeout`: a page over it is stopped, counted
/// in `stats["failed"]` under `timeout` and reported as a
/// `crawlsift.WarcWarning` naming its record and offset, and the file goes
/// on.
/// `markdown=True` adds each page's `markdown` (`--markdown`;
/// `markdown_links`, `markdown_images` as `--markdown-links`,
/// `--markdown-images`).
#[pyfunction]
#[pyo3(
    signature = (source, *, algorithm=Algorithm::DEFAULT.name(), threads=None, max_record_bytes=crawlsift::pipeline::DEFAULT_MAX_RECORD_BYTES, signals=false, minhash=false, filter=None, lang=true, http_min_rate=None, page_timeout=crawlsift::pipeline::DEFAULT_PAGE_TIMEOUT.as_secs_f64(), markdown=false, markdown_links=false, markdown_images=false),
    text_signature = "(source, *, algorithm='addanag-plus', threads=None, max_record_bytes=16777216, signals=False, minhash=False, filter=None, lang=True, http_min_rate=None, page_timeout=10.0, markdown=False, markdown_links=False, markdown_images=False)"
)]
#[allow(clippy::too_many_arguments)]
fn read_warc(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
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
) -> PyResult<WarcReader> {
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
    start_reading(py, source, &args, false, PAGES_AHEAD, |tx, _options| {
        Box::new(ChannelSink { pages: tx })
    })
}

/// The options `read_warc` and `read_warc_batches` share, as Python gave them.
struct ReadArgs<'a, 'py> {
    algorithm: &'a str,
    threads: Option<usize>,
    max_record_bytes: u64,
    signals: bool,
    minhash: bool,
    filter: Option<&'a Bound<'py, PyAny>>,
    lang: bool,
    http_min_rate: Option<u64>,
    page_timeout: f64,
    markdown: bool,
    markdown_links: bool,
    markdown_images: bool,
}

/// The WARC files of directory `dir`, as `crawlsift extract` takes them:
/// `*.warc` and `*.warc.gz`, not subdirectories, sorted by name.
fn directory_inputs(dir: &Path) -> PyResult<Vec<Input>> {
    let cannot = |e: io::Error| {
        os_error(
            e.kind(),
            format!("cannot list the input directory {}: {e}", dir.display()),
        )
    };
    let mut warcs = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(cannot)? {
        let path = entry.map_err(cannot)?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if crawlsift::warc::WARC_FILE_SUFFIXES
            .iter()
            .any(|ext| name.ends_with(ext))
            && !std::fs::metadata(&path).is_ok_and(|m| m.is_dir())
        {
            warcs.push(path);
        }
    }
    if warcs.is_empty() {
        return Err(PyFileNotFoundError::new_err(format!(
            "the input directory {} holds no WARC files (*.warc, *.warc.gz, *.warc.zst, *.warc.lz4); give WARC files, or a directory that holds some",
            dir.display()
        )));
    }
    warcs.sort();
    Ok(warcs.into_iter().map(Input::Path).collect())
}

/// Starts the pipeline of `read_warc` (or, with `directories`, of
/// `read_warc_batches`, which also reads a directory's WARC files) on a
/// thread of its own, writing into the sink `make_sink` makes.
fn start_reading(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    args: &ReadArgs<'_, '_>,
    directories: bool,
    ahead: usize,
    make_sink: impl FnOnce(Sender<Message>, &Options) -> Box<dyn Sink + Send>,
) -> PyResult<WarcReader> {
    let max_record_bytes = args.max_record_bytes;
    let algorithm = parse_algorithm(args.algorithm)?;
    let page_timeout = parse_page_timeout(args.page_timeout)?;
    let markdown = markdown_options(args.markdown, args.markdown_links, args.markdown_images)?;
    let signals = SignalOptions {
        no_lang: !args.lang,
        ..signal_options(args.signals, args.minhash, args.filter)?
    };
    let workers = match args.threads {
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    // `CRAWLSIFT_HTTP_*` configure URL inputs, as for the command line.
    let mut retry = match source.extract::<String>() {
        Ok(name) if crawlsift::remote::is_url(&name) => {
            RetryPolicy::from_env().map_err(|e| PyValueError::new_err(e.detail))?
        }
        _ => RetryPolicy::default(),
    };
    if let Some(rate) = args.http_min_rate {
        retry.min_rate = rate;
    }
    // One input, read by one reader: inflated by every worker, as the
    // pipeline would split it.
    let split = Split {
        min_file_bytes: Split::new(1).min_file_bytes,
        ..Split::new(workers)
    };
    let raised = Raised::default();
    let mut directory = false;
    let inputs = if source.hasattr(intern!(py, "read"))? {
        let name = source
            .getattr(intern!(py, "name"))
            .ok()
            .and_then(|n| n.extract::<String>().ok())
            .unwrap_or_else(|| "-".into());
        vec![Input::stream(
            name.clone(),
            PyReader {
                source: source.clone().unbind(),
                name,
                position: 0,
                raised: Arc::clone(&raised),
                failed: false,
            },
        )]
    } else {
        let path: PathBuf = source.extract().map_err(|_| {
            PyTypeError::new_err(
                "source must be a path (str or os.PathLike) or a binary file-like object with read()",
            )
        })?;
        if directories && path.is_dir() {
            directory = true;
            directory_inputs(&path)?
        } else {
            // Opened once, now, so that an input that cannot be opened raises
            // here with the message `crawlsift extract` prints; the pipeline
            // reads this reader (a URL is not requested twice, a pipe not
            // opened twice).
            let name = Input::Path(path.clone()).name();
            let policy = retry.clone();
            let opened = wait_interruptibly(py, move || {
                open_path(path, max_record_bytes, split, &policy)
            })?;
            match opened {
                Ok(reader) => vec![Input::opened(name, reader)],
                Err(e) => return Err(os_error(e.source.kind(), e.to_string())),
            }
        }
    };
    let options = Options {
        retry,
        algorithm,
        page_timeout,
        workers,
        max_record_bytes,
        // Rows, not serialised pages: each becomes a `Page` without a round trip.
        formatter: Formatter::new(Format::Parquet, Compression::None),
        split_min_bytes: split.min_file_bytes,
        markdown,
        metadata: true,
        signals,
    };
    let (tx, rx) = bounded(ahead);
    let mut sink = make_sink(tx.clone(), &options);
    let progress = Arc::new(Progress::default());
    let shared = Arc::clone(&progress);
    let thread = std::thread::Builder::new()
        .name("crawlsift-read-warc".into())
        .spawn(move || {
            let result = pipeline::run_inputs(&inputs, &options, &mut *sink, &shared, &mut || {});
            let _ = tx.send(Message::Done(result));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the extraction thread: {e}")))?;
    Ok(WarcReader {
        pages: Some(rx),
        thread: Some(thread),
        progress,
        stats: None,
        raised,
        directory,
    })
}

/// `crawlsift` with the command line `args` (the program name first), as
/// the binary runs it, and its exit code: the `crawlsift` command of the
/// wheel (`crawlsift._cli`). The GIL is released while it runs.
#[pyfunction]
fn run_cli(py: Python<'_>, args: Vec<std::ffi::OsString>) -> u8 {
    py.detach(|| crawlsift_cli::run(args))
}

#[pymodule]
fn _crawlsift(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(read_warc, m)?)?;
    m.add_function(wrap_pyfunction!(parquet::write_parquet, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::read_warc_batches, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::extract_batch, m)?)?;
    m.add_class::<arrow::WarcBatches>()?;
    m.add_class::<Extraction>()?;
    m.add_class::<Page>()?;
    m.add_class::<WarcReader>()?;
    m.add("WarcWarning", py.get_type::<WarcWarning>())?;
    let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
    m.add("ALGORITHMS", pyo3::types::PyTuple::new(py, names)?)?;
    m.add("DEFAULT_ALGORITHM", Algorithm::DEFAULT.name())?;
    m.add(
        "DEFAULT_MAX_RECORD_BYTES",
        crawlsift::pipeline::DEFAULT_MAX_RECORD_BYTES,
    )?;
    m.add(
        "DEFAULT_PAGE_TIMEOUT",
        crawlsift::pipeline::DEFAULT_PAGE_TIMEOUT.as_secs_f64(),
    )?;
    // The page schema: (name, Spark type, nullable) per field, in order.
    let columns: Vec<(&str, &str, bool)> = FIELDS
        .iter()
        .map(|f| (f.name, f.kind.spark_type(), f.kind.nullable()))
        .collect();
    m.add("COLUMNS", columns)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
