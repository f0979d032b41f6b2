//! Run-time choice of instruction set for crawlsift's hot loops, in the
//! pattern of memchr: one portable build, the fast copy chosen once per
//! process.
//!
//! The build targets baseline x86-64, so a binary runs on any x86-64 CPU.
//! Byte kernels pay only when they are inlined into the loops that call
//! them (a call per 64-byte block costs more than AVX2 gains), so the hot
//! loops are compiled twice instead: each loop is a [`Task`], generic over
//! an [`Isa`] token, and [`dispatch`] runs it either as the baseline copy or
//! inside a function compiled for AVX2 (with BMI1/2, LZCNT and POPCNT),
//! where the whole loop with its kernels inlines. Which copy runs is decided
//! once per process ([`Avx2::new`]); `CRAWLSIFT_KERNELS=sse2` in the
//! environment forces the baseline copy (to compare the two).
//!
//! ```
//! use crawlsift_simd::{dispatch, Isa, Task};
//!
//! struct CountSpaces<'a>(&'a [u8]);
//! impl Task for CountSpaces<'_> {
//!     type Output = usize;
//!     #[inline(always)]
//!     fn run<I: Isa>(self, _isa: I) -> usize {
//!         self.0.iter().filter(|&&b| b == b' ').count()
//!     }
//! }
//! assert_eq!(dispatch(CountSpaces(b"a b c")), 2);
//! ```
//!
//! **Byte vectors.** The kernels are written once over [`Vector`], a
//! vector of bytes with the few operations they need (loads, "bytes equal
//! to" or "in a range" as masks, `movemask`), so they read as the
//! algorithm: [`Isa::Bytes`] is the widest vector of each instruction set
//! (SSE2's 16 bytes, AVX2's 32), and [`V128`] the 16 bytes every target
//! has (SSE2 on x86-64, [`scalar::V128`] elsewhere). The intrinsics live
//! in [`x86`], one module per instruction set, and nowhere else in the
//! workspace.
#![warn(missing_docs)]

pub mod scalar;
#[cfg(target_arch = "x86_64")]
pub mod x86;

use std::ops::{BitAnd, BitOr, BitXor, Not};

/// The 16-byte vector of every target: SSE2's on x86-64, else the portable
/// one.
#[cfg(not(target_arch = "x86_64"))]
pub use scalar::V128;
/// The 16-byte vector of every target: SSE2's on x86-64, else the portable
/// one.
#[cfg(target_arch = "x86_64")]
pub use x86::sse2::V128;

/// A vector of [`Vector::LEN`] bytes. A *mask* is a vector whose bytes are
/// each 0xFF or 0 (what the comparisons return); `!`, `&`, `|` and `^` work
/// byte by byte. Every method is `#[inline(always)]`: kernels are built
/// from them inside the loops of a [`Task`].
pub trait Vector:
    Copy
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// Bytes in a vector.
    const LEN: usize;
    /// The token whose value proves the CPU runs this vector's
    /// instructions.
    type Token: Isa;
    /// `b` in every byte.
    fn splat(token: Self::Token, b: u8) -> Self;
    /// The first [`Self::LEN`] bytes of `bytes`.
    ///
    /// # Panics
    /// When `bytes` is shorter (a check the callers' fixed-size blocks
    /// let the compiler drop).
    fn load(token: Self::Token, bytes: &[u8]) -> Self;
    /// Writes the vector to the first [`Self::LEN`] bytes of `out`.
    ///
    /// # Panics
    /// When `out` is shorter.
    fn store(self, out: &mut [u8]);
    /// The mask of the bytes equal to `b`.
    fn eq(self, b: u8) -> Self;
    /// The mask of the bytes `from <= byte < from + len` (unsigned, no
    /// wrap past 0xFF).
    fn in_range(self, from: u8, len: u8) -> Self;
    /// The mask of the bytes in `lo..=hi`, an ASCII range with `0 < lo` and
    /// `hi < 0x7F` (signed compares, which leave out every byte from 0x80).
    fn in_ascii_range(self, lo: u8, hi: u8) -> Self;
    /// The mask of the bytes `<= b` (unsigned).
    fn at_most(self, b: u8) -> Self;
    /// Each byte OR `b`.
    fn or_byte(self, b: u8) -> Self;
    /// Each byte AND `b`.
    fn and_byte(self, b: u8) -> Self;
    /// For a mask: the byte of `if_set` where the mask is set, else that
    /// of `if_clear`.
    fn select(self, if_set: Self, if_clear: Self) -> Self;
    /// The top bit of each byte, byte `i` as bit `i` (`movemask`): a mask's
    /// bytes as bits, or the bytes from 0x80 of any vector.
    fn mask(self) -> u32;
    /// For a mask: whether any byte is set.
    fn any(self) -> bool;
}

/// Bit `i` set when `keys[i] == key`: one word against eight in two
/// vector compares.
#[inline(always)]
pub fn u32_matches(keys: &[u32; 8], key: u32) -> u8 {
    #[cfg(target_arch = "x86_64")]
    {
        x86::sse2::u32_matches(keys, key)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        scalar::u32_matches(keys, key)
    }
}

mod sealed {
    /// Only this crate's tokens are instruction sets: [`super::Isa::AVX2`]
    /// is a promise about the CPU that no other type can make.
    pub trait Sealed {}
}

/// The instruction set a copy of the hot loops uses: a token, of which a
/// value exists only on a CPU that runs those instructions. Sealed: the
/// tokens are [`Baseline`] and (on x86-64) [`Avx2`].
pub trait Isa: sealed::Sealed + Copy + std::fmt::Debug {
    /// The name `crawlsift --version` shows.
    const NAME: &'static str;

    /// True for [`Avx2`]: a value of this type proves the CPU has AVX2,
    /// BMI1, BMI2, LZCNT and POPCNT, so kernels may branch on it (a
    /// constant, gone after monomorphisation) to call their AVX2 version.
    const AVX2: bool;

    /// The widest byte vector of this instruction set.
    type Bytes: Vector<Token = Self>;

    /// Runs `task` in a function compiled for this instruction set, which
    /// LLVM inlines into its caller or not as it would any function: how a
    /// function of the hot loops that is better left out of line is
    /// compiled once per copy.
    fn call<T: Task>(self, task: T) -> T::Output;
}

/// The baseline: SSE2 on x86_64 (part of every x86-64 CPU), the scalar
/// definitions elsewhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct Baseline;

impl sealed::Sealed for Baseline {}

impl Isa for Baseline {
    #[cfg(target_arch = "x86_64")]
    const NAME: &'static str = "sse2";
    #[cfg(not(target_arch = "x86_64"))]
    const NAME: &'static str = "scalar";
    const AVX2: bool = false;
    type Bytes = V128;

    #[inline(always)]
    fn call<T: Task>(self, task: T) -> T::Output {
        run_baseline(task, self)
    }
}

/// AVX2 with BMI1, BMI2, LZCNT and POPCNT (Intel since Haswell, AMD since
/// Excavator; each is checked): the token of the copy [`dispatch`]
/// compiles for them.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The token, when this CPU has the instructions (and `CRAWLSIFT_KERNELS`
    /// does not ask for the baseline). Detected at the first call, then a
    /// cached flag.
    #[inline]
    pub fn new() -> Option<Avx2> {
        use std::sync::atomic::{AtomicU8, Ordering};
        /// 0: not yet detected, 1: baseline, 2: AVX2.
        static CHOSEN: AtomicU8 = AtomicU8::new(0);
        let chosen = match CHOSEN.load(Ordering::Relaxed) {
            0 => {
                let chosen = if Self::detect() { 2 } else { 1 };
                CHOSEN.store(chosen, Ordering::Relaxed);
                chosen
            }
            chosen => chosen,
        };
        (chosen == 2).then_some(Avx2(()))
    }

    #[cold]
    fn detect() -> bool {
        let forced_baseline =
            std::env::var_os("CRAWLSIFT_KERNELS").is_some_and(|v| v == "sse2" || v == "baseline");
        !forced_baseline && x86::has_avx2_set()
    }
}

#[cfg(target_arch = "x86_64")]
impl sealed::Sealed for Avx2 {}

#[cfg(target_arch = "x86_64")]
impl Isa for Avx2 {
    const NAME: &'static str = "avx2";
    const AVX2: bool = true;
    type Bytes = x86::avx2::V256;

    #[inline(always)]
    fn call<T: Task>(self, task: T) -> T::Output {
        // SAFETY: the token exists only on a CPU with what `run_avx2` is
        // compiled for.
        unsafe { run_avx2(task, self) }
    }
}

/// A hot loop to run with the instruction set [`dispatch`] chooses.
pub trait Task {
    /// What the loop returns.
    type Output;
    /// Runs the loop with `isa`'s kernels. Implementations are
    /// `#[inline(always)]`, and so must be the loop they call, so that the
    /// loop and its kernels are compiled into each copy.
    fn run<I: Isa>(self, isa: I) -> Self::Output;
}

/// Runs `task` with the best instruction set this CPU has: its AVX2 copy
/// when [`Avx2::new`] gives the token, else its baseline copy. One cached
/// flag per call, so call it per page or per region, not per byte.
#[inline]
pub fn dispatch<T: Task>(task: T) -> T::Output {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = Avx2::new() {
        return avx2.call(task);
    }
    Baseline.call(task)
}

/// The baseline copy of `task`.
fn run_baseline<T: Task>(task: T, isa: Baseline) -> T::Output {
    task.run(isa)
}

/// The AVX2 copy of `task`: everything inlined into it is compiled for
/// these instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn run_avx2<T: Task>(task: T, isa: Avx2) -> T::Output {
    task.run(isa)
}

/// The features this build was compiled to use everywhere (`-C
/// target-cpu`, `-C target-feature`) that this CPU lacks: empty for the
/// portable build, which assumes only the x86-64 baseline. A program that
/// checks it first thing can say so instead of dying of an illegal
/// instruction.
pub fn missing_compiled_features() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        x86::missing_compiled_features()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

/// The name of the kernels [`dispatch`] runs on this CPU.
pub fn chosen() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if Avx2::new().is_some() {
        return Avx2::NAME;
    }
    Baseline::NAME
}

/// Runs `$body` with `$isa` bound to each instruction set's token this CPU
/// has: the tests of every copy [`dispatch`] may run.
#[doc(hidden)]
#[macro_export]
macro_rules! for_each_isa {
    (|$isa:ident| $body:block) => {{
        {
            let $isa = $crate::Baseline;
            $body
        }
        #[cfg(target_arch = "x86_64")]
        if let Some($isa) = $crate::Avx2::new() {
            $body
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both copies of a task run, and the chosen one is the CPU's best.
    #[test]
    fn dispatch_runs_the_chosen_copy() {
        struct Name;
        impl Task for Name {
            type Output = &'static str;
            #[inline(always)]
            fn run<I: Isa>(self, _isa: I) -> &'static str {
                I::NAME
            }
        }
        assert_eq!(dispatch(Name), chosen());
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            chosen() == "avx2",
            x86::has_avx2_set()
                && !std::env::var_os("CRAWLSIFT_KERNELS")
                    .is_some_and(|v| v == "sse2" || v == "baseline")
        );
        let mut names = Vec::new();
        for_each_isa!(|isa| {
            names.push(isa.call(Name));
        });
        assert_eq!(names[0], Baseline::NAME);
        assert_eq!(names.len(), 1 + usize::from(chosen() == "avx2"));
    }
}

#[cfg(test)]
mod vector_tests;
