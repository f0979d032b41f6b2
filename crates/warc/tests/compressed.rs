//! `.warc.zst` and `.warc.lz4` read as the `.warc.gz` of the same records:
//! the LZ4 sample in ../shared/warc (written by Resiliparse), and zstd files
//! made here from the shared `.warc.gz` files one frame per record, with
//! and without the dictionary frame of the IIPC `.warc.zst` proposal; a
//! damaged frame is one problem at its offset and the rest is read. Each
//! file is also read split between threads at frame boundaries, which
//! gives the same records, offsets and problems.

use crawlsift_warc::{Problem, ProblemKind, Split, WarcReader};
use std::io::{BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};

const CAP: u64 = 16 << 20;

#[path = "../../../tests/support/shared.rs"]
mod support;

fn shared(name: &str) -> PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), &format!("warc/{name}"))
}

/// Without the shared folder, the message names it and TESTING.md (the
/// helper every test crate includes).
#[test]
fn a_missing_shared_folder_is_named_with_testing_md() {
    let missing = Path::new("/nonexistent/shared");
    let message = support::check_shared(missing, &missing.join("warc/x.warc.gz"))
        .err()
        .unwrap_or_default();
    assert!(
        message.contains("/nonexistent/shared is missing")
            && message.contains("warc/x.warc.gz")
            && message.contains("TESTING.md"),
        "{message}"
    );
    let here = support::shared_dir(env!("CARGO_MANIFEST_DIR"));
    match std::env::var_os("CRAWLSIFT_SHARED") {
        // Pointed elsewhere (TESTING.md): the folder is that one.
        Some(dir) => assert_eq!(here, Path::new(&dir)),
        None => {
            assert!(here.ends_with("shared"), "{}", here.display());
            assert!(
                support::check_shared(&here, &here).is_ok(),
                "{}",
                here.display()
            );
        }
    }
}

/// What a record is, apart from where it sits in its file.
#[derive(Debug, PartialEq, Eq)]
struct Rec {
    number: u64,
    headers: String,
    block: Vec<u8>,
}

struct Read_ {
    records: Vec<Rec>,
    /// Offset and compressed length of each record.
    ranges: Vec<(u64, Option<u64>)>,
    problems: Vec<Problem>,
}

fn drain(mut reader: WarcReader) -> Read_ {
    let mut out = Read_ {
        records: Vec::new(),
        ranges: Vec::new(),
        problems: Vec::new(),
    };
    while let Some(item) = reader.next() {
        match item {
            Ok(r) => {
                out.records.push(Rec {
                    number: r.number,
                    headers: format!("{:?}", r.headers),
                    block: r.block.to_vec(),
                });
                out.ranges.push((r.offset, r.length));
            }
            Err(p) => out.problems.push(p),
        }
    }
    out
}

fn open(path: &Path) -> Read_ {
    drain(WarcReader::open(path, CAP).unwrap_or_else(|e| panic!("{e}")))
}

/// The file decompressed by two helper threads in parts of 4 KiB, each
/// from its first frame that starts a record.
fn split(path: &Path) -> Read_ {
    let split = Split {
        threads: 2,
        min_file_bytes: 0,
        max_part_bytes: 4096,
    };
    drain(WarcReader::open_split(path, CAP, split).unwrap_or_else(|e| panic!("{e}")))
}

/// The split reader gives `sequential`'s records, offsets and problems.
fn assert_split_agrees(path: &Path, sequential: &Read_, what: &str) {
    let got = split(path);
    assert_eq!(got.problems, sequential.problems, "{what}: split");
    assert_eq!(got.ranges, sequential.ranges, "{what}: split");
    assert!(
        got.records == sequential.records,
        "{what}: split and sequential records differ"
    );
}

/// The same bytes as a stream of small reads (stdin, a download).
fn stream(path: &Path) -> Read_ {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{e}"));
    drain(
        WarcReader::from_stream(
            path.display().to_string(),
            BufReader::with_capacity(1000, Cursor::new(data)),
            CAP,
        )
        .unwrap_or_else(|e| panic!("{e}")),
    )
}

/// The uncompressed bytes of each gzip member of a `.warc.gz` (one record each).
fn members(path: &Path) -> Vec<Vec<u8>> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{e}"));
    let mut input = BufReader::new(Cursor::new(data));
    let mut out = Vec::new();
    while !input
        .fill_buf()
        .unwrap_or_else(|e| panic!("{e}"))
        .is_empty()
    {
        let mut member = Vec::new();
        flate2::bufread::GzDecoder::new(&mut input)
            .read_to_end(&mut member)
            .unwrap_or_else(|e| panic!("{e}"));
        out.push(member);
    }
    out
}

/// A skippable frame holding `dict`, as the `.warc.zst` proposal writes it.
fn dictionary_frame(dict: &[u8]) -> Vec<u8> {
    let mut frame = vec![0x5d, 0x2a, 0x4d, 0x18];
    frame.extend_from_slice(&u32::try_from(dict.len()).unwrap_or(0).to_le_bytes());
    frame.extend_from_slice(dict);
    frame
}

/// `records` in one zstd frame each, after the dictionary frame if any;
/// also the offset of each frame.
fn zstd_file(
    records: &[Vec<u8>],
    dict: Option<&[u8]>,
    frame: Option<Vec<u8>>,
) -> (Vec<u8>, Vec<u64>) {
    let mut out = frame.unwrap_or_default();
    let mut compressor = zstd::bulk::Compressor::with_dictionary(3, dict.unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}"));
    // As the zstd command and FastWARC write them.
    compressor
        .include_checksum(true)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut offsets = Vec::new();
    for record in records {
        offsets.push(out.len() as u64);
        out.extend(
            compressor
                .compress(record)
                .unwrap_or_else(|e| panic!("{e}")),
        );
    }
    (out, offsets)
}

fn assert_same_records(got: &Read_, expected: &Read_, what: &str) {
    assert!(got.problems.is_empty(), "{what}: {:?}", got.problems);
    assert_eq!(got.records.len(), expected.records.len(), "{what}");
    assert!(
        got.records == expected.records,
        "{what}: records differ from the .warc.gz"
    );
}

#[test]
fn the_lz4_sample_reads_as_its_gz() {
    let gz = open(&shared("resiliparse_warcfile.warc.gz"));
    assert!(gz.problems.is_empty() && gz.records.len() > 10);
    let path = shared("resiliparse_warcfile.warc.lz4");
    let lz4 = open(&path);
    assert_same_records(&lz4, &gz, "lz4 file");
    // One frame per record: each knows its range, and they tile the file.
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let mut at = 0;
    for &(offset, length) in &lz4.ranges {
        assert_eq!(offset, at);
        at += length.unwrap_or_else(|| panic!("record at {offset} has no length"));
    }
    assert_eq!(at, size);
    let streamed = stream(&path);
    assert_same_records(&streamed, &gz, "lz4 stream");
    assert_eq!(streamed.ranges, lz4.ranges);
    assert!(size > 8 * 4096);
    assert_split_agrees(&path, &lz4, "lz4 file");
}

#[test]
fn zstd_frames_with_and_without_a_dictionary_read_as_the_gz() {
    let names = [
        "resiliparse_warcfile.warc.gz",
        "pywb_iana.warc.gz",
        "jwarc_cc.warc.gz",
    ];
    let all: Vec<Vec<u8>> = names.iter().flat_map(|n| members(&shared(n))).collect();
    let dict = zstd::dict::from_samples(&all, 16 << 10).unwrap_or_else(|e| panic!("{e}"));
    let compressed_dict = zstd::bulk::compress(&dict, 19).unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for name in names {
        let gz = open(&shared(name));
        assert!(gz.problems.is_empty() && !gz.records.is_empty(), "{name}");
        let records = members(&shared(name));
        for (how, dict, frame) in [
            ("no dictionary", None, None),
            ("dictionary", Some(&dict[..]), Some(dictionary_frame(&dict))),
            (
                "compressed dictionary",
                Some(&dict[..]),
                Some(dictionary_frame(&compressed_dict)),
            ),
        ] {
            let (data, offsets) = zstd_file(&records, dict, frame);
            let path = dir.path().join(format!("{name}.zst"));
            std::fs::write(&path, &data).unwrap_or_else(|e| panic!("{e}"));
            let what = format!("{name}, {how}");
            let zst = open(&path);
            assert_same_records(&zst, &gz, &what);
            let starts: Vec<u64> = zst.ranges.iter().map(|r| r.0).collect();
            assert_eq!(starts, offsets, "{what}");
            assert!(zst.ranges.iter().all(|r| r.1.is_some()), "{what}");
            let streamed = stream(&path);
            assert_same_records(&streamed, &gz, &format!("{what}, stream"));
            assert_eq!(streamed.ranges, zst.ranges, "{what}");
            assert_split_agrees(&path, &zst, &what);
        }
    }
}

/// A frame damaged: that frame is one problem at its offset,
/// every other record is read, in the file and in the stream alike.
#[test]
fn a_damaged_frame_is_reported_at_its_offset_and_the_rest_is_read() {
    let name = "resiliparse_warcfile.warc.gz";
    let gz = open(&shared(name));
    let records = members(&shared(name));
    let (mut zst, zst_offsets) = zstd_file(&records, None, None);
    let lz4_path = shared("resiliparse_warcfile.warc.lz4");
    let mut lz4 = std::fs::read(&lz4_path).unwrap_or_else(|e| panic!("{e}"));
    let lz4_offsets: Vec<u64> = open(&lz4_path).ranges.iter().map(|r| r.0).collect();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for (data, offsets, ext) in [
        (&mut zst, &zst_offsets, "zst"),
        (&mut lz4, &lz4_offsets, "lz4"),
    ] {
        // The middle of the fourth record's zstd frame (its checksum tells);
        // the LZ4 sample has no checksums, so a changed byte of its
        // content cannot be told: its frame descriptor is changed instead.
        let (from, to) = (offsets[3], offsets[4]);
        let at = if ext == "zst" {
            (from + to) / 2
        } else {
            from + 4
        };
        data[at as usize] ^= 0x5a;
        let path = dir.path().join(format!("damaged.warc.{ext}"));
        std::fs::write(&path, &data[..]).unwrap_or_else(|e| panic!("{e}"));
        assert_split_agrees(&path, &open(&path), ext);
        for got in [open(&path), stream(&path), split(&path)] {
            assert_eq!(got.problems.len(), 1, "{ext}: {:?}", got.problems);
            let problem = &got.problems[0];
            assert_eq!(
                (problem.kind, problem.offset, problem.number),
                (ProblemKind::CorruptFrame, from, 4),
                "{ext}: {problem}"
            );
            assert!(problem.to_string().contains(&path.display().to_string()));
            let mut expected: Vec<&Rec> = gz.records.iter().collect();
            expected.remove(3);
            let got_records: Vec<&Rec> = got.records.iter().collect();
            assert_eq!(got_records.len(), expected.len(), "{ext}");
            for (g, e) in got_records.iter().zip(&expected) {
                assert_eq!((&g.headers, &g.block), (&e.headers, &e.block), "{ext}");
            }
        }
    }
}

/// A `.warc.zst` cut short inside a frame: the records before it are read,
/// the cut is one `truncated` problem at the frame's offset.
#[test]
fn a_cut_zstd_file_reports_the_cut_frame() {
    let name = "pywb_iana.warc.gz";
    let gz = open(&shared(name));
    let records = members(&shared(name));
    let (data, offsets) = zstd_file(&records, None, None);
    let last = *offsets.last().unwrap_or(&0);
    let cut = &data[..(last as usize + data.len()) / 2];
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("cut.warc.zst");
    std::fs::write(&path, cut).unwrap_or_else(|e| panic!("{e}"));
    assert_split_agrees(&path, &open(&path), "cut");
    for got in [open(&path), stream(&path), split(&path)] {
        assert_eq!(got.records.len(), gz.records.len() - 1);
        assert_eq!(got.problems.len(), 1, "{:?}", got.problems);
        assert_eq!(
            (got.problems[0].kind, got.problems[0].offset),
            (ProblemKind::Truncated, last)
        );
    }
}

/// Frames that are not records (a `.warc.zst` or `.warc.lz4` written in
/// frames of a fixed size, as `zstd -B`/`pzstd` and block-mode writers
/// do): the split reader finds no part starting at a record, reads the
/// file itself and loses nothing; the records are the `.warc.gz`'s.
#[test]
fn frames_that_are_not_records_read_as_the_gz_split_or_not() {
    let name = "pywb_iana.warc.gz";
    let gz = open(&shared(name));
    let all = members(&shared(name)).concat();
    let zst: Vec<u8> = all
        .chunks(10_000)
        .flat_map(|piece| zstd::bulk::compress(piece, 3).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let lz4: Vec<u8> = all
        .chunks(10_000)
        .flat_map(|piece| {
            let mut lz4 = lz4_flex::frame::FrameEncoder::new(Vec::new());
            std::io::Write::write_all(&mut lz4, piece).unwrap_or_else(|e| panic!("{e}"));
            lz4.finish().unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for (data, ext) in [(zst, "zst"), (lz4, "lz4")] {
        let path = dir.path().join(format!("blocks.warc.{ext}"));
        std::fs::write(&path, &data).unwrap_or_else(|e| panic!("{e}"));
        let sequential = open(&path);
        assert_same_records(&sequential, &gz, ext);
        assert_split_agrees(&path, &sequential, ext);
    }
}
