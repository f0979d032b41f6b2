//! The counting kernel: from a position in text, find the next `<` and count
//! the content characters before it.
//!
//! The fast kernel classifies 64 bytes at a time, from where the run starts,
//! into bitmasks (one bit per byte: `<`, `&`, content character, non-ASCII
//! character) with vector compares and `movemask`: AVX2 where the CPU has
//! it, else SSE2 (part of the x86_64 baseline); other targets use
//! `crawlsift_simd`'s portable vector. A text run is then
//! counted with `popcount` over the masks, and the next `<` found with
//! `trailing_zeros`: per-tag work is scalar, per-byte work is branch-free.
//!
//! **Chosen at run time.** The build targets baseline x86-64, so a binary
//! runs on any x86-64 CPU. The byte kernels pay only when they are inlined
//! into the loops that call them (a call per 64-byte block or per tag costs
//! more than AVX2 gains), so the hot loops are compiled twice instead: each
//! loop is generic over an [`Isa`] token, and [`dispatch`] runs it either as
//! the baseline copy or inside a function compiled for AVX2 (with BMI1/2,
//! LZCNT and POPCNT), where the whole loop with its kernels inlines
//! (`crawlsift_simd`: the tokens, the dispatch and the byte vectors;
//! [`Kernels`]: this crate's byte kernels, written once over the vectors).
//!
//! A *content character* is a byte that is neither ASCII whitespace nor a
//! UTF-8 continuation byte, i.e. one non-whitespace character of UTF-8 text,
//! so a CJK character counts once. A *non-ASCII character* is a UTF-8 lead
//! byte (`>= 0xC0`). [`ReferenceCounter`] is the byte-at-a-time definition the
//! fast kernel is tested against.

/// The counts of one text run: the bytes from a position up to the next `<`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextRun {
    /// Offset of the next `<`, or the input length.
    pub end: usize,
    /// Content characters in the run (before entity adjustment).
    pub chars: u32,
    /// Non-ASCII characters in the run.
    pub non_ascii: u32,
    /// Whether the run holds a `&` (so entities may need adjusting).
    pub has_amp: bool,
}

/// Counts text runs. Implemented by the fast kernel and the reference.
pub trait TextCounter {
    /// The instruction set the tag recogniser uses beside this counter.
    type Isa: Isa;
    /// Counts from `from` up to the next `<` at or after `from`.
    fn text_run(&self, html: &[u8], from: usize) -> TextRun;
    /// The token of [`Self::Isa`].
    fn isa(&self) -> Self::Isa;
}

#[cfg(test)]
pub(crate) use crawlsift_simd::for_each_isa;
#[cfg(target_arch = "x86_64")]
pub use crawlsift_simd::Avx2;
pub use crawlsift_simd::{chosen, dispatch, Baseline, Isa, Task};
pub(crate) use crawlsift_simd::{Vector, V128};

/// The byte kernels of the hot loops that have a vector version, for every
/// instruction set [`dispatch`] may choose, written once over its widest
/// vector ([`Isa::Bytes`]), so a copy of a loop holds only its own kernels.
pub trait Kernels: Isa {
    /// Classifies a block.
    #[inline(always)]
    fn classify(self, block: &[u8; BLOCK]) -> BlockMasks {
        let len = Self::Bytes::LEN;
        let mut m = BlockMasks::default();
        for (lane, bytes) in block.chunks_exact(len).enumerate() {
            let v = Self::Bytes::load(self, bytes);
            let shift = lane * len;
            let space = v.eq(b' ') | v.eq(b'\t') | v.eq(b'\n') | v.eq(b'\r') | v.eq(0x0C);
            // The top two bits: 10 continues a character, 11 leads one.
            let high = v.and_byte(0xC0);
            m.lt |= u64::from(v.eq(b'<').mask()) << shift;
            m.amp |= u64::from(v.eq(b'&').mask()) << shift;
            m.content |= u64::from((!(space | high.eq(0x80))).mask()) << shift;
            m.non_ascii |= u64::from(high.eq(0xC0).mask()) << shift;
        }
        m
    }

    /// The first `>` at or after `from` and whether the quotes before it
    /// pair up, or `None` when no `>` comes before the last two vectors of
    /// the page (where the scalar search goes on): see
    /// `tags::first_gt_scalar`, the definition. Two vectors a step: most
    /// tags end within 32 bytes of their name, container tags' attributes
    /// average 46 bytes.
    #[inline(always)]
    fn first_gt(self, html: &[u8], from: usize) -> Option<(Option<usize>, bool)> {
        let len = Self::Bytes::LEN;
        let (mut double, mut single) = (0u64, 0u64);
        let mut at = from;
        loop {
            let chunk = html.get(at..)?.get(..2 * len)?;
            let (lo, hi) = (
                Self::Bytes::load(self, chunk),
                Self::Bytes::load(self, &chunk[len..]),
            );
            let gt = pair_mask(lo, hi, b'>');
            // The parity of the quotes before the `>` (all of the chunk's
            // when there is none).
            let before = gt.wrapping_sub(1) & !gt;
            double ^= pair_mask(lo, hi, b'"') & before;
            single ^= pair_mask(lo, hi, b'\'') & before;
            if gt != 0 {
                let paired = double.count_ones() % 2 == 0 && single.count_ones() % 2 == 0;
                return Some((Some(at + gt.trailing_zeros() as usize), paired));
            }
            at += 2 * len;
        }
    }

    /// The first `</` at or after `at`, or `Err` with where a `memmem`
    /// search must go on (within 64 bytes of the end of the page, or
    /// always without AVX2, where `memmem` is as fast): 64 positions a
    /// step, each `<` compared with the byte after it from a load one byte
    /// on.
    #[inline(always)]
    fn closing_start(self, html: &[u8], mut at: usize) -> Result<usize, usize> {
        if !Self::AVX2 {
            return Err(at);
        }
        let len = Self::Bytes::LEN;
        while let Some(bytes) = html.get(at..).and_then(|rest| rest.get(..2 * len + 1)) {
            let (lo, hi) = (
                lt_slash(self, &bytes[..=len]),
                lt_slash(self, &bytes[len..]),
            );
            if (lo | hi).any() {
                let mask = u64::from(lo.mask()) | u64::from(hi.mask()) << len;
                return Ok(at + mask.trailing_zeros() as usize);
            }
            at += 2 * len;
        }
        Err(at)
    }
}

impl<I: Isa> Kernels for I {}

// The kernels' helpers are functions, not closures: a closure is compiled
// without the target features of the copy it sits in, and its vector
// operations would not inline.

/// Bit `i` for the byte `b` at `i` of the two vectors `lo`, `hi`.
#[inline(always)]
fn pair_mask<V: Vector>(lo: V, hi: V, b: u8) -> u64 {
    u64::from(lo.eq(b).mask()) | u64::from(hi.eq(b).mask()) << V::LEN
}

/// The mask of the positions of `bytes` (one vector and a byte) where `</`
/// starts.
#[inline(always)]
fn lt_slash<I: Isa>(isa: I, bytes: &[u8]) -> I::Bytes {
    I::Bytes::load(isa, bytes).eq(b'<') & I::Bytes::load(isa, &bytes[1..]).eq(b'/')
}

/// Per-byte classes of one 64-byte block, one bit per byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlockMasks {
    /// Bytes that are `<`.
    pub lt: u64,
    /// Bytes that are `&`.
    pub amp: u64,
    /// Content characters: bytes neither ASCII whitespace nor continuation.
    pub content: u64,
    /// Non-ASCII characters: UTF-8 lead bytes (`>= 0xC0`).
    pub non_ascii: u64,
}

/// Block size of the kernel.
pub const BLOCK: usize = 64;

impl BlockMasks {
    /// Classifies a block one byte at a time: the definition.
    pub fn classify_scalar(block: &[u8; BLOCK]) -> BlockMasks {
        let mut m = BlockMasks::default();
        for (i, &b) in block.iter().enumerate() {
            let bit = 1u64 << i;
            if b == b'<' {
                m.lt |= bit;
            }
            if b == b'&' {
                m.amp |= bit;
            }
            if is_content_byte(b) {
                m.content |= bit;
            }
            if b >= 0xC0 {
                m.non_ascii |= bit;
            }
        }
        m
    }
}

/// A byte that starts a non-whitespace character.
#[inline]
pub fn is_content_byte(b: u8) -> bool {
    !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0C) && (b & 0xC0) != 0x80
}

/// The fast kernel: classifies the 64 bytes from where a run starts (an
/// unaligned block) and counts the run with popcount, 64 bytes a step.
/// Runs between tags are mostly short, so a run seldom needs a second
/// step; classifying the block afresh for each run costs less than the
/// mispredicted branch of a cache of the last aligned block.
#[derive(Clone, Copy, Debug, Default)]
pub struct BlockCounter<I: Isa = Baseline>(pub I);

/// The masks of the (at most) 64 bytes of `html` from `from`, bits past the
/// input's end cleared.
#[inline(always)]
fn masks_at<I: Isa>(isa: I, html: &[u8], from: usize) -> BlockMasks {
    let tail = html.get(from..).unwrap_or_default();
    match tail.first_chunk::<BLOCK>() {
        Some(block) => isa.classify(block),
        None => {
            let padded: [u8; BLOCK] = super::padded(tail, 0);
            // The tail is shorter than a block, so the shift cannot overflow.
            let valid = (1u64 << tail.len().min(BLOCK - 1)) - 1;
            let m = isa.classify(&padded);
            BlockMasks {
                lt: m.lt & valid,
                amp: m.amp & valid,
                content: m.content & valid,
                non_ascii: m.non_ascii & valid,
            }
        }
    }
}

impl<I: Isa> TextCounter for BlockCounter<I> {
    type Isa = I;

    #[inline]
    fn isa(&self) -> I {
        self.0
    }

    // Always inlined: into the copy of the loop that calls it, whose
    // instructions the classifier needs.
    #[inline(always)]
    fn text_run(&self, html: &[u8], from: usize) -> TextRun {
        let mut run = TextRun {
            end: html.len(),
            ..TextRun::default()
        };
        let mut pos = from;
        while pos < html.len() {
            let m = masks_at(self.0, html, pos);
            // The bits before the first `<` (all of them when there is none).
            let take = m.lt.wrapping_sub(1) & !m.lt;
            run.chars += (m.content & take).count_ones();
            run.non_ascii += (m.non_ascii & take).count_ones();
            run.has_amp |= m.amp & take != 0;
            if m.lt != 0 {
                run.end = pos + m.lt.trailing_zeros() as usize;
                return run;
            }
            pos += BLOCK;
        }
        run
    }
}

/// The scalar reference: one byte at a time, no masks.
#[derive(Debug, Default)]
pub struct ReferenceCounter;

impl TextCounter for ReferenceCounter {
    type Isa = Baseline;

    fn isa(&self) -> Baseline {
        Baseline
    }

    fn text_run(&self, html: &[u8], from: usize) -> TextRun {
        let mut run = TextRun {
            end: html.len(),
            ..TextRun::default()
        };
        for (i, &b) in html.iter().enumerate().skip(from) {
            if b == b'<' {
                run.end = i;
                break;
            }
            run.chars += u32::from(is_content_byte(b));
            run.non_ascii += u32::from(b >= 0xC0);
            run.has_amp |= b == b'&';
        }
        run
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Bytes biased towards the classes the kernel distinguishes.
    fn html_ish() -> impl Strategy<Value = Vec<u8>> {
        let byte = prop_oneof![
            Just(b'<'),
            Just(b'&'),
            Just(b' '),
            Just(b'\n'),
            Just(b'a'),
            0x80u8..0xC0,
            0xC0u8..=0xFF,
            any::<u8>(),
        ];
        proptest::collection::vec(byte, 0..400)
    }

    proptest! {
        #[test]
        fn masks_equal_scalar(block in proptest::collection::vec(any::<u8>(), BLOCK)) {
            let block: &[u8; BLOCK] = bytemuck::from_bytes(&block);
            let scalar = BlockMasks::classify_scalar(block);
            prop_assert_eq!(Baseline.classify(block), scalar);
            #[cfg(target_arch = "x86_64")]
            if let Some(avx2) = Avx2::new() {
                prop_assert_eq!(avx2.classify(block), scalar);
            }
        }

        #[test]
        fn block_counter_equals_reference(html in html_ish(), from in 0usize..400) {
            let from = from.min(html.len());
            let reference = ReferenceCounter.text_run(&html, from);
            prop_assert_eq!(BlockCounter(Baseline).text_run(&html, from), reference);
            #[cfg(target_arch = "x86_64")]
            if let Some(avx2) = Avx2::new() {
                prop_assert_eq!(BlockCounter(avx2).text_run(&html, from), reference);
            }
        }
    }

    #[test]
    fn counts_characters_not_bytes() {
        let html = "ab ç 中文\n<p>".as_bytes();
        let run = BlockCounter(Baseline).text_run(html, 0);
        assert_eq!(run.end, html.len() - 3);
        assert_eq!(run.chars, 5);
        assert_eq!(run.non_ascii, 3);
    }
}
