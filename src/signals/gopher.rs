//! Gopher's quality and repetition rules (Rae et al. 2021, "Scaling Language
//! Models: Methods, Analysis & Insights from Training Gopher", §A.1.1 and
//! Table A1), with the parameters and the order of datatrove's
//! `GopherQualityFilter` and `GopherRepetitionFilter` (datatrove 0.10.1,
//! `pipeline/filters/gopher_{quality,repetition}_filter.py`). A page fails a
//! rule set at the first rule it breaks; the rule's name is datatrove's
//! reason string.
//!
//! Words are [`super::words`] tokens; lengths are in characters, as Python's
//! `len`. N-grams are compared by hashes of their words' hashes (datatrove
//! compares the joined strings; a collision of 64-bit hashes is negligible,
//! and `find_all_duplicate`'s joining without a separator, where `ab c` and
//! `a bc` are the same 2-gram, is not reproduced).

use super::words::{self, Token, ALPHA, NON_SYMBOL};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// `GopherQualityFilter`'s parameters (datatrove's defaults = the paper's).
pub mod quality {
    /// `min_doc_words`: fewer non-symbol words fail `gopher_short_doc`.
    pub const MIN_DOC_WORDS: usize = 50;
    /// `max_doc_words`: more non-symbol words fail `gopher_long_doc`.
    pub const MAX_DOC_WORDS: usize = 100_000;
    /// `min_avg_word_length`: `gopher_below_avg_threshold`.
    pub const MIN_AVG_WORD_LENGTH: f64 = 3.0;
    /// `max_avg_word_length`: `gopher_above_avg_threshold`.
    pub const MAX_AVG_WORD_LENGTH: f64 = 10.0;
    /// `max_symbol_word_ratio`: `#` per word (`gopher_too_many_hashes`) and
    /// `...`/`…` per word (`gopher_too_many_ellipsis`).
    pub const MAX_SYMBOL_WORD_RATIO: f64 = 0.1;
    /// `max_bullet_lines_ratio`: lines starting with `•` or `-`
    /// (`gopher_too_many_bullets`).
    pub const MAX_BULLET_LINES_RATIO: f64 = 0.9;
    /// `max_ellipsis_lines_ratio`: lines ending with `...` or `…`
    /// (`gopher_too_many_end_ellipsis`).
    pub const MAX_ELLIPSIS_LINES_RATIO: f64 = 0.3;
    /// `max_non_alpha_words_ratio`: fewer words with a letter fail
    /// `gopher_below_alpha_threshold`.
    pub const MIN_ALPHA_WORDS_RATIO: f64 = 0.8;
    /// `min_stop_words`: fewer distinct stop words fail `gopher_enough_stop_words`.
    pub const MIN_STOP_WORDS: usize = 2;
    /// `STOP_WORDS` (case-sensitive, as datatrove compares them).
    pub const STOP_WORDS: [&str; 8] = ["the", "be", "to", "of", "and", "that", "have", "with"];
}

/// `GopherRepetitionFilter`'s parameters (Table A1 of the paper).
pub mod repetition {
    /// `dup_para_frac`: duplicate paragraphs / paragraphs.
    pub const DUP_PARA_FRAC: f64 = 0.3;
    /// `dup_para_char_frac`: characters in duplicate paragraphs / characters.
    pub const DUP_PARA_CHAR_FRAC: f64 = 0.2;
    /// `dup_line_frac`: duplicate lines / lines.
    pub const DUP_LINE_FRAC: f64 = 0.3;
    /// `dup_line_char_frac`: characters in duplicate lines / characters.
    pub const DUP_LINE_CHAR_FRAC: f64 = 0.2;
    /// `top_n_grams`: (n, maximum fraction of characters in the most
    /// frequent n-gram).
    pub const TOP_N_GRAMS: [(usize, f64); 3] = [(2, 0.2), (3, 0.18), (4, 0.16)];
    /// `dup_n_grams`: (n, maximum fraction of characters in duplicated n-grams).
    pub const DUP_N_GRAMS: [(usize, f64); 6] = [
        (5, 0.15),
        (6, 0.14),
        (7, 0.13),
        (8, 0.12),
        (9, 0.11),
        (10, 0.10),
    ];
}

/// Raw values of the Gopher quality rules.
#[derive(Clone, Debug, Default, Serialize)]
pub struct QualitySignals {
    /// Tokens (punctuation tokens included).
    pub words: usize,
    /// Tokens with a character outside the punctuation set.
    pub non_symbol_words: usize,
    /// Mean length of the non-symbol words, in characters.
    pub mean_word_length: f64,
    /// `#` per token.
    pub hash_ratio: f64,
    /// `...` and `…` per token.
    pub ellipsis_ratio: f64,
    /// Fraction of lines starting with `•` or `-`.
    pub bullet_lines_ratio: f64,
    /// Fraction of lines ending with `...` or `…`.
    pub end_ellipsis_lines_ratio: f64,
    /// Fraction of tokens with a letter.
    pub alpha_words_ratio: f64,
    /// Distinct stop words present.
    pub stop_words: usize,
}

/// Raw values of the Gopher repetition rules (fractions of characters are
/// of the whole text's characters).
#[derive(Clone, Debug, Default, Serialize)]
pub struct RepetitionSignals {
    pub dup_para_frac: f64,
    pub dup_para_char_frac: f64,
    pub dup_line_frac: f64,
    pub dup_line_char_frac: f64,
    /// Most frequent 2-, 3-, 4-gram's characters × count / characters.
    pub top_n_gram_char_frac: [f64; 3],
    /// Characters of duplicated 5- to 10-grams / characters.
    pub dup_n_gram_char_frac: [f64; 6],
}

/// A hasher for keys that are already hashes.
#[derive(Default)]
pub(crate) struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub(crate) type HashedSet = HashSet<u64, BuildHasherDefault<PassThrough>>;
type HashedMap<V> = HashMap<u64, V, BuildHasherDefault<PassThrough>>;

/// Reusable buffers of the repetition rules.
#[derive(Default)]
pub(crate) struct Scratch {
    seen: HashedSet,
    counts: HashedMap<(u32, u32)>,
    grams: Vec<u64>,
}

/// The quality signals of `text`, whose `tokens` are given.
pub(crate) fn quality_signals(text: &str, tokens: &[Token], stop_words: u8) -> QualitySignals {
    let words = tokens.len();
    let mut non_symbol = 0usize;
    let mut non_symbol_chars = 0usize;
    let mut alpha = 0usize;
    for token in tokens {
        if token.flags & NON_SYMBOL != 0 {
            non_symbol += 1;
            non_symbol_chars += token.chars as usize;
        }
        if token.flags & ALPHA != 0 {
            alpha += 1;
        }
    }
    let hashes = memchr::memchr_iter(b'#', text.as_bytes()).count();
    let ellipses = memchr::memmem::find_iter(text.as_bytes(), "...").count()
        + memchr::memmem::find_iter(text.as_bytes(), "…").count();
    let (mut lines, mut bullets, mut end_ellipsis) = (0usize, 0usize, 0usize);
    for line in words::splitlines(text) {
        lines += 1;
        let start = line.trim_start_matches(words::is_py_space);
        if start.starts_with('•') || start.starts_with('-') {
            bullets += 1;
        }
        let end = line.trim_end_matches(words::is_py_space);
        if end.ends_with("...") || end.ends_with('…') {
            end_ellipsis += 1;
        }
    }
    QualitySignals {
        words,
        non_symbol_words: non_symbol,
        mean_word_length: ratio(non_symbol_chars, non_symbol),
        hash_ratio: ratio(hashes, words),
        ellipsis_ratio: ratio(ellipses, words),
        bullet_lines_ratio: ratio(bullets, lines),
        end_ellipsis_lines_ratio: ratio(end_ellipsis, lines),
        alpha_words_ratio: ratio(alpha, words),
        stop_words: stop_words.count_ones() as usize,
    }
}

/// The first Gopher quality rule `s` breaks, in datatrove's order.
pub(crate) fn quality_failure(s: &QualitySignals) -> Option<&'static str> {
    use quality::*;
    if s.non_symbol_words < MIN_DOC_WORDS {
        return Some("gopher_short_doc");
    }
    if s.non_symbol_words > MAX_DOC_WORDS {
        return Some("gopher_long_doc");
    }
    if s.mean_word_length < MIN_AVG_WORD_LENGTH {
        return Some("gopher_below_avg_threshold");
    }
    if s.mean_word_length > MAX_AVG_WORD_LENGTH {
        return Some("gopher_above_avg_threshold");
    }
    if s.hash_ratio > MAX_SYMBOL_WORD_RATIO {
        return Some("gopher_too_many_hashes");
    }
    if s.ellipsis_ratio > MAX_SYMBOL_WORD_RATIO {
        return Some("gopher_too_many_ellipsis");
    }
    if s.bullet_lines_ratio > MAX_BULLET_LINES_RATIO {
        return Some("gopher_too_many_bullets");
    }
    if s.end_ellipsis_lines_ratio > MAX_ELLIPSIS_LINES_RATIO {
        return Some("gopher_too_many_end_ellipsis");
    }
    if s.alpha_words_ratio < MIN_ALPHA_WORDS_RATIO {
        return Some("gopher_below_alpha_threshold");
    }
    if s.stop_words < MIN_STOP_WORDS {
        return Some("gopher_enough_stop_words");
    }
    None
}

/// The bit of `word` in the stop-word mask, if it is one.
#[inline]
pub(crate) fn stop_word_bit(word: &str) -> u8 {
    if word.len() > 4 {
        return 0;
    }
    match quality::STOP_WORDS.iter().position(|&w| w == word) {
        Some(i) => 1 << i,
        None => 0,
    }
}

/// The repetition signals of `text`, whose `tokens` are given.
pub(crate) fn repetition_signals(
    text: &str,
    tokens: &[Token],
    scratch: &mut Scratch,
) -> RepetitionSignals {
    let total = words::char_len(text);
    let mut out = RepetitionSignals::default();
    if total == 0 {
        return out;
    }
    // Paragraphs: `re.split(r"\n{2,}", text.strip())`.
    let (paragraphs, dup_paragraphs, dup_para_chars) =
        duplicates(split_runs(words::py_strip(text), 2), &mut scratch.seen);
    out.dup_para_frac = ratio(dup_paragraphs, paragraphs);
    out.dup_para_char_frac = ratio(dup_para_chars, total);
    // Lines: `re.split("\n+", text)`.
    let (lines, dup_lines, dup_line_chars) = duplicates(split_runs(text, 1), &mut scratch.seen);
    out.dup_line_frac = ratio(dup_lines, lines);
    out.dup_line_char_frac = ratio(dup_line_chars, total);

    for (slot, &(n, _)) in out
        .top_n_gram_char_frac
        .iter_mut()
        .zip(repetition::TOP_N_GRAMS.iter())
    {
        if tokens.len() < n {
            continue;
        }
        n_gram_hashes(tokens, n, &mut scratch.grams);
        scratch.counts.clear();
        // (count, first index) per n-gram; the most frequent, first seen
        // on a tie (Counter.most_common(1) keeps insertion order).
        let mut best = (0u32, u32::MAX);
        for (i, &h) in scratch.grams.iter().enumerate() {
            let entry = scratch.counts.entry(h).or_insert((0, i as u32));
            entry.0 += 1;
            let candidate = *entry;
            if candidate.0 > best.0 || (candidate.0 == best.0 && candidate.1 < best.1) {
                best = candidate;
            }
        }
        let first = best.1 as usize;
        let chars: usize = tokens[first..first + n]
            .iter()
            .map(|t| t.chars as usize)
            .sum::<usize>()
            + (n - 1);
        *slot = ratio(chars * best.0 as usize, total);
    }

    for (slot, &(n, _)) in out
        .dup_n_gram_char_frac
        .iter_mut()
        .zip(repetition::DUP_N_GRAMS.iter())
    {
        if tokens.len() < n {
            continue;
        }
        n_gram_hashes(tokens, n, &mut scratch.grams);
        scratch.seen.clear();
        // datatrove's `find_all_duplicate`: a repeated n-gram counts its
        // characters and the scan jumps past it.
        let mut repeated = 0usize;
        let mut i = 0;
        while i < scratch.grams.len() {
            if scratch.seen.insert(scratch.grams[i]) {
                i += 1;
            } else {
                repeated += tokens[i..i + n]
                    .iter()
                    .map(|t| t.chars as usize)
                    .sum::<usize>();
                i += n;
            }
        }
        *slot = ratio(repeated, total);
    }
    out
}

/// The first Gopher repetition rule `s` breaks, in datatrove's order
/// (`empty` for an empty text).
pub(crate) fn repetition_failure(text: &str, s: &RepetitionSignals) -> Option<&'static str> {
    use repetition::*;
    if text.is_empty() {
        return Some("empty");
    }
    if s.dup_para_frac > DUP_PARA_FRAC {
        return Some("dup_para_frac");
    }
    if s.dup_para_char_frac > DUP_PARA_CHAR_FRAC {
        return Some("dup_para_char_frac");
    }
    if s.dup_line_frac > DUP_LINE_FRAC {
        return Some("dup_line_frac");
    }
    if s.dup_line_char_frac > DUP_LINE_CHAR_FRAC {
        return Some("dup_line_char_frac");
    }
    const TOP: [&str; 3] = ["top_2_gram", "top_3_gram", "top_4_gram"];
    for ((&value, &(_, max)), name) in s.top_n_gram_char_frac.iter().zip(&TOP_N_GRAMS).zip(TOP) {
        if value > max {
            return Some(name);
        }
    }
    const DUP: [&str; 6] = [
        "duplicated_5_n_grams",
        "duplicated_6_n_grams",
        "duplicated_7_n_grams",
        "duplicated_8_n_grams",
        "duplicated_9_n_grams",
        "duplicated_10_n_grams",
    ];
    for ((&value, &(_, max)), name) in s.dup_n_gram_char_frac.iter().zip(&DUP_N_GRAMS).zip(DUP) {
        if value > max {
            return Some(name);
        }
    }
    None
}

/// Pieces of `text` between runs of at least `min_run` `\n`
/// (`re.split(r"\n{min_run,}", text)`).
pub(crate) fn split_runs(text: &str, min_run: usize) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut search = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        while let Some(found) = memchr::memchr(b'\n', &bytes[search..]) {
            let at = search + found;
            let mut end = at;
            while end < bytes.len() && bytes[end] == b'\n' {
                end += 1;
            }
            search = end;
            if end - at >= min_run {
                let piece = &text[start..at];
                start = end;
                return Some(piece);
            }
        }
        done = true;
        Some(&text[start..])
    })
}

/// datatrove's `find_duplicates`: (elements, repeated elements, characters
/// of the repeated elements).
pub(crate) fn duplicates<'a>(
    pieces: impl Iterator<Item = &'a str>,
    seen: &mut HashedSet,
) -> (usize, usize, usize) {
    seen.clear();
    let (mut all, mut repeated, mut chars) = (0, 0, 0);
    for piece in pieces {
        all += 1;
        if !seen.insert(xxhash_rust::xxh3::xxh3_64(piece.as_bytes())) {
            repeated += 1;
            chars += words::char_len(piece);
        }
    }
    (all, repeated, chars)
}

/// The hash of every n-gram of `tokens`, in order.
fn n_gram_hashes(tokens: &[Token], n: usize, out: &mut Vec<u64>) {
    out.clear();
    out.extend(tokens.windows(n).map(|window| {
        window.iter().fold(0x9E37_79B9_7F4A_7C15u64, |h, t| {
            (h.rotate_left(23) ^ t.hash).wrapping_mul(0xBF58_476D_1CE4_E5B9)
        })
    }));
}

pub(crate) fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}
