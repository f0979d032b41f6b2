//! Command-line interface: one module per subcommand.

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;

mod eval;
mod extract;
mod html;

/// crawlsift: fast main-text extraction from HTML pages and WARC archives.
#[derive(Parser)]
#[command(
    name = "crawlsift",
    version,
    long_version = long_version(),
    about,
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Extract main text from WARC archives (.warc, .warc.gz, .warc.zst, .warc.lz4) to JSONL, WET or text.
    #[command(after_help = EXIT_CODES)]
    Extract(extract::Args),
    /// Extract main text from HTML files (.html, .html.gz, or - for stdin).
    Html(html::Args),
    /// Score extractions against gold-standard datasets (word-level LCS P/R/F1).
    Eval(eval::Args),
}

/// The exit codes of `crawlsift extract` (also in the README).
const EXIT_CODES: &str = "Exit codes: 0 every input was read (damaged records are counted and \
reported, and do not change it); 1 some inputs could not be read or written (each is named \
on stderr; the others were extracted); 2 a usage or fatal error (bad options, an output \
that cannot be written): nothing, or not everything, was done.";

/// Parses `--page-timeout SECONDS`: 0 or more (0: no limit).
fn page_timeout(value: &str) -> Result<f64, String> {
    let seconds: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("`{value}` is not a number of seconds"))?;
    crawlsift::pipeline::page_timeout_from_secs(seconds)?;
    Ok(seconds)
}

/// What `crawlsift --version` prints: the version and the byte kernels this
/// CPU runs (chosen at run time, `crawlsift_simd::dispatch`).
fn long_version() -> &'static str {
    let kernels = crawlsift::extract::kernels();
    // Built once per process, for clap, which keeps it to the end.
    format!("{} (kernels: {kernels})", env!("CARGO_PKG_VERSION")).leak()
}

/// Runs the command line `args` (the program name first) and returns the
/// exit code; usage errors, `--help` and `--version` print as clap prints
/// them, and return 2 or 0.
pub fn run(args: impl IntoIterator<Item = OsString>) -> u8 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            // Printing the help to a closed pipe is no error either.
            let _ = err.print();
            return u8::try_from(err.exit_code()).unwrap_or(2);
        }
    };
    let result = match cli.command {
        Command::Extract(args) => extract::run(args),
        Command::Html(args) => html::run(args),
        Command::Eval(args) => eval::run(args),
    };
    // Called from Python (`crawlsift._cli`) no Rust `main` flushes stdout
    // at the end, so it is flushed here.
    let result = result.and_then(|code| {
        std::io::stdout().flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        // Output cut short by its reader (`crawlsift … | head`): what was wanted
        // was written, so end quietly and successfully, as Unix tools do.
        Err(err) if is_broken_pipe(&err) => 0,
        Err(err) => {
            eprintln!("crawlsift: error: {err:#}");
            2
        }
    }
}

/// Whether an error comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
