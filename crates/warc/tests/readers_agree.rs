//! The file reader (memory map, or gzip members inflated from it) and the
//! stream reader, whatever size its reads are, give the same records and the
//! same problems (kind, offset, number) on any input: the invariant of the
//! `warc_reader` fuzz target (fuzz/), checked here on random inputs built of
//! WARC fragments and random bytes, as they are, gzipped whole, gzipped one
//! member per `WARC/`, and with bytes of the gzip changed.

use crawlsift_warc::{ProblemKind, WarcReader};
use proptest::prelude::*;
use std::io::{BufReader, Cursor, Write};

/// One item as a reader returned it, enough to compare two readers.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    Record {
        number: u64,
        offset: u64,
        length: Option<u64>,
        content_length: u64,
        block: Vec<u8>,
    },
    Problem {
        number: u64,
        offset: u64,
        kind: ProblemKind,
    },
}

fn drain(mut reader: WarcReader) -> Vec<Item> {
    let mut items = Vec::new();
    while let Some(item) = reader.next() {
        items.push(match item {
            Ok(r) => Item::Record {
                number: r.number,
                offset: r.offset,
                length: r.length,
                content_length: r.content_length,
                block: r.block.to_vec(),
            },
            Err(p) => Item::Problem {
                number: p.number,
                offset: p.offset,
                kind: p.kind,
            },
        });
    }
    items
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(data).unwrap_or_else(|e| panic!("{e}"));
    gz.finish().unwrap_or_else(|e| panic!("{e}"))
}

/// One gzip member per piece of `data` cut before every `WARC/`.
fn gzip_members(data: &[u8]) -> Vec<u8> {
    let mut starts: Vec<usize> = data
        .windows(5)
        .enumerate()
        .filter(|(_, w)| *w == b"WARC/")
        .map(|(i, _)| i)
        .collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    starts.push(data.len());
    starts
        .windows(2)
        .flat_map(|w| gzip(data.get(w[0]..w[1]).unwrap_or_default()))
        .collect()
}

/// Reads `data` as a file and as streams of reads of several sizes, and
/// asserts they all give the same items.
fn assert_readers_agree(data: &[u8], cap: u64) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("input.warc");
    std::fs::write(&path, data).unwrap_or_else(|e| panic!("{e}"));
    let name = path.display().to_string();
    let file = match WarcReader::open(&path, cap) {
        Ok(reader) => drain(reader),
        // LZ4, zstd and bzip2 files are refused by design.
        Err(e) => {
            assert!(e.to_string().contains("not supported"), "{e}");
            return;
        }
    };
    for buffer in [1, 2, 3, 7, 64, 4096, 1 << 20] {
        let stream = WarcReader::from_stream(
            name.clone(),
            BufReader::with_capacity(buffer, Cursor::new(data.to_vec())),
            cap,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            file,
            drain(stream),
            "file and stream of {buffer}-byte reads differ on {data:02x?} (cap {cap})"
        );
    }
}

/// Inputs the `warc_reader` fuzz target found, and their neighbours.
#[test]
fn found_by_the_fuzzer() {
    // The stream reader took a lone 0x1f, its first read, for a gzip magic
    // (corrupt_gzip) where the file reader saw no WARC (not_warc).
    for data in [
        &[0x1f, 0x0a, 0x0a][..],
        &[0x1f],
        &[0x1f, 0x8b],
        &[0x1f, 0x1f, 0x8b, 0x08],
        b"\x1fWARC/1.0\r\nContent-Length: 0\r\n\r\n\r\n\r\n",
    ] {
        for cap in [0, 100, 1 << 20] {
            assert_readers_agree(data, cap);
        }
    }
}

/// WARC fragments, gzip magic and random bytes, so that inputs hold
/// headers, records with right and wrong lengths, and damage.
fn fragment() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"WARC/1.0\r\n".to_vec()),
        Just(b"WARC/1.1\n".to_vec()),
        Just(b"WARC-Type: response\r\n".to_vec()),
        (0u32..40).prop_map(|n| format!("Content-Length: {n}\r\n").into_bytes()),
        Just(b"\r\n".to_vec()),
        Just(b"\n".to_vec()),
        Just(vec![0x1f]),
        Just(vec![0x1f, 0x8b, 0x08]),
        proptest::collection::vec(any::<u8>(), 0..24),
        (0usize..40).prop_map(|n| vec![b'x'; n]),
    ]
}

fn input() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(fragment(), 0..24).prop_map(|parts| parts.concat())
}

/// How an input is turned into the bytes read: as is, gzipped whole, one
/// gzip member per `WARC/`, and those with a byte changed or cut short.
fn wrap(data: &[u8], how: u8, at: usize, byte: u8) -> Vec<u8> {
    let mut out = match how % 3 {
        0 => data.to_vec(),
        1 => gzip(data),
        _ => gzip_members(data),
    };
    match how / 3 {
        1 if !out.is_empty() => {
            let at = at % out.len();
            if let Some(b) = out.get_mut(at) {
                *b ^= byte | 1;
            }
        }
        2 => out.truncate(at % (out.len() + 1)),
        _ => {}
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn file_and_stream_agree_on_random_bytes(
        data in proptest::collection::vec(any::<u8>(), 0..64),
        cap in prop_oneof![Just(0u64), Just(16), Just(1 << 20)],
    ) {
        assert_readers_agree(&data, cap);
    }

    #[test]
    fn file_and_stream_agree_on_warc_fragments(
        data in input(),
        how in 0u8..9,
        at in any::<usize>(),
        byte in any::<u8>(),
        cap in prop_oneof![Just(0u64), Just(16), Just(100), Just(1 << 20)],
    ) {
        assert_readers_agree(&wrap(&data, how, at, byte), cap);
    }
}
