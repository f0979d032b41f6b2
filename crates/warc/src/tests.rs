use super::*;

/// (WARC-Type, offset, length, block length) of each record.
type Seen = (String, u64, Option<u64>, usize);

fn read_all(reader: &mut WarcReader) -> (Vec<Seen>, Vec<Problem>) {
    let mut records = Vec::new();
    let mut problems = Vec::new();
    while let Some(item) = reader.next() {
        match item {
            Ok(r) => records.push((
                r.headers.warc_type().unwrap_or_default().into_owned(),
                r.offset,
                r.length,
                r.block.len(),
            )),
            Err(p) => problems.push(p),
        }
    }
    (records, problems)
}

fn from_bytes(data: &[u8], max: u64) -> WarcReader {
    WarcReader::from_stream("test".into(), std::io::Cursor::new(data.to_vec()), max)
        .unwrap_or_else(|e| panic!("{e}"))
}

const TWO: &[u8] = b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 3\r\n\r\nabc\r\n\r\nWARC/1.1\nWARC-Type: response\nContent-Length: 5\n\nhello\n\n";

#[test]
fn plain_stream_crlf_and_bare_lf() {
    let (records, problems) = read_all(&mut from_bytes(TWO, 100));
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        records,
        vec![
            ("warcinfo".into(), 0, Some(59), 3),
            ("response".into(), 59, Some(TWO.len() as u64 - 59), 5)
        ]
    );
}

#[test]
fn oversized_block_is_skipped_not_buffered() {
    let (records, problems) = read_all(&mut from_bytes(TWO, 4));
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(records.iter().map(|r| r.3).collect::<Vec<_>>(), vec![3, 0]);
}

#[test]
fn wrong_content_length_resyncs_at_next_record() {
    let bad = [
        &b"WARC/1.0\r\nContent-Length: 2\r\n\r\n"[..],
        &[b'x'; 100],
        b"\r\n\r\n",
        TWO,
    ]
    .concat();
    let (records, problems) = read_all(&mut from_bytes(&bad, 100));
    assert_eq!(records.len(), 2);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].kind, ProblemKind::BadContentLength);
    assert_eq!((problems[0].number, problems[0].offset), (1, 0));
}

/// A block a few bytes longer than its Content-Length (warcio's "trunc"
/// sample) is accepted as warcio does: the next record follows closely.
#[test]
fn a_few_stray_bytes_after_the_block_are_tolerated() {
    let sloppy = [
        &b"WARC/1.0\r\nContent-Length: 2\r\n\r\nabc\r\n\r\n"[..],
        TWO,
    ]
    .concat();
    let (records, problems) = read_all(&mut from_bytes(&sloppy, 100));
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        records.iter().map(|r| r.3).collect::<Vec<_>>(),
        vec![2, 3, 5]
    );
}

/// An oversized block ending in what looks like the start of a record
/// header that runs on to the end of the input: stream and map agree, and
/// the one damaged record is reported once (it used to underflow the
/// stream's fill size).
#[test]
fn oversized_block_ending_in_a_partial_header() {
    let block = [&[b'x'; 186][..], b"WARC/1.0\r\nA:b"].concat();
    let data = [
        format!(
            "WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .as_bytes(),
        &block,
        b"\r\nB: c\r\n",
    ]
    .concat();
    let (records, problems) = read_all(&mut from_bytes(&data, 100));
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("partial.warc");
    std::fs::write(&path, &data).unwrap_or_else(|e| panic!("{e}"));
    let mut mapped = WarcReader::open(&path, 100).unwrap_or_else(|e| panic!("{e}"));
    let (map_records, map_problems) = read_all(&mut mapped);
    assert_eq!((records.len(), problems.len()), (0, 1), "{problems:?}");
    assert_eq!(problems[0].kind, ProblemKind::BadContentLength);
    assert_eq!(map_records, records);
    assert_eq!(
        map_problems
            .iter()
            .map(|p| (&p.kind, p.offset))
            .collect::<Vec<_>>(),
        problems
            .iter()
            .map(|p| (&p.kind, p.offset))
            .collect::<Vec<_>>()
    );
}

/// `n` records of `block` bytes each (that do not compress), as a plain WARC.
fn records(n: usize, block: usize) -> Vec<u8> {
    let mut x: u32 = 7;
    let body: Vec<u8> = (0..block)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            b'a' + ((x >> 16) % 26) as u8
        })
        .collect();
    let mut out = Vec::new();
    for _ in 0..n {
        out.extend_from_slice(
            format!("WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: {block}\r\n\r\n")
                .as_bytes(),
        );
        out.extend_from_slice(&body);
        out.extend_from_slice(b"\r\n\r\n");
    }
    out
}

/// A file cut short by another program while mapped: the pages past its
/// new end fault (SIGBUS); the reader reports the input as cut short, once,
/// and stops, plain or gzip, sequential or split between threads.
#[cfg(target_os = "linux")]
#[test]
fn a_file_truncated_while_mapped_is_reported_not_a_crash() {
    use std::io::Write;
    let plain = records(64, 256 << 10);
    let mut gz = Vec::new();
    for record in plain.chunks(plain.len() / 64) {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(record).unwrap_or_else(|e| panic!("{e}"));
        gz.extend(e.finish().unwrap_or_else(|e| panic!("{e}")));
    }
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for (name, data, threads) in [
        ("p.warc", &plain, 1),
        ("g.warc.gz", &gz, 1),
        ("s.warc.gz", &gz, 4),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, data).unwrap_or_else(|e| panic!("{e}"));
        let split = Split {
            min_file_bytes: 0,
            max_part_bytes: 1 << 20,
            ..Split::new(threads)
        };
        let mut reader =
            WarcReader::open_split(&path, 1 << 30, split).unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(reader.next(), Some(Ok(_))), "{name}");
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_len(4096))
            .unwrap_or_else(|e| panic!("{e}"));
        let (records, problems) = read_all(&mut reader);
        let cut: Vec<&Problem> = problems
            .iter()
            .filter(|p| p.detail.contains("cut short while being read"))
            .collect();
        assert_eq!(cut.len(), 1, "{name}: {problems:?}");
        assert_eq!(cut[0].kind, ProblemKind::Io, "{name}");
        assert!(records.len() < 63, "{name}: {} records", records.len());
        assert!(reader.next().is_none(), "{name}");
    }
}

/// A FIFO has no size: it is read as a stream to its end, not taken for an
/// empty file.
#[cfg(unix)]
#[test]
fn a_fifo_is_read_to_its_end() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("f.warc");
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    assert!(made.is_ok_and(|s| s.success()));
    let data = records(3, 100);
    let writer = {
        let path = path.clone();
        std::thread::spawn(move || std::fs::write(&path, data))
    };
    let mut reader = WarcReader::open(&path, 1 << 20).unwrap_or_else(|e| panic!("{e}"));
    let (records, problems) = read_all(&mut reader);
    assert!(writer.join().is_ok_and(|r| r.is_ok()));
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(records.len(), 3);
    assert_eq!(reader.total_bytes(), None, "a stream's size is not known");
}
