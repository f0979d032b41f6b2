//! The trigram method of whatlang 0.18.0 (src/trigrams/), same model and
//! same arithmetic, different bookkeeping:
//!
//! * the text's trigrams are packed into `u64` keys (21 bits a character, so
//!   integer order is whatlang's `Trigram` order) and counted in an
//!   open-addressing table that is reused from text to text, where whatlang
//!   builds two `HashMap`s a text;
//! * the profiles are read through an inverted index built once: trigram →
//!   [(language, rank)], a dense table for trigrams of ' ' and 'a'..='z'
//!   and a small hash table for the others. A language's distance is the sum over its 300
//!   profile trigrams of |text rank − profile rank|, or 300 for a trigram
//!   the text's 600 top-ranked trigrams lack: 300 · 300 − Σ over matched
//!   trigrams (300 − |Δ|). One pass over the text's ranked trigrams gives
//!   every language's sum, where whatlang looks each profile trigram up in
//!   the text's map (≈ 11 000 look-ups for the Latin script, however short
//!   the text).

use crate::profiles::{
    LangProfileList, ARABIC_LANGS, CYRILLIC_LANGS, DEVANAGARI_LANGS, HEBREW_LANGS, LATIN_LANGS,
};
use crate::{is_stop_char, Lang, Script};
use std::sync::LazyLock;

/// A trigram of a profile (whatlang's type, for the copied profiles).
#[derive(Debug, Eq, PartialEq, Hash, Ord, PartialOrd, Clone, Copy)]
pub struct Trigram(pub(crate) char, pub(crate) char, pub(crate) char);

/// Maximum distance of one trigram between the text and a profile.
const MAX_TRIGRAM_DISTANCE: u32 = 300;
/// 300 trigrams at most 300 apart.
const MAX_TOTAL_DISTANCE: u32 = MAX_TRIGRAM_DISTANCE * MAX_TRIGRAM_DISTANCE;
/// The text's trigrams ranked: only the first 600 count.
const TEXT_TRIGRAMS_SIZE: usize = 600;

const SPACE: u64 = ' ' as u64;

#[inline]
fn pack(c1: u64, c2: u64, c3: u64) -> u64 {
    (c1 << 42) | (c2 << 21) | c3
}

#[inline]
fn slot(key: u64, mask: usize) -> usize {
    // Fibonacci hashing: the product's high bits, which all of the key's
    // bits reach (rotated down, so any table size up to 2^20 gets them).
    key.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(20) as usize & mask
}

/// Position of a trigram over the 27 characters ' ', 'a'..='z' in a dense
/// table (27³ = 19,683 entries), or None.
#[inline]
fn dense_position(c1: u64, c2: u64, c3: u64) -> Option<usize> {
    #[inline]
    fn d(c: u64) -> Option<usize> {
        match c {
            0x20 => Some(0),
            0x61..=0x7A => Some((c - 0x60) as usize),
            _ => None,
        }
    }
    Some(d(c1)? * 729 + d(c2)? * 27 + d(c3)?)
}

const DENSE: usize = 27 * 27 * 27;

/// The profiles of one script, inverted.
pub(crate) struct Index {
    /// The script's languages, in whatlang's profile order.
    pub langs: Vec<Lang>,
    /// Postings lists, each a length then that many entries, an entry being
    /// (language's position in `langs`) << 9 | rank in its profile.
    postings: Vec<u16>,
    /// Trigrams of ' ' and 'a'..='z' (most of the Latin profiles' and
    /// texts'): position of their postings list in `postings`, 0 for none.
    dense: Vec<u16>,
    /// The other trigrams: open addressing on the packed trigram (0 =
    /// empty; no packed trigram is 0), with their postings' position.
    slots: Vec<(u64, u32)>,
    /// Profile lengths (300 each in whatlang 0.18).
    profile_lens: Vec<u32>,
}

impl Index {
    fn new(list: LangProfileList) -> Index {
        let mut entries: Vec<(u64, u16)> = Vec::new();
        for (l, (_, profile)) in list.iter().enumerate() {
            for (rank, t) in profile.iter().enumerate() {
                let key = pack(t.0 as u64, t.1 as u64, t.2 as u64);
                assert!(l < 64 && rank < 512, "profile too large for u16 postings");
                entries.push((key, (l as u16) << 9 | rank as u16));
            }
        }
        entries.sort_unstable();
        let distinct = entries.windows(2).filter(|w| w[0].0 != w[1].0).count() + 1;
        let capacity = (distinct * 2).next_power_of_two();
        let mut slots = vec![(0u64, 0u32); capacity];
        let mut dense = vec![0u16; DENSE];
        // Position 0 is never a list: 0 means none.
        let mut postings = vec![0u16];
        let mut start = 0;
        while start < entries.len() {
            let key = entries[start].0;
            let at = postings.len() as u32;
            postings.push(0);
            let mut end = start;
            while end < entries.len() && entries[end].0 == key {
                postings.push(entries[end].1);
                end += 1;
            }
            postings[at as usize] = (end - start) as u16;
            if let Some(d) = dense_position(
                (key >> 42) & 0x1F_FFFF,
                (key >> 21) & 0x1F_FFFF,
                key & 0x1F_FFFF,
            ) {
                // u16 keeps the table at 39 KiB; the Latin postings take
                // ~15,000 entries (a test builds every index).
                dense[d] = u16::try_from(at).expect("postings fit u16 positions");
            } else {
                let mut i = slot(key, capacity - 1);
                while slots[i].0 != 0 {
                    i = (i + 1) & (capacity - 1);
                }
                slots[i] = (key, at);
            }
            start = end;
        }
        Index {
            langs: list.iter().map(|&(lang, _)| lang).collect(),
            postings,
            dense,
            slots,
            profile_lens: list.iter().map(|(_, p)| p.len() as u32).collect(),
        }
    }

    /// Where the postings of the trigram `key` (packed) are, 0 for none.
    #[inline]
    fn position(&self, key: u64) -> usize {
        match dense_position(
            (key >> 42) & 0x1F_FFFF,
            (key >> 21) & 0x1F_FFFF,
            key & 0x1F_FFFF,
        ) {
            Some(d) => self.dense[d] as usize,
            None => {
                let mask = self.slots.len() - 1;
                let mut i = slot(key, mask);
                loop {
                    let (k, at) = self.slots[i];
                    if k == key {
                        break at as usize;
                    }
                    if k == 0 {
                        break 0;
                    }
                    i = (i + 1) & mask;
                }
            }
        }
    }

    /// The postings at `at` (from [`Index::position`], not 0).
    #[inline]
    fn postings(&self, at: usize) -> &[u16] {
        let len = self.postings[at] as usize;
        &self.postings[at + 1..at + 1 + len]
    }
}

static LATIN: LazyLock<Index> = LazyLock::new(|| Index::new(LATIN_LANGS));
static CYRILLIC: LazyLock<Index> = LazyLock::new(|| Index::new(CYRILLIC_LANGS));
static ARABIC: LazyLock<Index> = LazyLock::new(|| Index::new(ARABIC_LANGS));
static DEVANAGARI: LazyLock<Index> = LazyLock::new(|| Index::new(DEVANAGARI_LANGS));
static HEBREW: LazyLock<Index> = LazyLock::new(|| Index::new(HEBREW_LANGS));

/// The inverted profiles of a script with several languages.
pub(crate) fn index(script: Script) -> &'static Index {
    match script {
        Script::Cyrillic => &CYRILLIC,
        Script::Arabic => &ARABIC,
        Script::Devanagari => &DEVANAGARI,
        Script::Hebrew => &HEBREW,
        _ => &LATIN,
    }
}

/// Reused buffers: the counting table and the ranked trigrams.
#[derive(Default)]
pub(crate) struct Counter {
    keys: Vec<u64>,
    counts: Vec<u32>,
    /// Dense counts of the trigrams of ' ' and 'a'..='z'.
    dense: Vec<u16>,
    /// The table entries in use: slots of `keys`, or positions in `dense`
    /// tagged with `DENSE_TAG`.
    used: Vec<u32>,
    /// (count, trigram) of each entry in use, while ranking.
    taken: Vec<(u32, u64)>,
    /// The distinct trigrams, ranked.
    ranked: Vec<u64>,
    /// Per count, where its trigrams start in `ranked` and the next free
    /// place there, while ranking.
    starts: Vec<u32>,
    next: Vec<u32>,
    /// (rank, postings position) of the ranked trigrams in the profiles.
    found: Vec<(u32, u32)>,
    /// (count, trigram) for the rare texts with a trigram counted > 1024
    /// times.
    wide: Vec<u128>,
}

const DENSE_TAG: u32 = 1 << 31;
/// Dense digit of a character other than ' ' and 'a'..='z'.
const NO_DIGIT: u32 = 1 << 8;

/// Counts up to this are ranked by a counting sort.
const BUCKETS: usize = 1024;

/// Above this many slots the table is dropped after use, so one huge text
/// does not keep its memory.
const KEEP_SLOTS: usize = 1 << 16;

/// The trigram scores: per language (by `Lang as usize`) whatlang's
/// similarity in [0, 1], and the number of distinct trigrams it counted
/// (at most 600).
pub(crate) struct Outcome {
    pub count: usize,
    pub scores: [f64; 70],
}

impl Counter {
    /// Counts the trigrams of `lower` (lowercased characters) as whatlang's
    /// `count` does: stop characters become spaces, one space before and one
    /// after, no trigram centred on a space next to a space. Trigrams of
    /// ' ' and 'a'..='z' are counted in a dense table (no hashing), the
    /// others in the hash table.
    fn count(&mut self, lower: &[char]) {
        let n = lower.len() + 2;
        let capacity = (n + n / 2).next_power_of_two().max(64);
        if self.keys.len() < capacity {
            self.keys = vec![0; capacity];
            self.counts = vec![0; capacity];
        }
        // u16 counts cannot overflow: a text has fewer trigrams than this.
        let use_dense = n < usize::from(u16::MAX);
        if use_dense && self.dense.len() != DENSE {
            self.dense = vec![0; DENSE];
        }
        let mask = self.keys.len() - 1;
        // (trigram character, its dense digit or NO_DIGIT)
        let map = |c: char| -> (u64, u32) {
            if is_stop_char(c) {
                (SPACE, 0)
            } else if c.is_ascii_lowercase() {
                (c as u64, c as u32 - 0x60)
            } else {
                (c as u64, NO_DIGIT)
            }
        };
        let (mut c1, mut d1) = (SPACE, 0);
        let (mut c2, mut d2) = lower.first().map_or((SPACE, 0), |&c| map(c));
        for &ch in lower.get(1..).unwrap_or_default() {
            let (c3, d3) = map(ch);
            self.add([c1, c2, c3], [d1, d2, d3], use_dense, mask);
            (c1, d1) = (c2, d2);
            (c2, d2) = (c3, d3);
        }
        self.add([c1, c2, SPACE], [d1, d2, 0], use_dense, mask);
    }

    /// Counts one trigram (characters and dense digits), unless it is
    /// centred on a space next to a space.
    #[inline(always)]
    fn add(
        &mut self,
        [c1, c2, c3]: [u64; 3],
        [d1, d2, d3]: [u32; 3],
        use_dense: bool,
        mask: usize,
    ) {
        if c2 == SPACE && (c1 == SPACE || c3 == SPACE) {
            return;
        }
        if use_dense && (d1 | d2 | d3) & NO_DIGIT == 0 {
            let d = (d1 * 729 + d2 * 27 + d3) as usize;
            let count = &mut self.dense[d];
            if *count == 0 {
                self.used.push(d as u32 | DENSE_TAG);
            }
            *count += 1;
            return;
        }
        // Not 0: c2 is a character ≥ U+0020, in bits 21..42.
        let key = pack(c1, c2, c3);
        let mut i = slot(key, mask);
        loop {
            let k = self.keys[i];
            if k == key {
                self.counts[i] += 1;
                return;
            }
            if k == 0 {
                self.keys[i] = key;
                self.counts[i] = 1;
                self.used.push(i as u32);
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// The count and the packed trigram of an entry of `used`, reset.
    #[inline]
    fn take(&mut self, entry: u32) -> (u32, u64) {
        if entry & DENSE_TAG != 0 {
            let d = (entry & !DENSE_TAG) as usize;
            let count = std::mem::take(&mut self.dense[d]);
            let ch = |digit: usize| {
                if digit == 0 {
                    SPACE
                } else {
                    0x60 + digit as u64
                }
            };
            (
                u32::from(count),
                pack(ch(d / 729), ch(d / 27 % 27), ch(d % 27)),
            )
        } else {
            let i = entry as usize;
            (self.counts[i], std::mem::take(&mut self.keys[i]))
        }
    }

    /// Ranks the counted trigrams into `ranked` as whatlang does (by count,
    /// then by trigram, both descending: `sort_unstable_by(|a, b| b.cmp(a))`
    /// over distinct (count, trigram) pairs), resets the table and returns
    /// how many of the ranked trigrams count (at most 600). Counts are
    /// bucketed (most are 1), and only the buckets that reach into the first
    /// 600 are sorted.
    fn rank(&mut self) -> usize {
        let n = self.used.len();
        self.ranked.clear();
        let used = std::mem::take(&mut self.used);
        let mut taken = std::mem::take(&mut self.taken);
        taken.clear();
        taken.extend(used.iter().map(|&entry| self.take(entry)));
        let max = taken.iter().map(|&(c, _)| c).max().unwrap_or(0) as usize;
        if max <= BUCKETS {
            // starts[c]: where the trigrams counted c times begin, from the
            // highest count down.
            let mut starts = std::mem::take(&mut self.starts);
            starts.clear();
            starts.resize(max + 1, 0);
            for &(c, _) in &taken {
                starts[c as usize] += 1;
            }
            let mut at = 0u32;
            for c in (1..=max).rev() {
                let len = starts[c];
                starts[c] = at;
                at += len;
            }
            self.ranked.resize(n, 0);
            let mut next = std::mem::take(&mut self.next);
            next.clear();
            next.extend_from_slice(&starts);
            for &(c, key) in &taken {
                let c = c as usize;
                self.ranked[next[c] as usize] = key;
                next[c] += 1;
            }
            for c in (1..=max).rev() {
                let (start, end) = (starts[c] as usize, next[c] as usize);
                if start >= TEXT_TRIGRAMS_SIZE {
                    break;
                }
                let bucket = &mut self.ranked[start..end];
                bucket.sort_unstable();
                bucket.reverse();
            }
            self.starts = starts;
            self.next = next;
        } else {
            self.wide.clear();
            self.wide.extend(
                taken
                    .iter()
                    .map(|&(c, key)| (u128::from(c) << 64) | u128::from(key)),
            );
            self.wide.sort_unstable();
            self.ranked
                .extend(self.wide.iter().rev().map(|&e| e as u64));
        }
        self.used = used;
        self.used.clear();
        self.taken = taken;
        n.min(TEXT_TRIGRAMS_SIZE)
    }

    /// whatlang's `calculate_scores_in_profiles` for every language of
    /// `index`, over the lowercased text `lower`.
    pub(crate) fn scores(&mut self, index: &Index, lower: &[char]) -> Outcome {
        self.count(lower);
        let count = self.rank();
        // First every look-up (independent loads, which the processor
        // overlaps), then the postings.
        self.found.clear();
        for (rank, &key) in self.ranked[..count].iter().enumerate() {
            let at = index.position(key);
            if at != 0 {
                self.found.push((rank as u32, at as u32));
            }
        }
        let mut matched = [0i64; 64];
        for &(rank, at) in &self.found {
            for &posting in index.postings(at as usize) {
                let (l, profile_rank) = (posting >> 9, posting & 0x1FF);
                let delta = (rank as i64 - i64::from(profile_rank)).abs();
                matched[l as usize] += i64::from(MAX_TRIGRAM_DISTANCE) - delta;
            }
        }
        let count32 = count as u32;
        let max_dist = count32 * MAX_TRIGRAM_DISTANCE;
        let mut scores = [0.0f64; 70];
        for (l, &lang) in index.langs.iter().enumerate() {
            // Σ over the profile of |Δ| or 300: never negative, ≤ 300 · 599.
            let mut total_dist = (i64::from(index.profile_lens[l])
                * i64::from(MAX_TRIGRAM_DISTANCE)
                - matched[l]) as u32;
            if MAX_TRIGRAM_DISTANCE > count32 {
                let delta = MAX_TRIGRAM_DISTANCE - count32;
                total_dist -= delta * MAX_TRIGRAM_DISTANCE;
            }
            let distance = total_dist.clamp(0, MAX_TOTAL_DISTANCE);
            let similarity = max_dist - distance;
            scores[lang as usize] = similarity as f64 / max_dist as f64;
        }
        if self.keys.len() > KEEP_SLOTS {
            *self = Counter::default();
        }
        Outcome { count, scores }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_builds_with_every_profile_trigram() {
        for script in [
            Script::Latin,
            Script::Cyrillic,
            Script::Arabic,
            Script::Devanagari,
            Script::Hebrew,
        ] {
            let index = index(script);
            let total: usize = index.profile_lens.iter().map(|&l| l as usize).sum();
            assert_eq!(total, index.langs.len() * 300, "{script}");
            // Every posting is reachable, exactly once.
            let reachable: usize = index
                .dense
                .iter()
                .map(|&at| usize::from(at))
                .chain(index.slots.iter().map(|&(_, at)| at as usize))
                .filter(|&at| at != 0)
                .map(|at| index.postings(at).len())
                .sum();
            assert_eq!(reachable, total, "{script}");
        }
    }
}
