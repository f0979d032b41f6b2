//! SSE2 (part of the x86-64 baseline): [`V128`], 16 bytes, and the
//! eight-way `u32` compare.

use crate::{Baseline, Vector};
use std::arch::x86_64::*;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// 16 bytes in an SSE2 register. Every x86-64 CPU has SSE2, so each
/// method is safe.
#[derive(Clone, Copy, Debug)]
pub struct V128(__m128i);

// SAFETY (every `unsafe` block of this module): SSE2 is part of the
// x86-64 baseline; loads and stores touch the 16 bytes a bounds check
// just granted.

impl Vector for V128 {
    const LEN: usize = 16;
    type Token = Baseline;

    #[inline(always)]
    fn splat(_: Baseline, b: u8) -> V128 {
        V128(unsafe { _mm_set1_epi8(b as i8) })
    }

    #[inline(always)]
    fn load(_: Baseline, bytes: &[u8]) -> V128 {
        let bytes = &bytes[..16];
        V128(unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self, out: &mut [u8]) {
        let out = &mut out[..16];
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    fn eq(self, b: u8) -> V128 {
        V128(unsafe { _mm_cmpeq_epi8(self.0, _mm_set1_epi8(b as i8)) })
    }

    #[inline(always)]
    fn in_range(self, from: u8, len: u8) -> V128 {
        // Signed compares after flipping the top bit of the offsets.
        unsafe {
            let offset = _mm_xor_si128(
                _mm_sub_epi8(self.0, _mm_set1_epi8(from as i8)),
                _mm_set1_epi8(0x80u8 as i8),
            );
            V128(_mm_cmplt_epi8(offset, _mm_set1_epi8((len ^ 0x80) as i8)))
        }
    }

    #[inline(always)]
    fn in_ascii_range(self, lo: u8, hi: u8) -> V128 {
        debug_assert!(lo > 0 && hi < 0x7F);
        // Signed compares: a byte from 0x80 is negative, in no range.
        unsafe {
            V128(_mm_and_si128(
                _mm_cmpgt_epi8(self.0, _mm_set1_epi8(lo as i8 - 1)),
                _mm_cmplt_epi8(self.0, _mm_set1_epi8(hi as i8 + 1)),
            ))
        }
    }

    #[inline(always)]
    fn at_most(self, b: u8) -> V128 {
        // Unsigned: the minimum of the byte and `b` is the byte.
        unsafe {
            V128(_mm_cmpeq_epi8(
                _mm_min_epu8(self.0, _mm_set1_epi8(b as i8)),
                self.0,
            ))
        }
    }

    #[inline(always)]
    fn or_byte(self, b: u8) -> V128 {
        V128(unsafe { _mm_or_si128(self.0, _mm_set1_epi8(b as i8)) })
    }

    #[inline(always)]
    fn and_byte(self, b: u8) -> V128 {
        V128(unsafe { _mm_and_si128(self.0, _mm_set1_epi8(b as i8)) })
    }

    #[inline(always)]
    fn select(self, if_set: V128, if_clear: V128) -> V128 {
        unsafe {
            V128(_mm_or_si128(
                _mm_and_si128(self.0, if_set.0),
                _mm_andnot_si128(self.0, if_clear.0),
            ))
        }
    }

    #[inline(always)]
    fn mask(self) -> u32 {
        unsafe { _mm_movemask_epi8(self.0) as u32 }
    }

    #[inline(always)]
    fn any(self) -> bool {
        self.mask() != 0
    }
}

impl BitAnd for V128 {
    type Output = V128;
    #[inline(always)]
    fn bitand(self, other: V128) -> V128 {
        V128(unsafe { _mm_and_si128(self.0, other.0) })
    }
}

impl BitOr for V128 {
    type Output = V128;
    #[inline(always)]
    fn bitor(self, other: V128) -> V128 {
        V128(unsafe { _mm_or_si128(self.0, other.0) })
    }
}

impl BitXor for V128 {
    type Output = V128;
    #[inline(always)]
    fn bitxor(self, other: V128) -> V128 {
        V128(unsafe { _mm_xor_si128(self.0, other.0) })
    }
}

impl Not for V128 {
    type Output = V128;
    #[inline(always)]
    fn not(self) -> V128 {
        V128(unsafe { _mm_xor_si128(self.0, _mm_set1_epi8(-1)) })
    }
}

/// [`crate::u32_matches`]: `key` against the eight keys in two compares,
/// the lanes packed to bytes for one `movemask`.
#[inline(always)]
pub fn u32_matches(keys: &[u32; 8], key: u32) -> u8 {
    // SAFETY: SSE2 is part of the x86-64 baseline; the loads read the
    // 32 bytes of `keys`.
    unsafe {
        let keys = keys.as_ptr().cast::<__m128i>();
        let word = _mm_set1_epi32(key as i32);
        let low = _mm_cmpeq_epi32(word, _mm_loadu_si128(keys));
        let high = _mm_cmpeq_epi32(word, _mm_loadu_si128(keys.add(1)));
        // Lane i of the eight 16-bit and then 8-bit lanes: key i.
        let lanes = _mm_packs_epi16(_mm_packs_epi32(low, high), _mm_setzero_si128());
        _mm_movemask_epi8(lanes) as u8
    }
}
