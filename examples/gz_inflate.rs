//! One core's inflate speed with flate2 on its zlib-rs backend (what crawlsift
//! uses), independent of crawlsift: the bound `crawlsift extract` is measured against
//! on a `.warc.gz`. The file is read into memory first, so only inflating
//! (and the CRC check) is timed.
//!
//! Usage: cargo run --release --example gz_inflate -- FILE.gz

use std::io::Read;
use std::time::Instant;

fn main() -> std::io::Result<()> {
    let Some(path) = std::env::args_os().nth(1) else {
        return Err(std::io::Error::other("usage: gz_inflate FILE.gz"));
    };
    let data = std::fs::read(&path)?;
    let started = Instant::now();
    let mut decoder = flate2::bufread::MultiGzDecoder::new(&data[..]);
    let mut out = vec![0; 1 << 20];
    let mut total = 0u64;
    loop {
        let n = decoder.read(&mut out)?;
        if n == 0 {
            break;
        }
        total += n as u64;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{{\"bytes\": {total}, \"seconds\": {secs:.3}, \"mb_per_s\": {:.1}}}",
        total as f64 / 1e6 / secs
    );
    Ok(())
}
