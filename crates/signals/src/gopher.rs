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

use crate::lines::{duplicates, ratio, split_runs, LineDuplicates};
use crate::table::{Candidate, HashTable};
use crate::words::{self, Token, TokenCounts};
use serde::Serialize;

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
    // `STOP_WORDS`: `crate::stop_words::STOP_WORDS`.
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
#[derive(Clone, Debug, PartialEq, Default, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Default, Serialize)]
pub struct RepetitionSignals {
    /// Paragraphs (split at `\n{2,}`) equal to an earlier one / paragraphs.
    pub dup_para_frac: f64,
    /// Characters in those paragraphs / characters.
    pub dup_para_char_frac: f64,
    /// Lines (split at `\n+`) equal to an earlier one / lines.
    pub dup_line_frac: f64,
    /// Characters in those lines / characters.
    pub dup_line_char_frac: f64,
    /// Most frequent 2-, 3-, 4-gram's characters × count / characters.
    pub top_n_gram_char_frac: [f64; 3],
    /// Characters of duplicated 5- to 10-grams / characters.
    pub dup_n_gram_char_frac: [f64; 6],
}

/// Reusable buffers of the repetition rules.
#[derive(Default)]
pub(crate) struct Scratch {
    counts: HashTable,
    seen: HashTable,
    /// Per word, its hash ([`words::token_hashes`]).
    hashes: Vec<u64>,
    /// The positions whose n-gram may repeat, in order.
    candidates: Vec<Candidate>,
    /// One bit per slot of `counts`: the n-gram was met by
    /// `find_all_duplicate`'s scan.
    visited: Vec<u64>,
    /// The bits of [`MaybeRepeated`].
    once: Vec<u64>,
    twice: Vec<u64>,
}

/// Below this many candidates the n-grams are counted at once.
const FILTER_MIN_CANDIDATES: usize = 64;
/// Above this n the n-grams are counted at once. The filter's two passes
/// cost about two thirds of the instructions of counting a candidate; they
/// pay (the table is read at random, and whether a key is new is a coin
/// toss) where they drop most candidates: for n = 2 and 3, 65 % and 59 % on
/// the shared datasets, and fewer for larger n (45 % at 4, 30 % at 5, under
/// 20 % above), whose candidates continue repeated (n-1)-grams.
const FILTER_MAX_N: usize = 3;
/// Bits per candidate in each bitmap of [`MaybeRepeated`]: a key that
/// occurs once shares its bit with another key, and stays a candidate, about
/// once in this many.
const FILTER_BITS_PER_KEY: usize = 32;

/// Which of some keys may occur twice or more among them, a superset of
/// those that do: each key sets its bit in `once`, and in `twice` when
/// `once` had it ([`MaybeRepeated::mark`]); a key occurs twice only if its
/// bit is in `twice`. Two bitmaps of a few kilobytes are read and written
/// without a branch, where the hash table (16 bytes a slot, read at random,
/// a branch on each slot's state) is slow; the table then counts only the
/// candidates left ([`MaybeRepeated::keep`]), most of which do repeat.
struct MaybeRepeated<'a> {
    once: &'a mut [u64],
    twice: &'a mut [u64],
    /// `64 - log2(bits)`: a key's bit is its top bits, as
    /// `HashTable::home` takes them.
    shift: u32,
}

impl<'a> MaybeRepeated<'a> {
    /// Empty bitmaps for `keys` keys.
    fn new(keys: usize, once: &'a mut Vec<u64>, twice: &'a mut Vec<u64>) -> Self {
        let bits = (keys * FILTER_BITS_PER_KEY).next_power_of_two().max(64);
        once.clear();
        once.resize(bits / 64, 0);
        twice.clear();
        twice.resize(bits / 64, 0);
        MaybeRepeated {
            once,
            twice,
            shift: 64 - bits.trailing_zeros(),
        }
    }

    /// One more `key`.
    #[inline]
    fn mark(&mut self, key: u64) {
        let b = (key >> self.shift) as usize;
        let (word, mask) = (b / 64, 1u64 << (b % 64));
        self.twice[word] |= self.once[word] & mask;
        self.once[word] |= mask;
    }

    /// Keeps those of `candidates` whose key may have been marked twice
    /// or more.
    fn keep(&self, candidates: &mut Vec<Candidate>) {
        let (twice, shift) = (&*self.twice, self.shift);
        retain(candidates, |c| {
            let b = (c.gram >> shift) as usize;
            twice[b / 64] >> (b % 64) & 1 != 0
        });
    }
}

/// Keeps those of `candidates` for which `keep` is true, in order, without
/// a branch: whether a candidate stays is a coin toss.
#[inline]
fn retain(candidates: &mut Vec<Candidate>, keep: impl Fn(&Candidate) -> bool) {
    let mut kept = 0;
    for k in 0..candidates.len() {
        let candidate = candidates[k];
        candidates[kept] = candidate;
        kept += usize::from(keep(&candidate));
    }
    candidates.truncate(kept);
}

/// The quality signals of `text`, whose tokens are `n_words` many, with
/// the `counts` (and stop-word mask) [`words::tokenize`] gave and the
/// spans of its lines ([`words::line_spans`]).
pub(crate) fn quality_signals(
    text: &str,
    n_words: usize,
    counts: &TokenCounts,
    lines: &[(usize, usize)],
) -> QualitySignals {
    let TokenCounts {
        non_symbol,
        non_symbol_chars,
        alpha,
        stop_words,
    } = *counts;
    let hashes = memchr::memchr_iter(b'#', text.as_bytes()).count();
    let ellipses = memchr::memmem::find_iter(text.as_bytes(), "...").count()
        + memchr::memmem::find_iter(text.as_bytes(), "…").count();
    let (mut bullets, mut end_ellipsis) = (0usize, 0usize);
    for &(start, end) in lines {
        let line = &text[start..end];
        bullets += usize::from(starts_with_bullet(line));
        end_ellipsis += usize::from(ends_with_ellipsis(line));
    }
    QualitySignals {
        words: n_words,
        non_symbol_words: non_symbol,
        mean_word_length: ratio(non_symbol_chars, non_symbol),
        hash_ratio: ratio(hashes, n_words),
        ellipsis_ratio: ratio(ellipses, n_words),
        bullet_lines_ratio: ratio(bullets, lines.len()),
        end_ellipsis_lines_ratio: ratio(end_ellipsis, lines.len()),
        alpha_words_ratio: ratio(alpha, n_words),
        stop_words: stop_words.count_ones() as usize,
    }
}

/// Whether `line`, its leading whitespace stripped, starts with `•` or
/// `-`. A line whose first byte is ASCII and no whitespace is read from
/// that byte.
#[inline]
fn starts_with_bullet(line: &str) -> bool {
    match line.as_bytes().first() {
        None => false,
        Some(&b) if b < 0x80 && !words::is_py_space(char::from(b)) => b == b'-',
        Some(_) => {
            let start = line.trim_start_matches(words::is_py_space);
            start.starts_with('•') || start.starts_with('-')
        }
    }
}

/// Whether `line`, its trailing whitespace stripped, ends with `...` or
/// `…`. A line whose last byte is ASCII and no whitespace is read from its
/// last bytes.
#[inline]
fn ends_with_ellipsis(line: &str) -> bool {
    match line.as_bytes().last() {
        None => false,
        Some(&b) if b < 0x80 && !words::is_py_space(char::from(b)) => {
            b == b'.' && line.ends_with("...")
        }
        Some(_) => {
            let end = line.trim_end_matches(words::is_py_space);
            end.ends_with("...") || end.ends_with('…')
        }
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

/// The repetition signals of `text`, whose `tokens` are given. With
/// `stop_at_failure`, the values after the first one that breaks its rule
/// (in [`repetition_failure`]'s order) are left at 0: a `--filter` run
/// drops the text at that rule and needs no other value, and the n-grams,
/// most of the work, are not counted for a text whose lines already fail.
pub(crate) fn repetition_signals(
    text: &str,
    tokens: &[Token],
    lines: &LineDuplicates,
    scratch: &mut Scratch,
    stop_at_failure: bool,
) -> RepetitionSignals {
    let total = lines.chars;
    let mut out = RepetitionSignals::default();
    if total == 0 {
        return out;
    }
    // At most this many paragraphs.
    let pieces = lines.line_feeds + 1;
    // Paragraphs: `re.split(r"\n{2,}", text.strip())`.
    let (paragraphs, dup_paragraphs, dup_para_chars) = duplicates(
        split_runs(words::py_strip(text), 2),
        pieces,
        &mut scratch.seen,
    );
    out.dup_para_frac = ratio(dup_paragraphs, paragraphs);
    out.dup_para_char_frac = ratio(dup_para_chars, total);
    out.dup_line_frac = ratio(lines.repeated, lines.lines);
    out.dup_line_char_frac = ratio(lines.repeated_chars, total);
    if stop_at_failure && repetition_failure(text, &out).is_some() {
        return out;
    }

    // The n-grams for n = 2 to 10, one n after the other, each pass
    // looking only at the candidates: the positions whose n-gram may occur
    // more than once. An n-gram repeats only if its first n - 1 words do,
    // so the candidates of n are those of n - 1 whose (n-1)-gram occurs
    // twice or more; every other n-gram occurs once, which is all the rules
    // need to know of it (`find_all_duplicate` steps over it; the most
    // frequent n-gram, when none repeats, is the first, once). A
    // candidate's hash is extended by one word per n ([`extend_hash`]).
    let Scratch {
        counts,
        seen: _,
        hashes,
        candidates,
        visited,
        once,
        twice,
    } = scratch;
    words::token_hashes(text, tokens, hashes);
    candidates.clear();
    let chars_of = |first: usize, n: usize| -> usize {
        tokens[first..first + n]
            .iter()
            .map(|t| t.chars as usize)
            .sum::<usize>()
    };
    let last_n = repetition::DUP_N_GRAMS[repetition::DUP_N_GRAMS.len() - 1].0;
    for n in 2..=last_n {
        if tokens.len() < n {
            break;
        }
        // Candidates with an n-gram, their hashes extended to it (every
        // position is one of n = 2), the bits of the filter set in the
        // same pass.
        if n > 2 {
            let last = (tokens.len() - n) as u32;
            let keep = candidates.partition_point(|c| c.pos <= last);
            candidates.truncate(keep);
        }
        let all = if n == 2 {
            tokens.len() - 1
        } else {
            candidates.len()
        };
        if all >= FILTER_MIN_CANDIDATES && n <= FILTER_MAX_N {
            let mut filter = MaybeRepeated::new(all, once, twice);
            extend_candidates(n, hashes, candidates, |gram| filter.mark(gram));
            // The n-grams that occur once are no candidates of n + 1 and
            // never the most frequent (when none repeats, that is the first
            // n-gram of the text, whichever the candidates), so dropping
            // some of them here changes nothing below.
            filter.keep(candidates);
        } else {
            extend_candidates(n, hashes, candidates, |_| ());
        }
        counts.clear(candidates.len());
        let most = counts.count_all(candidates).max(1);
        // (count, first index) of the most frequent n-gram, the first seen
        // on a tie (Counter.most_common(1) keeps insertion order): the
        // first candidate with the highest count, or the first n-gram when
        // none repeats.
        let table = counts.counted();
        let best = if most > 1 {
            let first = candidates
                .iter()
                .find(|c| table[c.slot as usize].count == most)
                .map_or(0, |c| c.pos);
            (most, first)
        } else {
            (1, 0)
        };
        // The candidates whose n-gram repeats stay.
        retain(candidates, |c| table[c.slot as usize].count > 1);
        if let Some(slot) = repetition::TOP_N_GRAMS
            .iter()
            .position(|&(top, _)| top == n)
        {
            let chars = chars_of(best.1 as usize, n) + (n - 1);
            out.top_n_gram_char_frac[slot] = ratio(chars * best.0 as usize, total);
        }
        if let Some(slot) = repetition::DUP_N_GRAMS
            .iter()
            .position(|&(dup, _)| dup == n)
        {
            // datatrove's `find_all_duplicate`: a repeated n-gram counts
            // its characters and the scan jumps past it; it steps over the
            // n-grams that occur once. An n-gram is met again when its
            // slot in `counts` was: one bit per slot, no hashing.
            visited.clear();
            visited.resize(counts.size().div_ceil(64), 0);
            let mut repeated = 0usize;
            let mut next = 0usize;
            for &Candidate { pos, slot, .. } in candidates.iter() {
                let c = pos as usize;
                if c < next {
                    continue;
                }
                let (word, bit) = (slot as usize / 64, 1u64 << (slot % 64));
                if visited[word] & bit == 0 {
                    visited[word] |= bit;
                    next = c + 1;
                } else {
                    repeated += chars_of(c, n);
                    next = c + n;
                }
            }
            out.dup_n_gram_char_frac[slot] = ratio(repeated, total);
        }
        // The values not computed yet are 0, which no rule fails.
        if stop_at_failure && repetition_failure(text, &out).is_some() {
            return out;
        }
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

/// The candidates of `n` (every position for n = 2) from those of n - 1
/// (none for n = 2), their hashes extended to their n-grams, each given to
/// `mark`.
#[inline(always)]
fn extend_candidates(
    n: usize,
    hashes: &[u64],
    candidates: &mut Vec<Candidate>,
    mut mark: impl FnMut(u64),
) {
    if n == 2 {
        candidates.extend(hashes.windows(2).zip(0..).map(|(pair, pos)| {
            let gram = extend_hash(extend_hash(N_GRAM_SEED, pair[0]), pair[1]);
            mark(gram);
            Candidate { gram, pos, slot: 0 }
        }));
    } else {
        for candidate in candidates.iter_mut() {
            let gram = extend_hash(candidate.gram, hashes[candidate.pos as usize + n - 1]);
            mark(gram);
            candidate.gram = gram;
        }
    }
}

/// One step of an n-gram's hash: the hash of the n-gram followed by a word
/// whose hash is `word`.
#[inline]
fn extend_hash(h: u64, word: u64) -> u64 {
    (h.rotate_left(23) ^ word).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// The hash of the n-gram of no word, which [`extend_hash`] extends.
const N_GRAM_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// The hash of every n-gram of the words whose hashes are `words`, in order.
#[cfg(test)]
fn n_gram_hashes(words: &[u64], n: usize, out: &mut Vec<u64>) {
    out.clear();
    out.extend(words.windows(n).map(|window| {
        window
            .iter()
            .fold(N_GRAM_SEED, |h, &word| extend_hash(h, word))
    }));
}

#[cfg(test)]
use crate::lines::line_duplicates;
#[cfg(test)]
use crate::stop_words::{
    short_stop_word_bit, short_stop_word_bit_scalar, stop_word_bit, STOP_WORD_KEYS,
};

#[cfg(test)]
mod tests;
