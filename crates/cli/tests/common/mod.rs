//! What the `crawlsift extract` test files share: the shared WARC samples
//! and running the command.
#![allow(dead_code)] // each test file uses some of these

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "../../../../tests/support/shared.rs"]
mod support;

/// A file of `../shared/warc`; panics naming the folder and TESTING.md
/// when it is missing.
pub fn shared(name: &str) -> PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), &format!("warc/{name}"))
}

/// `rel` under `../shared` (any of its folders); panics naming the folder
/// and TESTING.md when it is missing.
pub fn shared_data(rel: &str) -> PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), rel)
}

pub fn all_shared() -> Vec<PathBuf> {
    let dir = shared("");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.to_string_lossy().ends_with(".warc") || p.to_string_lossy().ends_with(".warc.gz")
        })
        .collect();
    files.sort();
    files
}

pub fn crawlsift(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crawlsift"))
        .arg("extract")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The standard output of `crawlsift ARGS` run in the repository's root
/// (where the README's relative paths hold); panics with its standard error
/// when it fails or writes no UTF-8.
pub fn stdout_of(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("not UTF-8: {e}"))
}

pub fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

pub fn jsonl(out: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"))
}

pub type WarcSeen = (String, Vec<(String, String)>, Vec<u8>);

/// (type, headers in file order, body) of each record, via the warc crate.
pub fn read_warc(path: &Path) -> Vec<WarcSeen> {
    let reader = warc::WarcReader::from_path_gzip(path).unwrap_or_else(|e| panic!("{e}"));
    let raw = std::fs::read(path).unwrap_or_default();
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(&raw[..])
        .read_to_string(&mut text)
        .unwrap_or_default();
    // Header order is not kept by the warc crate: take it from the text.
    let orders: Vec<Vec<String>> = text
        .split("WARC/1.0\r\n")
        .skip(1)
        .filter(|chunk| chunk.starts_with("WARC-Type:"))
        .map(|chunk| {
            chunk
                .split("\r\n\r\n")
                .next()
                .unwrap_or_default()
                .lines()
                .filter_map(|l| l.split(':').next())
                .map(String::from)
                .collect()
        })
        .collect();
    reader
        .iter_records()
        .zip(orders)
        .map(|(record, order)| {
            let record = record.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let headers = order
                .iter()
                .map(|name| {
                    let value = record
                        .header(warc::WarcHeader::from(name.as_str()))
                        .map(|v| v.into_owned())
                        .unwrap_or_default();
                    (name.clone(), value)
                })
                .collect();
            (
                record.warc_type().to_string(),
                headers,
                record.body().to_vec(),
            )
        })
        .collect()
}

pub fn header(record: &WarcSeen, name: &str) -> Option<String> {
    record
        .1
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.clone())
}
