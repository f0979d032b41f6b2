//! Whether an existing output can be kept: resume you can trust.
//!
//! When a [`DirSink`](crate::sinks::DirSink) finishes an output it writes a small
//! record beside it, `.NAME.crawlsift.json` ([`Record`]): the crawlsift version and the
//! options that shape the output, the input's identity (its full URL, or
//! its canonical path), size and modification time, the output's size and
//! the input's whole accounting ([`FileStats`]). A later run keeps an output only if that record
//! exists, names the same options and input, and the output still has the
//! size the record says; anything else (an empty or foreign file, another
//! `--algorithm`, an input that changed, stdin or another stream) is redone, with the reason.
//! An output written from another input (another URL or file with the same
//! name) is a [`Decision::Conflict`]: neither is silently replaced.
//!
//! A run checks an output under an advisory lock ([`lock`]) on
//! `.NAME.crawlsift.lock` beside it, and holds the lock again while it
//! writes the output (see [`DirSink::locking`](crate::sinks::DirSink::locking)),
//! until the record is written: a second run at the same time finds it
//! locked and leaves that output alone.
//!
//! Crash windows: the output is written under a temporary name; on finish
//! the old record is removed, the output renamed into place, then the new
//! record written under a temporary name and renamed. A crash at any point
//! leaves either the previous output with its record, or an output without
//! a record, which the next run redoes.

use super::Formatter;
use crate::pipeline::FileStats;
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
    /// `--markdown` and its options (`on`, `on+links`, `on+images`,
    /// `on+links+images`; empty, as in sidecars of outputs made before
    /// there was Markdown: off).
    #[serde(default)]
    pub markdown: String,
    /// `--page-timeout` in seconds (`off`: no limit): a page over it is
    /// failed, so another budget may write other pages. Empty in sidecars
    /// that did not record it, which no run matches: such an output is redone.
    #[serde(default)]
    pub page_timeout: String,
    /// `--no-metadata`: the page metadata fields left null (absent in
    /// sidecars of outputs made before there was metadata: read as on,
    /// which their outputs lack, so they are redone by crawlsift's version).
    #[serde(default)]
    pub no_metadata: bool,
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
            markdown: String::new(),
            page_timeout: page_timeout_name(Some(crate::pipeline::DEFAULT_PAGE_TIMEOUT)),
            no_metadata: false,
        }
    }

    /// The settings with whether the run reads the page metadata.
    pub fn with_metadata(mut self, metadata: bool) -> Self {
        self.no_metadata = !metadata;
        self
    }

    /// The settings with the run's page timeout (`None`: no limit).
    pub fn with_page_timeout(mut self, timeout: Option<std::time::Duration>) -> Self {
        self.page_timeout = page_timeout_name(timeout);
        self
    }

    /// The settings with the run's Markdown options (`None`: no Markdown).
    pub fn with_markdown(mut self, options: Option<crate::MarkdownOptions>) -> Self {
        self.markdown = match options {
            None => String::new(),
            Some(o) => match (o.links, o.images) {
                (false, false) => "on",
                (true, false) => "on+links",
                (false, true) => "on+images",
                (true, true) => "on+links+images",
            }
            .into(),
        };
        self
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
        differ(
            "--no-metadata",
            flag(self.no_metadata),
            flag(run.no_metadata),
        );
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
        let markdown = |m: &str| {
            if m.is_empty() {
                "off".to_owned()
            } else {
                m.to_owned()
            }
        };
        differ(
            "--markdown",
            &markdown(&self.markdown),
            &markdown(&run.markdown),
        );
        let timeout = |t: &str| {
            if t.is_empty() {
                "unrecorded".to_owned()
            } else {
                t.to_owned()
            }
        };
        differ(
            "--page-timeout",
            &timeout(&self.page_timeout),
            &timeout(&run.page_timeout),
        );
        out
    }
}

/// `--page-timeout` as the resume record names it: seconds, or `off`.
fn page_timeout_name(timeout: Option<std::time::Duration>) -> String {
    match timeout {
        Some(t) => t.as_secs_f64().to_string(),
        None => "off".into(),
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
    /// The fingerprint of `input`; `None` for stdin (`-`), a stream (a
    /// FIFO, a pipe, a device: its size says nothing) or an unreadable path.
    pub fn of(input: &Path) -> Option<Fingerprint> {
        if is_stdin(input) {
            return None;
        }
        let meta = std::fs::metadata(input).ok().filter(|m| m.is_file())?;
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

/// The input's full identity, as a resume record keeps it: an `http(s)://`
/// URL whole (query included), `-` for stdin, else the canonical path
/// (symbolic links and `..` resolved), or the absolute path when the file
/// cannot be resolved.
pub fn identity(input: &Path) -> String {
    let text = input.display().to_string();
    if is_stdin(input) || crate::remote::is_url(&text) {
        return text;
    }
    std::fs::canonicalize(input)
        .or_else(|_| std::path::absolute(input))
        .map_or(text, |p| p.display().to_string())
}

/// Whether `input` is read as a stream: stdin, or a path that is no regular
/// file (a FIFO, `/dev/fd/N`, a device); its output is redone every run.
pub fn is_stream(input: &Path) -> bool {
    is_stdin(input) || std::fs::metadata(input).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// What the record beside a finished output holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The options that wrote the output.
    pub settings: Settings,
    /// The input as given on the command line.
    pub input: String,
    /// The input's full identity ([`identity`]); `None` in records that
    /// predate it.
    #[serde(default)]
    pub identity: Option<String>,
    /// `None` for stdin.
    pub input_fingerprint: Option<Fingerprint>,
    /// The finished output's size in bytes.
    pub output_bytes: u64,
    /// The input's accounting when its output was finished: what a run that
    /// keeps the output reports for it.
    pub stats: FileStats,
}

/// What to do with an input whose output may exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// No output yet.
    Fresh,
    /// A complete output written with this run's settings: skip the input;
    /// its record says what the run that wrote it counted.
    Done(Box<Record>),
    /// An output exists but cannot be trusted: redo it, for this reason.
    Redo(String),
    /// A complete output written from another input (whose identity is
    /// given) that would have the same output name: replacing it would lose
    /// that input's pages.
    Conflict(String),
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
    if is_stream(input) {
        return Decision::Redo(
            "it is not a regular file but a stream (a pipe, FIFO or device), read anew on every run"
                .into(),
        );
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
    match &record.identity {
        None => {
            return Decision::Redo(format!(
                "its record {} does not say which input wrote it",
                record_path.display()
            ))
        }
        Some(written) if *written != identity(input) => {
            return Decision::Conflict(written.clone());
        }
        Some(_) => {}
    }
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
    Decision::Done(Box::new(record))
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

/// Longest file name most file systems take, in bytes (`NAME_MAX`).
pub const MAX_NAME_BYTES: usize = 255;

/// `Err` (saying why) when a file beside `output` that a run writes (the
/// output's temporary name, its record's, its lock) would have a name
/// longer than [`MAX_NAME_BYTES`].
pub fn check_name(output: &Path) -> Result<(), String> {
    let name = output.file_name().map_or(0, |n| n.len());
    // `.NAME.crawlsift.json.partial`, the longest of them.
    let longest = 1 + name + ".crawlsift.json.partial".len();
    if longest > MAX_NAME_BYTES {
        return Err(format!(
            "its output {} needs file names of up to {longest} bytes beside it, over the {MAX_NAME_BYTES} bytes file systems take; rename the input to a shorter name",
            output.display()
        ));
    }
    Ok(())
}

/// The lock file of `output`: `.NAME.crawlsift.lock` beside it.
pub fn lock_path(output: &Path) -> PathBuf {
    let name = output
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    output.with_file_name(format!(".{name}.crawlsift.lock"))
}

/// A run's exclusive hold on one output while it checks or writes it: an
/// advisory lock (`flock`) on
/// [`lock_path`], which the holder's death releases. Dropping it removes the
/// lock file, then releases the lock.
#[derive(Debug)]
pub struct OutputLock {
    path: PathBuf,
    #[cfg_attr(not(unix), allow(dead_code))]
    file: std::fs::File,
}

/// Why an output could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds the lock.
    #[error("its output {output} is being written by another crawlsift run ({holder}), which holds the lock {lock}; wait for that run to finish, or write to another directory")]
    Held {
        /// The output.
        output: String,
        /// What the holder wrote into the lock file (its process id and
        /// start time), if it could be read.
        holder: String,
        /// The lock file.
        lock: String,
    },
    /// The lock file could not be created or locked.
    #[error("cannot lock its output {output} ({lock}): {source}")]
    Io {
        /// The output.
        output: String,
        /// The lock file.
        lock: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
}

/// Takes the lock of `output` without waiting; [`LockError::Held`] when
/// another process holds it.
pub fn lock(output: &Path) -> Result<OutputLock, LockError> {
    let path = lock_path(output);
    let io = |source| LockError::Io {
        output: output.display().to_string(),
        lock: path.display().to_string(),
        source,
    };
    loop {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            use std::os::unix::io::AsRawFd;
            // SAFETY: flock on a descriptor this function owns.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                let e = std::io::Error::last_os_error();
                if e.kind() != std::io::ErrorKind::WouldBlock {
                    return Err(io(e));
                }
                let holder = std::fs::read_to_string(&path).unwrap_or_default();
                let holder = holder.trim();
                return Err(LockError::Held {
                    output: output.display().to_string(),
                    holder: if holder.is_empty() {
                        "process unknown".into()
                    } else {
                        holder.to_string()
                    },
                    lock: path.display().to_string(),
                });
            }
            // The holder before us may have removed the file between our
            // open and our lock: then this lock guards nothing; start over.
            let (held, named) = (file.metadata().map_err(io)?, std::fs::metadata(&path));
            if !named.is_ok_and(|n| n.dev() == held.dev() && n.ino() == held.ino()) {
                continue;
            }
        }
        let mut lock = OutputLock {
            path: path.clone(),
            file,
        };
        lock.describe().map_err(io)?;
        return Ok(lock);
    }
}

impl OutputLock {
    /// Writes who holds the lock into the lock file, for the message of a
    /// run that finds it held.
    fn describe(&mut self) -> std::io::Result<()> {
        use std::io::{Seek, Write};
        let since = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        self.file.set_len(0)?;
        self.file.seek(std::io::SeekFrom::Start(0))?;
        write!(self.file, "pid {}, since {since}", std::process::id())
    }
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Removed while still held: a run that opened it meanwhile sees
        // the file gone once it gets the lock, and starts over.
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::{Compression, Format};
    use std::time::Duration;

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
            identity: Some(identity(&input)),
            input_fingerprint: Fingerprint::of(&input),
            output_bytes: 3,
            stats: FileStats {
                read: 1,
                extracted: 1,
                ..FileStats::default()
            },
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
        match check(&input, &output, &run) {
            Decision::Done(record) => {
                assert_eq!((record.stats.read, record.stats.extracted), (1, 1))
            }
            other => panic!("expected done, got {other:?}"),
        }
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

        // Another page budget may fail other pages: like another algorithm.
        let budget = settings(Algorithm::DEFAULT).with_page_timeout(None);
        let (input, output) = finished(dir.path(), &budget);
        let why = redo(check(&input, &output, &run));
        assert!(why.contains("--page-timeout off (this run: 10)"), "{why}");
        let short = run
            .clone()
            .with_page_timeout(Some(Duration::from_millis(1500)));
        let why = redo(check(&input, &output, &short));
        assert!(why.contains("(this run: 1.5)"), "{why}");
        // A record from before the budget was recorded names none.
        let mut old = run.clone();
        old.page_timeout = String::new();
        let (input, output) = finished(dir.path(), &old);
        let why = redo(check(&input, &output, &run));
        assert!(why.contains("--page-timeout unrecorded"), "{why}");

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

    #[test]
    fn another_input_with_the_same_name_is_a_conflict() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let run = settings(Algorithm::DEFAULT);
        let (input, output) = finished(dir.path(), &run);
        let elsewhere = dir.path().join("sub");
        std::fs::create_dir(&elsewhere).unwrap_or_else(|e| panic!("{e}"));
        let other = elsewhere.join("in.warc");
        std::fs::copy(&input, &other).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            check(&other, &output, &run),
            Decision::Conflict(identity(&input))
        );
        // The same file by another spelling of its path is the same input.
        let spelled = elsewhere.join("..").join("in.warc");
        assert!(matches!(check(&spelled, &output, &run), Decision::Done(_)));
        assert_eq!(
            identity(Path::new("http://h/a.warc.gz?x=1")),
            "http://h/a.warc.gz?x=1"
        );
    }

    #[test]
    fn a_lock_is_exclusive_and_named_until_dropped() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let output = dir.path().join("x.jsonl");
        let held = lock(&output).unwrap_or_else(|e| panic!("{e}"));
        // flock locks are per open file: a second open in this process conflicts too.
        match lock(&output) {
            Err(LockError::Held { holder, lock, .. }) => {
                assert!(
                    holder.contains(&format!("pid {}", std::process::id())),
                    "{holder}"
                );
                assert!(lock.ends_with(".x.jsonl.crawlsift.lock"), "{lock}");
            }
            other => panic!("expected held, got {other:?}"),
        }
        drop(held);
        assert!(!lock_path(&output).exists());
        let again = lock(&output);
        assert!(again.is_ok(), "{again:?}");
    }

    #[test]
    fn names_too_long_for_the_file_system_are_refused() {
        assert!(check_name(Path::new("/o/x.jsonl")).is_ok());
        let long = format!("/o/{}.jsonl", "a".repeat(230));
        let why = check_name(Path::new(&long)).err().unwrap_or_default();
        assert!(why.contains("255 bytes"), "{why}");
    }
}
