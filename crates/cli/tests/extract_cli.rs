//! `crawlsift extract` end to end, on the real samples in ../shared/warc.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;

use common::*;

#[test]
fn jsonl_fields_for_the_common_crawl_capture() {
    let out = crawlsift(&[shared("cc_whirlwind.warc.gz").as_os_str(), os("--quiet")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pages = jsonl(&out.stdout);
    assert_eq!(pages.len(), 1);
    let p = &pages[0];
    assert_eq!(p["url"], "https://an.wikipedia.org/wiki/Escopete");
    assert_eq!(p["warc_filename"], "cc_whirlwind.warc.gz");
    assert_eq!(p["http_status"], 200);
    assert_eq!(p["algorithm"], "addanag-plus");
    assert!(p["warc_record_id"]
        .as_str()
        .is_some_and(|id| id.starts_with("<urn:uuid:")));
    // offset/length address the response's own gzip member.
    let bytes = std::fs::read(shared("cc_whirlwind.warc.gz")).unwrap_or_else(|e| panic!("{e}"));
    let (offset, length) = (
        p["offset"].as_u64().unwrap_or(0) as usize,
        p["length"].as_u64().unwrap_or(0) as usize,
    );
    let mut member = String::new();
    flate2::read::GzDecoder::new(&bytes[offset..offset + length])
        .read_to_string(&mut member)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(member.starts_with("WARC/1.0\r\n") && member.contains("WARC-Type: response"));
}

/// Same output whatever the number of workers, over every shared file.
#[test]
fn output_is_identical_for_one_and_two_workers() {
    let files = all_shared();
    let run = |j: &str| {
        let mut args: Vec<&std::ffi::OsStr> = files.iter().map(|f| f.as_os_str()).collect();
        args.extend([os("-j"), os(j), os("--quiet")]);
        crawlsift(&args)
    };
    let (one, two) = (run("1"), run("2"));
    assert!(
        one.status.success(),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    assert!(!one.stdout.is_empty());
    assert_eq!(one.stdout, two.stdout);
    // Pages come in input order.
    let names: Vec<String> = jsonl(&one.stdout)
        .iter()
        .map(|p| p["warc_filename"].as_str().unwrap_or_default().to_string())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}

/// Per-file accounting adds up, and agrees with the inventory where it can.
#[test]
fn stats_account_for_every_record() {
    let dir = tempdir();
    let stats_path = dir.path().join("stats.json");
    let files = all_shared();
    let mut args: Vec<&std::ffi::OsStr> = files.iter().map(|f| f.as_os_str()).collect();
    args.extend([os("--quiet"), os("--stats"), stats_path.as_os_str()]);
    let out = crawlsift(&args);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&stats_path).unwrap_or_else(|e| panic!("{e}"));
    let stats: Vec<serde_json::Value> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stats.len(), files.len());
    let sum = |v: &serde_json::Value| {
        v.as_object()
            .map(|m| m.values().filter_map(|n| n.as_u64()).sum::<u64>())
            .unwrap_or(0)
    };
    let by_name: BTreeMap<String, &serde_json::Value> = stats
        .iter()
        .map(|s| {
            (
                s["file"]
                    .as_str()
                    .unwrap_or_default()
                    .rsplit('/')
                    .next()
                    .unwrap_or_default()
                    .to_string(),
                s,
            )
        })
        .collect();
    for s in &stats {
        assert_eq!(
            s["read"].as_u64(),
            Some(s["extracted"].as_u64().unwrap_or(0) + sum(&s["skipped"]) + sum(&s["failed"])),
            "{s}"
        );
    }
    let cc = by_name["resiliparse_warcfile.warc.gz"];
    assert_eq!(
        (
            cc["read"].as_u64(),
            cc["extracted"].as_u64(),
            cc["skipped"]["request"].as_u64()
        ),
        (Some(50), Some(16), Some(17))
    );
    let clueweb = by_name["resiliparse_clueweb-quirk.warc.gz"];
    assert_eq!(clueweb["extracted"].as_u64(), Some(29));
    let clipped = by_name["resiliparse_clipped.warc.gz"];
    assert_eq!(clipped["failed"]["truncated"].as_u64(), Some(1));
    assert!(clipped["problems"][0]
        .as_str()
        .is_some_and(|p| p.contains("byte offset 0")));
    assert_eq!(
        by_name["pywb_iana.warc.gz"]["skipped"]["revisit"].as_u64(),
        Some(123)
    );
}

#[test]
fn clueweb_pages_carry_their_euc_jp_charset() {
    let out = crawlsift(&[
        shared("resiliparse_clueweb-quirk.warc.gz").as_os_str(),
        os("--quiet"),
    ]);
    let pages = jsonl(&out.stdout);
    assert_eq!(pages.len(), 29);
    assert!(pages.iter().all(|p| p["charset"]
        .as_str()
        .is_some_and(|c| c.eq_ignore_ascii_case("euc-jp"))));
}

/// WET output read back with the warc crate, and compared with the real
/// Common Crawl WET for the same capture.
#[test]
fn wet_output_reads_back_and_matches_common_crawl_layout() {
    let dir = tempdir();
    let out = crawlsift(&[
        shared("cc_whirlwind.warc.gz").as_os_str(),
        os("--format"),
        os("wet"),
        os("-o"),
        dir.path().as_os_str(),
        os("--quiet"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let wet = dir.path().join("cc_whirlwind.warc.wet.gz");
    let ours = read_warc(&wet);
    let cc = read_warc(&shared("cc_whirlwind.warc.wet.gz"));
    assert_eq!(
        ours.iter().map(|r| r.0.clone()).collect::<Vec<_>>(),
        ["warcinfo", "conversion"]
    );
    assert_eq!(
        cc.iter().map(|r| r.0.clone()).collect::<Vec<_>>(),
        ["warcinfo", "conversion"]
    );
    // Same target, date, referred response and language; header order as
    // Common Crawl's (minus its payload digest).
    let (ours_conv, cc_conv) = (&ours[1], &cc[1]);
    for name in [
        "WARC-Target-URI",
        "WARC-Date",
        "WARC-Refers-To",
        "WARC-Identified-Content-Language",
        "Content-Type",
    ] {
        assert_eq!(header(ours_conv, name), header(cc_conv, name), "{name}");
    }
    let cc_order: Vec<&str> = cc_conv
        .1
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| !n.contains("Payload"))
        .collect();
    let our_order: Vec<&str> = ours_conv.1.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(our_order, cc_order);
    // Block digest and length describe the UTF-8 body.
    use sha1::Digest;
    let digest = format!(
        "sha1:{}",
        data_encoding::BASE32.encode(&sha1::Sha1::digest(&ours_conv.2))
    );
    assert_eq!(header(ours_conv, "WARC-Block-Digest"), Some(digest));
    assert_eq!(
        header(ours_conv, "Content-Length"),
        Some(ours_conv.2.len().to_string())
    );
    // One gzip member per record.
    assert_eq!(gzip_members(&std::fs::read(&wet).unwrap_or_default()), 2);
}

fn gzip_members(bytes: &[u8]) -> usize {
    let mut rest = bytes;
    let mut members = 0;
    while !rest.is_empty() {
        let mut decoder = flate2::bufread::GzDecoder::new(rest);
        std::io::copy(&mut decoder, &mut std::io::sink()).unwrap_or_else(|e| panic!("{e}"));
        rest = decoder.into_inner();
        members += 1;
    }
    members
}

#[test]
fn text_format_and_compressed_jsonl() {
    let input = shared("resiliparse_warcfile.warc.gz");
    let plain = crawlsift(&[input.as_os_str(), os("--quiet")]);
    let text = crawlsift(&[input.as_os_str(), os("--quiet"), os("--format"), os("text")]);
    let pages = String::from_utf8_lossy(&text.stdout)
        .split("\n\x0c\n")
        .filter(|p| !p.is_empty())
        .count();
    assert_eq!(pages, 16);
    for (compress, decode) in [("gzip", gunzip as fn(&[u8]) -> Vec<u8>), ("zstd", unzstd)] {
        let out = crawlsift(&[
            input.as_os_str(),
            os("--quiet"),
            os("--compress"),
            os(compress),
        ]);
        assert_eq!(decode(&out.stdout), plain.stdout, "{compress}");
    }
}

fn gunzip(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(data)
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("{e}"));
    out
}

fn unzstd(data: &[u8]) -> Vec<u8> {
    zstd::decode_all(data).unwrap_or_else(|e| panic!("{e}"))
}

/// A killed run leaves a `.partial` file and missing outputs; the rerun skips
/// complete outputs (saying so) and redoes the rest, with the same result.
#[test]
fn rerun_resumes_after_interruption() {
    let dir = tempdir();
    let inputs = [
        shared("cc_whirlwind.warc.gz"),
        shared("dolma_sample-0000.warc.gz"),
    ];
    let run = || {
        let mut args: Vec<&std::ffi::OsStr> = inputs.iter().map(|f| f.as_os_str()).collect();
        args.extend([os("-o"), dir.path().as_os_str()]);
        crawlsift(&args)
    };
    let first = run();
    assert!(first.status.success());
    let done = dir.path().join("dolma_sample-0000.jsonl");
    let complete = std::fs::read(&done).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_file(&done).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        dir.path().join(".dolma_sample-0000.jsonl.partial"),
        &complete[..100],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let second = run();
    assert!(second.status.success());
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(
        stderr.contains("skipping") && stderr.contains("cc_whirlwind.jsonl"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("dolma_sample-0000.jsonl is complete"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&done).unwrap_or_default(), complete);
    assert!(!dir.path().join(".dolma_sample-0000.jsonl.partial").exists());
}

#[test]
fn unreadable_inputs_fail_the_run_and_are_named() {
    let dir = tempdir();
    let not_warc = dir.path().join("page.warc");
    std::fs::write(&not_warc, b"<html>hello</html>").unwrap_or_else(|e| panic!("{e}"));
    let missing = dir.path().join("missing.warc.gz");
    let out = crawlsift(&[
        shared("jwarc_cc.warc.gz").as_os_str(),
        missing.as_os_str(),
        not_warc.as_os_str(),
        os("--quiet"),
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("missing.warc.gz") && stderr.contains("page.warc: not a WARC file"),
        "{stderr}"
    );
    assert_eq!(
        jsonl(&out.stdout).len(),
        1,
        "the readable input is still extracted"
    );
}

/// Crafted records: binary bytes labelled text/html are skipped, a page
/// with a stray NUL is not; a record over --max-record-bytes is skipped as
/// too_large.
#[test]
fn crafted_records_are_classified() {
    let dir = tempdir();
    let path = dir.path().join("crafted.warc");
    let record = |ct: &str, body: &[u8]| {
        let head = format!("WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://x/\r\nContent-Type: {ct}\r\nContent-Length: {}\r\n\r\n", body.len());
        [head.as_bytes(), body, b"\r\n\r\n"].concat()
    };
    let data = [
        record("text/html", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR binary"),
        record("text/html", b"<html><body>nul\0byte</body></html>"),
        record("text/html", b"<html><body>fine</body></html>"),
        record("image/png", b"\x89PNG"),
    ]
    .concat();
    std::fs::write(&path, data).unwrap_or_else(|e| panic!("{e}"));
    let stats = dir.path().join("stats.json");
    let out = crawlsift(&[
        path.as_os_str(),
        os("--quiet"),
        os("--stats"),
        stats.as_os_str(),
    ]);
    assert!(out.status.success());
    assert_eq!(jsonl(&out.stdout).len(), 2);
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&stats).unwrap_or_default()).unwrap_or_default();
    assert_eq!(s[0]["skipped"]["binary"].as_u64(), Some(1));
    assert_eq!(s[0]["skipped"]["not_html"].as_u64(), Some(1));
    let small = crawlsift(&[
        path.as_os_str(),
        os("--quiet"),
        os("--stats"),
        stats.as_os_str(),
        os("--max-record-bytes"),
        os("10"),
    ]);
    assert!(small.status.success() && small.stdout.is_empty());
    let s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&stats).unwrap_or_default()).unwrap_or_default();
    assert_eq!(s[0]["skipped"]["too_large"].as_u64(), Some(3));
}

#[test]
fn stdin_gives_the_same_pages() {
    let input = shared("dolma_sample-0001.warc.gz");
    let from_file = crawlsift(&[input.as_os_str(), os("--quiet")]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
        .args(["extract", "-", "--quiet"])
        .stdin(std::fs::File::open(&input).unwrap_or_else(|e| panic!("{e}")))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut stdout = Vec::new();
    child.stdout.take().map(|mut s| s.read_to_end(&mut stdout));
    assert!(child.wait().is_ok_and(|s| s.success()));
    let strip = |pages: Vec<serde_json::Value>| -> Vec<(serde_json::Value, serde_json::Value, serde_json::Value)> {
        pages.into_iter().map(|p| (p["url"].clone(), p["offset"].clone(), p["text"].clone())).collect()
    };
    assert_eq!(strip(jsonl(&stdout)), strip(jsonl(&from_file.stdout)));
    assert_eq!(jsonl(&stdout).len(), 15);
}

/// `--paths` takes a (gzipped) list of inputs, like Common Crawl's warc.paths.gz.
#[test]
fn paths_file_lists_inputs() {
    let dir = tempdir();
    let inputs = [shared("cc_whirlwind.warc.gz"), shared("jwarc_cc.warc.gz")];
    let list = dir.path().join("warc.paths.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    for input in &inputs {
        std::io::Write::write_all(&mut gz, format!("{}\n\n", input.display()).as_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(&list, gz.finish().unwrap_or_default()).unwrap_or_else(|e| panic!("{e}"));
    let listed = crawlsift(&[os("--paths"), list.as_os_str(), os("--quiet")]);
    let direct = crawlsift(&[inputs[0].as_os_str(), inputs[1].as_os_str(), os("--quiet")]);
    assert!(listed.status.success());
    assert_eq!(jsonl(&listed.stdout).len(), 2);
    assert_eq!(listed.stdout, direct.stdout);
}

/// Runs `crawlsift extract INPUT -o DIR EXTRA…`; returns (stderr, output bytes).
fn run_into(input: &Path, dir: &Path, extra: &[&str], output: &str) -> (String, Vec<u8>) {
    let mut args: Vec<&std::ffi::OsStr> = vec![input.as_os_str(), os("-o"), dir.as_os_str()];
    args.extend(extra.iter().map(|a| os(a)));
    let out = crawlsift(&args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    (stderr, std::fs::read(dir.join(output)).unwrap_or_default())
}

/// An output is kept only if a run with the same options finished it.
#[test]
fn resume_keeps_only_outputs_finished_with_the_same_options() {
    for (format, output) in [
        ("jsonl", "dolma_sample-0001.jsonl"),
        ("parquet", "dolma_sample-0001.parquet"),
    ] {
        let dir = tempdir();
        let input = shared("dolma_sample-0001.warc.gz");
        let f = ["--format", format];
        let (_, plain) = run_into(
            &input,
            dir.path(),
            &[&f[..], &["--algorithm", "plain"]].concat(),
            output,
        );
        // Another algorithm: redone, saying why.
        let (stderr, default) = run_into(&input, dir.path(), &f, output);
        assert!(
            stderr.contains("redoing") && stderr.contains("--algorithm plain"),
            "{format}: {stderr}"
        );
        assert_ne!(plain, default, "{format}: the output was rewritten");
        // Same options: kept.
        let (stderr, again) = run_into(&input, dir.path(), &f, output);
        assert!(
            stderr.contains("skipping") && !stderr.contains("redoing"),
            "{format}: {stderr}"
        );
        assert_eq!(again, default);
        // --force: redone although complete.
        let (stderr, _) = run_into(&input, dir.path(), &[&f[..], &["--force"]].concat(), output);
        assert!(
            stderr.contains("redoing") && stderr.contains("--force"),
            "{format}: {stderr}"
        );
        assert!(!stderr.contains("skipping"), "{format}: {stderr}");
        // An empty file where the output goes (no record of a finished run): redone.
        std::fs::write(dir.path().join(output), b"").unwrap_or_else(|e| panic!("{e}"));
        let (stderr, redone) = run_into(&input, dir.path(), &f, output);
        assert!(
            stderr.contains("redoing") && stderr.contains("0 bytes"),
            "{format}: {stderr}"
        );
        assert_eq!(redone.len(), default.len(), "{format}");
        // A foreign file without a record: redone.
        let foreign = dir.path().join(output);
        let record = dir.path().join(format!(".{output}.crawlsift.json"));
        assert!(record.exists());
        std::fs::remove_file(&record).unwrap_or_else(|e| panic!("{e}"));
        let (stderr, _) = run_into(&input, dir.path(), &f, output);
        assert!(
            stderr.contains("redoing") && stderr.contains("missing"),
            "{format}: {stderr}"
        );
        assert!(foreign.exists() && record.exists());
    }
}

/// stdin is never taken as done: a second, different stream is extracted.
#[test]
fn stdin_with_an_output_directory_is_read_every_time() {
    let dir = tempdir();
    let run = |input: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
            .args(["extract", "-", "--quiet", "-o"])
            .arg(dir.path())
            .stdin(std::fs::File::open(input).unwrap_or_else(|e| panic!("{e}")))
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let pages = jsonl(&std::fs::read(dir.path().join("stdin.jsonl")).unwrap_or_default());
        pages
            .iter()
            .map(|p| p["url"].as_str().unwrap_or_default().to_string())
            .collect::<Vec<_>>()
    };
    let first = run(&shared("cc_whirlwind.warc.gz"));
    let second = run(&shared("jwarc_cc.warc.gz"));
    let direct: Vec<String> =
        jsonl(&crawlsift(&[shared("jwarc_cc.warc.gz").as_os_str(), os("--quiet")]).stdout)
            .iter()
            .map(|p| p["url"].as_str().unwrap_or_default().to_string())
            .collect();
    assert_eq!(first.len(), 1);
    assert_ne!(first, second);
    assert_eq!(second, direct);
}

/// A WARC `response` record holding an HTTP 200 with this Content-Type and body.
fn response(uri: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
    let http = [
        format!("HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n\r\n").as_bytes(),
        body,
    ]
    .concat();
    let head = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        http.len()
    );
    [head.as_bytes(), &http, b"\r\n\r\n"].concat()
}

/// A page whose main text is `paragraph` several times.
fn article(paragraph: &str) -> String {
    let body = format!("<p>{paragraph}</p>\n").repeat(6);
    format!("<!DOCTYPE html><html><head><title>Titel</title></head><body><nav><a href=/>Home</a></nav><article>{body}</article></body></html>")
}

/// Runs `crawlsift extract` on one crafted WARC; its pages by URL, and its stats.
fn extract_crafted(records: &[Vec<u8>]) -> (Vec<serde_json::Value>, serde_json::Value) {
    let dir = tempdir();
    let path = dir.path().join("crafted.warc");
    std::fs::write(&path, records.concat()).unwrap_or_else(|e| panic!("{e}"));
    let stats = dir.path().join("stats.json");
    let out = crawlsift(&[
        path.as_os_str(),
        os("--quiet"),
        os("--stats"),
        stats.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stats: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&stats).unwrap_or_default()).unwrap_or_default();
    (jsonl(&out.stdout), stats)
}

/// Issue 23: UTF-8 declared in HTTP and `<meta>` with one bad byte came out
/// as windows-1252 mojibake ("Titel Ã¤Ã¶Ã¼").
#[test]
fn declared_utf8_page_with_a_bad_byte_stays_utf8() {
    let mut page = article("Grüße aus Köln, schöne Äpfel und Öl für Übermut")
        .replace("<head>", "<head><meta charset=\"utf-8\">")
        .into_bytes();
    let bad = page.windows(4).position(|w| w == b"</p>").unwrap_or(0);
    page.insert(bad, 0xE4); // a windows-1252 "ä" pasted into UTF-8
    let (pages, _) = extract_crafted(&[response(
        "http://example.com/de",
        "text/html; charset=UTF-8",
        &page,
    )]);
    assert_eq!(pages.len(), 1);
    let text = pages[0]["text"].as_str().unwrap_or_default();
    assert_eq!(pages[0]["charset"], "UTF-8");
    assert!(text.contains("Grüße aus Köln"), "{text}");
    assert!(text.contains("Übermut\u{fffd}"), "{text}");
    assert!(!text.contains("Ã"), "{text}");
}

/// Issue 23: UTF-16 pages with a BOM, and pages with a stray NUL, were
/// skipped as binary; real binary labelled HTML still is.
#[test]
fn utf16_and_stray_nul_pages_are_extracted() {
    let text = "Unicode text in sixteen bits: 中文 and Ελληνικά, read as the page says";
    let html = article(text);
    let utf16le: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(html.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let utf16be: Vec<u8> = [0xFE, 0xFF]
        .into_iter()
        .chain(html.encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    let mut nul =
        article("A page with one stray NUL byte in its head, text otherwise").into_bytes();
    nul.insert(20, 0);
    let png: Vec<u8> = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"
        .iter()
        .copied()
        .chain((0..2000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8))
        .collect();
    let (pages, stats) = extract_crafted(&[
        response("http://example.com/le", "text/html", &utf16le),
        response("http://example.com/be", "", &utf16be),
        response("http://example.com/nul", "text/html; charset=utf-8", &nul),
        response("http://example.com/png", "text/html", &png),
    ]);
    let by_url: BTreeMap<&str, &serde_json::Value> = pages
        .iter()
        .map(|p| (p["url"].as_str().unwrap_or_default(), p))
        .collect();
    assert_eq!(by_url.len(), 3, "{pages:?}");
    for (url, charset) in [
        ("http://example.com/le", "UTF-16LE"),
        ("http://example.com/be", "UTF-16BE"),
    ] {
        let page = by_url.get(url).unwrap_or_else(|| panic!("{url} missing"));
        assert_eq!(page["charset"], charset);
        assert!(
            page["text"].as_str().is_some_and(|t| t.contains(text)),
            "{page}"
        );
    }
    let page = by_url
        .get("http://example.com/nul")
        .unwrap_or_else(|| panic!("nul missing"));
    assert!(page["text"]
        .as_str()
        .is_some_and(|t| t.contains("one stray NUL byte")));
    assert_eq!(stats[0]["skipped"]["binary"].as_u64(), Some(1));
    assert_eq!(stats[0]["read"].as_u64(), Some(4));
}

/// Many crafted pages: more JSONL than a pipe and crawlsift's output buffer hold.
fn many_pages(dir: &Path) -> PathBuf {
    let path = dir.join("many.warc");
    let page = article("Enough text to make the output of this run several megabytes long, so that it cannot all sit in buffers.");
    let records: Vec<Vec<u8>> = (0..4000)
        .map(|i| {
            response(
                &format!("http://example.com/{i}"),
                "text/html",
                page.as_bytes(),
            )
        })
        .collect();
    std::fs::write(&path, records.concat()).unwrap_or_else(|e| panic!("{e}"));
    path
}

/// Issue 23: `crawlsift extract … | head` said "Broken pipe" and exited 2.
#[test]
fn closed_stdout_ends_quietly_with_success() {
    let dir = tempdir();
    let input = many_pages(dir.path());
    for args in [&["extract"][..], &["extract", "--format", "text"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
            .args(args)
            .arg(&input)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        let mut first = [0u8; 4096];
        let mut stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
        stdout
            .read_exact(&mut first)
            .unwrap_or_else(|e| panic!("{e}"));
        drop(stdout); // as `head` does once it has its lines
        let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{:?}: {}", out.status, stderr);
        assert!(stderr.is_empty(), "{stderr}");
    }
}

/// Issue 23: a run that read next to nothing reported an absurd MB/s.
#[test]
fn no_rate_for_a_run_that_read_next_to_nothing() {
    let dir = tempdir();
    let path = dir.path().join("one.warc");
    let page = article("One small page");
    std::fs::write(
        &path,
        response("http://example.com/", "text/html", page.as_bytes()),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out = crawlsift(&[path.as_os_str()]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("total: 1 files") && stderr.contains("extracted 1"),
        "{stderr}"
    );
    assert!(!stderr.contains("MB/s"), "{stderr}");
}

/// Issue 20: a directory stands for its WARC files, sorted by name; one
/// without any is an error naming it, with no summary before it.
#[test]
fn directory_inputs_read_their_warc_files() {
    let dir = tempdir();
    let warcs = dir.path().join("crawl");
    std::fs::create_dir_all(warcs.join("sub")).unwrap_or_else(|e| panic!("{e}"));
    for name in [
        "jwarc_cc.warc.gz",
        "cc_whirlwind.warc.gz",
        "warcio_example-digest.warc",
    ] {
        std::fs::copy(shared(name), warcs.join(name)).unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::copy(
        shared("cc_whirlwind.warc.gz"),
        warcs.join("sub/nested.warc.gz"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(warcs.join("notes.txt"), "not a WARC").unwrap_or_else(|e| panic!("{e}"));
    let from_dir = crawlsift(&[warcs.as_os_str()]);
    let stderr = String::from_utf8_lossy(&from_dir.stderr);
    assert!(from_dir.status.success(), "{stderr}");
    assert!(stderr.contains("total: 3 files"), "{stderr}");
    let sorted = [
        "cc_whirlwind.warc.gz",
        "jwarc_cc.warc.gz",
        "warcio_example-digest.warc",
    ]
    .map(|name| warcs.join(name));
    let mut args: Vec<&std::ffi::OsStr> = sorted.iter().map(|p| p.as_os_str()).collect();
    args.push(os("--quiet"));
    let listed = crawlsift(&args);
    assert!(!listed.stdout.is_empty());
    assert_eq!(from_dir.stdout, listed.stdout);

    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(empty.join("readme.md"), "no WARC here").unwrap_or_else(|e| panic!("{e}"));
    let out = crawlsift(&[shared("jwarc_cc.warc.gz").as_os_str(), empty.as_os_str()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && out.stdout.is_empty(), "{stderr}");
    assert!(
        stderr.contains(&format!("{} holds no WARC files", empty.display())),
        "{stderr}"
    );
    assert!(
        !stderr.contains("total:") && !stderr.contains("read 0"),
        "{stderr}"
    );
}
