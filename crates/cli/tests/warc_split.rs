//! The split (multi-threaded) reader gives exactly what the sequential one
//! gives: on every shared file, on a multi-member file built from real
//! records, damaged and undamaged, with part boundaries inside members, and
//! on the same records as a `.warc.zst` of one frame per record.

use crawlsift::warc::{Split, WarcReader};
use flate2::write::GzEncoder;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../../tests/support/shared.rs"]
mod support;

/// A file of the shared WARC samples (TESTING.md); a missing folder fails naming it.
fn shared(name: &str) -> PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), &format!("warc/{name}"))
}
const CAP: u64 = 16 << 20;

/// Everything a record or problem says, owned.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Record {
        number: u64,
        offset: u64,
        length: Option<u64>,
        version: String,
        headers: Vec<(Vec<u8>, Vec<u8>)>,
        content_length: u64,
        block: Vec<u8>,
    },
    Problem(crawlsift::warc::Problem),
}

fn read(path: &Path, split: Split) -> Result<Vec<Seen>, String> {
    let mut reader = WarcReader::open_split(path, CAP, split).map_err(|e| e.to_string())?;
    let mut seen = Vec::new();
    while let Some(item) = reader.next() {
        seen.push(match item {
            Ok(r) => Seen::Record {
                number: r.number,
                offset: r.offset,
                length: r.length,
                version: r.version.to_owned(),
                headers: r
                    .headers
                    .iter()
                    .map(|(n, v)| (n.to_vec(), v.to_vec()))
                    .collect(),
                content_length: r.content_length,
                block: r.block.to_vec(),
            },
            Err(p) => Seen::Problem(p),
        });
    }
    Ok(seen)
}

fn split(threads: usize, max_part_bytes: u64) -> Split {
    Split {
        threads,
        min_file_bytes: 0,
        max_part_bytes,
    }
}

/// Split reads with several part sizes equal the sequential read; parts of
/// one byte on small files (a part per byte: thousands of thread handovers).
fn assert_split_matches(path: &Path) -> usize {
    let sequential = read(path, Split::new(1));
    let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let tiny = if len < 50_000 { 1 } else { 997 };
    for (threads, part) in [(2, tiny), (3, 4096), (2, 7001), (4, 30_000)] {
        let parallel = read(path, split(threads, part));
        assert!(
            parallel == sequential,
            "{}: {threads} threads, parts of {part} bytes differ from the sequential read",
            path.display()
        );
    }
    sequential.map(|s| s.len()).unwrap_or(0)
}

#[test]
fn every_shared_file_reads_the_same_split() {
    let dir = shared("");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().contains(".warc"))
        .collect();
    files.sort();
    assert!(files.len() >= 25, "{files:?}");
    let items: usize = files.iter().map(|f| assert_split_matches(f)).sum();
    assert!(items > 500, "only {items} records and problems read");
}

/// The raw records of the real `.warc.gz` samples: decompressed, cut at the
/// record ranges the reader reports on the plain stream.
fn real_records() -> Vec<Vec<u8>> {
    let mut records = Vec::new();
    for name in [
        "resiliparse_warcfile.warc.gz",
        "dolma_sample-0000.warc.gz",
        "pywb_iana.warc.gz",
        "cc_whirlwind.warc.gz",
    ] {
        let file = std::fs::File::open(shared(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut plain = Vec::new();
        flate2::read::MultiGzDecoder::new(file)
            .read_to_end(&mut plain)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut reader =
            WarcReader::from_stream(name.into(), std::io::Cursor::new(plain.clone()), CAP)
                .unwrap_or_else(|e| panic!("{e}"));
        while let Some(item) = reader.next() {
            let r = item.unwrap_or_else(|e| panic!("{e}"));
            let (start, len) = (r.offset as usize, r.length.unwrap_or(0) as usize);
            records.push(plain[start..start + len].to_vec());
        }
    }
    assert!(records.len() > 400, "{}", records.len());
    records
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    encoder.write_all(data).unwrap_or_else(|e| panic!("{e}"));
    encoder.finish().unwrap_or_else(|e| panic!("{e}"))
}

/// A Common-Crawl-layout file (one member per record) three times over the
/// real records; returns the bytes and the member starts.
fn multi_member() -> (Vec<u8>, Vec<usize>) {
    let records = real_records();
    let mut file = Vec::new();
    let mut starts = Vec::new();
    for _ in 0..3 {
        for record in &records {
            starts.push(file.len());
            file.extend(gzip(record));
        }
    }
    (file, starts)
}

#[test]
fn multi_member_file_reads_the_same_split_even_damaged() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (file, starts) = multi_member();
    let path = dir.path().join("multi.warc.gz");
    std::fs::write(&path, &file).unwrap_or_else(|e| panic!("{e}"));
    // Parts of 30 000 bytes (4 threads): most boundaries fall inside members.
    let inside = (1..file.len() / 30_000)
        .filter(|k| starts.binary_search(&(k * 30_000)).is_err())
        .count();
    assert!(inside > 10, "{inside}");
    let n = assert_split_matches(&path);
    assert_eq!(n, starts.len());

    // Damage: junk between two members, a corrupt member, a false gzip
    // header inside a member, and a cut at the end.
    let mut damaged = file.clone();
    let corrupt = starts[starts.len() / 2];
    damaged[corrupt + 40] ^= 0x55;
    let false_header = starts[starts.len() / 3] + 30;
    damaged.splice(false_header..false_header + 3, [0x1f, 0x8b, 0x08]);
    let junk = starts[starts.len() / 4];
    damaged.splice(junk..junk, b"junk between members".iter().copied());
    damaged.truncate(damaged.len() - 100);
    std::fs::write(&path, &damaged).unwrap_or_else(|e| panic!("{e}"));
    let sequential = read(&path, Split::new(1)).unwrap_or_default();
    let problems = sequential
        .iter()
        .filter(|s| matches!(s, Seen::Problem(_)))
        .count();
    assert!(problems >= 3, "{sequential:?}");
    assert_split_matches(&path);
}

/// The real records three times over, one zstd frame each (with a
/// checksum, as FastWARC writes them).
fn multi_frame() -> Vec<u8> {
    let records = real_records();
    let mut compressor = zstd::bulk::Compressor::new(3).unwrap_or_else(|e| panic!("{e}"));
    compressor
        .include_checksum(true)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut file = Vec::new();
    for _ in 0..3 {
        for record in &records {
            file.extend(
                compressor
                    .compress(record)
                    .unwrap_or_else(|e| panic!("{e}")),
            );
        }
    }
    file
}

#[test]
fn extract_output_is_the_same_for_one_and_two_workers_on_a_split_file() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (file, _) = multi_member();
    let path = dir.path().join("multi.warc.gz");
    std::fs::write(&path, &file).unwrap_or_else(|e| panic!("{e}"));
    let zst = dir.path().join("multi.warc.zst");
    std::fs::write(&zst, multi_frame()).unwrap_or_else(|e| panic!("{e}"));
    let run = |jobs: &str, path: &Path| {
        let stats = dir.path().join(format!("stats-{jobs}.json"));
        let out = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
            .args(["extract", "--quiet", "--split-min-bytes", "0", "-j", jobs])
            .arg("--stats")
            .arg(&stats)
            .arg(path)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stats = std::fs::read_to_string(&stats).unwrap_or_else(|e| panic!("{e}"));
        (out.stdout, stats)
    };
    let (one, one_stats) = run("1", &path);
    let (two, two_stats) = run("2", &path);
    let pages = one.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count();
    assert!(pages > 100, "{pages} pages");
    assert!(one == two, "-j 1 and -j 2 give different output");
    assert_eq!(one_stats, two_stats);
    // The .warc.zst of the same records, split at its frames: the same
    // pages as the .warc.gz (offsets aside), and -j 2 gives what -j 1 does.
    let (zst_one, zst_one_stats) = run("1", &zst);
    let (zst_two, zst_two_stats) = run("2", &zst);
    assert!(zst_one == zst_two, "-j 1 and -j 2 differ on the .warc.zst");
    assert_eq!(zst_one_stats, zst_two_stats);
    let texts = |out: &[u8]| -> Vec<serde_json::Value> {
        out.split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| {
                let row: serde_json::Value =
                    serde_json::from_slice(l).unwrap_or_else(|e| panic!("{e}"));
                row["text"].clone()
            })
            .collect()
    };
    assert!(
        texts(&zst_one) == texts(&one),
        "the .warc.zst's pages differ from the .warc.gz's"
    );
}
