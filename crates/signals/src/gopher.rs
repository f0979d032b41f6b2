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

use super::words::{self, Token, TokenCounts};
use serde::Serialize;
use std::sync::OnceLock;

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
    pub dup_para_frac: f64,
    pub dup_para_char_frac: f64,
    pub dup_line_frac: f64,
    pub dup_line_char_frac: f64,
    /// Most frequent 2-, 3-, 4-gram's characters × count / characters.
    pub top_n_gram_char_frac: [f64; 3],
    /// Characters of duplicated 5- to 10-grams / characters.
    pub dup_n_gram_char_frac: [f64; 6],
}

/// A set of (or counter over) 64-bit keys that are already hashes: open
/// addressing with linear probing, emptied in O(1) by a generation stamp,
/// so one table serves every page and every pass over a page.
#[derive(Default)]
pub(crate) struct HashTable {
    slots: Vec<Slot>,
    /// Slots whose stamp is this are occupied.
    generation: u32,
    /// The slots in use are `slots[..=mask]`.
    mask: usize,
    /// `64 - log2(mask + 1)`: a key's home slot is its top bits.
    shift: u32,
    len: usize,
}

/// 16 bytes: the tables are read at random, so their size is their cost.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    stamp: u32,
    count: u32,
}

impl HashTable {
    /// Empties the table, sized for about `expected` keys (it grows if more come).
    pub(crate) fn clear(&mut self, expected: usize) {
        let size = expected.saturating_mul(2).next_power_of_two().max(64);
        if size > self.slots.len() {
            self.slots = vec![Slot::default(); size];
            self.generation = 0;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.iter_mut().for_each(|slot| slot.stamp = 0);
            self.generation = 1;
        }
        self.mask = size - 1;
        self.shift = 64 - size.trailing_zeros();
        self.len = 0;
    }

    /// The first slot `key` may be in: its top bits. Every key is a hash
    /// whose top bits depend on all its input (xxh3's, or an n-gram's,
    /// which ends in a multiplication: its low bits are the weak ones).
    #[inline]
    fn home(&self, key: u64) -> usize {
        (key >> self.shift) as usize
    }

    /// The slot of `key`, and whether the key is there (else the slot is free).
    #[inline]
    fn find(&mut self, key: u64) -> (usize, bool) {
        if 2 * (self.len + 1) > self.mask + 1 {
            self.grow();
        }
        let mut i = self.home(key);
        loop {
            let slot = &self.slots[i];
            if slot.stamp != self.generation {
                return (i, false);
            }
            if slot.key == key {
                return (i, true);
            }
            i = (i + 1) & self.mask;
        }
    }

    fn occupy(&mut self, i: usize, key: u64) {
        self.slots[i] = Slot {
            key,
            stamp: self.generation,
            count: 0,
        };
        self.len += 1;
    }

    /// Adds `key`; false if it was there already (`HashSet::insert`).
    #[inline]
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        let (i, found) = self.find(key);
        if !found {
            self.occupy(i, key);
        }
        !found
    }

    /// The slots in use: every slot index this table gives is below it.
    fn size(&self) -> usize {
        self.mask + 1
    }

    /// Counts one more `key`: its slot (in [`HashTable::counted`]) and count.
    #[cfg(test)]
    fn count(&mut self, key: u64) -> (u32, u32) {
        let (i, found) = self.find(key);
        if !found {
            self.occupy(i, key);
        }
        let slot = &mut self.slots[i];
        slot.count += 1;
        (i as u32, slot.count)
    }

    /// Counts the key of each of `candidates`, which bring at most as
    /// many new keys as [`HashTable::clear`] was told (so the table does not
    /// grow), and writes each one's slot (in [`HashTable::counted`]);
    /// gives the highest count. A key's slot is written whether the key is
    /// new or not, its count chosen by a conditional move.
    fn count_all(&mut self, candidates: &mut [Candidate]) -> u32 {
        assert!(
            2 * (self.len + candidates.len()) <= self.size(),
            "the table would grow"
        );
        let (generation, mask, shift) = (self.generation, self.mask, self.shift);
        let table = &mut self.slots[..=mask];
        let (mut most, mut new) = (0, 0);
        for candidate in candidates {
            let key = candidate.gram;
            let mut i = (key >> shift) as usize;
            let mut slot = table[i];
            while (slot.stamp == generation) & (slot.key != key) {
                i = (i + 1) & mask;
                slot = table[i];
            }
            let fresh = slot.stamp != generation;
            let count = if fresh { 1 } else { slot.count + 1 };
            table[i] = Slot {
                key,
                stamp: generation,
                count,
            };
            new += usize::from(fresh);
            most = most.max(count);
            candidate.slot = i as u32;
        }
        self.len += new;
        most
    }

    /// The slots, where [`HashTable::count_all`] put the keys: a key's
    /// count is in the slot it was given (the slot stays the key's while
    /// the table does not grow).
    fn counted(&self) -> &[Slot] {
        &self.slots
    }

    /// Doubles the slots in use, keeping the keys.
    #[cold]
    fn grow(&mut self) {
        let generation = self.generation;
        let live: Vec<Slot> = self.slots[..=self.mask]
            .iter()
            .filter(|slot| slot.stamp == generation)
            .copied()
            .collect();
        self.clear(self.mask + 1);
        for slot in live {
            let (i, _) = self.find(slot.key);
            self.occupy(i, slot.key);
            self.slots[i].count = slot.count;
        }
    }
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

/// A position whose n-gram may repeat: what the passes over the candidates
/// read and write of it, together (16 bytes), so that keeping some moves
/// one value each.
#[derive(Clone, Copy)]
struct Candidate {
    /// The hash of the n-gram.
    gram: u64,
    /// The n-gram's first word.
    pos: u32,
    /// The n-gram's slot in `counts`, once counted.
    slot: u32,
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

/// The stop words of [`quality::STOP_WORDS`] as keys of
/// [`short_stop_word_bit`]: the little-endian `u32` of each word's bytes,
/// zero-padded (every stop word has two to four bytes).
const STOP_WORD_KEYS: [u32; 8] = {
    let mut keys = [0u32; 8];
    let mut i = 0;
    while i < keys.len() {
        let word = quality::STOP_WORDS[i].as_bytes();
        assert!(word.len() >= 2 && word.len() <= 4);
        let mut k = 0;
        while k < word.len() {
            keys[i] |= (word[k] as u32) << (8 * k);
            k += 1;
        }
        i += 1;
    }
    keys
};

/// [`stop_word_bit`] of a word of two to four bytes given as its `key`:
/// the little-endian `u32` of its bytes, zero-padded; 0 (no stop word) is
/// the key of any other word. The key is compared with the eight stop
/// words at once and without a branch, for the words whose length the
/// split knows: a match on the word switches on its length, which is a
/// coin toss from word to word.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn short_stop_word_bit(key: u32) -> u8 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline; the loads read the
    // eight keys.
    unsafe {
        let keys = STOP_WORD_KEYS.as_ptr().cast::<__m128i>();
        let word = _mm_set1_epi32(key as i32);
        let low = _mm_cmpeq_epi32(word, _mm_loadu_si128(keys));
        let high = _mm_cmpeq_epi32(word, _mm_loadu_si128(keys.add(1)));
        // Lane i of the eight 16-bit and then 8-bit lanes: stop word i.
        let lanes = _mm_packs_epi16(_mm_packs_epi32(low, high), _mm_setzero_si128());
        _mm_movemask_epi8(lanes) as u8
    }
}

/// [`short_stop_word_bit`] compare by compare: the definition, and the
/// version of targets without SSE2.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn short_stop_word_bit_scalar(key: u32) -> u8 {
    STOP_WORD_KEYS
        .iter()
        .enumerate()
        .fold(0, |bits, (i, &k)| bits | u8::from(key == k) << i)
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn short_stop_word_bit(key: u32) -> u8 {
    short_stop_word_bit_scalar(key)
}

/// The bit of `word` in the stop-word mask, if it is one.
#[inline]
pub(crate) fn stop_word_bit(word: &[u8]) -> u8 {
    // A match on the literals (a length switch, then integer compares)
    // rather than 8 string compares; `stop_word_bits_follow_the_list`
    // checks it against quality::STOP_WORDS.
    match word {
        b"the" => 1,
        b"be" => 1 << 1,
        b"to" => 1 << 2,
        b"of" => 1 << 3,
        b"and" => 1 << 4,
        b"that" => 1 << 5,
        b"have" => 1 << 6,
        b"with" => 1 << 7,
        _ => 0,
    }
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

/// Pieces of `text` between runs of at least `min_run` `\n`
/// (`re.split(r"\n{min_run,}", text)`). For `min_run` ≥ 2 (paragraphs) a
/// run is found by searching for `\n\n`, so the single line feeds between
/// lines are stepped over in bulk rather than met one search each; the
/// first match after the previous run starts a run, since the byte before
/// it is no line feed.
pub(crate) fn split_runs(text: &str, min_run: usize) -> impl Iterator<Item = &str> {
    static TWO_FEEDS: OnceLock<memchr::memmem::Finder<'static>> = OnceLock::new();
    let two_feeds = TWO_FEEDS.get_or_init(|| memchr::memmem::Finder::new(b"\n\n"));
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut search = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let next_run = |from: &[u8]| match min_run {
            0 | 1 => memchr::memchr(b'\n', from),
            _ => two_feeds.find(from),
        };
        while let Some(found) = next_run(&bytes[search..]) {
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

/// The line feeds, characters and lines of a text, for Gopher's and
/// FineWeb's rules: what both read of its lines, counted in one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LineDuplicates {
    /// The text's `\n`s.
    pub line_feeds: usize,
    /// The pieces of `re.split("\n+", text)` (Gopher's lines).
    pub lines: usize,
    /// The pieces equal to one before them.
    pub repeated: usize,
    /// Their characters.
    pub repeated_chars: usize,
    /// The characters of those that are not blank: the repeated lines of
    /// FineWeb, which reads the non-blank lines of `text.split("\n")` (the
    /// same lines but the blank ones; a non-blank line repeats one of them
    /// exactly when it repeats one of Gopher's).
    pub repeated_text_chars: usize,
    /// The text's characters (Python's `len`).
    pub chars: usize,
    /// FineWeb's lines: the pieces that are not blank.
    pub text_lines: usize,
    /// Those ending in a sentence-terminal character (not stripped).
    pub terminal_end_lines: usize,
    /// Those of at most [`SHORT_LINE_LENGTH`](super::fineweb::SHORT_LINE_LENGTH)
    /// characters.
    pub short_lines: usize,
}

/// datatrove's `find_duplicates` on Gopher's lines, in one pass for both
/// rule sets that read repeated lines.
pub(crate) fn line_duplicates(text: &str, seen: &mut HashTable) -> LineDuplicates {
    let line_feeds = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    seen.clear(line_feeds + 1);
    let mut out = LineDuplicates {
        line_feeds,
        chars: words::char_len(text),
        ..LineDuplicates::default()
    };
    let terminal = words::terminal();
    let short = super::fineweb::SHORT_LINE_LENGTH;
    for line in split_runs(text, 1) {
        out.lines += 1;
        let blank = words::py_strip(line).is_empty();
        if !blank {
            out.text_lines += 1;
            if line
                .chars()
                .next_back()
                .is_some_and(|c| terminal.contains(c))
            {
                out.terminal_end_lines += 1;
            }
            if line.len() <= short || words::char_len(line) <= short {
                out.short_lines += 1;
            }
        }
        if !seen.insert(xxhash_rust::xxh3::xxh3_64(line.as_bytes())) {
            let chars = words::char_len(line);
            out.repeated += 1;
            out.repeated_chars += chars;
            if !blank {
                out.repeated_text_chars += chars;
            }
        }
    }
    out
}

/// datatrove's `find_duplicates`: (elements, repeated elements, characters
/// of the repeated elements); `expected` is about the number of elements.
pub(crate) fn duplicates<'a>(
    pieces: impl Iterator<Item = &'a str>,
    expected: usize,
    seen: &mut HashTable,
) -> (usize, usize, usize) {
    seen.clear(expected);
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

pub(crate) fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<Token> {
        let mut out = Vec::new();
        words::tokenize(text, &mut out);
        out
    }

    /// The n-gram passes as first written: every n-gram of every n
    /// through std maps; what `repetition_signals` must equal.
    fn n_gram_reference(text: &str, tokens: &[Token]) -> ([f64; 3], [f64; 6]) {
        use std::collections::{HashMap, HashSet};
        let total = words::char_len(text);
        let chars = |first: usize, n: usize| -> usize {
            tokens[first..first + n]
                .iter()
                .map(|t| t.chars as usize)
                .sum()
        };
        let (mut top, mut dup) = ([0.0; 3], [0.0; 6]);
        let mut grams = Vec::new();
        let mut hashes = Vec::new();
        words::token_hashes(text, tokens, &mut hashes);
        for (slot, &(n, _)) in top.iter_mut().zip(&repetition::TOP_N_GRAMS) {
            if tokens.len() < n {
                continue;
            }
            n_gram_hashes(&hashes, n, &mut grams);
            let mut counts: HashMap<u64, (u32, u32)> = HashMap::new();
            let mut best = (0u32, u32::MAX);
            for (i, &h) in grams.iter().enumerate() {
                let entry = counts.entry(h).or_insert((0, i as u32));
                entry.0 += 1;
                let candidate = *entry;
                if candidate.0 > best.0 || (candidate.0 == best.0 && candidate.1 < best.1) {
                    best = candidate;
                }
            }
            *slot = ratio((chars(best.1 as usize, n) + n - 1) * best.0 as usize, total);
        }
        for (slot, &(n, _)) in dup.iter_mut().zip(&repetition::DUP_N_GRAMS) {
            if tokens.len() < n {
                continue;
            }
            n_gram_hashes(&hashes, n, &mut grams);
            let mut seen = HashSet::new();
            let (mut repeated, mut i) = (0, 0);
            while i < grams.len() {
                if seen.insert(grams[i]) {
                    i += 1;
                } else {
                    repeated += chars(i, n);
                    i += n;
                }
            }
            *slot = ratio(repeated, total);
        }
        (top, dup)
    }

    fn assert_n_grams_as_reference(text: &str, scratch: &mut Scratch) {
        let t = tokens(text);
        let lines = line_duplicates(text, &mut HashTable::default());
        let s = repetition_signals(text, &t, &lines, scratch, false);
        let (top, dup) = n_gram_reference(text, &t);
        assert_eq!(s.top_n_gram_char_frac, top, "{text:?}");
        assert_eq!(s.dup_n_gram_char_frac, dup, "{text:?}");
    }

    proptest::proptest! {
        /// Few distinct words: n-grams repeat at every n, overlapping.
        #[test]
        fn n_gram_signals_equal_the_reference(words in proptest::collection::vec(0..4usize, 0..120)) {
            let text: Vec<&str> = words.iter().map(|&w| ["a", "bb", "a.", "c"][w]).collect();
            assert_n_grams_as_reference(&text.join(" "), &mut Scratch::default());
        }
    }

    /// `re.split(r"\n{min_run,}", text)` by a walk over the bytes.
    fn split_runs_reference(text: &str, min_run: usize) -> Vec<&str> {
        let bytes = text.as_bytes();
        let (mut pieces, mut start, mut i) = (Vec::new(), 0, 0);
        while i < bytes.len() {
            if bytes[i] != b'\n' {
                i += 1;
                continue;
            }
            let run_start = i;
            while i < bytes.len() && bytes[i] == b'\n' {
                i += 1;
            }
            if i - run_start >= min_run {
                pieces.push(&text[start..run_start]);
                start = i;
            }
        }
        pieces.push(&text[start..]);
        pieces
    }

    proptest::proptest! {
        #[test]
        fn split_runs_equals_the_reference(
            text in "[a\n]{0,40}",
            min_run in 1..5usize,
        ) {
            let pieces: Vec<&str> = split_runs(&text, min_run).collect();
            proptest::prop_assert_eq!(pieces, split_runs_reference(&text, min_run));
        }
    }

    /// The gold texts of a shared dataset, through one reused scratch.
    #[test]
    fn dataset_n_gram_signals_equal_the_reference() {
        let mut scratch = Scratch::default();
        let texts = crate::gold_texts(&["daniel_dev"]);
        for text in &texts {
            assert_n_grams_as_reference(text, &mut scratch);
        }
        assert!(texts.len() > 500, "{}", texts.len());
    }

    /// Stopping at the first failure names the same rule as the whole
    /// signals, with the same values up to it: on the gold texts of
    /// daniel_dev and wcxb_dev, some of which fail on their lines and some
    /// on their n-grams.
    #[test]
    fn stopping_at_the_first_failure_names_the_same_rule() {
        let (mut whole_scratch, mut stop_scratch) = (Scratch::default(), Scratch::default());
        let mut failed = std::collections::BTreeMap::new();
        for text in &crate::gold_texts(&["daniel_dev", "wcxb_dev"]) {
            let t = tokens(text);
            let lines = line_duplicates(text, &mut HashTable::default());
            let whole = repetition_signals(text, &t, &lines, &mut whole_scratch, false);
            let stopped = repetition_signals(text, &t, &lines, &mut stop_scratch, true);
            let failure = repetition_failure(text, &whole);
            assert_eq!(repetition_failure(text, &stopped), failure, "{text:.80?}");
            match failure {
                None => assert_eq!(format!("{stopped:?}"), format!("{whole:?}")),
                Some(rule) => {
                    let line_rule = rule.starts_with("dup_");
                    *failed.entry(line_rule).or_insert(0) += 1;
                    assert_eq!(stopped.dup_line_char_frac, whole.dup_line_char_frac);
                }
            }
        }
        // Both early exits are taken: after the lines and after an n-gram.
        assert!(failed.len() == 2, "{failed:?}");
    }

    /// One pass over the lines gives Gopher's repeated lines and FineWeb's
    /// lines and repeated lines (the non-blank lines of `text.split("\n")`,
    /// counted on their own).
    #[test]
    fn line_duplicates_give_gophers_and_finewebs_counts() {
        let mut seen = HashTable::default();
        let mut texts = crate::gold_texts(&["scrapinghub", "wcxb_dev"]);
        texts.push("a\n  \n\n  \nb\na\n\n\n b\n b\n".to_owned());
        texts.push("\nx\n".to_owned());
        for text in &texts {
            let lines = line_duplicates(text, &mut seen);
            assert_eq!(lines.line_feeds, text.matches('\n').count());
            let gopher = duplicates(split_runs(text, 1), 1, &mut seen);
            assert_eq!((lines.lines, lines.repeated, lines.repeated_chars), gopher);
            let fineweb = text
                .split('\n')
                .filter(|line| !words::py_strip(line).is_empty());
            let (_, _, chars) = duplicates(fineweb.clone(), 1, &mut seen);
            assert_eq!(lines.repeated_text_chars, chars, "{text:?}");
            let terminal = words::terminal();
            let counts = (
                fineweb.clone().count(),
                fineweb
                    .clone()
                    .filter(|l| l.chars().last().is_some_and(|c| terminal.contains(c)))
                    .count(),
                fineweb
                    .filter(|l| l.chars().count() <= super::super::fineweb::SHORT_LINE_LENGTH)
                    .count(),
            );
            assert_eq!(
                (
                    lines.text_lines,
                    lines.terminal_end_lines,
                    lines.short_lines
                ),
                counts,
                "{text:?}"
            );
            assert_eq!(lines.chars, text.chars().count());
        }
        let lines = line_duplicates("a\n  \n\n  \nb\na\n\n\n b\n b\n", &mut seen);
        // Gopher: a, "  ", "  ", b, a, " b", " b", "": "  ", a and " b" repeat.
        assert_eq!(
            (lines.lines, lines.repeated, lines.repeated_chars),
            (8, 3, 5)
        );
        assert_eq!(lines.repeated_text_chars, 3);
        assert_eq!(lines.line_feeds, 10);
    }

    #[test]
    fn stop_word_bits_follow_the_list() {
        for (i, word) in quality::STOP_WORDS.iter().enumerate() {
            assert_eq!(stop_word_bit(word.as_bytes()), 1 << i, "{word}");
        }
        for word in ["The", "th", "thee", "", "an", "with "] {
            assert_eq!(stop_word_bit(word.as_bytes()), 0, "{word}");
        }
        for word in [
            "the", "be", "to", "of", "and", "that", "have", "with", "The", "th", "an", "a", "ofx",
        ] {
            let mut key = [0u8; 4];
            key[..word.len()].copy_from_slice(word.as_bytes());
            assert_eq!(
                short_stop_word_bit(u32::from_le_bytes(key)),
                stop_word_bit(word.as_bytes()),
                "{word}"
            );
        }
        assert_eq!(short_stop_word_bit(0), 0);
        for key in STOP_WORD_KEYS
            .into_iter()
            .chain([0, 1, 0x6568_7400, u32::MAX])
        {
            assert_eq!(
                short_stop_word_bit(key),
                short_stop_word_bit_scalar(key),
                "{key:#x}"
            );
        }
    }

    #[test]
    fn hash_table_counts_grows_and_forgets_on_clear() {
        let mut table = HashTable::default();
        table.clear(1);
        // Far more keys than the table was sized for, and keys equal in
        // their low bits.
        for round in 0..3u64 {
            for k in 0..1000u64 {
                let (slot, count) = table.count(k << 32);
                assert_eq!(count, round as u32 + 1, "{k}");
                assert_eq!(table.counted()[slot as usize].count, count);
            }
        }
        assert_eq!(table.len, 1000);
        table.clear(10);
        assert!(table.insert(5 << 32));
        assert!(!table.insert(5 << 32));
        assert!(table.insert(6 << 32));
        // The generation stamp wraps: the slots are really emptied.
        table.generation = u32::MAX;
        table.clear(10);
        assert_eq!(table.generation, 1);
        assert!(table.insert(5 << 32));
    }

    #[test]
    fn repetition_passes_skipped_after_all_distinct_give_the_full_values() {
        // Distinct 2-grams: the most frequent 3- and 4-grams are the first.
        let text = "one two three four five six seven eight nine ten eleven twelve";
        let t = tokens(text);
        let lines = line_duplicates(text, &mut HashTable::default());
        let s = repetition_signals(text, &t, &lines, &mut Scratch::default(), false);
        let total = words::char_len(text) as f64;
        assert_eq!(
            s.top_n_gram_char_frac[1],
            "one two three".len() as f64 / total
        );
        assert_eq!(
            s.top_n_gram_char_frac[2],
            "one two three four".len() as f64 / total
        );
        assert_eq!(s.dup_n_gram_char_frac, [0.0; 6]);
        // A repeated 6-gram: the 5-gram pass jumps, 6 and 7 count too.
        let text = "a b c d e f x a b c d e f y";
        let t = tokens(text);
        let lines = line_duplicates(text, &mut HashTable::default());
        let s = repetition_signals(text, &t, &lines, &mut Scratch::default(), false);
        let total = words::char_len(text) as f64;
        assert_eq!(s.dup_n_gram_char_frac[0], 5.0 / total);
        assert_eq!(s.dup_n_gram_char_frac[1], 6.0 / total);
        assert_eq!(s.dup_n_gram_char_frac[2], 0.0);
    }
}
