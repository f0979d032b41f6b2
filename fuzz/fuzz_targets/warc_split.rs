//! The split reader (a `.warc.gz` inflated by several threads in parts,
//! crates/warc/src/split.rs) against the sequential one: same records, offsets and
//! problems, on any bytes.
//!
//! The first byte picks the threads (2–5), the second the part size (1–256
//! bytes, so parts start everywhere: inside headers, members, junk), the
//! third the record cap and whether the rest is gzipped one member per
//! `WARC/` first (valid members holding any WARC) or read as is (damaged
//! gzip, junk between members).
#![no_main]

use crawlsift::warc::WarcReader;
use crawlsift_fuzz::{drain, gzip_members, open_split, Scratch, CAPS};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fuzz_target!(|data: &[u8]| {
    static SCRATCH: OnceLock<Scratch> = OnceLock::new();
    let scratch = SCRATCH.get_or_init(|| Scratch::new("fuzz.warc.gz"));
    let [threads, part, config, rest @ ..] = data else {
        return;
    };
    let threads = 2 + usize::from(threads % 4);
    let part = 1 + u64::from(*part);
    let cap = CAPS[usize::from(config & 7)];
    let bytes = if config & 8 != 0 {
        gzip_members(rest)
    } else {
        rest.to_vec()
    };
    let path = scratch.write(&bytes);
    // A file compressed otherwise than gzip (LZ4, zstd, …) is refused.
    let Ok(reader) = WarcReader::open(path, cap) else {
        return;
    };
    let sequential = drain(reader, cap, bytes.len());
    let split = drain(open_split(path, cap, threads, part), cap, bytes.len());
    assert_eq!(
        sequential, split,
        "split in parts of {part} bytes by {threads} threads"
    );
});
