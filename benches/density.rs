//! The counting kernel against the memory-read bound, on real pages (all
//! scrapinghub pages concatenated, ~31 MB, larger than the caches).
//!
//! - `memory_read`: summing the buffer as `u64` words, the physical bound;
//! - `classify_blocks`: the 64-byte block classifier alone;
//! - `scan` / `scan_reference`: the whole counting pass (kernel + tag
//!   recogniser + line building) with the fast kernel and the scalar one.
//!
//! The fast kernels are the ones chosen at run time (`kernel::dispatch`:
//! AVX2 where the CPU has it; `CRAWLSIFT_KERNELS=sse2` forces the baseline).

mod common;

use crawlsift_extract::density::kernel::{dispatch, Isa, Kernels, ReferenceCounter, Task, BLOCK};
use crawlsift_extract::density::scan::{scan, LinkRule, Rules};
use crawlsift_extract::density::Scratch;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn kernel(c: &mut Criterion) {
    let pages = common::scrapinghub_pages();
    let all: Vec<u8> = pages.concat();
    let mut group = c.benchmark_group("kernel");
    group.throughput(Throughput::Bytes(all.len() as u64));
    group.sample_size(20);

    group.bench_function("memory_read", |b| {
        let (_, words, _) = bytemuck::pod_align_to::<u8, u64>(&all);
        b.iter(|| words.iter().fold(0u64, |acc, &w| acc.wrapping_add(w)))
    });
    group.bench_function("classify_blocks", |b| {
        let blocks: &[[u8; BLOCK]] = bytemuck::cast_slice(&all[..all.len() / BLOCK * BLOCK]);
        /// The loop over the blocks, compiled with each instruction set's
        /// classifier inline.
        struct Classify<'a>(&'a [[u8; BLOCK]]);
        impl Task for Classify<'_> {
            type Output = u32;
            #[inline(always)]
            fn run<I: Isa>(self, isa: I) -> u32 {
                self.0.iter().fold(0u32, |acc, block| {
                    let m = isa.classify(block);
                    acc + (m.content.count_ones() + m.lt.count_ones())
                })
            }
        }
        b.iter(|| dispatch(Classify(blocks)))
    });
    let mut scratch = Scratch::default();
    group.bench_function("scan", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|p| {
                    scratch.scan(p, Rules::papers(LinkRule::Normalise));
                    scratch.lines.len()
                })
                .sum::<usize>()
        })
    });
    let mut lines = Vec::new();
    let mut memo = crawlsift_extract::density::cleaning::CueMemo::default();
    let mut landmarks = crawlsift_extract::density::landmarks::Landmarks::default();
    group.bench_function("scan_reference", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|p| {
                    scan(
                        p,
                        Rules::papers(LinkRule::Normalise),
                        &ReferenceCounter,
                        &mut lines,
                        &mut memo,
                        &mut landmarks,
                    );
                    black_box(lines.len())
                })
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, kernel);
criterion_main!(benches);
