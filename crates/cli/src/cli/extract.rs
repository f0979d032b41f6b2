//! `crawlsift extract`: main text of every HTML page in WARC archives.

use anyhow::{bail, Context};
use clap::builder::TypedValueParser;
use crawlsift::output::parquet::Columns;
use crawlsift::output::resume::{self, Decision, Settings};
use crawlsift::output::{Compression, Format, Formatter};
use crawlsift::pipeline::{self, FileStats, Options, Progress, SignalOptions, Sink};
use crawlsift::remote::{self, RetryPolicy};
use crawlsift::signals::RuleSet;
use crawlsift::sinks::{DirSink, StdoutSink};
use crawlsift::Algorithm;
use std::collections::HashMap;
use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// WARC files (.warc, .warc.gz, .warc.zst, .warc.lz4, told by their
    /// first bytes; `-` reads stdin), directories (a directory stands for
    /// its `*.warc`, `*.warc.gz`, `*.warc.zst` and `*.warc.lz4` files,
    /// sorted by name, not its subdirectories), or http(s):// URLs, which are streamed;
    /// a dropped connection is resumed from where it stopped with a Range
    /// request (environment: CRAWLSIFT_HTTP_RETRIES, default 5 in a row;
    /// CRAWLSIFT_HTTP_RETRY_DELAY, default 0.5 s, doubled each retry;
    /// CRAWLSIFT_HTTP_TIMEOUT, default 60 s; CRAWLSIFT_HTTP_MIN_RATE, default
    /// 1024 bytes/s over a timeout-long window, slower connections are
    /// retried; CRAWLSIFT_HTTP_ALLOW_UNSIZED=1 accepts a body without
    /// Content-Length whose end the server cannot confirm).
    inputs: Vec<PathBuf>,
    /// A file or URL listing more inputs, one per line (may be gzipped, like
    /// Common Crawl's warc.paths.gz).
    #[arg(long, value_name = "FILE")]
    paths: Option<PathBuf>,
    /// Prefix for the relative entries of the --paths list: a URL (for
    /// Common Crawl's lists, https://data.commoncrawl.org/) or a directory.
    #[arg(long, value_name = "URL", requires = "paths")]
    base_url: Option<String>,
    /// Write one output per input into this directory (created if missing)
    /// instead of stdout, each with a record of how it was made
    /// (`.NAME.crawlsift.json`). An input whose output is complete and was made
    /// by this crawlsift with the same options is skipped, so an interrupted run
    /// resumes where it stopped; any other existing output is redone, saying
    /// why. stdin (`-`) is always read.
    #[arg(short, long, value_name = "DIR")]
    output: Option<PathBuf>,
    /// With -o: redo every input, even those whose output is complete.
    #[arg(long, requires = "output")]
    force: bool,
    /// Output format. text: each page's title line and text, then a line
    /// holding only a form feed (split with `awk 'BEGIN{RS="\f\n"} …'`).
    /// parquet: one .parquet file per input (needs -o), the jsonl fields as
    /// columns, zstd-compressed.
    #[arg(long, default_value_t = Format::Jsonl, value_parser = names::<Format>(Format::ALL.map(Format::name)))]
    format: Format,
    /// Compression of jsonl/text output (wet is always gzip, parquet always
    /// zstd inside the file).
    #[arg(long, default_value_t = Compression::None, value_parser = names::<Compression>(Compression::ALL.map(Compression::name)))]
    compress: Compression,
    /// Extraction algorithm (see `crawlsift eval` for how each measures).
    #[arg(long, default_value_t = Algorithm::DEFAULT)]
    algorithm: Algorithm,
    /// Worker threads (default: all cores).
    #[arg(short, long)]
    jobs: Option<usize>,
    /// No progress bar, no log lines and no summary (problems and errors
    /// are still printed).
    #[arg(short, long)]
    quiet: bool,
    /// When stderr is not a terminal (a batch job's log): a progress line
    /// every this many seconds (0: none). A line for each input as it
    /// ends is printed too; on a terminal, a progress bar instead.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, value_parser = progress_interval)]
    progress_interval: f64,
    /// Write per-file statistics as JSON to this file.
    #[arg(long, value_name = "FILE")]
    stats: Option<PathBuf>,
    /// Records whose block, or whose HTTP body once decompressed, is larger
    /// are skipped with a warning (counted as too_large), not truncated: a
    /// cut page would give text that looks whole. With the records in
    /// flight (at most 4 MiB of blocks per worker plus one record) this
    /// bounds memory.
    #[arg(long, default_value_t = pipeline::DEFAULT_MAX_RECORD_BYTES, value_name = "BYTES")]
    max_record_bytes: u64,
    /// The CPU time one page's extraction may take: a page over it is
    /// stopped, counted as failed (timeout) with a warning naming its
    /// record, and the input goes on. 0 turns the limit off.
    #[arg(long, default_value_t = pipeline::DEFAULT_PAGE_TIMEOUT.as_secs_f64(), value_name = "SECONDS", value_parser = super::page_timeout)]
    page_timeout: f64,
    /// Add each page's quality signals (`signals`), the Gopher, C4 and
    /// FineWeb decisions (`filters`: per rule set null when the page passes,
    /// else the first rule it fails) and its exact-duplicate key
    /// (`exact_key`, 16 hex digits) to jsonl and parquet. `lang` and
    /// `lang_score` are always there.
    #[arg(long)]
    signals: bool,
    /// Do not identify the language: `lang` is null and `lang_score` 0 (in
    /// WET, no WARC-Identified-Content-Language). Saves about 4–5 % of the
    /// CPU of a plain extraction (PERF.md §11).
    #[arg(long)]
    no_lang: bool,
    /// Add the MinHash signature (`minhash`: 14 bands x 8 64-bit values,
    /// datatrove's defaults; null for texts of fewer than 5 words) to jsonl
    /// and parquet.
    #[arg(long)]
    minhash: bool,
    /// Add each page's main content as Markdown (`markdown`: headings,
    /// lists, GFM tables, fenced code, math as LaTeX; the same regions as
    /// `text`, which stays as it is) to jsonl and parquet. Null for the
    /// element-based algorithms (ccb, accb, tccb, plain, bte, dsc, cetr,
    /// density-moreno). WET and text output are unchanged.
    #[arg(long)]
    markdown: bool,
    /// With --markdown: keep hyperlinks as [text](url), resolved against
    /// the page's URL.
    #[arg(long, requires = "markdown")]
    markdown_links: bool,
    /// With --markdown: give images as their alt text.
    #[arg(long, requires = "markdown")]
    markdown_images: bool,
    /// Leave the page metadata fields (author, date_published,
    /// date_modified, site_name, description, canonical_url) null: saves
    /// the time reading them takes (about a third of the extraction's).
    #[arg(long)]
    no_metadata: bool,
    /// Drop the pages that fail any of these rule sets (comma-separated:
    /// gopher (= gopher_quality,gopher_repetition), gopher_quality,
    /// gopher_repetition, c4, fineweb); each dropped page is counted as
    /// skipped under filter:<rule set>:<rule>.
    #[arg(long, value_name = "SETS", value_delimiter = ',')]
    filter: Vec<RuleSet>,
    /// `.warc.gz`, `.warc.zst` and `.warc.lz4` files at least this big are
    /// decompressed by several threads when fewer files than workers are
    /// being read (tests lower it).
    #[arg(long, default_value_t = crawlsift::warc::Split::new(1).min_file_bytes, hide = true)]
    split_min_bytes: u64,
}

pub fn run(args: Args) -> anyhow::Result<u8> {
    let mut inputs = args.inputs.clone();
    if let Some(list) = &args.paths {
        inputs.extend(read_paths(list, args.base_url.as_deref())?);
    }
    if inputs.is_empty() {
        bail!("no inputs: give WARC files, `-` for stdin, or --paths FILE");
    }
    if args.format == Format::Parquet && args.output.is_none() {
        bail!(
            "--format parquet writes one .parquet file per input: give an output directory with -o DIR"
        );
    }
    let mut inputs = expand_directories(inputs)?;
    let markdown = args.markdown.then_some(crawlsift::MarkdownOptions {
        links: args.markdown_links,
        images: args.markdown_images,
    });
    let formatter = Formatter::new(args.format, args.compress).with_columns(Columns {
        markdown: args.markdown,
        signals: args.signals,
        minhash: args.minhash,
    });
    let workers = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // The environment is read here, and only when an input is a URL.
    let retry = if inputs
        .iter()
        .any(|i| i.to_str().is_some_and(remote::is_url))
    {
        RetryPolicy::from_env().map_err(|e| anyhow::anyhow!(e.detail))?
    } else {
        RetryPolicy::default()
    };
    let options = Options {
        retry,
        algorithm: args.algorithm,
        page_timeout: pipeline::page_timeout_from_secs(args.page_timeout)
            .map_err(anyhow::Error::msg)?,
        workers,
        max_record_bytes: args.max_record_bytes,
        formatter,
        split_min_bytes: args.split_min_bytes,
        markdown,
        metadata: !args.no_metadata,
        signals: SignalOptions {
            no_lang: args.no_lang,
            signals: args.signals,
            minhash: args.minhash,
            filter: args.filter.clone(),
        },
    };

    // Before any work: a run that cannot write its statistics at the end
    // would have done it all for nothing.
    let stats_file = match &args.stats {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .open(path)
                .with_context(|| format!("cannot write statistics to {}", path.display()))?,
        ),
        None => None,
    };
    let settings = Settings::new(args.algorithm, &formatter, args.max_record_bytes)
        .with_signals(&options.signals)
        .with_markdown(markdown)
        .with_page_timeout(options.page_timeout)
        .with_metadata(options.metadata);
    // What becomes of each input, in order: read by this run (the index in
    // `todo`), or accounted for already (kept from an earlier run, or failed).
    let mut plan: Vec<Result<usize, FileStats>> = Vec::new();
    let batch_log = !args.quiet && !std::io::stderr().is_terminal();
    let mut sink: Box<dyn Sink> = match &args.output {
        None => {
            plan = (0..inputs.len()).map(Ok).collect();
            Box::new(StdoutSink::new(formatter, &inputs))
        }
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create output directory {}", dir.display()))?;
            let mut seen = HashMap::new();
            let mut todo = Vec::new();
            for input in inputs {
                let output = DirSink::output_for(&formatter, dir, &input);
                let failed = |error: String| FileStats {
                    file: input.display().to_string(),
                    error: Some(format!("{}: {error}", input.display())),
                    ..FileStats::default()
                };
                if let Some(other) = seen.insert(output.clone(), input.clone()) {
                    bail!(
                        "two inputs, {} and {}, would both write {}; rename one input or run them separately",
                        other.display(),
                        input.display(),
                        output.display()
                    );
                }
                if let Err(why) = resume::check_name(&output) {
                    plan.push(Err(failed(why)));
                    continue;
                }
                // Held for the check only: the sink locks each output again
                // while it writes it (a lock per input of a long list at
                // once would run out of file descriptors).
                let lock = match resume::lock(&output) {
                    Ok(lock) => lock,
                    Err(e) => {
                        plan.push(Err(failed(e.to_string())));
                        continue;
                    }
                };
                match resume::check(&input, &output, &settings) {
                    Decision::Done(record) if !args.force => {
                        if !args.quiet {
                            eprintln!(
                                "crawlsift: skipping {}: its output {} is complete",
                                input.display(),
                                output.display()
                            );
                        }
                        plan.push(Err(FileStats {
                            file: input.display().to_string(),
                            output: Some(output),
                            resumed: true,
                            ..record.stats
                        }));
                        continue;
                    }
                    Decision::Conflict(other) if !args.force => {
                        plan.push(Err(failed(format!(
                            "its output {} was written from another input, {other}, with the same name; both would write the same output. Rename one, write to another directory, or --force to replace it",
                            output.display()
                        ))));
                        continue;
                    }
                    Decision::Done(_) | Decision::Conflict(_) => {
                        // Said even with --quiet: an existing file is replaced.
                        eprintln!(
                            "crawlsift: redoing {}: --force (its output {} was complete)",
                            input.display(),
                            output.display()
                        );
                    }
                    Decision::Redo(why) => {
                        // Said even with --quiet: an existing file is replaced.
                        eprintln!(
                            "crawlsift: redoing {}: its output {} cannot be kept: {why}",
                            input.display(),
                            output.display()
                        );
                    }
                    Decision::Fresh => {}
                }
                drop(lock);
                plan.push(Ok(todo.len()));
                todo.push(input);
            }
            inputs = todo;
            Box::new(DirSink::new(formatter, settings, dir, &inputs).locking(args.force))
        }
    };
    if batch_log {
        sink = Box::new(LogSink::new(sink, inputs.len()));
    }

    // A URL's size is not known before it is opened: then the bar shows no total.
    let total_bytes = inputs
        .iter()
        .map(|p| match p.to_str() {
            Some(url) if crawlsift::remote::is_url(url) => None,
            _ => Some(std::fs::metadata(p).map_or(0, |m| m.len())),
        })
        .sum::<Option<u64>>();
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| progress_bar(total_bytes));
    let progress = Progress::default();
    let started = Instant::now();
    let mut next_line = args.progress_interval;
    let mut tick = || {
        if batch_log && args.progress_interval > 0.0 {
            let secs = started.elapsed().as_secs_f64();
            if secs >= next_line {
                next_line = secs + args.progress_interval;
                eprintln!(
                    "{}",
                    progress_line(
                        progress.bytes.load(Ordering::Relaxed),
                        total_bytes,
                        progress.records.load(Ordering::Relaxed),
                        secs
                    )
                );
            }
        }
        if let Some(bar) = &bar {
            let records = progress.records.load(Ordering::Relaxed);
            bar.set_position(progress.bytes.load(Ordering::Relaxed));
            let secs = started.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "{records} records, {:.0} records/s",
                records as f64 / secs
            ));
        }
    };
    let read = pipeline::run(&inputs, &options, sink.as_mut(), &progress, &mut tick)
        .context("writing output failed")?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let mut read = read.into_iter().map(Some).collect::<Vec<_>>();
    let stats: Vec<FileStats> = plan
        .into_iter()
        .map(|step| match step {
            Ok(i) => read.get_mut(i).and_then(Option::take).unwrap_or_default(),
            Err(stats) => stats,
        })
        .collect();

    if let (Some(path), Some(mut file)) = (&args.stats, stats_file) {
        use std::io::Write;
        let json = serde_json::to_vec_pretty(&stats)?;
        file.set_len(0)
            .and_then(|()| file.write_all(&json))
            .with_context(|| format!("cannot write statistics to {}", path.display()))?;
    }
    for problem in stats.iter().flat_map(|s| &s.problems) {
        eprintln!("crawlsift: warning: {problem}");
    }
    if !args.quiet {
        summary(&stats, started.elapsed().as_secs_f64());
    }
    let unreadable: Vec<&FileStats> = stats.iter().filter(|s| s.error.is_some()).collect();
    for s in &unreadable {
        eprintln!(
            "crawlsift: error: {}",
            s.error.as_deref().unwrap_or_default()
        );
    }
    Ok(if unreadable.is_empty() { 0 } else { 1 })
}

/// Parses `--progress-interval SECONDS`: 0 or more (0: no progress lines).
fn progress_interval(value: &str) -> Result<f64, String> {
    match value.trim().parse::<f64>() {
        Ok(secs) if secs.is_finite() && secs >= 0.0 => Ok(secs),
        _ => Err(format!(
            "`{value}` is not a number of seconds (0 or more; 0 prints no progress lines)"
        )),
    }
}

/// A progress line for a log: bytes read, records, rate, ETA when the
/// total is known.
fn progress_line(bytes: u64, total: Option<u64>, records: u64, secs: f64) -> String {
    let secs = secs.max(1e-3);
    let mb = bytes as f64 / 1e6;
    let of = match total {
        Some(total) if total > 0 => {
            let done = bytes.min(total) as f64 / total as f64;
            let eta = if done > 0.0 {
                format!(", ETA {:.0} s", secs * (1.0 - done) / done)
            } else {
                String::new()
            };
            format!(
                " of {:.1} MB ({:.0} %){eta}",
                total as f64 / 1e6,
                done * 100.0
            )
        }
        _ => String::new(),
    };
    format!(
        "crawlsift: progress: {mb:.1} MB{of}, {records} records, {:.0} records/s, {:.1} MB/s, {secs:.0} s",
        records as f64 / secs,
        mb / secs
    )
}

/// Prints a line for each input as it ends, for a batch job's log (the
/// summary comes only at the end of the run).
struct LogSink {
    inner: Box<dyn Sink>,
    /// When each input's first result came.
    began: HashMap<usize, Instant>,
    inputs: usize,
    ended: usize,
}

impl LogSink {
    fn new(inner: Box<dyn Sink>, inputs: usize) -> Self {
        LogSink {
            inner,
            began: HashMap::new(),
            inputs,
            ended: 0,
        }
    }
}

impl Sink for LogSink {
    fn sequential(&self) -> bool {
        self.inner.sequential()
    }
    fn write(&mut self, file: usize, page: crawlsift::output::Rendered) -> std::io::Result<()> {
        self.inner.write(file, page)
    }
    fn finish(&mut self, file: usize, stats: &FileStats) -> std::io::Result<Option<PathBuf>> {
        self.inner.finish(file, stats)
    }
    fn begin(&mut self, file: usize) -> Result<(), String> {
        self.began.insert(file, Instant::now());
        self.inner.begin(file)
    }
    fn abandon(&mut self, file: usize) {
        self.inner.abandon(file)
    }
    fn done(&mut self, file: usize, stats: &FileStats) {
        self.inner.done(file, stats);
        self.ended += 1;
        let secs = self
            .began
            .remove(&file)
            .map_or(0.0, |t| t.elapsed().as_secs_f64());
        let (skipped, failed) = (
            stats.skipped.values().sum::<u64>(),
            stats.failed.values().sum::<u64>(),
        );
        let n = format!("{}/{}", self.ended, self.inputs);
        match &stats.error {
            Some(error) => eprintln!("crawlsift: input {n} failed: {error}"),
            None => eprintln!(
                "crawlsift: input {n} done: {}: read {}, extracted {}, skipped {skipped}, failed {failed}, {secs:.2} s",
                stats.file, stats.read, stats.extracted
            ),
        }
    }
}

/// The names of the files a directory input stands for.
const WARC_NAMES: [&str; 4] = crawlsift::warc::WARC_FILE_SUFFIXES;

/// `inputs` with each directory replaced by the WARC files in it
/// ([`WARC_NAMES`]: anything so named but a directory, links that
/// lead nowhere included, so that they fail by name), sorted by name. A
/// directory without any is an error naming it, before anything is read.
fn expand_directories(inputs: Vec<PathBuf>) -> anyhow::Result<Vec<PathBuf>> {
    let mut expanded = Vec::with_capacity(inputs.len());
    for input in inputs {
        if input.as_os_str() == "-" || !input.is_dir() {
            expanded.push(input);
            continue;
        }
        let cannot = || format!("cannot list the input directory {}", input.display());
        let mut warcs = Vec::new();
        for entry in std::fs::read_dir(&input).with_context(cannot)? {
            let path = entry.with_context(cannot)?.path();
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            // Not subdirectories; but a broken or looping link, or a FIFO,
            // named like a WARC file is an input (that fails, or is
            // streamed), never silently dropped.
            if WARC_NAMES.iter().any(|ext| name.ends_with(ext))
                && !std::fs::metadata(&path).is_ok_and(|m| m.is_dir())
            {
                warcs.push(path);
            }
        }
        if warcs.is_empty() {
            bail!(
                "the input directory {} holds no WARC files (*.warc, *.warc.gz, \
                 *.warc.zst, *.warc.lz4); give WARC files, or a directory that holds some",
                input.display()
            );
        }
        warcs.sort();
        expanded.extend(warcs);
    }
    Ok(expanded)
}

/// Reads a paths file or URL (gzip detected by magic), skipping blank lines;
/// relative entries are prefixed with `base` when given.
fn read_paths(list: &Path, base: Option<&str>) -> anyhow::Result<Vec<PathBuf>> {
    let file: Box<dyn std::io::Read> = match list.to_str() {
        Some(url) if remote::is_url(url) => Box::new(
            RetryPolicy::from_env()
                .and_then(|policy| remote::RemoteReader::open(url, &policy))
                .context("cannot open paths list")?,
        ),
        _ => Box::new(
            std::fs::File::open(list)
                .with_context(|| format!("cannot open paths file {}", list.display()))?,
        ),
    };
    let mut reader = std::io::BufReader::new(file);
    let gzip = reader.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    let reader: Box<dyn BufRead> = if gzip {
        Box::new(std::io::BufReader::new(
            flate2::bufread::MultiGzDecoder::new(reader),
        ))
    } else {
        Box::new(reader)
    };
    let mut paths = Vec::new();
    for line in reader.lines() {
        let line = line.with_context(|| format!("cannot read paths file {}", list.display()))?;
        let line = line.trim();
        if !line.is_empty() {
            paths.push(with_base(line, base));
        }
    }
    Ok(paths)
}

/// `entry` under `base` (a URL or a directory), unless `entry` is a URL or
/// an absolute path.
fn with_base(entry: &str, base: Option<&str>) -> PathBuf {
    match base {
        Some(base) if !crawlsift::remote::is_url(entry) && !Path::new(entry).is_absolute() => {
            if crawlsift::remote::is_url(base) {
                let entry = entry.trim_start_matches("./");
                PathBuf::from(format!("{}/{entry}", base.trim_end_matches('/')))
            } else {
                Path::new(base).join(entry)
            }
        }
        _ => PathBuf::from(entry),
    }
}

fn progress_bar(total: Option<u64>) -> indicatif::ProgressBar {
    let bar =
        indicatif::ProgressBar::with_draw_target(total, indicatif::ProgressDrawTarget::stderr());
    let template = match total {
        Some(_) => "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} ETA {eta} {msg}",
        None => "{spinner} {bytes} {binary_bytes_per_sec} {msg}",
    };
    let style = indicatif::ProgressStyle::with_template(template)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// The human summary on stderr: one line per input and a total.
fn summary(stats: &[FileStats], secs: f64) {
    // "skipped 34 (metadata 16, request 17, warcinfo 1)", or "skipped 0".
    fn counted<K: std::fmt::Display>(what: &str, m: &std::collections::BTreeMap<K, u64>) -> String {
        let total: u64 = m.values().sum();
        if m.is_empty() {
            return format!("{what} {total}");
        }
        let reasons: Vec<_> = m.iter().map(|(k, v)| format!("{k} {v}")).collect();
        format!("{what} {total} ({})", reasons.join(", "))
    }
    for s in stats {
        if s.error.is_some() {
            // The error itself is printed after the summary.
            eprintln!("{}: not read (error below)", s.file);
            continue;
        }
        // Counted by the run that wrote the output.
        let resumed = if s.resumed { "resumed, " } else { "" };
        let to = s
            .output
            .as_ref()
            .map(|p| format!(" -> {}", p.display()))
            .unwrap_or_default();
        eprintln!(
            "{}: {resumed}read {}, extracted {}, {}, {}{to}",
            s.file,
            s.read,
            s.extracted,
            counted("skipped", &s.skipped),
            counted("failed", &s.failed),
        );
    }
    let total = pipeline::totals(stats);
    // Only what this run read counts towards its rate.
    let mb = stats
        .iter()
        .filter(|s| !s.resumed)
        .map(|s| s.bytes)
        .sum::<u64>() as f64
        / 1e6;
    // A rate over next to nothing (skipped inputs, a tiny file) says nothing.
    let rate = if mb >= RATE_MIN_MB && secs >= RATE_MIN_SECS {
        format!(" ({:.1} MB/s)", mb / secs)
    } else {
        String::new()
    };
    let resumed = stats.iter().filter(|s| s.resumed).count();
    let resumed = if resumed > 0 {
        format!(" ({resumed} resumed)")
    } else {
        String::new()
    };
    eprintln!(
        "total: {} files{resumed}, {mb:.1} MB in {secs:.2} s{rate}, read {}, extracted {}",
        stats.len(),
        total.read,
        total.extracted
    );
}

/// The least input (MB) and time (s) for which the summary gives a rate.
const RATE_MIN_MB: f64 = 1.0;
const RATE_MIN_SECS: f64 = 0.1;

/// A parser of one of `names` into `T`, listing them in `--help` as clap's
/// value enums do (the library's enums parse their own names).
fn names<T>(names: impl IntoIterator<Item = &'static str>) -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr + Clone + Send + Sync + 'static,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    clap::builder::PossibleValuesParser::new(names).try_map(|name| name.parse::<T>())
}

#[cfg(test)]
mod tests {
    use super::with_base;
    use std::path::PathBuf;

    #[test]
    fn base_prefixes_only_relative_entries() {
        let cc = Some("https://data.commoncrawl.org/");
        let entry = "crawl-data/CC-MAIN-2024-22/segments/1/warc/a.warc.gz";
        assert_eq!(
            with_base(entry, cc),
            PathBuf::from(format!("https://data.commoncrawl.org/{entry}"))
        );
        assert_eq!(
            with_base("/crawl-data/a.warc.gz", Some("http://h:8/m")),
            PathBuf::from("/crawl-data/a.warc.gz"),
            "an absolute path stays local"
        );
        assert_eq!(
            with_base("./x/a.warc.gz", Some("http://h:8/m/")),
            PathBuf::from("http://h:8/m/x/a.warc.gz")
        );
        assert_eq!(
            with_base("https://o/a.warc.gz", cc),
            PathBuf::from("https://o/a.warc.gz")
        );
        assert_eq!(
            with_base("x/a.warc", Some("/mnt/cc")),
            PathBuf::from("/mnt/cc/x/a.warc")
        );
        assert_eq!(with_base("x/a.warc", None), PathBuf::from("x/a.warc"));
    }
}
