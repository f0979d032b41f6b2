//! The counting kernel: from a position in text, find the next `<` and count
//! the content characters before it.
//!
//! The fast kernel classifies 64 bytes at a time, from where the run starts,
//! into bitmasks (one bit per byte: `<`, `&`, content character, non-ASCII
//! character) with vector compares and `movemask`: AVX2 where the CPU has
//! it, else SSE2 (part of the x86_64 baseline); other targets use the
//! scalar classifier, which LLVM vectorises less well. A text run is then
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
//! (`crawlsift_simd`: the tokens and the dispatch; [`Kernels`]: this
//! crate's byte kernels for each).
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
pub(super) use crawlsift_simd::x86::{avx2, sse2};
#[cfg(target_arch = "x86_64")]
pub use crawlsift_simd::Avx2;
pub use crawlsift_simd::{chosen, dispatch, Baseline, Isa, Task};

/// The byte kernels of the hot loops that have a vector version, for every
/// instruction set [`dispatch`] may choose: each branches on the constant
/// [`Isa::AVX2`], so a copy of a loop holds only its own kernels.
pub trait Kernels: Isa {
    /// Classifies a block.
    #[inline(always)]
    fn classify(self, block: &[u8; BLOCK]) -> BlockMasks {
        #[cfg(target_arch = "x86_64")]
        {
            if Self::AVX2 {
                // SAFETY: a token with `AVX2` exists only on a CPU with AVX2
                // (the trait is sealed); the loads read exactly the 64
                // bytes of `block`.
                unsafe { classify_avx2(block) }
            } else {
                // SAFETY: SSE2 is part of the x86_64 baseline; the loads
                // read exactly the 64 bytes of `block`.
                unsafe { classify_sse2(block) }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            BlockMasks::classify_scalar(block)
        }
    }

    /// The first `>` at or after `from` and whether the quotes before it
    /// pair up, or `None` when the vector search cannot tell (within a
    /// chunk of the end of the page, or no vector search on this target):
    /// see `tags::first_gt_scalar`, the definition.
    #[inline(always)]
    fn first_gt(self, html: &[u8], from: usize) -> Option<(Option<usize>, bool)> {
        #[cfg(target_arch = "x86_64")]
        {
            if Self::AVX2 {
                // SAFETY: a token with `AVX2` exists only on a CPU with AVX2.
                unsafe { first_gt_avx2(html, from) }
            } else {
                // SAFETY: SSE2 is part of the x86_64 baseline.
                unsafe { first_gt_sse2(html, from) }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (html, from);
            None
        }
    }

    /// The first `</` at or after `at`, or `Err` with where a `memmem`
    /// search must go on (within 64 bytes of the end of the page).
    #[inline(always)]
    fn closing_start(self, html: &[u8], at: usize) -> Result<usize, usize> {
        #[cfg(target_arch = "x86_64")]
        if Self::AVX2 {
            // SAFETY: a token with `AVX2` exists only on a CPU with AVX2.
            return unsafe { closing_start_avx2(html, at) };
        }
        let _ = html;
        Err(at)
    }
}

impl<I: Isa> Kernels for I {}

// The tag recogniser's vector searches (`tags.rs` has their scalar
// definitions).

/// The walk the vector versions of [`super::tags::first_gt_scalar`] share: `masks` gives
/// the `>`, `"` and `'` bitmasks of a chunk of `N` bytes, and the parity of
/// a count is the parity of the XOR of the chunks' masks. `None` when no `>`
/// comes before the last `N` bytes of the page.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn first_gt_by<const N: usize>(
    html: &[u8],
    from: usize,
    masks: impl Fn(&[u8; N]) -> [u64; 3],
) -> Option<(Option<usize>, bool)> {
    let (mut double, mut single) = (0u64, 0u64);
    let mut at = from;
    loop {
        let [gt, quote, apostrophe] = masks(html.get(at..)?.first_chunk::<N>()?);
        let before = gt.wrapping_sub(1) & !gt;
        double ^= quote & before;
        single ^= apostrophe & before;
        if gt != 0 {
            let paired = double.count_ones() % 2 == 0 && single.count_ones() % 2 == 0;
            return Some((Some(at + gt.trailing_zeros() as usize), paired));
        }
        at += N;
    }
}

/// [`super::tags::first_gt_scalar`] 32 bytes a step (most tags end within 32 bytes of
/// their name).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
pub(super) fn first_gt_sse2(html: &[u8], from: usize) -> Option<(Option<usize>, bool)> {
    use sse2::splat;
    use std::arch::x86_64::*;
    first_gt_by::<32>(html, from, |chunk| {
        // SAFETY: the loads read the 32 bytes of `chunk`.
        let (lo, hi) = unsafe {
            let p = chunk.as_ptr();
            (_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(16).cast()))
        };
        let mask = |b: u8| {
            let (lo, hi) = (_mm_cmpeq_epi8(lo, splat(b)), _mm_cmpeq_epi8(hi, splat(b)));
            u64::from(_mm_movemask_epi8(lo) as u32 | (_mm_movemask_epi8(hi) as u32) << 16)
        };
        [mask(b'>'), mask(b'"'), mask(b'\'')]
    })
}

/// [`super::tags::first_gt_scalar`] 64 bytes a step, with 32-byte compares (container
/// tags' attributes average 46 bytes).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn first_gt_avx2(html: &[u8], from: usize) -> Option<(Option<usize>, bool)> {
    use avx2::splat;
    use std::arch::x86_64::*;
    first_gt_by::<64>(html, from, |chunk| {
        // SAFETY: the loads read the 64 bytes of `chunk`.
        let (lo, hi) = unsafe {
            let p = chunk.as_ptr();
            (
                _mm256_loadu_si256(p.cast()),
                _mm256_loadu_si256(p.add(32).cast()),
            )
        };
        let mask = |b: u8| {
            let lo = _mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, splat(b))) as u32;
            let hi = _mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, splat(b))) as u32;
            u64::from(lo) | u64::from(hi) << 32
        };
        [mask(b'>'), mask(b'"'), mask(b'\'')]
    })
}

/// `tags::next_closing_start` 64 positions a step, each `<` compared with the
/// byte after it from a load one byte on; `Err` with where to go on when
/// fewer than 65 bytes are left.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn closing_start_avx2(html: &[u8], mut at: usize) -> Result<usize, usize> {
    use avx2::splat;
    use std::arch::x86_64::*;
    while let Some(bytes) = html.get(at..).and_then(|rest| rest.first_chunk::<65>()) {
        let pair = |i: usize| {
            // SAFETY: the loads read bytes `i .. i + 33` of the 65 of `bytes`.
            let (lt, slash) = unsafe {
                let p = bytes.as_ptr().add(i);
                (
                    _mm256_loadu_si256(p.cast()),
                    _mm256_loadu_si256(p.add(1).cast()),
                )
            };
            _mm256_and_si256(
                _mm256_cmpeq_epi8(lt, splat(b'<')),
                _mm256_cmpeq_epi8(slash, splat(b'/')),
            )
        };
        let (lo, hi) = (pair(0), pair(32));
        if _mm256_testz_si256(_mm256_or_si256(lo, hi), _mm256_or_si256(lo, hi)) == 0 {
            let mask = u64::from(_mm256_movemask_epi8(lo) as u32)
                | u64::from(_mm256_movemask_epi8(hi) as u32) << 32;
            return Ok(at + mask.trailing_zeros() as usize);
        }
        at += 64;
    }
    Err(at)
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

#[cfg(target_arch = "x86_64")]
#[inline]
unsafe fn classify_sse2(block: &[u8; BLOCK]) -> BlockMasks {
    use std::arch::x86_64::*;
    let splat = |b: u8| _mm_set1_epi8(b as i8);
    let (lt_c, amp_c, sp, tab, lf, cr, ff) = (
        splat(b'<'),
        splat(b'&'),
        splat(b' '),
        splat(b'\t'),
        splat(b'\n'),
        splat(b'\r'),
        splat(0x0C),
    );
    let (top2, cont, lead) = (splat(0xC0), splat(0x80), splat(0xC0));
    let mut m = BlockMasks::default();
    for lane in 0..4 {
        let v = _mm_loadu_si128(block.as_ptr().add(lane * 16).cast());
        let bits = |x: __m128i| (_mm_movemask_epi8(x) as u32 as u64) << (lane * 16);
        let ws = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, tab)),
            _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)),
                _mm_cmpeq_epi8(v, ff),
            ),
        );
        let high = _mm_and_si128(v, top2);
        let not_content = _mm_or_si128(ws, _mm_cmpeq_epi8(high, cont));
        m.lt |= bits(_mm_cmpeq_epi8(v, lt_c));
        m.amp |= bits(_mm_cmpeq_epi8(v, amp_c));
        m.content |= bits(_mm_xor_si128(not_content, _mm_set1_epi8(-1)));
        m.non_ascii |= bits(_mm_cmpeq_epi8(high, lead));
    }
    m
}

/// [`classify_sse2`] 32 bytes at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn classify_avx2(block: &[u8; BLOCK]) -> BlockMasks {
    use avx2::splat;
    use std::arch::x86_64::*;
    let mut m = BlockMasks::default();
    for lane in 0..2 {
        let v = _mm256_loadu_si256(block.as_ptr().add(lane * 32).cast());
        let bits = |x: __m256i| (_mm256_movemask_epi8(x) as u32 as u64) << (lane * 32);
        let eq = |b: u8| _mm256_cmpeq_epi8(v, splat(b));
        let ws = _mm256_or_si256(
            _mm256_or_si256(eq(b' '), eq(b'\t')),
            _mm256_or_si256(_mm256_or_si256(eq(b'\n'), eq(b'\r')), eq(0x0C)),
        );
        let high = _mm256_and_si256(v, splat(0xC0));
        let not_content = _mm256_or_si256(ws, _mm256_cmpeq_epi8(high, splat(0x80)));
        m.lt |= bits(eq(b'<'));
        m.amp |= bits(eq(b'&'));
        m.content |= bits(_mm256_xor_si256(not_content, splat(0xFF)));
        m.non_ascii |= bits(_mm256_cmpeq_epi8(high, splat(0xC0)));
    }
    m
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
#[inline]
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

    #[inline]
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
