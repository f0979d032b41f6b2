//! `crawlsift html` end to end on real pages of the shared datasets.

use std::io::Write;
use std::process::{Command, Stdio};

#[path = "../../../tests/support/shared.rs"]
mod support;

/// The scrapinghub page the tests read, and its gold text (TESTING.md);
/// a missing shared folder fails naming it.
const ID: &str = "042bb7b5fedab6eac7db576522b89b93904c237d344bcbe14a6a5ab7f7335856";

fn page() -> std::path::PathBuf {
    support::shared_path(
        env!("CARGO_MANIFEST_DIR"),
        &format!("datasets/scrapinghub/html/{ID}.html.gz"),
    )
}

fn gold() -> std::path::PathBuf {
    support::shared_path(
        env!("CARGO_MANIFEST_DIR"),
        &format!("datasets/scrapinghub/gold/{ID}.txt"),
    )
}

fn crawlsift() -> Command {
    Command::new(env!("CARGO_BIN_EXE_crawlsift"))
}

#[test]
fn json_output_of_a_gzipped_page() {
    let out = crawlsift()
        .args(["html", "--json", "--algorithm", "danag"])
        .arg(page())
        .output()
        .expect("run crawlsift");
    assert!(out.status.success());
    let page: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(page["algorithm"], "danag");
    assert_eq!(page["encoding"], "UTF-8");
    assert!(
        page["title"].as_str().is_some_and(|t| t.contains("Stadia")),
        "{}",
        page["title"]
    );
    let gold = std::fs::read_to_string(gold()).expect("gold");
    let first_sentence = gold.lines().next().expect("gold line");
    assert!(page["text"]
        .as_str()
        .is_some_and(|t| t.contains(first_sentence)));
    let (first, last) = (
        page["selected_lines"][0].as_u64(),
        page["selected_lines"][1].as_u64(),
    );
    assert!(first <= last && last < page["lines"].as_u64(), "{page}");
}

#[test]
fn stdin_and_unreadable_files() {
    let mut child = crawlsift()
        .args(["html", "-", "/no/such/page.html"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run crawlsift");
    let html =
        "<html><body><p>A paragraph of main text, long enough to be content.</p></body></html>";
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(html.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    // The readable input is extracted, the unreadable one named, and the exit code says so.
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        stdout.contains("==> - <==\nA paragraph of main text, long enough to be content.\n"),
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/page.html"));
}
