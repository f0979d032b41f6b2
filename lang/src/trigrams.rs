//! The trigram method of whatlang 0.18.0 (src/trigrams/), same model and
//! same arithmetic, different bookkeeping:
//!
//! * the text's trigrams are counted in tables reused from text to text,
//!   where whatlang builds two `HashMap`s a text: trigrams of ' ' and
//!   'a'..='z' in a dense table with a bitmap of the places in use, the
//!   others packed into `u64` keys (21 bits a character, so integer order
//!   is whatlang's `Trigram` order) in an open-addressing table;
//! * they are ranked without comparing them: the bitmap gives the dense ones
//!   in descending order, merged with the few hashed ones sorted, and a
//!   counting sort by count (stable) makes whatlang's order (by count,
//!   then by trigram, both descending);
//! * the profiles are read through an index built once: for every trigram
//!   of any of the script's profiles, a row of its rank in each language's
//!   profile. A language's distance is the sum over its 300 profile
//!   trigrams of |text rank − profile rank|, or 300 for a trigram the
//!   text's 600 top-ranked trigrams lack: 300 · 300 − Σ over matched
//!   trigrams (300 − |Δ|). Adding a matched trigram's row to every
//!   language's sum at once is a few vector operations, where whatlang
//!   looks each profile trigram up in the text's map (≈ 11 000 look-ups for
//!   the Latin script, however short the text).

// whatlang's layout: the profiles are a child of the trigram model, whose
// `Trigram` they are made of.
mod profiles;

use crate::{is_stop_char, Lang, Script};
use profiles::{
    LangProfileList, ARABIC_LANGS, CYRILLIC_LANGS, DEVANAGARI_LANGS, HEBREW_LANGS, LATIN_LANGS,
};
use std::cmp::Reverse;
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

/// The packed trigram at a position of a dense table.
#[inline]
fn dense_key(d: usize) -> u64 {
    let ch = |digit: usize| {
        if digit == 0 {
            SPACE
        } else {
            0x60 + digit as u64
        }
    };
    pack(ch(d / 729), ch(d / 27 % 27), ch(d % 27))
}

/// The profiles of one script, inverted: one row per trigram of any of
/// them, holding the trigram's rank in every language's profile.
pub(crate) struct Index {
    /// The script's languages, in whatlang's profile order.
    pub langs: Vec<Lang>,
    /// Trigrams of ' ' and 'a'..='z' (most of the Latin profiles' and
    /// texts'): their row's number + 1, 0 for none.
    dense: Vec<u16>,
    /// The other trigrams: open addressing on the packed trigram (0 =
    /// empty; no packed trigram is 0), with their row's number + 1.
    slots: Vec<(u64, u16)>,
    /// The rows, `width` values each: per language (by its position in
    /// `langs`) the trigram's rank in its profile, `ABSENT` where the
    /// profile lacks it.
    rows: Vec<i16>,
    /// Values in a row: the script's languages rounded up to whole 16-byte
    /// vectors (SSE2, NEON) of 8.
    width: usize,
    /// Profile lengths (300 each in whatlang 0.18).
    profile_lens: Vec<u32>,
}

/// The widest row: the most languages of a script (Latin's 37), rounded up
/// to whole vectors of 8.
const MAX_WIDTH: usize = crate::alphabets::MAX_LANGS.div_ceil(8) * 8;

/// A row's rank for a language whose profile lacks the trigram.
const ABSENT: i16 = 0x4000;

impl Index {
    fn new(list: LangProfileList) -> Index {
        let width = list.len().div_ceil(8) * 8;
        assert!(width <= MAX_WIDTH, "too many languages for a row");
        let mut entries: Vec<(u64, usize, i16)> = Vec::new();
        for (l, (_, profile)) in list.iter().enumerate() {
            for (rank, t) in profile.iter().enumerate() {
                let key = pack(t.0 as u64, t.1 as u64, t.2 as u64);
                entries.push((key, l, i16::try_from(rank).expect("profile ranks fit i16")));
            }
        }
        entries.sort_unstable();
        let distinct = entries.windows(2).filter(|w| w[0].0 != w[1].0).count() + 1;
        let capacity = (distinct * 2).next_power_of_two();
        let mut slots = vec![(0u64, 0u16); capacity];
        let mut dense = vec![0u16; DENSE];
        let mut rows = Vec::with_capacity(distinct * width);
        for trigram in entries.chunk_by(|a, b| a.0 == b.0) {
            let key = trigram[0].0;
            let at = rows.len() / width;
            rows.resize(rows.len() + width, ABSENT);
            for &(_, l, rank) in trigram {
                rows[at * width + l] = rank;
            }
            let number = u16::try_from(at + 1).expect("rows fit u16 numbers");
            if let Some(d) = dense_position(
                (key >> 42) & 0x1F_FFFF,
                (key >> 21) & 0x1F_FFFF,
                key & 0x1F_FFFF,
            ) {
                dense[d] = number;
            } else {
                let mut i = slot(key, capacity - 1);
                while slots[i].0 != 0 {
                    i = (i + 1) & (capacity - 1);
                }
                slots[i] = (key, number);
            }
        }
        Index {
            langs: list.iter().map(|&(lang, _)| lang).collect(),
            dense,
            slots,
            rows,
            width,
            profile_lens: list.iter().map(|(_, p)| p.len() as u32).collect(),
        }
    }

    /// The row number + 1 of the trigram `key` (packed), 0 for none.
    #[inline]
    fn position(&self, key: u64) -> u16 {
        match dense_position(
            (key >> 42) & 0x1F_FFFF,
            (key >> 21) & 0x1F_FFFF,
            key & 0x1F_FFFF,
        ) {
            Some(d) => self.dense[d],
            None => {
                let mask = self.slots.len() - 1;
                let mut i = slot(key, mask);
                loop {
                    let (k, at) = self.slots[i];
                    if k == key {
                        break at;
                    }
                    if k == 0 {
                        break 0;
                    }
                    i = (i + 1) & mask;
                }
            }
        }
    }

    /// The row of a position from [`Index::position`] (not 0).
    #[inline]
    fn row(&self, position: u16) -> &[i16] {
        let at = usize::from(position - 1) * self.width;
        &self.rows[at..at + self.width]
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
    /// One bit per position of `dense` in use.
    dense_used: Vec<u64>,
    /// The slots of `keys` in use.
    used: Vec<u32>,
    /// (count, trigram) of the entries of `keys` in use, while ranking.
    keyed: Vec<(u32, u64)>,
    /// (count, place in the index) of every distinct trigram, trigrams
    /// descending, while ranking.
    taken: Vec<(u32, u16)>,
    /// The distinct trigrams ranked, as their places in the index
    /// ([`Index::position`]: 0 for none).
    ranked: Vec<u16>,
    /// Per count, the next free place in `ranked` for its trigrams, while
    /// ranking.
    next: Vec<u32>,
}

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
            self.dense_used = vec![0; DENSE.div_ceil(64)];
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
            self.dense[d] += 1;
            self.dense_used[d / 64] |= 1 << (d % 64);
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

    /// Takes the counted trigrams out of the tables (resetting them) into
    /// `taken` as (count, their place in `index`), in the trigrams'
    /// descending order: the dense ones in the order of their positions
    /// (which is the trigrams' order), merged with the hashed ones, sorted.
    fn take(&mut self, index: &Index) {
        let mut keyed = std::mem::take(&mut self.keyed);
        keyed.clear();
        keyed.extend(self.used.drain(..).map(|i| {
            let i = i as usize;
            (self.counts[i], std::mem::take(&mut self.keys[i]))
        }));
        keyed.sort_unstable_by_key(|&(_, key)| Reverse(key));
        let mut keyed_iter = keyed.iter().copied().peekable();
        let found = |(count, key): (u32, u64)| (count, index.position(key));
        self.taken.clear();
        for w in (0..self.dense_used.len()).rev() {
            let mut bits = std::mem::take(&mut self.dense_used[w]);
            while bits != 0 {
                let bit = 63 - bits.leading_zeros() as usize;
                bits &= !(1 << bit);
                let d = w * 64 + bit;
                if keyed_iter.peek().is_some() {
                    let key = dense_key(d);
                    while let Some(entry) = keyed_iter.next_if(|&(_, k)| k > key) {
                        self.taken.push(found(entry));
                    }
                }
                let count = std::mem::take(&mut self.dense[d]);
                self.taken.push((u32::from(count), index.dense[d]));
            }
        }
        self.taken.extend(keyed_iter.map(found));
        self.keyed = keyed;
    }

    /// Ranks the counted trigrams into `ranked` as whatlang does (by count,
    /// then by trigram, both descending: `sort_unstable_by(|a, b| b.cmp(a))`
    /// over distinct (count, trigram) pairs), resets the tables and returns
    /// how many of the ranked trigrams count (at most 600). The trigrams are
    /// taken in descending order, so a stable sort by count alone gives
    /// whatlang's order: a counting sort (most counts are 1), or for the
    /// rare text with a count over 1024 a merge sort.
    fn rank(&mut self, index: &Index) -> usize {
        self.take(index);
        let taken = &mut self.taken;
        let n = taken.len();
        self.ranked.clear();
        let max = taken.iter().map(|&(c, _)| c).max().unwrap_or(0) as usize;
        if max <= BUCKETS {
            // next[c]: where the next trigram counted c times goes, from
            // the highest count down.
            let next = &mut self.next;
            next.clear();
            next.resize(max + 1, 0);
            for &(c, _) in taken.iter() {
                next[c as usize] += 1;
            }
            let mut at = 0u32;
            for c in (1..=max).rev() {
                let len = next[c];
                next[c] = at;
                at += len;
            }
            self.ranked.resize(n, 0);
            for &(c, found) in taken.iter() {
                let c = c as usize;
                self.ranked[next[c] as usize] = found;
                next[c] += 1;
            }
        } else {
            taken.sort_by_key(|&(count, _)| Reverse(count));
            self.ranked.extend(taken.iter().map(|&(_, found)| found));
        }
        n.min(TEXT_TRIGRAMS_SIZE)
    }

    /// whatlang's `calculate_scores_in_profiles` for every language of
    /// `index`, over the lowercased text `lower`.
    pub(crate) fn scores(&mut self, index: &Index, lower: &[char]) -> Outcome {
        self.count(lower);
        let count = self.rank(index);
        let ranked = &self.ranked[..count];
        let matched = match index.width {
            8 => matched::<8>(index, ranked),
            16 => matched::<16>(index, ranked),
            24 => matched::<24>(index, ranked),
            32 => matched::<32>(index, ranked),
            _ => matched::<MAX_WIDTH>(index, ranked),
        };
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

/// Per language (by position), Σ over the ranked trigrams its profile has
/// of 300 − |text rank − profile rank|, over rows `W` wide (the index's
/// `width`).
///
/// The sum runs in i16 lanes (a trigram adds −299..=300 to each), emptied
/// into the result before 64 rows could overflow them; the loop over a
/// row becomes whole vector operations (SSE2, NEON, …) without a branch.
#[inline(never)]
fn matched<const W: usize>(index: &Index, ranked: &[u16]) -> [i64; MAX_WIDTH] {
    const MAX: i16 = MAX_TRIGRAM_DISTANCE as i16;
    let mut matched = [0i64; MAX_WIDTH];
    let mut lanes = [0i16; W];
    let mut in_lanes = 0;
    for (rank, &position) in ranked.iter().enumerate() {
        if position == 0 {
            continue;
        }
        let rank = rank as i16;
        let row: &[i16; W] = index.row(position).try_into().expect("rows W wide");
        for (lane, &profile_rank) in lanes.iter_mut().zip(row) {
            let near = MAX - (rank - profile_rank).abs();
            *lane += if profile_rank == ABSENT { 0 } else { near };
        }
        in_lanes += 1;
        if in_lanes == 64 {
            for (sum, lane) in matched.iter_mut().zip(&mut lanes) {
                *sum += i64::from(std::mem::take(lane));
            }
            in_lanes = 0;
        }
    }
    for (sum, lane) in matched.iter_mut().zip(lanes) {
        *sum += i64::from(lane);
    }
    matched
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
            // Every profile trigram is reachable, exactly once.
            let reachable: usize = index
                .dense
                .iter()
                .copied()
                .chain(index.slots.iter().map(|&(_, at)| at))
                .filter(|&at| at != 0)
                .map(|at| index.row(at).iter().filter(|&&rank| rank != ABSENT).count())
                .sum();
            assert_eq!(reachable, total, "{script}");
        }
    }
}
