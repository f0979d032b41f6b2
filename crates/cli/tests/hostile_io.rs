//! Inputs that are not regular files, inputs that change or vanish, and
//! outputs that two runs or two inputs would share: each is read, failed by
//! name, or refused; none is lost or marked complete when it is not.

#![cfg(unix)]

mod common;

use common::*;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SAMPLE: &str = "resiliparse_warcfile.warc.gz";

fn stats_of(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The pages of the sample read as a regular file, to compare against.
fn reference() -> Vec<serde_json::Value> {
    let out = crawlsift(&[shared(SAMPLE).as_os_str()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let pages = jsonl(&out.stdout);
    assert!(pages.len() > 5, "the sample has pages");
    pages
}

/// The fields of a page that do not depend on the input's name.
fn texts(pages: &[serde_json::Value]) -> Vec<(String, String)> {
    pages
        .iter()
        .map(|p| (p["url"].to_string(), p["text"].to_string()))
        .collect()
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap_or_else(|e| panic!("mkfifo: {e}"));
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Writes the sample into the FIFO at `path` from another thread (opening a
/// FIFO for writing waits for a reader).
fn feed(path: &Path) -> std::thread::JoinHandle<()> {
    let path = path.to_path_buf();
    let bytes = std::fs::read(shared(SAMPLE)).unwrap_or_else(|e| panic!("{e}"));
    std::thread::spawn(move || {
        let mut fifo = std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap_or_else(|e| panic!("{e}"));
        // A reader that stopped early closes its end: not this test's failure.
        let _ = fifo.write_all(&bytes);
    })
}

#[test]
fn a_fifo_is_read_as_a_stream_and_its_output_never_kept() {
    let expected = texts(&reference());
    let dir = tempdir();
    let fifo = dir.path().join("piped.warc.gz");
    mkfifo(&fifo);
    let out_dir = dir.path().join("out");
    let stats = dir.path().join("stats.json");
    for run in 0..2 {
        let writer = feed(&fifo);
        let out = crawlsift(&[
            fifo.as_os_str(),
            os("-o"),
            out_dir.as_os_str(),
            os("--stats"),
            stats.as_os_str(),
        ]);
        writer.join().unwrap_or_else(|_| panic!("the writer"));
        assert!(out.status.success(), "run {run}: {}", stderr(&out));
        let written = std::fs::read(out_dir.join("piped.jsonl")).unwrap_or_default();
        assert_eq!(texts(&jsonl(&written)), expected, "run {run}");
        let s = stats_of(&stats);
        assert_eq!(s[0]["extracted"], expected.len(), "run {run}: {s:?}");
        assert!(s[0].get("resumed").is_none(), "run {run}: {s:?}");
        if run == 1 {
            // Read anew: a stream's size and time say nothing of its bytes.
            assert!(stderr(&out).contains("redoing"), "{}", stderr(&out));
        }
    }
}

#[test]
fn process_substitution_and_dev_stdin_are_read_as_streams() {
    let expected = texts(&reference());
    // `<(…)` is a pipe named /dev/fd/N.
    let out = Command::new("bash")
        .arg("-c")
        .arg(r#""$0" extract <(cat "$1")"#)
        .arg(env!("CARGO_BIN_EXE_crawlsift"))
        .arg(shared(SAMPLE))
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(texts(&jsonl(&out.stdout)), expected);

    // /dev/stdin as a path, stdin a pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
        .args(["extract", "/dev/stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("stdin"));
    let bytes = std::fs::read(shared(SAMPLE)).unwrap_or_else(|e| panic!("{e}"));
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
    });
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    writer.join().unwrap_or_else(|_| panic!("the writer"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(texts(&jsonl(&out.stdout)), expected);
}

#[test]
fn a_character_device_is_a_stream_whose_output_is_redone() {
    let dir = tempdir();
    let out_dir = dir.path().join("out");
    for run in 0..2 {
        let out = crawlsift(&[os("/dev/null"), os("-o"), out_dir.as_os_str()]);
        assert!(out.status.success(), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(!err.contains("skipping"), "run {run}: {err}");
        if run == 1 {
            assert!(err.contains("redoing /dev/null"), "{err}");
        }
    }
}

/// Many copies of the sample's records, uncompressed: a plain `.warc` of
/// about `mib` MiB.
fn big_plain_warc(path: &Path, mib: usize) {
    let mut unit = Vec::new();
    flate2::read::MultiGzDecoder::new(
        &std::fs::read(shared(SAMPLE)).unwrap_or_else(|e| panic!("{e}"))[..],
    )
    .read_to_end(&mut unit)
    .unwrap_or_else(|e| panic!("{e}"));
    let mut file =
        std::io::BufWriter::new(std::fs::File::create(path).unwrap_or_else(|e| panic!("{e}")));
    for _ in 0..(mib << 20).div_ceil(unit.len()) {
        file.write_all(&unit).unwrap_or_else(|e| panic!("{e}"));
    }
    file.flush().unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn an_input_truncated_while_mapped_fails_alone() {
    let dir = tempdir();
    let big = dir.path().join("big.warc");
    big_plain_warc(&big, 64);
    let small = dir.path().join("small.warc.gz");
    std::fs::copy(shared(SAMPLE), &small).unwrap_or_else(|e| panic!("{e}"));
    let out_dir = dir.path().join("out");
    let stats = dir.path().join("stats.json");
    let child = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
        .arg("extract")
        .args([&big, &small])
        .args(["-j", "1", "-o"])
        .arg(&out_dir)
        .arg("--stats")
        .arg(&stats)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    // Once pages are written the file is mapped and being read: cut it.
    let partial = out_dir.join(".big.jsonl.partial");
    let started = Instant::now();
    while std::fs::metadata(&partial).map_or(0, |m| m.len()) == 0 {
        assert!(started.elapsed() < Duration::from_secs(60), "no output");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::OpenOptions::new()
        .write(true)
        .open(&big)
        .and_then(|f| f.set_len(4096))
        .unwrap_or_else(|e| panic!("{e}"));
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let err = stderr(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a failed input, no crash: {err}"
    );
    assert!(
        err.contains("big.warc") && err.contains("cut short while being read"),
        "{err}"
    );
    assert!(!out_dir.join("big.jsonl").exists(), "not marked complete");
    let s = stats_of(&stats);
    assert!(
        s[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("cut short")),
        "{s:?}"
    );
    assert_eq!(s[1]["error"], serde_json::Value::Null, "{s:?}");
    let small_out = std::fs::read(out_dir.join("small.jsonl")).unwrap_or_default();
    assert_eq!(texts(&jsonl(&small_out)), texts(&reference()));
}

#[test]
fn broken_and_looping_links_in_a_directory_are_failed_inputs() {
    let dir = tempdir();
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).unwrap_or_else(|e| panic!("{e}"));
    std::fs::copy(shared(SAMPLE), inputs.join("good.warc.gz")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink("nowhere.warc.gz", inputs.join("broken.warc.gz"))
        .unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink("loop.warc", inputs.join("loop.warc"))
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir(inputs.join("sub.warc")).unwrap_or_else(|e| panic!("{e}"));
    let stats = dir.path().join("stats.json");
    let out = crawlsift(&[
        inputs.as_os_str(),
        os("-o"),
        dir.path().join("out").as_os_str(),
        os("--stats"),
        stats.as_os_str(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("broken.warc.gz") && err.contains("loop.warc"),
        "{err}"
    );
    let s = stats_of(&stats);
    let files: Vec<&str> = s.iter().filter_map(|f| f["file"].as_str()).collect();
    assert_eq!(files.len(), 3, "a subdirectory is no input: {files:?}");
    let failed: Vec<bool> = s.iter().map(|f| !f["error"].is_null()).collect();
    assert_eq!(failed, [true, false, true], "broken, good, loop: {s:?}");
    assert!(dir.path().join("out/good.jsonl").exists());
}

#[test]
fn an_output_name_too_long_fails_that_input_only() {
    let dir = tempdir();
    let long = dir.path().join(format!("{}.warc.gz", "n".repeat(240)));
    std::fs::copy(shared(SAMPLE), &long).unwrap_or_else(|e| panic!("{e}"));
    let stats = dir.path().join("stats.json");
    let out = crawlsift(&[
        long.as_os_str(),
        shared(SAMPLE).as_os_str(),
        os("-o"),
        dir.path().join("out").as_os_str(),
        os("--stats"),
        stats.as_os_str(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("255 bytes"), "{err}");
    let s = stats_of(&stats);
    assert_eq!(s.len(), 2, "{s:?}");
    assert!(
        s[0]["error"].as_str().is_some_and(|e| e.contains("nnnn")),
        "{s:?}"
    );
    assert_eq!(s[1]["extracted"], reference().len());
    assert!(dir.path().join("out/resiliparse_warcfile.jsonl").exists());
}

#[test]
fn a_second_run_into_the_same_output_refuses_while_the_first_holds_it() {
    let dir = tempdir();
    let fifo = dir.path().join("x.warc.gz");
    mkfifo(&fifo);
    let out_dir = dir.path().join("out");
    let first = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
        .arg("extract")
        .arg(&fifo)
        .arg("-o")
        .arg(&out_dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    // Three copies of the sample (gzip members concatenate), then the first
    // run waits on the FIFO for the fourth while it writes x.jsonl.
    let sample = std::fs::read(shared(SAMPLE)).unwrap_or_else(|e| panic!("{e}"));
    let mut writer = std::fs::OpenOptions::new()
        .write(true)
        .open(&fifo)
        .unwrap_or_else(|e| panic!("{e}"));
    writer
        .write_all(&sample.repeat(3))
        .unwrap_or_else(|e| panic!("{e}"));
    let lock = out_dir.join(".x.jsonl.crawlsift.lock");
    let started = Instant::now();
    while !std::fs::read_to_string(&lock).is_ok_and(|t| t.contains("pid")) {
        assert!(started.elapsed() < Duration::from_secs(30), "no lock");
        std::thread::sleep(Duration::from_millis(5));
    }
    // The second: the same output, with other options.
    let second = crawlsift(&[
        fifo.as_os_str(),
        os("-o"),
        out_dir.as_os_str(),
        os("--algorithm"),
        os("plain"),
    ]);
    let err = stderr(&second);
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert!(
        err.contains("another crawlsift run")
            && err.contains(&format!("pid {}", first.id()))
            && err.contains(".x.jsonl.crawlsift.lock"),
        "{err}"
    );
    writer.write_all(&sample).unwrap_or_else(|e| panic!("{e}"));
    drop(writer);
    let first = first.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    assert!(first.status.success(), "{}", stderr(&first));
    let written = std::fs::read(out_dir.join("x.jsonl")).unwrap_or_default();
    let pages = jsonl(&written);
    let once = texts(&reference());
    let expected: Vec<_> = (0..4).flat_map(|_| once.clone()).collect();
    assert_eq!(texts(&pages), expected);
    assert!(pages.iter().all(|p| p["algorithm"] != "plain"));
    assert!(!lock.exists(), "the lock file goes with the run");
}

#[test]
fn another_input_with_the_same_output_name_is_refused_across_runs() {
    let dir = tempdir();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for d in [&a, &b] {
        std::fs::create_dir(d).unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::copy(shared(SAMPLE), a.join("x.warc.gz")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::copy(shared("pywb_iana.warc.gz"), b.join("x.warc.gz"))
        .unwrap_or_else(|e| panic!("{e}"));
    let out_dir = dir.path().join("out");
    let first = crawlsift(&[
        a.join("x.warc.gz").as_os_str(),
        os("-o"),
        out_dir.as_os_str(),
    ]);
    assert!(first.status.success(), "{}", stderr(&first));
    let kept = std::fs::read(out_dir.join("x.jsonl")).unwrap_or_default();
    let second = crawlsift(&[
        b.join("x.warc.gz").as_os_str(),
        os("-o"),
        out_dir.as_os_str(),
    ]);
    let err = stderr(&second);
    assert_eq!(second.status.code(), Some(1), "{err}");
    let canonical = std::fs::canonicalize(a.join("x.warc.gz")).unwrap_or_default();
    assert!(
        err.contains("written from another input")
            && err.contains(&canonical.display().to_string()),
        "{err}"
    );
    assert_eq!(
        std::fs::read(out_dir.join("x.jsonl")).unwrap_or_default(),
        kept
    );
    // The same file by another path is the same input: kept.
    let again = crawlsift(&[
        a.join("..").join("a").join("x.warc.gz").as_os_str(),
        os("-o"),
        out_dir.as_os_str(),
    ]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(stderr(&again).contains("skipping"), "{}", stderr(&again));
}

#[test]
fn a_resumed_run_reports_the_kept_outputs_accounting() {
    let dir = tempdir();
    let out_dir = dir.path().join("out");
    let (first_stats, second_stats) = (dir.path().join("1.json"), dir.path().join("2.json"));
    let run = |stats: &PathBuf| {
        crawlsift(&[
            shared(SAMPLE).as_os_str(),
            os("-o"),
            out_dir.as_os_str(),
            os("--stats"),
            stats.as_os_str(),
        ])
    };
    let first = run(&first_stats);
    assert!(first.status.success(), "{}", stderr(&first));
    let second = run(&second_stats);
    assert!(second.status.success(), "{}", stderr(&second));
    let (mut fresh, resumed) = (stats_of(&first_stats), stats_of(&second_stats));
    assert_eq!(resumed.len(), 1, "{resumed:?}");
    assert_eq!(resumed[0]["resumed"], true);
    fresh[0]["resumed"] = true.into();
    assert_eq!(resumed[0], fresh[0], "the whole accounting is kept");
    assert!(resumed[0]["read"].as_u64() > Some(0));
    let err = stderr(&second);
    assert!(err.contains("resumed, read"), "{err}");
    assert!(err.contains("(1 resumed)"), "{err}");
}

#[test]
fn an_unwritable_stats_path_fails_before_any_work() {
    let dir = tempdir();
    let out_dir = dir.path().join("out");
    let out = crawlsift(&[
        shared(SAMPLE).as_os_str(),
        os("-o"),
        out_dir.as_os_str(),
        os("--stats"),
        dir.path().join("missing/stats.json").as_os_str(),
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("cannot write statistics"),
        "{}",
        stderr(&out)
    );
    assert!(!out_dir.join("resiliparse_warcfile.jsonl").exists());
}

/// Only the outputs being written hold a lock (and a file descriptor): a
/// list of many more inputs than the process may open files runs.
#[test]
fn a_long_input_list_does_not_hold_a_lock_per_input() {
    let dir = tempdir();
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).unwrap_or_else(|e| panic!("{e}"));
    for i in 0..100 {
        std::os::unix::fs::symlink(
            shared("jwarc_cc.warc.gz"),
            inputs.join(format!("{i:03}.warc.gz")),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
    let out_dir = dir.path().join("out");
    let out = Command::new("bash")
        .arg("-c")
        .arg(r#"ulimit -n 48 && "$0" extract -q -j 2 "$1" -o "$2""#)
        .arg(env!("CARGO_BIN_EXE_crawlsift"))
        .arg(&inputs)
        .arg(&out_dir)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.status.success(), "{}", stderr(&out));
    let outputs = std::fs::read_dir(&out_dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".jsonl"))
        .count();
    assert_eq!(outputs, 100);
}
