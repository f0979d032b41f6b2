//! The README's shell examples, run as printed: every command of every `sh`
//! block, and every `$ ` example of a `text` block (whose output must be
//! what the README shows below it), with the `crawlsift` binary of this
//! build first on `PATH`. The README's `python` blocks are run by
//! `python/tests/test_readme.py`.
//!
//! Each command runs in a fresh directory laid out as a checkout beside
//! `shared/` (`data-samples/` linked, `../shared` the shared data), holding
//! the files the examples name: `CC-MAIN-*.warc.gz`, `crawl/`, `in.warc.gz`
//! (copies of `../shared/warc` files), `page.html` (a dataset page),
//! `warc.paths.gz` (Common Crawl's layout: `crawl-data/…` entries, whose
//! files are there too). `https://data.commoncrawl.org/` is served from
//! that directory by a server on 127.0.0.1 (the only change made to a
//! command: [`HOST`] is replaced by the server's address). Commands that
//! cannot run here are listed in [`SKIPPED`] with the reason.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;

const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// The host of the README's URLs, served from 127.0.0.1.
const HOST: &str = "https://data.commoncrawl.org/";

/// The shared WARCs copied under the README's example names.
const WARCS: [&str; 2] = ["cc_whirlwind.warc.gz", "dolma_sample-0000.warc.gz"];

/// Where `warc.paths.gz` says the copies are, as in Common Crawl's lists.
const CRAWL_DIR: &str = "crawl-data/CC-MAIN-2024-10/segments/1707947473347.0/warc";

/// Commands (as printed, or the start of one) the test does not run, and why.
const SKIPPED: &[(&str, &str)] = &[
    ("bash .ci/run", "the CI itself, which runs this test"),
    (
        "RUNS=3 benches/peers/run.sh",
        "the peers' benchmark: installs pinned peers; not part of CI (README)",
    ),
    (
        "crawlsift eval ../shared/datasets/* --pred benches/peers/out/trafilatura",
        "reads the output of benches/peers/run.sh (not part of CI)",
    ),
    (
        "pip install ",
        ".ci/run builds the wheel, installs it with the test dependencies into a fresh venv",
    ),
    (
        "python3 -m venv .venv",
        ".ci/run makes its own venv (.venv-ci) the same way",
    ),
    (
        "cargo build --release && .venv/bin/pytest",
        ".ci/run runs the same tests on the wheel",
    ),
    (
        "python -m crawlsift.spark ",
        "needs the Python package: run as printed by python/tests/test_readme.py",
    ),
    (
        "curl -sO https://data.commoncrawl.org/crawl-data/CC-MAIN-2024-10/warc.paths.gz",
        "part of the Spark cluster example (a YARN cluster, Common Crawl itself)",
    ),
    (
        "PYSPARK_PYTHON=python3 spark-submit --master yarn",
        "a YARN cluster and Common Crawl itself",
    ),
];

/// The README's first command builds the release binary and runs it; here
/// the binary under test runs it.
const CARGO_RUN: &str = "cargo run --release -- ";

/// A shell command of the README, where it is, and the output it shows
/// (for `$ ` examples).
struct Example {
    line: usize,
    command: String,
    shown: Option<String>,
}

/// The commands of the README's `sh` blocks (comments and blank lines
/// dropped, `\` continuations joined) and its `$ ` examples.
fn examples(readme: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let lines: Vec<&str> = readme.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i];
        let ticks = fence.len() - fence.trim_start_matches('`').len();
        if ticks < 3 {
            i += 1;
            continue;
        }
        let lang = fence[ticks..].trim();
        let close = "`".repeat(ticks);
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && lines[end] != close {
            end += 1;
        }
        let body = &lines[start..end.min(lines.len())];
        match lang {
            "sh" => {
                let mut command = String::new();
                let mut first = 0;
                for (k, line) in body.iter().enumerate() {
                    let code = strip_comment(line);
                    if command.is_empty() {
                        if code.trim().is_empty() {
                            continue;
                        }
                        first = start + k + 1;
                    }
                    if let Some(part) = code.trim_end().strip_suffix('\\') {
                        command.push_str(part.trim());
                        command.push(' ');
                    } else {
                        command.push_str(code.trim());
                        out.push(Example {
                            line: first,
                            command: std::mem::take(&mut command),
                            shown: None,
                        });
                    }
                }
            }
            "text" => {
                if let Some(command) = body.first().and_then(|l| l.strip_prefix("$ ")) {
                    let shown: Vec<&str> = body[1..].to_vec();
                    out.push(Example {
                        line: start + 1,
                        command: command.to_owned(),
                        shown: Some(shown.join("\n")),
                    });
                }
            }
            _ => {}
        }
        i = end + 1;
    }
    out
}

/// `line` without a trailing `# comment` (a `#` after whitespace, outside
/// quotes; the README's commands quote none).
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '#') if prev.is_whitespace() => return &line[..i],
            _ => {}
        }
        prev = c;
    }
    line
}

/// A directory laid out as a checkout beside `shared/`, with the files the
/// README's commands name; the command runs in `checkout`.
fn prepare(root: &Path) -> PathBuf {
    let checkout = root.join("crawlsift");
    let crawl_dir = checkout.join(CRAWL_DIR);
    for dir in [&checkout.join("crawl"), &crawl_dir] {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    let warcs = common::shared("");
    let shared = warcs.parent().unwrap_or(&warcs);
    link(shared, &root.join("shared"));
    link(
        &Path::new(REPO).join("data-samples"),
        &checkout.join("data-samples"),
    );
    let mut paths = String::new();
    for (n, warc) in WARCS.iter().enumerate() {
        let name = format!("CC-MAIN-20240220211055-20240221001055-{n:05}.warc.gz");
        let from = common::shared(warc);
        for to in [
            checkout.join(&name),
            checkout.join("crawl").join(&name),
            crawl_dir.join(&name),
        ] {
            copy(&from, &to);
        }
        paths.push_str(&format!("{CRAWL_DIR}/{name}\n"));
    }
    copy(
        &common::shared("resiliparse_warcfile.warc.gz"),
        &checkout.join("in.warc.gz"),
    );
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(paths.as_bytes())
        .and_then(|()| gz.finish())
        .and_then(|bytes| std::fs::write(checkout.join("warc.paths.gz"), bytes))
        .unwrap_or_else(|e| panic!("warc.paths.gz: {e}"));
    let page = shared.join("datasets/scrapinghub/html");
    let page = std::fs::read_dir(&page)
        .unwrap_or_else(|e| panic!("{}: {e}", page.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .min()
        .unwrap_or_else(|| panic!("no page in {}", page.display()));
    let mut html = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&page).unwrap_or_else(|e| panic!("{e}")))
        .read_to_end(&mut html)
        .unwrap_or_else(|e| panic!("{}: {e}", page.display()));
    std::fs::write(checkout.join("page.html"), html).unwrap_or_else(|e| panic!("page.html: {e}"));
    checkout
}

fn link(from: &Path, to: &Path) {
    std::os::unix::fs::symlink(from, to)
        .unwrap_or_else(|e| panic!("{} -> {}: {e}", to.display(), from.display()));
}

fn copy(from: &Path, to: &Path) {
    std::fs::copy(from, to)
        .unwrap_or_else(|e| panic!("{} -> {}: {e}", from.display(), to.display()));
}

/// Serves the files under `root` over HTTP on 127.0.0.1 (GET, whole
/// files, 404 for others) until the test ends; returns the base URL.
fn serve(root: PathBuf) -> String {
    let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap_or_else(|e| panic!("bind: {e}"));
    let addr = listener
        .local_addr()
        .unwrap_or_else(|e| panic!("local_addr: {e}"));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let root = root.clone();
            std::thread::spawn(move || answer(stream, &root));
        }
    });
    format!("http://{addr}/")
}

fn answer(stream: TcpStream, root: &Path) {
    let mut reader = BufReader::new(&stream);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    loop {
        let mut header = String::new();
        match reader.read_line(&mut header) {
            Ok(n) if n > 2 => {}
            _ => break,
        }
    }
    let target = request.split_whitespace().nth(1).unwrap_or("/");
    let path = root.join(target.trim_start_matches('/'));
    let mut stream = &stream;
    let _ = match std::fs::read(&path) {
        Ok(body) if !target.contains("..") => stream
            .write_all(
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                )
                .as_bytes(),
            )
            .and_then(|()| stream.write_all(&body)),
        _ => stream
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
    };
}

/// What went wrong running `example`, if anything.
fn run(example: &Example, bin_dir: &Path) -> Option<String> {
    let dir = common::tempdir();
    let checkout = prepare(dir.path());
    let base = serve(checkout.clone());
    let command = example.command.replace(HOST, &base);
    let command = match command.strip_prefix(CARGO_RUN) {
        Some(rest) => format!("crawlsift {rest}"),
        None => command,
    };
    let entries = |dir: &Path| {
        std::fs::read_dir(dir)
            .map(Iterator::count)
            .unwrap_or_default()
    };
    let before = entries(&checkout);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin_dir.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let out = Command::new("bash")
        .args(["-o", "pipefail", "-c", &command])
        .current_dir(&checkout)
        .env("PATH", std::env::join_paths(paths).unwrap_or_default())
        .output()
        .unwrap_or_else(|e| panic!("bash: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let at = format!("README.md:{}: `{}`", example.line, example.command);
    if !out.status.success() {
        return Some(format!("{at} exited with {}:\n{stderr}", out.status));
    }
    if let Some(shown) = &example.shown {
        if stdout.trim_end() != shown.trim_end() {
            return Some(format!(
                "{at} printed\n{stdout}\ninstead of what the README shows:\n{shown}"
            ));
        }
        return None;
    }
    // Something came of it: output on stdout, or files written.
    if out.stdout.is_empty() && entries(&checkout) == before {
        return Some(format!("{at} wrote nothing:\n{stderr}"));
    }
    None
}

#[test]
fn every_readme_command_runs_as_printed() {
    let readme = std::fs::read_to_string(Path::new(REPO).join("README.md"))
        .unwrap_or_else(|e| panic!("README.md: {e}"));
    let all = examples(&readme);
    let (skipped, to_run): (Vec<&Example>, Vec<&Example>) = all.iter().partition(|e| {
        SKIPPED
            .iter()
            .any(|(start, _)| e.command.starts_with(start))
    });
    // Every entry of the skip list still names a README command.
    for (start, why) in SKIPPED {
        assert!(
            skipped.iter().any(|e| e.command.starts_with(start)),
            "SKIPPED names `{start}` ({why}), which no README command starts with"
        );
    }
    assert!(to_run.len() >= 20, "only {} commands found", to_run.len());
    assert!(to_run.iter().filter(|e| e.shown.is_some()).count() >= 2);
    let bin = common::tempdir();
    link(
        Path::new(env!("CARGO_BIN_EXE_crawlsift")),
        &bin.path().join("crawlsift"),
    );
    // Two at a time: each command is small, and most of the time is the
    // evaluation over every dataset.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let chunks: Vec<Vec<&Example>> = (0..2)
            .map(|k| to_run.iter().skip(k).step_by(2).copied().collect())
            .collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let bin = bin.path();
                scope.spawn(move || {
                    chunk
                        .into_iter()
                        .filter_map(|e| run(e, bin))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|_| panic!("a runner panicked")))
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
