//! AVX2: [`V256`], 32 bytes.

use crate::{Avx2, Vector};
use std::arch::x86_64::*;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// 32 bytes in an AVX2 register. A value is made only from an [`Avx2`]
/// token, so it proves the CPU runs AVX2 and each method is safe.
///
/// The methods are `#[inline(always)]` without `#[target_feature]`, as
/// memchr's vectors: the intrinsics inline where they are called from a
/// function compiled for AVX2 (a task [`crate::dispatch`] runs in its AVX2
/// copy), and are calls elsewhere.
#[derive(Clone, Copy, Debug)]
pub struct V256(__m256i);

// SAFETY (every `unsafe` block of this module): a `V256` exists only on a
// CPU with AVX2 (made from an `Avx2` token); loads and stores touch the 32
// bytes a bounds check just granted.

impl Vector for V256 {
    const LEN: usize = 32;
    type Token = Avx2;

    #[inline(always)]
    fn splat(_: Avx2, b: u8) -> V256 {
        V256(unsafe { _mm256_set1_epi8(b as i8) })
    }

    #[inline(always)]
    fn load(_: Avx2, bytes: &[u8]) -> V256 {
        let bytes = &bytes[..32];
        V256(unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self, out: &mut [u8]) {
        let out = &mut out[..32];
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    fn eq(self, b: u8) -> V256 {
        V256(unsafe { _mm256_cmpeq_epi8(self.0, _mm256_set1_epi8(b as i8)) })
    }

    #[inline(always)]
    fn in_range(self, from: u8, len: u8) -> V256 {
        // Signed compares after flipping the top bit of the offsets.
        unsafe {
            let offset = _mm256_xor_si256(
                _mm256_sub_epi8(self.0, _mm256_set1_epi8(from as i8)),
                _mm256_set1_epi8(0x80u8 as i8),
            );
            V256(_mm256_cmpgt_epi8(
                _mm256_set1_epi8((len ^ 0x80) as i8),
                offset,
            ))
        }
    }

    #[inline(always)]
    fn in_ascii_range(self, lo: u8, hi: u8) -> V256 {
        debug_assert!(lo > 0 && hi < 0x7F);
        // Signed compares: a byte from 0x80 is negative, in no range.
        unsafe {
            V256(_mm256_and_si256(
                _mm256_cmpgt_epi8(self.0, _mm256_set1_epi8(lo as i8 - 1)),
                _mm256_cmpgt_epi8(_mm256_set1_epi8(hi as i8 + 1), self.0),
            ))
        }
    }

    #[inline(always)]
    fn at_most(self, b: u8) -> V256 {
        // Unsigned: the minimum of the byte and `b` is the byte.
        unsafe {
            V256(_mm256_cmpeq_epi8(
                _mm256_min_epu8(self.0, _mm256_set1_epi8(b as i8)),
                self.0,
            ))
        }
    }

    #[inline(always)]
    fn or_byte(self, b: u8) -> V256 {
        V256(unsafe { _mm256_or_si256(self.0, _mm256_set1_epi8(b as i8)) })
    }

    #[inline(always)]
    fn and_byte(self, b: u8) -> V256 {
        V256(unsafe { _mm256_and_si256(self.0, _mm256_set1_epi8(b as i8)) })
    }

    #[inline(always)]
    fn select(self, if_set: V256, if_clear: V256) -> V256 {
        unsafe {
            V256(_mm256_or_si256(
                _mm256_and_si256(self.0, if_set.0),
                _mm256_andnot_si256(self.0, if_clear.0),
            ))
        }
    }

    #[inline(always)]
    fn mask(self) -> u32 {
        unsafe { _mm256_movemask_epi8(self.0) as u32 }
    }

    #[inline(always)]
    fn any(self) -> bool {
        unsafe { _mm256_testz_si256(self.0, self.0) == 0 }
    }
}

impl BitAnd for V256 {
    type Output = V256;
    #[inline(always)]
    fn bitand(self, other: V256) -> V256 {
        V256(unsafe { _mm256_and_si256(self.0, other.0) })
    }
}

impl BitOr for V256 {
    type Output = V256;
    #[inline(always)]
    fn bitor(self, other: V256) -> V256 {
        V256(unsafe { _mm256_or_si256(self.0, other.0) })
    }
}

impl BitXor for V256 {
    type Output = V256;
    #[inline(always)]
    fn bitxor(self, other: V256) -> V256 {
        V256(unsafe { _mm256_xor_si256(self.0, other.0) })
    }
}

impl Not for V256 {
    type Output = V256;
    #[inline(always)]
    fn not(self) -> V256 {
        V256(unsafe { _mm256_xor_si256(self.0, _mm256_set1_epi8(-1)) })
    }
}
