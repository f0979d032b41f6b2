//! The extraction pipeline: reader threads (one per input being read) send
//! candidate records over a bounded channel to `workers` threads, each owning
//! an [`Extractor`](crate::Extractor); the calling thread puts results back in input order and
//! hands them to a [`Sink`].
//!
//! Records travel in batches (up to `BATCH_RECORDS` records or
//! `BATCH_BYTES` of blocks per message, results likewise), so that neither
//! side wakes up per record.
//!
//! Memory stays bounded whatever the archive size: a record is copied out of
//! the reader only after taking its share of a `Budget` (one record and its
//! block's bytes), given back only once its result is written, so at most
//! `4 * workers * BATCH_RECORDS` records holding at most
//! `4 * workers * BATCH_BYTES + max_record_bytes` bytes of blocks exist at once,
//! besides the segments of segmented records a reader puts back together
//! (at most `max_record_bytes` per reader, see `segments`).

mod reason;
mod segments;
mod work;

pub use crate::analysis::SignalOptions;
pub use reason::{Failed, Filtered, Skipped};

use crate::output::{Formatter, Rendered};
use crate::warc::{OpenError, ProblemKind, Split, WarcReader};
use crate::Algorithm;
use crossbeam_channel::{bounded, Receiver, Sender};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Problems kept per file for the report (all are counted).
const MAX_PROBLEMS_KEPT: usize = 100;

/// Where results go, in input order.
pub trait Sink {
    /// True when all inputs share one stream, so they must be written one
    /// after another (and read by one reader at a time).
    fn sequential(&self) -> bool;
    /// Writes one page (serialised bytes, or a row) for input `file`.
    fn write(&mut self, file: usize, page: Rendered) -> std::io::Result<()>;
    /// Input `file` is complete; returns where its output went, if a file.
    fn finish(&mut self, file: usize, stats: &FileStats) -> std::io::Result<Option<PathBuf>>;
    /// Called once per input before its first page is written or it is
    /// finished; `Err(why)` refuses it: its pages are dropped, it fails
    /// with `why`, and it is [abandoned](Sink::abandon), not finished.
    fn begin(&mut self, _file: usize) -> Result<(), String> {
        Ok(())
    }
    /// Input `file` failed or was refused: its output is not finished.
    fn abandon(&mut self, _file: usize) {}
    /// Input `file` is accounted for, finished or abandoned: `stats` are
    /// its final counts (for a log line as each input ends).
    fn done(&mut self, _file: usize, _stats: &FileStats) {}
}

/// The default record cap (`--max-record-bytes`, `max_record_bytes=`): a
/// record whose block, or whose HTTP body once decoded, is larger is
/// skipped and counted as `too_large`, never cut.
pub const DEFAULT_MAX_RECORD_BYTES: u64 = crate::warc::DEFAULT_MAX_RECORD_BYTES;

/// The default page timeout (`--page-timeout`, `page_timeout=`): the CPU
/// time one page's extraction may take before it is stopped and counted as
/// `failed: timeout`. Every algorithm is linear in the page: on pages at
/// the default record cap ([`DEFAULT_MAX_RECORD_BYTES`]) of the scaling
/// benchmark's shapes the slowest (CCB) takes up to 4 s of CPU, the
/// default one under 0.3 s (PERF.md §12). 10 s stops only a page that
/// something unforeseen made slow, and keeps a worker from being held for
/// longer than that.
pub const DEFAULT_PAGE_TIMEOUT: Duration = Duration::from_secs(10);

/// The page timeout given in seconds: `None` (no limit) for 0, else that
/// duration; `Err` with what is wrong for a negative, infinite or NaN one.
pub fn page_timeout_from_secs(seconds: f64) -> Result<Option<Duration>, String> {
    if seconds == 0.0 {
        return Ok(None);
    }
    Duration::try_from_secs_f64(seconds).map(Some).map_err(|_| {
        format!(
            "a page timeout must be a number of seconds, 0 or more (0: no limit), not {seconds}"
        )
    })
}

/// How [`run`] reads, extracts and writes.
#[derive(Debug, Clone)]
pub struct Options {
    /// The extraction algorithm (`--algorithm`).
    pub algorithm: Algorithm,
    /// The CPU time one page's extraction may take (see
    /// [`DEFAULT_PAGE_TIMEOUT`]); `None`: no limit. A page over it is
    /// counted as `failed: timeout`, with a warning naming its record, and
    /// the input goes on.
    pub page_timeout: Option<Duration>,
    /// Extraction threads (at least one is used).
    pub workers: usize,
    /// The record cap (see [`DEFAULT_MAX_RECORD_BYTES`]).
    pub max_record_bytes: u64,
    /// How pages are serialised.
    pub formatter: Formatter,
    /// `.warc.gz`, `.warc.zst` and `.warc.lz4` files at least this big are
    /// decompressed by several threads when there are fewer inputs being
    /// read than workers.
    pub split_min_bytes: u64,
    /// Whether each page's Markdown is rendered too (`--markdown`), and
    /// with what.
    pub markdown: Option<crate::MarkdownOptions>,
    /// Whether each page's metadata (author, dates, site name, description,
    /// canonical URL) is read; off (`--no-metadata`) leaves those fields
    /// null and saves the time their reading takes (PERF.md §15).
    pub metadata: bool,
    /// What is computed from each text besides its language, and which
    /// pages are dropped.
    pub signals: SignalOptions,
    /// How hard `http(s)://` inputs are retried (the caller decides: the CLI
    /// and the Python binding read `CRAWLSIFT_HTTP_*`,
    /// [`crate::remote::RetryPolicy::from_env`]).
    pub retry: crate::remote::RetryPolicy,
}

/// Per-input accounting: `read == extracted + Σ skipped + Σ failed`.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStats {
    /// The input's name (a path, URL or `-`); `total` for [`totals`].
    pub file: String,
    /// The input's size in bytes, or the bytes read when it is not known.
    pub bytes: u64,
    /// Records read, problems (damaged stretches) included.
    pub read: u64,
    /// Pages extracted and written.
    pub extracted: u64,
    /// Records skipped, by reason.
    pub skipped: BTreeMap<Skipped, u64>,
    /// Records that could not give a page, and damaged stretches, by reason.
    pub failed: BTreeMap<Failed, u64>,
    /// The first problems, with file, offset and record number.
    pub problems: Vec<String>,
    /// Why the input could not be read at all.
    pub error: Option<String>,
    /// Where the output went, if a file of its own; `None` after an error.
    pub output: Option<PathBuf>,
    /// The output was complete from an earlier run and the input was not
    /// read again: the counts are that run's (kept in its resume record).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resumed: bool,
}

impl FileStats {
    /// Records skipped under the reason named `name` (`"not_html"`, …).
    pub fn skipped_as(&self, name: &str) -> u64 {
        count_named(&self.skipped, name)
    }

    /// Records failed under the reason named `name` (`"corrupt_gzip"`, …).
    pub fn failed_as(&self, name: &str) -> u64 {
        count_named(&self.failed, name)
    }

    /// Keeps `message` for the report if fewer than the kept maximum are.
    fn note(&mut self, message: String) {
        if self.problems.len() < MAX_PROBLEMS_KEPT {
            self.problems.push(message);
        }
    }
    fn fail(&mut self, reason: Failed) {
        self.read += 1;
        *self.failed.entry(reason).or_default() += 1;
    }
    fn skip(&mut self, reason: Skipped) {
        self.read += 1;
        *self.skipped.entry(reason).or_default() += 1;
    }
}

/// The count of the reason named `name` in `counts` (0 when absent).
fn count_named<R: std::fmt::Display>(counts: &BTreeMap<R, u64>, name: &str) -> u64 {
    counts
        .iter()
        .find(|(reason, _)| reason.to_string() == name)
        .map_or(0, |(_, n)| *n)
}

/// Progress so far: input bytes read and records read over all inputs.
#[derive(Debug, Default)]
pub struct Progress {
    /// Input bytes consumed (compressed, for gzip).
    pub bytes: AtomicU64,
    /// Records read, problems included.
    pub records: AtomicU64,
    /// Set it to stop early: readers stop at their next record and [`run`]
    /// returns an [`std::io::ErrorKind::Interrupted`] error.
    pub stop: AtomicBool,
}

/// One input of [`run_inputs`]: a file (`-` is stdin) or any byte stream.
pub enum Input {
    /// A file, `-` for stdin, or an `http(s)://` URL.
    Path(PathBuf),
    /// A byte stream (see [`Input::stream`]).
    Stream(Stream),
    /// A reader the caller has opened already (see [`Input::opened`]).
    Opened(Opened),
}

/// A WARC reader opened by the caller, read once.
pub struct Opened {
    /// Labels the input, as for a [`Stream`].
    name: String,
    /// Boxed: a reader is large beside the other inputs.
    reader: Mutex<Option<Box<WarcReader>>>,
}

/// A WARC (plain or gzip) read from a byte stream, read once.
pub struct Stream {
    /// Labels the input in statistics and problems; its last path component
    /// is the pages' `warc_filename`.
    name: String,
    reader: Mutex<Option<Box<dyn Read + Send>>>,
}

impl Input {
    /// A stream input named `name` (a path or URL the bytes came from, or `-`).
    pub fn stream(name: impl Into<String>, reader: impl Read + Send + 'static) -> Input {
        Input::Stream(Stream {
            name: name.into(),
            reader: Mutex::new(Some(Box::new(reader))),
        })
    }

    /// An input already opened, e.g. by [`Input::open`] where an input
    /// that cannot be opened must be reported at once: it is not opened
    /// (nor, for a URL, requested) again. `name` labels it as for
    /// [`Input::stream`].
    pub fn opened(name: impl Into<String>, reader: WarcReader) -> Input {
        Input::Opened(Opened {
            name: name.into(),
            reader: Mutex::new(Some(Box::new(reader))),
        })
    }

    /// The input's name as statistics and problems show it.
    pub fn name(&self) -> String {
        match self {
            Input::Path(path) => path.display().to_string(),
            Input::Stream(stream) => stream.name.clone(),
            Input::Opened(opened) => opened.name.clone(),
        }
    }

    /// Opens the input for reading: a file (`-` is stdin, an `http(s)://`
    /// URL is streamed, see [`crate::remote`]) or the stream, which can be
    /// opened once, or the reader already opened.
    pub fn open(
        &self,
        max_record_bytes: u64,
        split: Split,
        retry: &crate::remote::RetryPolicy,
    ) -> Result<WarcReader, OpenError> {
        match self {
            Input::Path(path) if path.as_os_str() == "-" => {
                let stdin = BufReader::with_capacity(STREAM_BUFFER, std::io::stdin());
                WarcReader::from_stream("-".into(), stdin, max_record_bytes).map_err(|source| {
                    OpenError {
                        file: "-".into(),
                        source,
                    }
                })
            }
            Input::Path(path) if crate::remote::is_url(&path.display().to_string()) => {
                open_url(&path.display().to_string(), max_record_bytes, retry)
            }
            Input::Path(path) => WarcReader::open_split(path, max_record_bytes, split),
            Input::Stream(stream) => {
                let err = |source| OpenError {
                    file: stream.name.clone(),
                    source,
                };
                let reader = stream
                    .reader
                    .lock()
                    .ok()
                    .and_then(|mut r| r.take())
                    .ok_or_else(|| err(std::io::Error::other("the stream was already read")))?;
                let input = BufReader::with_capacity(STREAM_BUFFER, reader);
                WarcReader::from_stream(stream.name.clone(), input, max_record_bytes).map_err(err)
            }
            Input::Opened(opened) => opened
                .reader
                .lock()
                .ok()
                .and_then(|mut r| r.take())
                .map(|r| *r)
                .ok_or_else(|| OpenError {
                    file: opened.name.clone(),
                    source: std::io::Error::other("the input was already read"),
                }),
        }
    }

    /// The pages' `warc_filename`: the last component of the path or name.
    fn file_name(&self) -> Arc<str> {
        let path = match self {
            Input::Path(path) => path.as_path(),
            Input::Stream(stream) => Path::new(&stream.name),
            Input::Opened(opened) => Path::new(&opened.name),
        };
        // A URL is named by its path's last segment, as the CLI names its output.
        crate::remote::file_name(path)
            .unwrap_or_else(|| "-".into())
            .into()
    }
}

/// A WARC reader over the `http(s)://` URL `url`, streamed and retried as
/// `retry` says; it knows the file's size when the server gives it.
///
/// A server may send the body with `Content-Encoding: gzip` although
/// crawlsift asks for none (object stores do for gzip-tagged objects). The
/// body is then either the `.warc.gz` file itself, read as it is, or the
/// file gzipped once more for transport, decoded here so that the WARC
/// reader gets the file's bytes (and its offsets are the file's). Any other
/// encoding is refused with its name.
fn open_url(
    url: &str,
    max_record_bytes: u64,
    retry: &crate::remote::RetryPolicy,
) -> Result<WarcReader, OpenError> {
    let err = |source| OpenError {
        file: url.to_string(),
        source,
    };
    let mut remote = crate::remote::RemoteReader::open(url, retry)
        .map_err(|e| err(std::io::Error::other(e.detail)))?;
    let len = remote.len();
    let stream = |input: Box<dyn Read + Send>, len| {
        let mut input = BufReader::with_capacity(STREAM_BUFFER, input);
        crate::warc::check_compression(input.fill_buf().map_err(err)?).map_err(err)?;
        let reader =
            WarcReader::from_stream(url.to_string(), input, max_record_bytes).map_err(err)?;
        Ok(reader.with_total_bytes(len))
    };
    match remote.content_encoding() {
        None => stream(Box::new(remote), len),
        Some("gzip" | "x-gzip") => {
            let mut head = Vec::new();
            (&mut remote)
                .take(ENCODED_HEAD)
                .read_to_end(&mut head)
                .map_err(err)?;
            let double = decodes_to_gzip(&head);
            let input = std::io::Cursor::new(head).chain(remote);
            if double {
                stream(Box::new(flate2::read::MultiGzDecoder::new(input)), None)
            } else {
                stream(Box::new(input), len)
            }
        }
        Some(other) => Err(err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("the server sent the file with Content-Encoding: {other}, which crawlsift does not decode (it asks for the file as it is); download the file and extract it locally"),
        ))),
    }
}

/// Bytes of a gzip-encoded body looked at to tell a transport encoding
/// over a `.warc.gz` from the `.warc.gz` itself.
const ENCODED_HEAD: u64 = 16 << 10;

/// True when the gzip stream starting `head` inflates to a gzip stream.
fn decodes_to_gzip(head: &[u8]) -> bool {
    let mut decoder = flate2::read::GzDecoder::new(head);
    let mut out = [0u8; 2];
    let mut got = 0;
    while let Some(rest) = out.get_mut(got..).filter(|r| !r.is_empty()) {
        match decoder.read(rest) {
            Ok(0) | Err(_) => break,
            Ok(n) => got += n,
        }
    }
    got == 2 && out == [0x1f, 0x8b]
}

/// Most records a job message carries.
const BATCH_RECORDS: usize = 64;
/// A job message is sent once its blocks add up to this many bytes.
const BATCH_BYTES: u64 = 1 << 20;

/// What may be in flight (copied out of a reader and not yet written): a
/// number of records and of block bytes. Readers take, the collector gives
/// back once a result is written.
struct Budget {
    state: Mutex<BudgetState>,
    freed: Condvar,
    /// The bytes of the whole budget; a record's share is capped to it.
    bytes: u64,
}

struct BudgetState {
    records: usize,
    bytes: u64,
    /// Readers waiting in [`Budget::take`] (else giving back wakes no one).
    waiting: usize,
    /// The pipeline is shutting down: takers stop waiting.
    closed: bool,
}

impl Budget {
    fn new(records: usize, bytes: u64) -> Self {
        Budget {
            state: Mutex::new(BudgetState {
                records,
                bytes,
                waiting: 0,
                closed: false,
            }),
            freed: Condvar::new(),
            bytes,
        }
    }

    /// One record's share of the budget for a block of `bytes`.
    fn share(&self, bytes: u64) -> u64 {
        bytes.min(self.bytes)
    }

    /// Takes one record of `bytes` if that is free now.
    fn try_take(&self, bytes: u64) -> bool {
        let bytes = self.share(bytes);
        let Ok(mut state) = self.state.lock() else {
            return false;
        };
        if state.records > 0 && state.bytes >= bytes {
            state.records -= 1;
            state.bytes -= bytes;
            true
        } else {
            false
        }
    }

    /// Waits for one record of `bytes`; false when the pipeline shuts down.
    fn take(&self, bytes: u64) -> bool {
        let bytes = self.share(bytes);
        let Ok(mut state) = self.state.lock() else {
            return false;
        };
        loop {
            if state.closed {
                return false;
            }
            if state.records > 0 && state.bytes >= bytes {
                state.records -= 1;
                state.bytes -= bytes;
                return true;
            }
            state.waiting += 1;
            state = match self.freed.wait(state) {
                Ok(state) => state,
                Err(_) => return false,
            };
            state.waiting -= 1;
        }
    }

    /// Gives back `records` records holding blocks of `bytes` (their shares).
    fn give(&self, records: usize, bytes: u64) {
        if records == 0 {
            return;
        }
        let waiting = match self.state.lock() {
            Ok(mut state) => {
                state.records += records;
                state.bytes += bytes;
                state.waiting > 0
            }
            Err(_) => true,
        };
        // A wake-up is a system call: only when a reader waits.
        if waiting {
            self.freed.notify_all();
        }
    }

    fn close(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.closed = true;
        }
        self.freed.notify_all();
    }
}

/// Closes the budget when the collector returns, however it returns.
struct CloseOnDrop<'a>(&'a Budget);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Read size for stream inputs.
const STREAM_BUFFER: usize = 256 << 10;

/// What a worker made of one record.
enum Outcome {
    Page(Rendered),
    Skipped(Skipped),
    /// Skipped, and the user should hear why (file, offset, record number).
    SkippedWarn(Skipped, String),
    Failed(Failed),
    /// Failed, and the user should hear why (file, offset, record number).
    FailedWarn(Failed, String),
}

/// One worker result: the record's number in its file's jobs, what became
/// of it, and its block's share of the [`Budget`].
struct Done {
    seq: u64,
    outcome: Outcome,
    bytes: u64,
}

enum Message {
    /// Results of one batch of `file`'s jobs.
    Results { file: usize, done: Vec<Done> },
    /// A reader is done with `file` after sending `sent` jobs.
    ReaderDone {
        file: usize,
        sent: u64,
        stats: Box<FileStats>,
    },
}

#[derive(Default)]
struct FileState {
    next_seq: u64,
    /// Results waiting for earlier ones: outcome and budget share.
    pending: BTreeMap<u64, (Outcome, u64)>,
    sent: Option<u64>,
    stats: FileStats,
    finished: bool,
    /// [`Sink::begin`] was called.
    begun: bool,
    /// Why the sink refused the input, if it did.
    refused: Option<String>,
}

/// Runs the pipeline over `inputs`; returns one [`FileStats`] per input.
/// `on_progress` is called from the calling thread a few times a second.
pub fn run(
    inputs: &[PathBuf],
    options: &Options,
    sink: &mut dyn Sink,
    progress: &Progress,
    on_progress: &mut dyn FnMut(),
) -> std::io::Result<Vec<FileStats>> {
    let inputs: Vec<Input> = inputs.iter().cloned().map(Input::Path).collect();
    run_inputs(&inputs, options, sink, progress, on_progress)
}

/// [`run`] over inputs that may also be byte streams.
pub fn run_inputs(
    inputs: &[Input],
    options: &Options,
    sink: &mut dyn Sink,
    progress: &Progress,
    on_progress: &mut dyn FnMut(),
) -> std::io::Result<Vec<FileStats>> {
    let workers = options.workers.max(1);
    let in_flight = 4 * workers;
    let max_block = options.max_record_bytes.min(usize::MAX as u64);
    let budget = Budget::new(
        in_flight * BATCH_RECORDS,
        (in_flight as u64 * BATCH_BYTES).saturating_add(max_block),
    );
    let readers = if sink.sequential() {
        1
    } else {
        inputs.len().clamp(1, workers.div_ceil(2))
    };
    // One inflating thread per file caps a job at one core of inflate when
    // there are fewer files than workers: then files are split between threads.
    let split = Split {
        min_file_bytes: options.split_min_bytes,
        ..Split::new(if sink.sequential() || inputs.len() < workers {
            workers / readers
        } else {
            1
        })
    };
    let (file_tx, file_rx) = bounded::<usize>(inputs.len().max(1));
    for file in 0..inputs.len() {
        let _ = file_tx.send(file);
    }
    drop(file_tx);
    let (job_tx, job_rx) = bounded::<Vec<work::Job>>(in_flight);
    let (msg_tx, msg_rx) = bounded::<Message>(in_flight + readers);
    let (pool_tx, pool_rx) = bounded::<Vec<u8>>(in_flight);

    std::thread::scope(|scope| {
        for _ in 0..readers {
            let reader = ReaderThread {
                inputs,
                files: file_rx.clone(),
                budget: &budget,
                jobs: job_tx.clone(),
                messages: msg_tx.clone(),
                pool: pool_rx.clone(),
                max_record_bytes: options.max_record_bytes,
                split,
                retry: &options.retry,
                progress,
            };
            scope.spawn(move || reader.run());
        }
        for _ in 0..workers {
            let worker =
                work::Worker::new(options, job_rx.clone(), msg_tx.clone(), pool_tx.clone());
            scope.spawn(move || worker.run());
        }
        drop((job_tx, job_rx, msg_tx, pool_tx));
        let result = {
            let _close = CloseOnDrop(&budget);
            collect(inputs.len(), sink, &msg_rx, &budget, progress, on_progress)
        };
        // On a write error, closing the budget and the channels stops the
        // other threads.
        drop(msg_rx);
        result
    })
}

/// Puts results back in order and writes them; returns the final stats.
fn collect(
    n_files: usize,
    sink: &mut dyn Sink,
    messages: &Receiver<Message>,
    budget: &Budget,
    progress: &Progress,
    on_progress: &mut dyn FnMut(),
) -> std::io::Result<Vec<FileStats>> {
    let mut files: Vec<FileState> = (0..n_files).map(|_| FileState::default()).collect();
    let sequential = sink.sequential();
    let mut cursor = 0;
    let mut done = 0;
    while done < n_files {
        if progress.stop.load(Ordering::Relaxed) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Interrupted,
                "the pipeline was stopped before the end of its inputs",
            ));
        }
        let message = match messages.recv_timeout(Duration::from_millis(200)) {
            Ok(message) => message,
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                on_progress();
                continue;
            }
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
        };
        let file = match message {
            Message::Results { file, done } => {
                if let Some(state) = files.get_mut(file) {
                    for done in done {
                        state.pending.insert(done.seq, (done.outcome, done.bytes));
                    }
                }
                file
            }
            Message::ReaderDone { file, sent, stats } => {
                if let Some(state) = files.get_mut(file) {
                    let mut stats = *stats;
                    // Worker outcomes may have been counted before the reader's.
                    merge(&mut stats, &state.stats);
                    for warning in state.stats.problems.drain(..) {
                        stats.note(warning);
                    }
                    state.stats = stats;
                    state.sent = Some(sent);
                }
                file
            }
        };
        // Write whatever is now in order: this file, or (sequential) from the cursor on.
        let order: Vec<usize> = if sequential {
            (cursor..n_files).collect()
        } else {
            vec![file]
        };
        let (mut freed, mut freed_bytes) = (0, 0);
        for f in order {
            let Some(state) = files.get_mut(f) else {
                continue;
            };
            if !state.begun && (state.sent.is_some() || !state.pending.is_empty()) {
                state.begun = true;
                state.refused = sink.begin(f).err();
            }
            while let Some((outcome, bytes)) = state.pending.remove(&state.next_seq) {
                state.next_seq += 1;
                freed += 1;
                freed_bytes += budget.share(bytes);
                match outcome {
                    Outcome::Page(page) => {
                        if state.refused.is_none() {
                            sink.write(f, page)?;
                        }
                        state.stats.extracted += 1;
                        state.stats.read += 1;
                    }
                    Outcome::Skipped(reason) => state.stats.skip(reason),
                    Outcome::SkippedWarn(reason, warning) => {
                        state.stats.skip(reason);
                        state.stats.note(warning);
                    }
                    Outcome::Failed(reason) => state.stats.fail(reason),
                    Outcome::FailedWarn(reason, warning) => {
                        state.stats.fail(reason);
                        state.stats.note(warning);
                    }
                }
            }
            if !state.finished && state.sent == Some(state.next_seq) {
                state.finished = true;
                if let Some(why) = state.refused.take() {
                    state.stats.error.get_or_insert(why);
                }
                state.stats.output = if state.stats.error.is_some() {
                    sink.abandon(f);
                    None
                } else {
                    sink.finish(f, &state.stats)?
                };
                sink.done(f, &state.stats);
                done += 1;
                if sequential {
                    cursor = f + 1;
                }
            } else if sequential {
                break;
            }
        }
        budget.give(freed, freed_bytes);
        on_progress();
    }
    Ok(files.into_iter().map(|s| s.stats).collect())
}

/// Adds the counts of `from` (worker outcomes seen so far) into `into`.
fn merge(into: &mut FileStats, from: &FileStats) {
    into.read += from.read;
    into.extracted += from.extracted;
    for (reason, n) in &from.skipped {
        *into.skipped.entry(*reason).or_default() += n;
    }
    for (reason, n) in &from.failed {
        *into.failed.entry(*reason).or_default() += n;
    }
}

struct ReaderThread<'a> {
    inputs: &'a [Input],
    files: Receiver<usize>,
    budget: &'a Budget,
    jobs: Sender<Vec<work::Job>>,
    messages: Sender<Message>,
    pool: Receiver<Vec<u8>>,
    max_record_bytes: u64,
    split: Split,
    retry: &'a crate::remote::RetryPolicy,
    progress: &'a Progress,
}

impl ReaderThread<'_> {
    fn run(self) {
        while let Ok(file) = self.files.recv() {
            let Some(input) = self.inputs.get(file) else {
                continue;
            };
            let (sent, stats) = self.read_file(file, input);
            let stop = sent.is_none();
            let done = Message::ReaderDone {
                file,
                sent: sent.unwrap_or(0),
                stats: Box::new(stats),
            };
            if stop || self.messages.send(done).is_err() {
                return;
            }
        }
    }

    /// Reads one input, sending candidate records as jobs. `None` for the
    /// job count when the pipeline is shutting down.
    fn read_file(&self, file: usize, input: &Input) -> (Option<u64>, FileStats) {
        let mut stats = FileStats {
            file: input.name(),
            ..FileStats::default()
        };
        let mut reader = match input.open(self.max_record_bytes, self.split, self.retry) {
            Ok(reader) => reader,
            Err(e) => {
                stats.error = Some(e.to_string());
                return (Some(0), stats);
            }
        };
        let filename = input.file_name();
        let input: Arc<str> = reader.name().into();
        let mut seq = 0;
        let mut records_ok = 0;
        let mut not_warc = None;
        let mut last_position = 0;
        let mut batch = Batch::default();
        let mut segments = segments::Segments::new(self.max_record_bytes);
        let mut finished = Vec::new();
        while let Some(item) = reader.next() {
            if self.progress.stop.load(Ordering::Relaxed) {
                return (None, stats);
            }
            match item {
                Err(problem) => {
                    if records_ok == 0
                        && problem.offset == 0
                        && problem.kind == ProblemKind::NotWarc
                    {
                        not_warc = Some(problem.detail.clone());
                    }
                    stats.fail(Failed::Problem(problem.kind));
                    if problem.kind == ProblemKind::Io && stats.error.is_none() {
                        // The rest of the input is unread: not a complete output.
                        stats.error = Some(problem.to_string());
                    }
                    stats.note(problem.to_string());
                }
                Ok(record) => {
                    records_ok += 1;
                    match work::Job::candidate(&record) {
                        Err(Skipped::Continuation) => {
                            stats.skip(Skipped::Continuation);
                            if !segments.continuation(&record, &mut finished) {
                                stats.note(format!(
                                    "{}: record {} at byte offset {}: a continuation record (segment {} of {}) that continues no record read before it in this input; skipped",
                                    input,
                                    record.number,
                                    record.offset,
                                    record.headers.get("WARC-Segment-Number").unwrap_or_default(),
                                    record.headers.get("WARC-Segment-Origin-ID").unwrap_or_default(),
                                ));
                            }
                        }
                        Err(reason) => {
                            stats.skip(reason);
                            if reason == Skipped::TooLarge {
                                stats.note(format!(
                                    "{}: record {} at byte offset {} ({}): its block of {} bytes is over the record cap of {} bytes (--max-record-bytes, max_record_bytes= in Python); skipped",
                                    input,
                                    record.number,
                                    record.offset,
                                    record.headers.target_uri().unwrap_or_default(),
                                    record.content_length,
                                    self.max_record_bytes
                                ));
                            }
                        }
                        Ok(kind) => {
                            let segment = segments::segment_number(&record);
                            // A first segment is kept back, outside the
                            // budget (see `segments`), until its last.
                            if segment != Some(1) && !self.take(record.block.len(), &mut batch) {
                                return (None, stats);
                            }
                            let block = self.pool.try_recv().unwrap_or_default();
                            let mut job =
                                work::Job::new(file, kind, &record, &filename, &input, block);
                            match segment {
                                Some(1) => segments.first(job, &mut finished),
                                Some(_) => {
                                    // A later segment that is not a continuation.
                                    job.truncate_for(segments::TRUNCATED_SEGMENT);
                                    if !self.push(&mut batch, job, &mut seq) {
                                        return (None, stats);
                                    }
                                }
                                None => {
                                    if !self.push(&mut batch, job, &mut seq) {
                                        return (None, stats);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if !finished.is_empty()
                && !self.send_finished(&mut finished, &mut batch, &mut seq, &mut stats)
            {
                return (None, stats);
            }
            self.progress.records.fetch_add(1, Ordering::Relaxed);
            let position = reader.position();
            self.progress
                .bytes
                .fetch_add(position.saturating_sub(last_position), Ordering::Relaxed);
            last_position = position;
        }
        segments.finish_all(&mut finished);
        if !self.send_finished(&mut finished, &mut batch, &mut seq, &mut stats)
            || !self.flush(&mut batch)
        {
            return (None, stats);
        }
        stats.bytes = reader.total_bytes().unwrap_or(last_position);
        if let (0, Some(detail)) = (records_ok, not_warc) {
            stats.error = Some(format!("{}: not a WARC file ({detail})", stats.file));
        }
        (Some(seq), stats)
    }

    /// Takes the budget's share of a record whose block is `bytes` long,
    /// waiting for it if need be; false when the pipeline is shutting down.
    fn take(&self, bytes: usize, batch: &mut Batch) -> bool {
        let bytes = bytes as u64;
        // Before waiting for the collector, hand the workers what is
        // batched: they may be idle.
        self.budget.try_take(bytes) || (self.flush(batch) && self.budget.take(bytes))
    }

    /// Batches `job` (its budget share taken) as the file's next job, and
    /// sends the batch once it is full; false when the pipeline is
    /// shutting down.
    fn push(&self, batch: &mut Batch, mut job: work::Job, seq: &mut u64) -> bool {
        job.seq = *seq;
        *seq += 1;
        batch.bytes += job.block_len() as u64;
        batch.jobs.push(job);
        !(batch.jobs.len() >= BATCH_RECORDS || batch.bytes >= BATCH_BYTES) || self.flush(batch)
    }

    /// Sends the pages of the segmented records `finished`, and counts those
    /// over the cap; false when the pipeline is shutting down.
    fn send_finished(
        &self,
        finished: &mut Vec<segments::Finished>,
        batch: &mut Batch,
        seq: &mut u64,
        stats: &mut FileStats,
    ) -> bool {
        for done in finished.drain(..) {
            match done {
                segments::Finished::Page(job) => {
                    if !self.take(job.block_len(), batch) || !self.push(batch, job, seq) {
                        return false;
                    }
                }
                segments::Finished::TooLarge { whereabouts, bytes } => {
                    stats.skip(Skipped::TooLarge);
                    stats.note(format!(
                        "{whereabouts}: its segments add up to {bytes} bytes, over the record cap of {} bytes (--max-record-bytes, max_record_bytes= in Python); skipped",
                        self.max_record_bytes
                    ));
                }
            }
        }
        true
    }

    /// Sends the batched jobs, if any; false when the pipeline is shutting down.
    fn flush(&self, batch: &mut Batch) -> bool {
        batch.bytes = 0;
        if batch.jobs.is_empty() {
            return true;
        }
        let jobs = std::mem::replace(&mut batch.jobs, Vec::with_capacity(BATCH_RECORDS));
        self.jobs.send(jobs).is_ok()
    }
}

/// Jobs not yet sent, and the bytes of their blocks.
#[derive(Default)]
struct Batch {
    jobs: Vec<work::Job>,
    bytes: u64,
}

/// Counts skipped/failed reasons over many files (for the summary).
pub fn totals(stats: &[FileStats]) -> FileStats {
    let mut total = FileStats {
        file: "total".into(),
        ..FileStats::default()
    };
    for s in stats {
        merge(&mut total, s);
        total.bytes += s.bytes;
    }
    total
}
