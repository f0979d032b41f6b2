//! The portable byte vector: [`V128`] as 16 bytes in an array, each method
//! a loop over them. The vector of targets other than x86-64, and the
//! definition the x86-64 vectors are tested against.

use crate::{Baseline, Vector};
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// 16 bytes, one operation a byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct V128([u8; 16]);

impl V128 {
    /// Each byte `f` of the byte of `self`.
    #[inline(always)]
    fn map(self, f: impl Fn(u8) -> u8) -> V128 {
        V128(self.0.map(f))
    }

    /// Each byte `f` of the bytes of `self` and `other` at its place.
    #[inline(always)]
    fn zip(self, other: V128, f: impl Fn(u8, u8) -> u8) -> V128 {
        V128(std::array::from_fn(|i| f(self.0[i], other.0[i])))
    }
}

/// 0xFF when `yes`, else 0: a byte of a mask.
#[inline(always)]
fn lane(yes: bool) -> u8 {
    if yes {
        0xFF
    } else {
        0
    }
}

impl Vector for V128 {
    const LEN: usize = 16;
    type Token = Baseline;

    #[inline(always)]
    fn splat(_: Baseline, b: u8) -> V128 {
        V128([b; 16])
    }

    #[inline(always)]
    fn load(_: Baseline, bytes: &[u8]) -> V128 {
        let mut v = [0; 16];
        v.copy_from_slice(&bytes[..16]);
        V128(v)
    }

    #[inline(always)]
    fn store(self, out: &mut [u8]) {
        out[..16].copy_from_slice(&self.0);
    }

    #[inline(always)]
    fn eq(self, b: u8) -> V128 {
        self.map(|x| lane(x == b))
    }

    #[inline(always)]
    fn in_range(self, from: u8, len: u8) -> V128 {
        self.map(|x| lane(x.wrapping_sub(from) < len))
    }

    #[inline(always)]
    fn in_ascii_range(self, lo: u8, hi: u8) -> V128 {
        debug_assert!(lo > 0 && hi < 0x7F);
        self.map(|x| lane((lo..=hi).contains(&x)))
    }

    #[inline(always)]
    fn at_most(self, b: u8) -> V128 {
        self.map(|x| lane(x <= b))
    }

    #[inline(always)]
    fn or_byte(self, b: u8) -> V128 {
        self.map(|x| x | b)
    }

    #[inline(always)]
    fn and_byte(self, b: u8) -> V128 {
        self.map(|x| x & b)
    }

    #[inline(always)]
    fn select(self, if_set: V128, if_clear: V128) -> V128 {
        (self & if_set) | (!self & if_clear)
    }

    #[inline(always)]
    fn mask(self) -> u32 {
        self.0
            .iter()
            .enumerate()
            .fold(0, |bits, (i, &x)| bits | u32::from(x >> 7) << i)
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
        self.zip(other, |a, b| a & b)
    }
}

impl BitOr for V128 {
    type Output = V128;
    #[inline(always)]
    fn bitor(self, other: V128) -> V128 {
        self.zip(other, |a, b| a | b)
    }
}

impl BitXor for V128 {
    type Output = V128;
    #[inline(always)]
    fn bitxor(self, other: V128) -> V128 {
        self.zip(other, |a, b| a ^ b)
    }
}

impl Not for V128 {
    type Output = V128;
    #[inline(always)]
    fn not(self) -> V128 {
        self.map(|x| !x)
    }
}

/// [`crate::u32_matches`] key by key.
#[inline(always)]
pub fn u32_matches(keys: &[u32; 8], key: u32) -> u8 {
    keys.iter()
        .enumerate()
        .fold(0, |bits, (i, &k)| bits | u8::from(key == k) << i)
}
