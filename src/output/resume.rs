//! Whether an existing output can be kept: resume you can trust.
//!
//! When a [`DirSink`](crate::sinks::DirSink) finishes an output it writes a small
//! record beside it, `.NAME.crawlsift.json` ([`Record`]): the crawlsift version and the
//! options that shape the output, the input's size and modification time,
//! and the output's size. A later run keeps an output only if that record
//! exists, names the same options and input, and the output still has the
//! size the record says; anything else (an empty or foreign file, another
//! `--algorithm`, an input that changed, stdin) is redone, with the reason.
//!
//! Crash windows: the output is written under a temporary name; on finish
//! the old record is removed, the output renamed into place, then the new
//! record written under a temporary name and renamed. A crash at any point
//! leaves either the previous output with its record, or an output without
//! a record, which the next run redoes.

use super::Formatter;
use crate::Algorithm;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// The options that shape an output: two runs with equal settings write the
/// same pages for the same input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// crawlsift's version (`CARGO_PKG_VERSION`).
    pub crawlsift: String,
    /// `--algorithm`, by name.
    pub algorithm: String,
    /// `--format`, by name.
    pub format: String,
    /// The compression the output has, by name (`--compress`, or the
    /// format's own).
    pub compression: String,
    /// `--max-record-bytes`.
    pub max_record_bytes: u64,
    /// `--no-lang`: `lang` left null (absent in sidecars of outputs made
    /// with the language).
    #[serde(default)]
    pub no_lang: bool,
    /// `--signals`, `--minhash`: which fields or columns the output has.
    pub signals: bool,
    /// `--minhash`: whether the output has the MinHash field or column.
    pub minhash: bool,
    /// `--filter` as given (rule sets comma-separated; empty: none).
    pub filter: String,
}

impl Settings {
    /// The settings of a run with `algorithm`, `formatter` and
    /// `max_record_bytes`, and no analysis options.
    pub fn new(algorithm: Algorithm, formatter: &Formatter, max_record_bytes: u64) -> Self {
        Settings {
            crawlsift: env!("CARGO_PKG_VERSION").into(),
            algorithm: algorithm.name().into(),
            format: formatter.format.name().into(),
            compression: formatter.compression.name().into(),
            max_record_bytes,
            no_lang: false,
            signals: false,
            minhash: false,
            filter: String::new(),
        }
    }

    /// The settings with the analysis options of the run.
    pub fn with_signals(mut self, options: &crate::analysis::SignalOptions) -> Self {
        self.no_lang = options.no_lang;
        self.signals = options.signals;
        self.minhash = options.minhash;
        self.filter = options
            .filter
            .iter()
            .map(|set| set.name())
            .collect::<Vec<_>>()
            .join(",");
        self
    }

    /// How `self` (what wrote an output) differs from `run`, as options.
    fn differences(&self, run: &Settings) -> Vec<String> {
        let mut out = Vec::new();
        let mut differ = |what: &str, old: &str, new: &str| {
            if old != new {
                out.push(format!("{what} {old} (this run: {new})"));
            }
        };
        differ("crawlsift", &self.crawlsift, &run.crawlsift);
        differ("--algorithm", &self.algorithm, &run.algorithm);
        differ("--format", &self.format, &run.format);
        differ("--compress", &self.compression, &run.compression);
        differ(
            "--max-record-bytes",
            &self.max_record_bytes.to_string(),
            &run.max_record_bytes.to_string(),
        );
        let flag = |on: bool| if on { "on" } else { "off" };
        differ("--no-lang", flag(self.no_lang), flag(run.no_lang));
        differ("--signals", flag(self.signals), flag(run.signals));
        differ("--minhash", flag(self.minhash), flag(run.minhash));
        let filter = |f: &str| {
            if f.is_empty() {
                "none".to_owned()
            } else {
                f.to_owned()
            }
        };
        differ("--filter", &filter(&self.filter), &filter(&run.filter));
        out
    }
}

/// Size and modification time of an input file, to notice a changed input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// The file's size in bytes.
    pub bytes: u64,
    /// Nanoseconds since the Unix epoch, when the file system has them.
    pub modified_ns: Option<u128>,
}

impl Fingerprint {
    /// The fingerprint of `input`; `None` for stdin (`-`) or an unreadable path.
    pub fn of(input: &Path) -> Option<Fingerprint> {
        if is_stdin(input) {
            return None;
        }
        let meta = std::fs::metadata(input).ok()?;
        let modified_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map(|d| d.as_nanos());
        Some(Fingerprint {
            bytes: meta.len(),
            modified_ns,
        })
    }
}

/// What the record beside a finished output holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The options that wrote the output.
    pub settings: Settings,
    /// The input as given on the command line.
    pub input: String,
    /// `None` for stdin.
    pub input_fingerprint: Option<Fingerprint>,
    /// The finished output's size in bytes.
    pub output_bytes: u64,
    /// Records read and pages extracted (for people; not checked).
    pub read: u64,
    /// Pages extracted (for people; not checked).
    pub extracted: u64,
}

/// What to do with an input whose output may exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// No output yet.
    Fresh,
    /// A complete output written with this run's settings: skip the input.
    Done,
    /// An output exists but cannot be trusted: redo it, for this reason.
    Redo(String),
}

/// The record's path for `output`: `.NAME.crawlsift.json` beside it.
pub fn record_path(output: &Path) -> PathBuf {
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    output.with_file_name(format!(".{name}.crawlsift.json"))
}

fn is_stdin(input: &Path) -> bool {
    input.as_os_str() == "-"
}

/// Whether the existing `output` of `input` is complete for `run`.
pub fn check(input: &Path, output: &Path, run: &Settings) -> Decision {
    let Ok(meta) = std::fs::metadata(output) else {
        return Decision::Fresh;
    };
    if is_stdin(input) {
        return Decision::Redo("stdin is read anew on every run".into());
    }
    let record_path = record_path(output);
    let text = match std::fs::read(&record_path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Decision::Redo(format!(
                "nothing records that a crawlsift run finished it ({} is missing; it may be from an interrupted run or another program)",
                record_path.display()
            ))
        }
        Err(e) => {
            return Decision::Redo(format!(
                "its record {} cannot be read: {e}",
                record_path.display()
            ))
        }
    };
    let record: Record = match serde_json::from_slice(&text) {
        Ok(record) => record,
        Err(e) => {
            return Decision::Redo(format!(
                "its record {} is not one crawlsift wrote: {e}",
                record_path.display()
            ))
        }
    };
    let differences = record.settings.differences(run);
    if !differences.is_empty() {
        return Decision::Redo(format!("it was written with {}", differences.join(", ")));
    }
    if meta.len() != record.output_bytes {
        return Decision::Redo(format!(
            "it is {} bytes, but the run that finished it wrote {}",
            meta.len(),
            record.output_bytes
        ));
    }
    if record.input_fingerprint != Fingerprint::of(input) {
        return Decision::Redo(
            "the input's size or modification time changed since it was written".into(),
        );
    }
    Decision::Done
}

/// Writes `record` beside `output` atomically (temporary name, sync, rename).
pub fn write_record(output: &Path, record: &Record) -> std::io::Result<()> {
    use std::io::Write;
    let path = record_path(output);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = path.with_file_name(format!("{name}.partial"));
    let json = serde_json::to_vec_pretty(record).map_err(std::io::Error::other)?;
    let mut file = std::fs::File::create(&temp)?;
    file.write_all(&json)?;
    file.write_all(b"\n")?;
    file.sync_all()?;
    std::fs::rename(&temp, &path)
}

/// Removes the record of `output`, if any, before the output is replaced.
pub fn remove_record(output: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(record_path(output)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::{Compression, Format};

    fn settings(algorithm: Algorithm) -> Settings {
        Settings::new(
            algorithm,
            &Formatter::new(Format::Jsonl, Compression::None),
            1 << 20,
        )
    }

    /// A finished output as DirSink leaves it: the file, then its record.
    fn finished(dir: &Path, settings: &Settings) -> (PathBuf, PathBuf) {
        let input = dir.join("in.warc");
        let output = dir.join("in.jsonl");
        std::fs::write(&input, b"WARC/1.0\r\n").unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&output, b"{}\n").unwrap_or_else(|e| panic!("{e}"));
        let record = Record {
            settings: settings.clone(),
            input: input.display().to_string(),
            input_fingerprint: Fingerprint::of(&input),
            output_bytes: 3,
            read: 1,
            extracted: 1,
        };
        write_record(&output, &record).unwrap_or_else(|e| panic!("{e}"));
        (input, output)
    }

    fn redo(decision: Decision) -> String {
        match decision {
            Decision::Redo(why) => why,
            other => panic!("expected a redo, got {other:?}"),
        }
    }

    #[test]
    fn same_options_and_untouched_files_are_done() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let run = settings(Algorithm::DEFAULT);
        let (input, output) = finished(dir.path(), &run);
        assert_eq!(check(&input, &output, &run), Decision::Done);
        assert!(!dir.path().join(".in.jsonl.crawlsift.json.partial").exists());
        assert_eq!(
            check(&input, &dir.path().join("other.jsonl"), &run),
            Decision::Fresh
        );
    }

    #[test]
    fn other_options_a_changed_output_or_input_or_no_record_are_redone() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let run = settings(Algorithm::DEFAULT);
        let (input, output) = finished(dir.path(), &settings(Algorithm::Plain));
        let why = redo(check(&input, &output, &run));
        assert!(why.contains("--algorithm plain"), "{why}");

        let (input, output) = finished(dir.path(), &run);
        std::fs::write(&output, b"").unwrap_or_else(|e| panic!("{e}"));
        assert!(redo(check(&input, &output, &run)).contains("0 bytes"));

        let (input, output) = finished(dir.path(), &run);
        std::fs::write(&input, b"WARC/1.0\r\nmore").unwrap_or_else(|e| panic!("{e}"));
        assert!(redo(check(&input, &output, &run)).contains("input"));

        let (input, output) = finished(dir.path(), &run);
        remove_record(&output).unwrap_or_else(|e| panic!("{e}"));
        assert!(redo(check(&input, &output, &run)).contains("missing"));
        remove_record(&output).unwrap_or_else(|e| panic!("removing twice is fine: {e}"));

        let (input, output) = finished(dir.path(), &run);
        std::fs::write(record_path(&output), b"not json").unwrap_or_else(|e| panic!("{e}"));
        assert!(redo(check(&input, &output, &run)).contains("not one crawlsift wrote"));

        let (_, output) = finished(dir.path(), &run);
        assert!(redo(check(Path::new("-"), &output, &run)).contains("stdin"));
    }
}
