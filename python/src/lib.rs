//! `crawlsift._crawlsift`: the thin PyO3 layer over the crawlsift crate. Everything that
//! extracts, reads WARC files or counts lives in crawlsift; this file converts
//! arguments and results, releases the GIL around the work, and turns
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
use crawlsift::{Algorithm, Extractor};
use crossbeam_channel::{bounded, Receiver, RecvTimeoutError, Sender};
use pyo3::exceptions::{
    PyAttributeError, PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError,
    PyRuntimeError, PyTypeError, PyUserWarning, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};
use pyo3::{create_exception, intern};
use std::cell::RefCell;
use std::ffi::CString;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

create_exception!(
    crawlsift,
    WarcWarning,
    PyUserWarning,
    "A damaged stretch of a WARC file (file, offset, record number); reading went on past it."
);

/// A JSON value (the signals object) as the Python object `json.loads` gives.
fn json_to_py<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_bound_py_any(py)?,
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_bound_py_any(py)?,
            (None, Some(u)) => u.into_bound_py_any(py)?,
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py)?,
        },
        Value::String(s) => s.into_bound_py_any(py)?,
        Value::Array(items) => {
            let list = pyo3::types::PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, json_to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// The analysis options of `extract` and `read_warc` (`signals=`,
/// `minhash=`, `filter=`), as the pipeline takes them.
fn signal_options(
    signals: bool,
    minhash: bool,
    filter: Option<&Bound<'_, PyAny>>,
) -> PyResult<SignalOptions> {
    let invalid = |e: crawlsift::signals::UnknownRuleSet| PyValueError::new_err(e.to_string());
    let filter = match filter {
        None => Vec::new(),
        Some(f) if f.is_none() => Vec::new(),
        Some(f) => {
            if let Ok(list) = f.extract::<String>() {
                RuleSet::parse_list(&list).map_err(invalid)?
            } else {
                let mut sets = Vec::new();
                for item in f.try_iter().map_err(|_| {
                    PyTypeError::new_err(
                        "filter must be a str (\"gopher,c4,fineweb\") or a list of rule-set names",
                    )
                })? {
                    let name: String = item?.extract()?;
                    sets.push(name.parse::<RuleSet>().map_err(invalid)?);
                }
                sets
            }
        }
    };
    Ok(SignalOptions {
        no_lang: false,
        signals,
        minhash,
        filter,
    })
}

/// What a page carries besides its text: language, and when asked the
/// signals, filter decisions and duplicate keys.
#[derive(Clone, Default)]
struct Extras {
    lang: Option<String>,
    lang_score: f64,
    signals: Option<crawlsift::signals::Signals>,
    filters: Option<Filters>,
    exact_key: Option<u64>,
    /// `None`: not asked; `Some(None)`: a text of fewer than 5 words.
    minhash: Option<Option<Vec<u64>>>,
}

/// The filter decisions as a dict (`None` without `signals=True`).
fn filters_dict(py: Python<'_>, filters: Option<Filters>) -> PyResult<Option<Bound<'_, PyDict>>> {
    let Some(f) = filters else {
        return Ok(None);
    };
    let d = PyDict::new(py);
    d.set_item("gopher_quality", f.gopher_quality)?;
    d.set_item("gopher_repetition", f.gopher_repetition)?;
    d.set_item("c4", f.c4)?;
    d.set_item("fineweb", f.fineweb)?;
    Ok(Some(d))
}

/// The signals as nested dicts (`None` without `signals=True`).
fn signals_dict<'py>(
    py: Python<'py>,
    signals: Option<&crawlsift::signals::Signals>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    signals
        .map(|s| json_to_py(py, &signals_value(s)))
        .transpose()
}

/// Adds the optional analyses a JSONL object has to `d`.
fn add_analyses<'py>(
    py: Python<'py>,
    d: &Bound<'py, PyDict>,
    signals: Option<&crawlsift::signals::Signals>,
    filters: Option<Filters>,
    exact_key: Option<u64>,
    minhash: &Option<Option<Vec<u64>>>,
) -> PyResult<()> {
    if let Some(signals) = signals_dict(py, signals)? {
        d.set_item("signals", signals)?;
    }
    if let Some(filters) = filters_dict(py, filters)? {
        d.set_item("filters", filters)?;
    }
    if let Some(key) = exact_key {
        d.set_item("exact_key", key_hex(key))?;
    }
    if let Some(minhash) = minhash {
        d.set_item("minhash", minhash)?;
    }
    Ok(())
}

thread_local! {
    /// One analyser per (signals, minhash) and thread, its buffers reused.
    static ANALYSERS: RefCell<Vec<((bool, bool), Analyser)>> = const { RefCell::new(Vec::new()) };
}

/// The analysis of `text` for `options`; `Err` with (rule set, rule) when a
/// `filter` rule set fails it.
fn analyse_here(
    options: &SignalOptions,
    text: &str,
) -> Result<Extras, (&'static str, &'static str)> {
    // `filter` alone computes only the rule sets it names, up to the
    // first failure (`Analyser::analyse_or_drop`).
    let key = (options.signals, options.minhash);
    let analysis = ANALYSERS.with(|cell| {
        let mut analysers = cell.borrow_mut();
        if !analysers.iter().any(|(k, _)| *k == key) {
            analysers.push((
                key,
                Analyser::new(crawlsift::signals::Config {
                    signals: key.0,
                    minhash: key.1,
                }),
            ));
        }
        analysers
            .iter_mut()
            .find(|(k, _)| *k == key)
            .map(|(_, a)| a.analyse_or_drop(text, &options.filter))
    });
    let Some(analysis) = analysis else {
        return Ok(Extras::default());
    };
    let analysis = analysis?;
    Ok(Extras {
        lang: analysis.lang.map(str::to_owned),
        lang_score: analysis.lang_score,
        signals: analysis.signals,
        filters: analysis.filters,
        exact_key: analysis.exact_key,
        minhash: options.minhash.then_some(analysis.minhash),
    })
}

/// Pages a `read_warc` pipeline may hold ready before Python takes them.
const PAGES_AHEAD: usize = 64;

fn parse_algorithm(name: &str) -> PyResult<Algorithm> {
    name.parse::<Algorithm>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
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
    /// One extractor per algorithm and thread: its buffers are reused across calls.
    static EXTRACTORS: RefCell<Vec<Extractor>> = const { RefCell::new(Vec::new()) };
}

/// Extracts with this thread's extractor for `algorithm`: (title, text, encoding).
fn extract_here(
    algorithm: Algorithm,
    raw: &[u8],
    charset: Option<&str>,
) -> (String, String, &'static str) {
    let run = |extractor: &mut Extractor| {
        let page = extractor.extract(raw, charset);
        (page.title.to_owned(), page.text.to_owned(), page.encoding)
    };
    EXTRACTORS.with(|cell| {
        let mut extractors = cell.borrow_mut();
        match extractors.iter_mut().find(|e| e.algorithm() == algorithm) {
            Some(extractor) => run(extractor),
            None => {
                let mut extractor = Extractor::new(algorithm);
                let result = run(&mut extractor);
                extractors.push(extractor);
                result
            }
        }
    })
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
/// `crawlsift extract --signals --minhash` does. `filter` (`"gopher,c4,fineweb"`
/// or a list of those names, as `--filter`) returns `None` for a page that
/// fails one of those rule sets.
/// Raises `ValueError` for an unknown algorithm or rule set, `TypeError` for
/// an `html` that is neither `bytes` nor `str`.
#[pyfunction]
// The text signature spells the defaults out for `inspect`
// (python/tests/test_schema.py checks them against DEFAULT_ALGORITHM).
#[pyo3(
    signature = (html, *, content_type=None, url=None, algorithm=Algorithm::DEFAULT.name(), signals=false, minhash=false, filter=None),
    text_signature = "(html, *, content_type=None, url=None, algorithm='addanag-plus', signals=False, minhash=False, filter=None)"
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
) -> PyResult<Option<Extraction>> {
    let algorithm = parse_algorithm(algorithm)?;
    let options = signal_options(signals, minhash, filter)?;
    let work = |raw: &[u8], charset: Option<&str>| {
        let (title, text, encoding) = extract_here(algorithm, raw, charset);
        let extras = analyse_here(&options, &text);
        (title, text, encoding, extras)
    };
    let (title, text, encoding, extras) = if let Ok(bytes) = html.cast::<PyBytes>() {
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
    };
    let Ok(extras) = extras else {
        return Ok(None);
    };
    Ok(Some(Extraction {
        text,
        title,
        encoding: encoding.to_owned(),
        algorithm: algorithm.name().to_owned(),
        url,
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
        names.extend(["signals", "filters", "exact_key", "minhash", "to_dict"]);
        names
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

/// A binary file-like object as a Rust reader: `read(n)` under the GIL.
struct PyReader {
    source: Py<PyAny>,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let data = self
                .source
                .bind(py)
                .call_method1(intern!(py, "read"), (buf.len(),))
                .map_err(|e| {
                    io::Error::other(format!("the file-like object's read() raised {e}"))
                })?;
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
        })
    }
}

/// The iterator `read_warc` returns: the pages of a WARC file, in file order.
#[pyclass(module = "crawlsift")]
struct WarcReader {
    pages: Option<Receiver<Message>>,
    thread: Option<JoinHandle<()>>,
    progress: Arc<Progress>,
    stats: Option<Py<PyAny>>,
}

impl WarcReader {
    /// Stops the pipeline and waits for its threads (with the GIL released,
    /// since a reader thread may be waiting for it to call `read`).
    fn stop(&mut self, py: Python<'_>) {
        self.progress.stop.store(true, Ordering::Relaxed);
        self.pages = None;
        if let Some(thread) = self.thread.take() {
            let _ = py.detach(|| thread.join());
        }
    }

    /// The pipeline is done: keep its stats, warn of each problem, and raise
    /// if the input could not be read.
    fn finish(&mut self, py: Python<'_>, result: io::Result<Vec<FileStats>>) -> PyResult<()> {
        if let Some(thread) = self.thread.take() {
            let _ = py.detach(|| thread.join());
        }
        let stats = result.map_err(|e| os_error(e.kind(), e.to_string()))?;
        let Some(file) = stats.first() else {
            return Err(PyRuntimeError::new_err(
                "the pipeline returned no statistics",
            ));
        };
        let json = serde_json::to_string(file)
            .map_err(|e| PyRuntimeError::new_err(format!("cannot convert statistics: {e}")))?;
        let dict = py.import("json")?.call_method1("loads", (json,))?;
        self.stats = Some(dict.unbind());
        let category = py.get_type::<WarcWarning>();
        for problem in &file.problems {
            let message = CString::new(problem.replace('\0', "\\0"))
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            PyErr::warn(py, &category, &message, 1)?;
        }
        match &file.error {
            Some(error) => Err(PyOSError::new_err(error.clone())),
            None => Ok(()),
        }
    }
}

#[pymethods]
impl WarcReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Page>> {
        loop {
            let Some(pages) = &self.pages else {
                return Ok(None);
            };
            // Wait with the GIL released, waking to let Ctrl-C through.
            let message = py.detach(|| pages.recv_timeout(Duration::from_millis(100)));
            match message {
                Ok(Message::Page(page)) => return Ok(Some(*page)),
                Ok(Message::Done(result)) => {
                    self.pages = None;
                    self.finish(py, result)?;
                    return Ok(None);
                }
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

    /// Per-input statistics once every page was taken, as `crawlsift extract
    /// --stats` writes them: `file`, `bytes`, `read`, `extracted`, `skipped`
    /// and `failed` (counts by reason), `problems`, `error`, `output`.
    /// `None` before the end.
    #[getter]
    fn stats(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.stats.as_ref().map(|s| s.clone_ref(py))
    }

    /// Stops reading and waits for the threads to end. Iterating afterwards
    /// yields nothing.
    fn close(&mut self, py: Python<'_>) {
        self.stop(py);
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&mut self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) {
        self.stop(py);
    }
}

impl Drop for WarcReader {
    fn drop(&mut self) {
        if self.thread.is_some() {
            Python::attach(|py| self.stop(py));
        }
    }
}

/// Iterates the extracted pages of a WARC file (`.warc` or `.warc.gz`) with
/// the pipeline of `crawlsift extract`: `threads` workers (all cores when None),
/// at most 256 records and 4 MiB of blocks per worker (plus one record) in
/// flight, each at most `max_record_bytes` (larger records are skipped and
/// counted as `too_large`).
///
/// `source` is a path (`str` or `os.PathLike`; `"-"` is stdin) or a binary
/// file-like object with `read(n)`; a file-like object's `name`, when it is
/// a `str`, names the input (else `"-"`). Each item is a `crawlsift.Page`.
/// A path that cannot be opened raises `OSError` (`FileNotFoundError`, ...)
/// here; an input that turns out not to be WARC raises `OSError` at the end
/// of the iteration. Damaged records do not raise: they are counted in
/// `stats` and each is reported as a `crawlsift.WarcWarning`.
///
/// Each page has its `lang` and `lang_score`; `signals=True` adds
/// `signals`, `filters` and `exact_key`, `minhash=True` `minhash`, and
/// `filter` (`"gopher,c4,fineweb"` or a list of names) drops the pages that
/// fail those rule sets, counted in `stats["skipped"]` under
/// `filter:<rule set>:<rule>`: as `crawlsift extract --signals --minhash --filter`.
/// `lang=False` is `--no-lang`: no language identification (`lang` is
/// `None`, `lang_score` 0), about 6 % less CPU than with it.
#[pyfunction]
#[pyo3(
    signature = (source, *, algorithm=Algorithm::DEFAULT.name(), threads=None, max_record_bytes=crawlsift::pipeline::DEFAULT_MAX_RECORD_BYTES, signals=false, minhash=false, filter=None, lang=true),
    text_signature = "(source, *, algorithm='addanag-plus', threads=None, max_record_bytes=16777216, signals=False, minhash=False, filter=None, lang=True)"
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
) -> PyResult<WarcReader> {
    let algorithm = parse_algorithm(algorithm)?;
    let signals = SignalOptions {
        no_lang: !lang,
        ..signal_options(signals, minhash, filter)?
    };
    let workers = match threads {
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    // `CRAWLSIFT_HTTP_*` configure URL inputs, as for the command line.
    let retry = match source.extract::<String>() {
        Ok(name) if crawlsift::remote::is_url(&name) => {
            RetryPolicy::from_env().map_err(|e| PyValueError::new_err(e.detail))?
        }
        _ => RetryPolicy::default(),
    };
    let input = if source.hasattr(intern!(py, "read"))? {
        let name = source
            .getattr(intern!(py, "name"))
            .ok()
            .and_then(|n| n.extract::<String>().ok())
            .unwrap_or_else(|| "-".into());
        Input::stream(
            name,
            PyReader {
                source: source.clone().unbind(),
            },
        )
    } else {
        let path: PathBuf = source.extract().map_err(|_| {
            PyTypeError::new_err(
                "source must be a path (str or os.PathLike) or a binary file-like object with read()",
            )
        })?;
        // Open it now so that a missing or unreadable file raises here, with
        // the message `crawlsift extract` prints (stdin is not opened twice).
        let input = Input::Path(path);
        if input.name() != "-" {
            let opened = py.detach(|| {
                input
                    .open(max_record_bytes, Split::new(1), &retry)
                    .map(drop)
            });
            if let Err(e) = opened {
                return Err(os_error(e.source.kind(), e.to_string()));
            }
        }
        input
    };
    let options = Options {
        retry,
        algorithm,
        workers,
        max_record_bytes,
        // Rows, not serialised pages: each becomes a `Page` without a round trip.
        formatter: Formatter::new(Format::Parquet, Compression::None),
        split_min_bytes: Split::new(1).min_file_bytes,
        signals,
    };
    let (tx, rx) = bounded(PAGES_AHEAD);
    let progress = Arc::new(Progress::default());
    let shared = Arc::clone(&progress);
    let thread = std::thread::Builder::new()
        .name("crawlsift-read-warc".into())
        .spawn(move || {
            let mut sink = ChannelSink { pages: tx.clone() };
            let result = pipeline::run_inputs(&[input], &options, &mut sink, &shared, &mut || {});
            let _ = tx.send(Message::Done(result));
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the extraction thread: {e}")))?;
    Ok(WarcReader {
        pages: Some(rx),
        thread: Some(thread),
        progress,
        stats: None,
    })
}

/// Main-text extraction from HTML pages and WARC archives (crawlsift, in Rust).
/// Writes pages to a Parquet file with the columns of `crawlsift extract --format parquet`.
///
/// `pages` is any iterable of :class:`Page` (a :func:`read_warc` reader, a
/// list, a generator that filters them). Row groups are written as they
/// fill, so memory stays bounded however many pages there are. Returns the
/// number of rows written; the file is complete only when this returns.
/// The first page decides the optional columns: `signals`, `filter_*`,
/// `exact_key` when it has signals, `minhash` when it has MinHash values
/// (pages of one `read_warc(signals=..., minhash=...)` all alike).
#[pyfunction]
fn write_parquet(pages: &Bound<'_, PyAny>, path: PathBuf) -> PyResult<u64> {
    let io_err = |e: crawlsift::output::parquet::ParquetError| {
        PyOSError::new_err(format!("cannot write Parquet file {}: {e}", path.display()))
    };
    let mut pages = pages.try_iter()?.peekable();
    let columns = match pages.peek() {
        Some(Ok(first)) => match first.cast::<Page>() {
            Ok(page) => Columns {
                signals: page.get().row.signals.is_some(),
                minhash: page.get().row.minhash.is_some(),
            },
            Err(_) => Columns::default(),
        },
        _ => Columns::default(),
    };
    let mut writer = crawlsift::output::parquet::ParquetWriter::create_with_columns(&path, columns)
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
    writer.finish().map_err(io_err)?;
    Ok(rows)
}

#[pymodule]
fn _crawlsift(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(read_warc, m)?)?;
    m.add_function(wrap_pyfunction!(write_parquet, m)?)?;
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
    // The page schema: (name, Spark type, nullable) per field, in order.
    let columns: Vec<(&str, &str, bool)> = FIELDS
        .iter()
        .map(|f| (f.name, f.kind.spark_type(), f.kind.nullable()))
        .collect();
    m.add("COLUMNS", columns)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
