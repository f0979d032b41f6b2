//! Recovery from damaged WARC input, on files crafted here: a record cut
//! short and followed by good ones, junk between records, a Content-Length
//! far above the cap, as `.warc`, `.warc.gz` (one member per record), and
//! streams (what `crawlsift extract -` reads). Every record the input holds is
//! read, every damaged stretch is reported once, and the split gzip reader
//! agrees with the sequential one.

use crawlsift::warc::{ProblemKind, Split, WarcReader};
use flate2::write::GzEncoder;
use std::io::Write;
use std::path::Path;

#[path = "../../../tests/support/shared.rs"]
mod support;

/// A `resource` record holding a small HTML page, with the right Content-Length.
fn page(i: usize) -> Vec<u8> {
    let body = format!(
        "<html><head><title>Page {i}</title></head><body><p>This is page number {i}, with a sentence or two of text.</p></body></html>"
    );
    record(i, body.as_bytes(), body.len())
}

/// A record whose header claims `content_length` for `body` (no trailer).
fn head(i: usize, content_length: usize) -> Vec<u8> {
    format!(
        "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://example.com/{i}\r\nWARC-Record-ID: <urn:uuid:{i:08}-0000-0000-0000-000000000000>\r\nContent-Type: text/html\r\nContent-Length: {content_length}\r\n\r\n"
    )
    .into_bytes()
}

fn record(i: usize, body: &[u8], content_length: usize) -> Vec<u8> {
    [&head(i, content_length)[..], body, b"\r\n\r\n"].concat()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(data).unwrap_or_else(|e| panic!("{e}"));
    gz.finish().unwrap_or_else(|e| panic!("{e}"))
}

/// What a reader saw: the URIs of the records (in order) and the problems.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    uris: Vec<String>,
    /// Records returned over the cap (block not buffered).
    oversized: Vec<String>,
    problems: Vec<(u64, u64, ProblemKind)>,
}

fn drain(mut reader: WarcReader) -> Seen {
    let mut seen = Seen::default();
    while let Some(item) = reader.next() {
        match item {
            Ok(r) => {
                let uri = r.headers.target_uri().unwrap_or_default().into_owned();
                if r.oversized() {
                    seen.oversized.push(uri.clone());
                }
                seen.uris.push(uri);
            }
            Err(p) => {
                assert!(p.to_string().contains("byte offset"), "{p}");
                seen.problems.push((p.number, p.offset, p.kind));
            }
        }
    }
    seen
}

/// Reads `data` as a file (map or gzip members, and split in parts of a few
/// bytes for gzip) and as a stream; all must agree; returns what they saw.
fn read_everywhere(data: &[u8], name: &str, cap: u64) -> Seen {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join(name);
    std::fs::write(&path, data).unwrap_or_else(|e| panic!("{e}"));
    let from_file = drain(WarcReader::open(&path, cap).unwrap_or_else(|e| panic!("{e}")));
    let stream = WarcReader::from_stream(
        name.into(),
        std::io::BufReader::with_capacity(1000, std::io::Cursor::new(data.to_vec())),
        cap,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let from_stream = drain(stream);
    assert_eq!(
        from_file.problems, from_stream.problems,
        "{name}: file and stream differ"
    );
    assert_eq!(from_file, from_stream, "{name}: file and stream differ");
    if name.ends_with(".gz") {
        // Parts of a few bytes put part boundaries everywhere, but cost a
        // thread handover each: only on small inputs.
        let parts = if data.len() < 50_000 {
            [7, 500]
        } else {
            [997, 30_000]
        };
        for part in parts {
            let split = Split {
                threads: 2,
                min_file_bytes: 0,
                max_part_bytes: part,
            };
            let reader =
                WarcReader::open_split(&path, cap, split).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                drain(reader),
                from_file,
                "{name}: split in parts of {part} bytes"
            );
        }
    }
    from_file
}

fn uris(range: impl IntoIterator<Item = usize>) -> Vec<String> {
    range
        .into_iter()
        .map(|i| format!("http://example.com/{i}"))
        .collect()
}

/// Record 2 of 5 is cut short (a crawler crashed mid-write) and the next
/// records are appended right after its last byte: records 1, 3, 4, 5 are
/// read, record 2 is reported once, at its offset.
#[test]
fn a_record_cut_short_does_not_hide_the_next_one() {
    let pages: Vec<Vec<u8>> = (1..=5).map(page).collect();
    let full = &pages[1];
    let cut = &full[..full.len() * 2 / 3];
    // The cut lands at every kind of place: inside the header's successor
    // record, near a record end, far beyond.
    let plain = [&pages[0][..], cut, &pages[2], &pages[3], &pages[4]].concat();
    let seen = read_everywhere(&plain, "cut.warc", 1 << 20);
    assert_eq!(seen.uris, uris([1, 3, 4, 5]), "{seen:?}");
    assert_eq!(seen.problems.len(), 1, "{seen:?}");
    assert_eq!(
        (seen.problems[0].0, seen.problems[0].1),
        (2, pages[0].len() as u64)
    );

    // gzip: the cut record's member is cut too (the writer died mid-member).
    let members: Vec<Vec<u8>> = pages.iter().map(|p| gzip(p)).collect();
    let cut_member = &members[1][..members[1].len() / 2];
    let gz = [
        &members[0][..],
        cut_member,
        &members[2],
        &members[3],
        &members[4],
    ]
    .concat();
    let seen = read_everywhere(&gz, "cut.warc.gz", 1 << 20);
    assert_eq!(seen.uris, uris([1, 3, 4, 5]), "{seen:?}");
    assert_eq!(seen.problems.len(), 1, "{seen:?}");
    assert_eq!(
        (seen.problems[0].0, seen.problems[0].1),
        (2, members[0].len() as u64)
    );

    // gzip: the cut record's member is whole, but holds a record cut short
    // whose Content-Length runs into the next members.
    let whole_cut_member = gzip(cut);
    let gz = [
        &members[0][..],
        &whole_cut_member,
        &members[2],
        &members[3],
        &members[4],
    ]
    .concat();
    let seen = read_everywhere(&gz, "cut-member.warc.gz", 1 << 20);
    assert_eq!(seen.uris, uris([1, 3, 4, 5]), "{seen:?}");
    assert_eq!(seen.problems.len(), 1, "{seen:?}");
    assert_eq!(
        (seen.problems[0].0, seen.problems[0].1, seen.problems[0].2),
        (2, members[0].len() as u64, ProblemKind::BadContentLength)
    );
}

/// Where the cut falls must not matter, in the header or the block: any
/// length of the surviving part gives the same three records and one problem.
#[test]
fn every_cut_point_recovers_every_following_record() {
    let pages: Vec<Vec<u8>> = (1..=4).map(page).collect();
    // Cut in the version line, in a header line, in the blank line, in the block.
    for keep in (1..pages[1].len() - 4).step_by(3) {
        let cut = &pages[1][..keep];
        let plain = [&pages[0][..], cut, &pages[2], &pages[3]].concat();
        let seen = read_everywhere(&plain, "cut.warc", 1 << 20);
        assert_eq!(
            seen.uris,
            uris([1, 3, 4]),
            "cut after {keep} bytes: {seen:?}"
        );
        assert_eq!(seen.problems.len(), 1, "cut after {keep} bytes: {seen:?}");
    }
}

/// Junk between records, at a line start and in the middle of a line (a
/// `WARC/` that starts no valid header inside it too): every record is
/// read, each junk stretch is one problem at its offset.
#[test]
fn junk_between_records_is_one_problem_per_stretch() {
    let pages: Vec<Vec<u8>> = (1..=3).map(page).collect();
    let junk1 = b"this is not a record\r\nnor is this\r\n".to_vec();
    let junk2 = b"garbage WARC/ without a version WARC/1.0 but no header; more garbage ".to_vec();
    let data = [&pages[0][..], &junk1, &pages[1], &junk2, &pages[2]].concat();
    let seen = read_everywhere(&data, "junk.warc", 1 << 20);
    assert_eq!(seen.uris, uris([1, 2, 3]), "{seen:?}");
    let at1 = pages[0].len() as u64;
    let at2 = at1 + (junk1.len() + pages[1].len()) as u64;
    assert_eq!(
        seen.problems,
        vec![
            (2, at1, ProblemKind::NotWarc),
            (4, at2, ProblemKind::NotWarc)
        ]
    );

    // The same in gzip: junk inside a member, and junk bytes between members.
    let gz = [
        gzip(&[&pages[0][..], &junk1].concat()),
        gzip(&pages[1]),
        b"\x00junk between members\x1f\x8b\x08 a false gzip magic".to_vec(),
        gzip(&pages[2]),
    ];
    let seen = read_everywhere(&gz.concat(), "junk.warc.gz", 1 << 20);
    assert_eq!(seen.uris, uris([1, 2, 3]), "{seen:?}");
    let kinds: Vec<ProblemKind> = seen.problems.iter().map(|p| p.2).collect();
    assert_eq!(kinds, vec![ProblemKind::NotWarc, ProblemKind::CorruptGzip]);
    assert_eq!(seen.problems[1].1, (gz[0].len() + gz[1].len()) as u64);
}

/// A Content-Length far above the cap on a short record: the records after
/// it are all read (in gzip, each is its own member), the liar is reported;
/// a record that really is over the cap is still skipped unbuffered.
#[test]
fn a_content_length_above_the_cap_swallows_nothing() {
    let cap = 1024;
    let n = 3000;
    let liar = record(0, b"<html><body>short</body></html>", 20 << 20);
    let big_body = vec![b'x'; 2000];
    let big = record(1, &big_body, big_body.len());
    let tiny: Vec<Vec<u8>> = (2..n + 2).map(page).collect();
    let mut plain = [&liar[..], &big].concat();
    let mut gz = [gzip(&liar), gzip(&big)].concat();
    for t in &tiny {
        plain.extend_from_slice(t);
        gz.extend_from_slice(&gzip(t));
    }
    for (data, name) in [(plain, "liar.warc"), (gz, "liar.warc.gz")] {
        let seen = read_everywhere(&data, name, cap);
        assert_eq!(seen.uris, uris(1..n + 2), "{name}");
        assert_eq!(seen.oversized, uris([1]), "{name}");
        assert_eq!(seen.problems.len(), 1, "{name}: {:?}", seen.problems);
        assert_eq!(
            (seen.problems[0].0, seen.problems[0].1, seen.problems[0].2),
            (1, 0, ProblemKind::BadContentLength),
            "{name}"
        );
    }
}

/// A stream (stdin) that is cut in the middle of a gzip member which a
/// later member follows: the read resumes at that member.
#[test]
fn a_truncated_gzip_member_in_a_stream_resumes_at_the_next_member() {
    let pages: Vec<Vec<u8>> = (1..=3).map(page).collect();
    let members: Vec<Vec<u8>> = pages.iter().map(|p| gzip(p)).collect();
    // Truncated at several places of the middle member.
    for cut in [11, members[1].len() / 3, members[1].len() - 9] {
        let gz = [&members[0][..], &members[1][..cut], &members[2]].concat();
        let seen = read_everywhere(&gz, "trunc.warc.gz", 1 << 20);
        assert_eq!(seen.uris, uris([1, 3]), "cut at {cut}: {seen:?}");
        assert_eq!(seen.problems.len(), 1, "cut at {cut}: {seen:?}");
        assert_eq!(seen.problems[0].1, members[0].len() as u64);
    }
}

// ---- The same cases end to end: `crawlsift extract` accounts for every record.

fn crawlsift(args: &[&std::ffi::OsStr], stdin: Option<&Path>) -> std::process::Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_crawlsift"));
    command.arg("extract").args(args);
    if let Some(input) = stdin {
        command.stdin(std::fs::File::open(input).unwrap_or_else(|e| panic!("{e}")));
    }
    command.output().unwrap_or_else(|e| panic!("{e}"))
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

fn sum(v: &serde_json::Value) -> u64 {
    v.as_object()
        .map(|m| m.values().filter_map(|n| n.as_u64()).sum())
        .unwrap_or(0)
}

/// Runs `crawlsift extract` on `path` (or on stdin with its bytes), returns the
/// stats of the one input and stderr; asserts the accounting adds up.
fn extract_stats(path: &Path, cap: u64, stdin: bool) -> (serde_json::Value, String) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let stats = dir.path().join("stats.json");
    let cap = cap.to_string();
    let input = if stdin { os("-") } else { path.as_os_str() };
    let args = [
        input,
        os("--quiet"),
        os("-j"),
        os("2"),
        os("--max-record-bytes"),
        os(&cap),
        os("--stats"),
        stats.as_os_str(),
    ];
    let out = crawlsift(&args, stdin.then_some(path));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let all: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&stats).unwrap_or_default()).unwrap_or_default();
    let s = all[0].clone();
    let read = s["read"].as_u64().unwrap_or(0);
    let parts = s["extracted"].as_u64().unwrap_or(0) + sum(&s["skipped"]) + sum(&s["failed"]);
    assert_eq!(read, parts, "{}: {s}", path.display());
    let pages = String::from_utf8_lossy(&out.stdout).lines().count() as u64;
    assert_eq!(s["extracted"].as_u64(), Some(pages), "{s}");
    (s, stderr)
}

/// The crafted damage of the tests above, through the CLI from a file and
/// from stdin: read = extracted + skipped + failed, every page extracted,
/// each damaged stretch counted once.
#[test]
fn extract_counts_every_record_of_damaged_inputs() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let pages: Vec<Vec<u8>> = (1..=5).map(page).collect();
    let cut = &pages[1][..pages[1].len() * 2 / 3];
    let members: Vec<Vec<u8>> = pages.iter().map(|p| gzip(p)).collect();
    let junk = b"junk junk WARC/1.0 junk\r\n".to_vec();
    let liar = record(0, b"<html><body>short</body></html>", 20 << 20);
    let mut liar_gz = gzip(&liar);
    for p in &pages {
        liar_gz.extend_from_slice(&gzip(p));
    }
    // (name, bytes, pages extracted, failed)
    let cases: Vec<(&str, Vec<u8>, u64, u64)> = vec![
        (
            "cut.warc",
            [&pages[0][..], cut, &pages[2], &pages[3], &pages[4]].concat(),
            4,
            1,
        ),
        (
            "cut.warc.gz",
            [
                &members[0][..],
                &members[1][..members[1].len() / 2],
                &members[2],
                &members[3],
                &members[4],
            ]
            .concat(),
            4,
            1,
        ),
        (
            "junk.warc",
            [&pages[0][..], &junk, &pages[1], &junk, &pages[2]].concat(),
            3,
            2,
        ),
        ("liar.warc.gz", liar_gz, 5, 1),
    ];
    for (name, bytes, extracted, failed) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        for stdin in [false, true] {
            let (s, _) = extract_stats(&path, 1024, stdin);
            assert_eq!(
                (
                    s["read"].as_u64(),
                    s["extracted"].as_u64(),
                    sum(&s["failed"])
                ),
                (Some(extracted + failed), Some(extracted), failed),
                "{name} (stdin: {stdin}): {s}"
            );
        }
    }
}

/// An HTTP body whose gzip Content-Encoding inflates past the cap is
/// skipped as too_large with a warning naming the record, never cut; so is
/// a record whose block is over the cap.
#[test]
fn over_the_cap_means_skipped_with_a_warning() {
    let html = format!(
        "<html><body><p>{}</p></body></html>",
        "all work and no play ".repeat(400)
    );
    let compressed = gzip(html.as_bytes());
    let cap = 2000;
    assert!(compressed.len() < cap / 2 && html.len() > cap);
    let http = [
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n", compressed.len()).as_bytes(),
        &compressed,
    ]
    .concat();
    let response = [
        format!("WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/bomb\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n", http.len()).as_bytes(),
        &http,
        b"\r\n\r\n",
    ]
    .concat();
    let big = record(9, &vec![b'x'; cap + 1], cap + 1);
    let data = [page(1), response, page(2), big, page(3)].concat();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("caps.warc");
    std::fs::write(&path, data).unwrap_or_else(|e| panic!("{e}"));
    let (s, stderr) = extract_stats(&path, cap as u64, false);
    assert_eq!(
        (
            s["read"].as_u64(),
            s["extracted"].as_u64(),
            s["skipped"]["too_large"].as_u64()
        ),
        (Some(5), Some(3), Some(2)),
        "{s}"
    );
    for (number, uri) in [(2, "http://example.com/bomb"), (4, "http://example.com/9")] {
        assert!(
            stderr.lines().any(|l| l.contains("warning")
                && l.contains(&format!("record {number} "))
                && l.contains(uri)
                && l.contains("max-record-bytes")),
            "no warning for record {number}: {stderr}"
        );
    }
}

/// Over every real file in ../shared/warc: the counts add up, and where the
/// `warc` crate (an independent reader) reads a file without error, it
/// finds as many records as were read and nothing failed.
#[test]
fn extract_accounting_over_every_shared_file_matches_the_warc_crate() {
    let shared = support::shared_path(env!("CARGO_MANIFEST_DIR"), "warc");
    let mut files: Vec<_> = std::fs::read_dir(&shared)
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(".warc") || name.ends_with(".warc.gz")
        })
        .collect();
    files.sort();
    let mut compared = 0;
    for path in &files {
        let (s, _) = extract_stats(path, 16 << 20, false);
        let gz = path.to_string_lossy().ends_with(".gz");
        let oracle = if gz {
            warc::WarcReader::from_path_gzip(path).map(|r| r.iter_records().collect::<Vec<_>>())
        } else {
            warc::WarcReader::from_path(path).map(|r| r.iter_records().collect::<Vec<_>>())
        };
        if let Ok(records) = oracle {
            if records.iter().all(|r| r.is_ok()) && !records.is_empty() {
                compared += 1;
                assert_eq!(
                    s["read"].as_u64(),
                    Some(records.len() as u64),
                    "{}: {s}",
                    path.display()
                );
                assert_eq!(sum(&s["failed"]), 0, "{}: {s}", path.display());
            }
        }
    }
    assert!(compared >= 10, "the warc crate read only {compared} files");
}
