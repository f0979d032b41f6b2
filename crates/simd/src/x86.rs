//! Vector helpers shared by the byte kernels of several crates, one module
//! per instruction set.

/// AVX2 helpers.
pub mod avx2 {
    use std::arch::x86_64::*;

    /// `b` in every byte.
    ///
    /// # Safety
    /// The CPU must have AVX2 (called from a function compiled for it, as
    /// an [`crate::Avx2`] token proves).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn splat(b: u8) -> __m256i {
        _mm256_set1_epi8(b as i8)
    }
}

/// SSE2 helpers (SSE2 is part of the x86-64 baseline).
pub mod sse2 {
    use std::arch::x86_64::*;

    /// `b` in every byte.
    ///
    /// # Safety
    /// None beyond running on x86-64: SSE2 is part of its baseline.
    #[target_feature(enable = "sse2")]
    #[inline]
    pub fn splat(b: u8) -> __m128i {
        _mm_set1_epi8(b as i8)
    }

    /// Bytes of `v` with `from <= byte < from + len` (unsigned), as signed
    /// compares after flipping the top bit.
    ///
    /// # Safety
    /// None beyond running on x86-64: SSE2 is part of its baseline.
    #[target_feature(enable = "sse2")]
    #[inline]
    pub fn in_range(v: __m128i, from: u8, len: u8) -> __m128i {
        let offset = _mm_xor_si128(_mm_sub_epi8(v, splat(from)), splat(0x80));
        _mm_cmplt_epi8(offset, splat(len ^ 0x80))
    }
}
