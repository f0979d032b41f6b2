//! The WARC reader on any bytes: the bytes as a file (memory map, or gzip
//! members inflated from the map) and as a stream (what `crawlsift extract -`
//! reads) must give the same records and problems, in items numbered
//! 1, 2, 3, …, blocks within the cap; and the pipeline over the file and
//! over the stream must account for every item: read = extracted + skipped
//! + failed, the same counts both ways.
//!
//! The first byte picks the record cap, the stream's buffer size and
//! whether the rest is read as is or gzipped first (whole, or one member
//! per `WARC/`), so the gzip path sees valid members holding any WARC.
#![no_main]

use crawlsift::pipeline::Input;
use crawlsift::warc::WarcReader;
use crawlsift_fuzz::{drain, gzip, gzip_members, pipeline, Scratch, CAPS};
use libfuzzer_sys::fuzz_target;
use std::io::{BufReader, Cursor};
use std::sync::OnceLock;

const BUFFERS: [usize; 8] = [1, 2, 7, 64, 1000, 4096, 65536, 256 << 10];

fuzz_target!(|data: &[u8]| {
    static SCRATCH: OnceLock<Scratch> = OnceLock::new();
    let scratch = SCRATCH.get_or_init(|| Scratch::new("fuzz.warc"));
    let Some((&config, rest)) = data.split_first() else {
        return;
    };
    let cap = CAPS[usize::from(config & 7)];
    let buffer = BUFFERS[usize::from((config >> 3) & 7)];
    let bytes = match config >> 6 {
        2 => gzip(rest),
        3 => gzip_members(rest),
        _ => rest.to_vec(),
    };
    let path = scratch.write(&bytes);
    let name = path.display().to_string();

    let file = match WarcReader::open(path, cap) {
        Ok(file) => file,
        // A file compressed otherwise than gzip (LZ4, zstd, …) is refused
        // with a message saying what to do; the stream reader has no such check.
        Err(e) => {
            assert!(e.to_string().contains("not supported"), "{e}");
            return;
        }
    };
    let from_file = drain(file, cap, bytes.len());
    let stream = WarcReader::from_stream(
        name.clone(),
        BufReader::with_capacity(buffer, Cursor::new(bytes.clone())),
        cap,
    )
    .expect("a stream in memory opens");
    let from_stream = drain(stream, cap, bytes.len());
    assert_eq!(from_file, from_stream, "file and stream differ");

    let (by_path, pages) = pipeline(Input::Path(path.to_path_buf()), cap);
    assert_eq!(
        by_path.read,
        from_file.len() as u64,
        "the pipeline reads every item"
    );
    let (by_stream, stream_pages) = pipeline(Input::stream(name, Cursor::new(bytes)), cap);
    assert_eq!(
        (
            by_path.read,
            by_path.extracted,
            &by_path.skipped,
            &by_path.failed,
            pages
        ),
        (
            by_stream.read,
            by_stream.extracted,
            &by_stream.skipped,
            &by_stream.failed,
            stream_pages
        ),
        "the pipeline counts a file and a stream alike"
    );
});
