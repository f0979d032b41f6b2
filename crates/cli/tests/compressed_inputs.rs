//! `crawlsift extract` over `.warc.lz4` and `.warc.zst` inputs: the same
//! pages as the `.warc.gz` of the same records, from a file, stdin, a
//! directory, and a file whose name says nothing (the first bytes tell).

use std::io::{BufRead, BufReader, Cursor, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

mod common;

use common::*;

/// The pages without what depends on the file's name and compression.
fn pages(out: &[u8]) -> Vec<serde_json::Value> {
    jsonl(out)
        .into_iter()
        .map(|mut p| {
            if let Some(o) = p.as_object_mut() {
                for field in ["warc_filename", "offset", "length"] {
                    o.remove(field);
                }
            }
            p
        })
        .collect()
}

fn ok(out: std::process::Output) -> Vec<u8> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `name`, a one-record-per-member `.warc.gz`, as a `.warc.zst` of one
/// frame per record after a dictionary frame (the IIPC proposal's layout).
fn zstd_with_dictionary(name: &str) -> Vec<u8> {
    let data = std::fs::read(shared(name)).unwrap_or_else(|e| panic!("{e}"));
    let mut input = BufReader::new(Cursor::new(data));
    let mut records = Vec::new();
    while !input
        .fill_buf()
        .unwrap_or_else(|e| panic!("{e}"))
        .is_empty()
    {
        let mut record = Vec::new();
        flate2::bufread::GzDecoder::new(&mut input)
            .read_to_end(&mut record)
            .unwrap_or_else(|e| panic!("{e}"));
        records.push(record);
    }
    // A raw-content dictionary: the first record's bytes.
    let dict = records[0].clone();
    let mut out = vec![0x5d, 0x2a, 0x4d, 0x18];
    out.extend_from_slice(&u32::try_from(dict.len()).unwrap_or(0).to_le_bytes());
    out.extend_from_slice(&dict);
    let mut compressor =
        zstd::bulk::Compressor::with_dictionary(3, &dict).unwrap_or_else(|e| panic!("{e}"));
    for record in &records {
        out.extend(
            compressor
                .compress(record)
                .unwrap_or_else(|e| panic!("{e}")),
        );
    }
    out
}

fn stdin(input: &Path) -> Vec<u8> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crawlsift"))
        .args(["extract", "-", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let data = std::fs::read(input).unwrap_or_else(|e| panic!("{e}"));
    if let Some(mut pipe) = child.stdin.take() {
        pipe.write_all(&data).unwrap_or_else(|e| panic!("{e}"));
    }
    ok(child.wait_with_output().unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn lz4_and_zstd_give_the_pages_of_the_gz() {
    let gz = pages(&ok(crawlsift(&[
        shared("resiliparse_warcfile.warc.gz").as_os_str(),
        os("--quiet"),
    ])));
    assert!(gz.len() > 5);
    let lz4 = shared("resiliparse_warcfile.warc.lz4");
    let from_lz4 = ok(crawlsift(&[lz4.as_os_str(), os("--quiet")]));
    assert_eq!(pages(&from_lz4), gz, "lz4 file");
    assert!(jsonl(&from_lz4)
        .iter()
        .all(|p| p["warc_filename"] == "resiliparse_warcfile.warc.lz4"
            && p["length"].as_u64().is_some_and(|n| n > 0)));
    assert_eq!(pages(&stdin(&lz4)), gz, "lz4 on stdin");

    let dir = tempdir();
    let inputs = dir.path().join("in");
    std::fs::create_dir_all(&inputs).unwrap_or_else(|e| panic!("{e}"));
    let zst = inputs.join("b.warc.zst");
    std::fs::write(&zst, zstd_with_dictionary("resiliparse_warcfile.warc.gz"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        pages(&ok(crawlsift(&[zst.as_os_str(), os("--quiet")]))),
        gz,
        "zst file"
    );
    assert_eq!(pages(&stdin(&zst)), gz, "zst on stdin");
    // Named like nothing: told by its first bytes.
    let unnamed = dir.path().join("archive.bin");
    std::fs::copy(&zst, &unnamed).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        pages(&ok(crawlsift(&[unnamed.as_os_str(), os("--quiet")]))),
        gz
    );

    // A directory stands for its .warc.zst and .warc.lz4 files too.
    std::fs::copy(&lz4, inputs.join("a.warc.lz4")).unwrap_or_else(|e| panic!("{e}"));
    let out = dir.path().join("out");
    let run = crawlsift(&[inputs.as_os_str(), os("-o"), out.as_os_str()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("total: 2 files"), "{stderr}");
    for name in ["a.jsonl", "b.jsonl"] {
        let written = std::fs::read(out.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(pages(&written), gz, "{name}");
    }
}

/// A damaged frame is a failed record named with its file and offset; the
/// other pages are extracted and the run's accounting adds up.
#[test]
fn a_damaged_lz4_frame_is_reported_and_the_rest_extracted() {
    let gz = pages(&ok(crawlsift(&[
        shared("resiliparse_warcfile.warc.gz").as_os_str(),
        os("--quiet"),
    ])));
    let lz4 =
        std::fs::read(shared("resiliparse_warcfile.warc.lz4")).unwrap_or_else(|e| panic!("{e}"));
    let offsets: Vec<u64> = jsonl(&ok(crawlsift(&[
        shared("resiliparse_warcfile.warc.lz4").as_os_str(),
        os("--quiet"),
    ])))
    .iter()
    .filter_map(|p| p["offset"].as_u64())
    .collect();
    // The frame descriptor of the third page's frame.
    let at = offsets[2] as usize + 4;
    let mut damaged = lz4.clone();
    damaged[at] ^= 0x5a;
    let dir = tempdir();
    let path = dir.path().join("damaged.warc.lz4");
    std::fs::write(&path, &damaged).unwrap_or_else(|e| panic!("{e}"));
    let stats = dir.path().join("stats.json");
    let out = crawlsift(&[path.as_os_str(), os("--stats"), stats.as_os_str()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let got = pages(&out.stdout);
    assert_eq!(got.len(), gz.len() - 1, "{stderr}");
    let mut expected = gz.clone();
    expected.remove(2);
    assert_eq!(got, expected);
    assert!(
        stderr.contains(&path.display().to_string())
            && stderr.contains(&format!("offset {}", offsets[2]))
            && stderr.contains("corrupt LZ4 frame"),
        "{stderr}"
    );
    let stats: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&stats).unwrap_or_else(|e| panic!("{e}")))
            .unwrap_or_else(|e| panic!("{e}"));
    let file = &stats[0];
    assert_eq!(file["failed"]["corrupt_frame"], 1, "{stats:#}");
    // read = extracted + skipped + failed
    let sum = |v: &serde_json::Value| -> u64 {
        v.as_object()
            .map(|m| m.values().filter_map(|n| n.as_u64()).sum())
            .unwrap_or(0)
    };
    assert_eq!(
        file["read"].as_u64(),
        Some(
            file["extracted"].as_u64().unwrap_or(0) + sum(&file["skipped"]) + sum(&file["failed"])
        ),
        "{stats:#}"
    );
    assert_eq!(file["extracted"].as_u64(), Some(got.len() as u64));
}
