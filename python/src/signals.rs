//! The signals of `signals=`, `minhash=`, `filter=`: one analyser per thread,
//! and the analysis as Python objects.

use super::*;

/// A JSON value (the signals object) as the Python object `json.loads` gives.
pub(crate) fn json_to_py<'py>(
    py: Python<'py>,
    value: &serde_json::Value,
) -> PyResult<Bound<'py, PyAny>> {
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
pub(crate) fn signal_options(
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
pub(crate) struct Extras {
    pub(crate) lang: Option<String>,
    pub(crate) lang_score: f64,
    pub(crate) signals: Option<crawlsift::signals::Signals>,
    pub(crate) filters: Option<Filters>,
    pub(crate) exact_key: Option<u64>,
    /// `None`: not asked; `Some(None)`: a text of fewer than 5 words.
    pub(crate) minhash: Option<Option<Vec<u64>>>,
}

/// The filter decisions as a dict (`None` without `signals=True`).
pub(crate) fn filters_dict(
    py: Python<'_>,
    filters: Option<Filters>,
) -> PyResult<Option<Bound<'_, PyDict>>> {
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
pub(crate) fn signals_dict<'py>(
    py: Python<'py>,
    signals: Option<&crawlsift::signals::Signals>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    signals
        .map(|s| json_to_py(py, &signals_value(s)))
        .transpose()
}

/// Adds the optional analyses a JSONL object has to `d`.
pub(crate) fn add_analyses<'py>(
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
pub(crate) fn analyse_here(
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
