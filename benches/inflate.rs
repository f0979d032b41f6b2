//! One core's inflate speed on a `.warc.gz`, gzip member by gzip member, with
//! each inflater crawlsift can use, in one run: flate2 on zlib-rs (streamed, as
//! `crates/warc/src/gz.rs` does for streams and without the `libdeflate` feature),
//! libdeflate (whole members: each member's output in one call, as
//! `crates/warc/src/whole.rs` does) and ISA-L's igzip (streamed; feature `isal`,
//! which needs nasm, autoconf, automake and libtool), when the features that
//! bring them are on. The file is read into memory first, so
//! only inflating and the CRC checks are timed; every inflater must produce
//! the same number of bytes and members, or the bench fails.
//!
//! ```sh
//! cargo bench --bench inflate --features libdeflate,isal -- FILE.warc.gz
//! ```
//!
//! `REPEAT=N` runs each inflater N times (default 3) and keeps the fastest.
//! Prints a Markdown table: MB/s of uncompressed output per CPU second of
//! the (single) thread, and the ratio to zlib-rs.

use cpu_time::ThreadTime;
use flate2::{Decompress, FlushDecompress, Status};
use std::time::Instant;

/// Totals of one pass: uncompressed bytes and members inflated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pass {
    bytes: u64,
    members: u64,
}

/// flate2 on zlib-rs, one member at a time into a reused 1 MiB buffer
/// (crawlsift's default reader also streams each member in 64 KiB steps).
fn zlib_rs(data: &[u8], ends: &mut Vec<usize>) -> Pass {
    let mut inflater = Decompress::new_gzip(15);
    let mut out = vec![0u8; 1 << 20];
    let mut at = 0;
    let mut pass = Pass {
        bytes: 0,
        members: 0,
    };
    ends.clear();
    while at < data.len() {
        inflater.reset(true);
        loop {
            let before_in = inflater.total_in();
            let before_out = inflater.total_out();
            let status = inflater.decompress(&data[at..], &mut out, FlushDecompress::None);
            at += (inflater.total_in() - before_in) as usize;
            pass.bytes += inflater.total_out() - before_out;
            match status {
                Ok(Status::StreamEnd) => break,
                Ok(_) => {}
                Err(e) => panic!("zlib-rs: corrupt member before offset {at}: {e}"),
            }
        }
        pass.members += 1;
        ends.push(at);
    }
    pass
}

/// libdeflate's `gzip_decompress_ex` on the rest of the file into a reused
/// buffer: it stops at the member's end and says how much input it read.
#[cfg(feature = "libdeflate")]
fn libdeflate_stream(data: &[u8]) -> Pass {
    use libdeflate_sys::*;
    let mut out = vec![0u8; 16 << 20];
    let mut pass = Pass {
        bytes: 0,
        members: 0,
    };
    // SAFETY: the decompressor is freed below and used only in between;
    // every call gets valid input and output slices with their lengths.
    unsafe {
        let d = libdeflate_alloc_decompressor();
        assert!(!d.is_null());
        let mut at = 0;
        while at < data.len() {
            let (mut used_in, mut used_out) = (0usize, 0usize);
            let rest = &data[at..];
            let r = libdeflate_gzip_decompress_ex(
                d,
                rest.as_ptr().cast(),
                rest.len(),
                out.as_mut_ptr().cast(),
                out.len(),
                &mut used_in,
                &mut used_out,
            );
            assert_eq!(
                r, libdeflate_result_LIBDEFLATE_SUCCESS,
                "libdeflate at {at}"
            );
            at += used_in;
            pass.bytes += used_out as u64;
            pass.members += 1;
        }
        libdeflate_free_decompressor(d);
    }
    pass
}

/// libdeflate on each member alone (its end known from a scan), into an
/// output buffer of exactly the trailer's ISIZE.
#[cfg(feature = "libdeflate")]
fn libdeflate_members(data: &[u8], ends: &[usize]) -> Pass {
    use libdeflate_sys::*;
    let mut out: Vec<u8> = Vec::new();
    let mut pass = Pass {
        bytes: 0,
        members: 0,
    };
    // SAFETY: as in `libdeflate_stream`.
    unsafe {
        let d = libdeflate_alloc_decompressor();
        assert!(!d.is_null());
        let mut start = 0;
        for &end in ends {
            let member = &data[start..end];
            let isize_ = u32::from_le_bytes(member[member.len() - 4..].try_into().unwrap());
            out.resize(out.len().max(isize_ as usize), 0);
            let mut used_out = 0usize;
            let r = libdeflate_gzip_decompress(
                d,
                member.as_ptr().cast(),
                member.len(),
                out.as_mut_ptr().cast(),
                isize_ as usize,
                &mut used_out,
            );
            assert_eq!(
                r, libdeflate_result_LIBDEFLATE_SUCCESS,
                "libdeflate at {start}"
            );
            pass.bytes += used_out as u64;
            pass.members += 1;
            start = end;
        }
        libdeflate_free_decompressor(d);
    }
    pass
}

/// ISA-L's `isal_inflate` (gzip wrapper, CRC checked), streamed member by
/// member into a reused 1 MiB buffer.
#[cfg(feature = "isal")]
fn isal(data: &[u8]) -> Pass {
    use isal::isal_sys::igzip_lib::bindings::*;
    let mut out = vec![0u8; 1 << 20];
    let mut pass = Pass {
        bytes: 0,
        members: 0,
    };
    let mut state = std::mem::MaybeUninit::<inflate_state>::uninit();
    // SAFETY: the state is initialised by isal_inflate_init before use; the
    // input and output pointers and lengths come from live slices.
    unsafe {
        isal_inflate_init(state.as_mut_ptr());
        let state = state.assume_init_mut();
        let mut at = 0;
        while at < data.len() {
            isal_inflate_reset(state);
            state.crc_flag = ISAL_GZIP;
            let rest = &data[at..];
            state.next_in = rest.as_ptr().cast_mut();
            state.avail_in = rest.len().min(u32::MAX as usize) as u32;
            loop {
                state.next_out = out.as_mut_ptr();
                state.avail_out = out.len() as u32;
                let r = isal_inflate(state);
                assert_eq!(r, ISAL_DECOMP_OK as i32, "ISA-L at {at}: {r}");
                pass.bytes += (out.len() - state.avail_out as usize) as u64;
                if state.block_state == isal_block_state_ISAL_BLOCK_FINISH {
                    break;
                }
                assert!(state.avail_in > 0, "ISA-L: input ends inside a member");
            }
            at = state.next_in.cast_const().offset_from(data.as_ptr()) as usize;
            pass.members += 1;
        }
    }
    pass
}

/// Runs `f` `repeat` times; the fastest run's CPU and wall seconds.
fn time(repeat: usize, mut f: impl FnMut() -> Pass) -> (Pass, f64, f64) {
    let mut best = (f64::MAX, f64::MAX);
    let mut pass = None;
    for _ in 0..repeat {
        let cpu = ThreadTime::now();
        let wall = Instant::now();
        let p = f();
        let (c, w) = (cpu.elapsed().as_secs_f64(), wall.elapsed().as_secs_f64());
        if c < best.0 {
            best = (c, w);
        }
        pass = Some(p);
    }
    (pass.expect("repeat >= 1"), best.0, best.1)
}

fn main() {
    let Some(path) = std::env::args().skip(1).find(|a| !a.starts_with('-')) else {
        eprintln!(
            "usage: cargo bench --bench inflate [--features libdeflate,isal] -- FILE.warc.gz"
        );
        std::process::exit(2);
    };
    let repeat = std::env::var("REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3usize)
        .max(1);
    let data = match std::fs::read(&path) {
        Ok(data) => data,
        Err(e) => {
            eprintln!("inflate bench: cannot read {path}: {e}");
            std::process::exit(1);
        }
    };
    let mut ends = Vec::new();
    let mut rows = Vec::new();
    let (base, cpu, wall) = time(repeat, || zlib_rs(&data, &mut ends));
    rows.push((
        "flate2 + zlib-rs, streamed (crawlsift's fallback)",
        base,
        cpu,
        wall,
    ));
    #[cfg(feature = "libdeflate")]
    {
        let (p, c, w) = time(repeat, || libdeflate_stream(&data));
        rows.push((
            "libdeflate, whole member, extent found by libdeflate",
            p,
            c,
            w,
        ));
        let (p, c, w) = time(repeat, || libdeflate_members(&data, &ends));
        rows.push(("libdeflate, whole member, extent and ISIZE known", p, c, w));
    }
    #[cfg(feature = "isal")]
    {
        let (p, c, w) = time(repeat, || isal(&data));
        rows.push(("ISA-L igzip, streamed", p, c, w));
    }
    println!(
        "{path}: {:.1} MB compressed, {:.1} MB inflated, {} members; fastest of {repeat} runs, one thread\n",
        data.len() as f64 / 1e6,
        base.bytes as f64 / 1e6,
        base.members
    );
    println!("| inflater | CPU s | wall s | MB/s per CPU s | vs zlib-rs |");
    println!("|---|---:|---:|---:|---:|");
    for (name, pass, cpu, wall) in &rows {
        assert_eq!(*pass, base, "{name} inflated a different amount");
        println!(
            "| {name} | {cpu:.2} | {wall:.2} | {:.0} | {:.2}x |",
            pass.bytes as f64 / 1e6 / cpu,
            rows[0].2 / cpu
        );
    }
}
