//! Python's `str.splitlines`, its line breaks found 16 bytes at a time.

use crawlsift_simd::{Baseline, Vector, V128};

/// Python's `str.splitlines()`: lines split at `\n`, `\r\n`, `\r`, `\v`, `\f`,
/// U+001C–U+001E, U+0085, U+2028, U+2029; no empty last line after a final
/// break.
pub(crate) fn splitlines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match next_line_break(rest.as_bytes()) {
            Some((at, width)) => {
                let line = &rest[..at];
                rest = &rest[at + width..];
                Some(line)
            }
            None => {
                let line = rest;
                rest = "";
                Some(line)
            }
        }
    })
}

/// The byte spans of [`splitlines`]' lines of `text`, into `out` (once per
/// text for the rule sets that read them: Gopher quality and C4).
pub(crate) fn line_spans(text: &str, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let base = text.as_ptr() as usize;
    out.extend(splitlines(text).map(|line| {
        let start = line.as_ptr() as usize - base;
        (start, start + line.len())
    }));
}

/// The first line break of [`splitlines`] in `bytes`: its offset and
/// width. Bytes, not chars: in UTF-8, C2 85 is only U+0085 and E2 80
/// A8/A9 only U+2028/U+2029. The candidates (a byte below 0x20, a 0xC2 or
/// a 0xE2, [`break_candidates`]) are found 16 bytes at a time and each is
/// checked; a tab or a curly quote is a candidate and no break, and the
/// search goes on from the next one.
#[inline]
pub(super) fn next_line_break(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut at = 0;
    while at < bytes.len() {
        let mut candidates = break_candidates(bytes, at);
        while candidates != 0 {
            let i = at + candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let next = |k: usize| bytes.get(i + k).copied();
            let width = match bytes[i] {
                b'\r' if next(1) == Some(b'\n') => 2,
                b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1e => 1,
                0xc2 if next(1) == Some(0x85) => 2,
                0xe2 if next(1) == Some(0x80) && matches!(next(2), Some(0xa8 | 0xa9)) => 3,
                _ => continue,
            };
            return Some((i, width));
        }
        at += 16;
    }
    None
}

/// One bit per byte of the (at most) 16 bytes of `bytes` from `at` that
/// may start a line break: below 0x20, 0xC2 or 0xE2.
#[inline(always)]
pub(super) fn break_candidates(bytes: &[u8], at: usize) -> u32 {
    let tail = &bytes[at..];
    let block = match tail.first_chunk::<16>() {
        Some(block) => *block,
        None => {
            // Padded with a byte that is no candidate.
            let mut padded = [b' '; 16];
            padded[..tail.len()].copy_from_slice(tail);
            padded
        }
    };
    break_candidates_in(&block)
}

/// [`break_candidates`] of a whole block.
#[inline(always)]
pub(super) fn break_candidates_in(block: &[u8; 16]) -> u32 {
    let v = V128::load(Baseline, block);
    (v.at_most(0x1f) | v.eq(0xc2) | v.eq(0xe2)).mask()
}

/// [`break_candidates_in`] byte by byte: the definition.
#[cfg(test)]
pub(super) fn break_candidates_scalar(block: &[u8; 16]) -> u32 {
    block
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b < 0x20 || b == 0xc2 || b == 0xe2)
        .fold(0, |bits, (k, _)| bits | 1 << k)
}
