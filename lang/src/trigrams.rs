//! The trigram method of whatlang 0.18.0 (src/trigrams/), same model and
//! same arithmetic, different bookkeeping:
//!
//! * the text's trigrams are packed into `u64` keys (21 bits a character, so
//!   integer order is whatlang's `Trigram` order) and counted in an
//!   open-addressing table that is reused from text to text, where whatlang
//!   builds two `HashMap`s a text;
//! * the profiles are read through an inverted index built once: trigram →
//!   [(language, rank)]. A language's distance is the sum over its 300
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
    // Fibonacci hashing: the high bits of the product.
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
}

/// The profiles of one script, inverted.
pub(crate) struct Index {
    /// The script's languages, in whatlang's profile order.
    pub langs: Vec<Lang>,
    /// Open-addressing table of the trigrams of all the script's profiles
    /// (0 = empty; no packed trigram is 0, see `count`).
    keys: Vec<u64>,
    /// For each slot: its postings, `postings[start..end]`.
    ranges: Vec<(u32, u32)>,
    /// (language's position in `langs`, rank in its profile).
    postings: Vec<(u8, u16)>,
    /// Profile lengths (300 each in whatlang 0.18).
    profile_lens: Vec<u32>,
}

impl Index {
    fn new(list: LangProfileList) -> Index {
        let mut entries: Vec<(u64, u8, u16)> = Vec::new();
        for (l, (_, profile)) in list.iter().enumerate() {
            for (rank, t) in profile.iter().enumerate() {
                entries.push((
                    pack(t.0 as u64, t.1 as u64, t.2 as u64),
                    l as u8,
                    rank as u16,
                ));
            }
        }
        entries.sort_unstable();
        let distinct = entries.windows(2).filter(|w| w[0].0 != w[1].0).count() + 1;
        let capacity = (distinct * 2).next_power_of_two();
        let mut keys = vec![0u64; capacity];
        let mut ranges = vec![(0u32, 0u32); capacity];
        let mut postings = Vec::with_capacity(entries.len());
        let mut start = 0;
        while start < entries.len() {
            let key = entries[start].0;
            let mut end = start;
            while end < entries.len() && entries[end].0 == key {
                postings.push((entries[end].1, entries[end].2));
                end += 1;
            }
            let mut i = slot(key, capacity - 1);
            while keys[i] != 0 {
                i = (i + 1) & (capacity - 1);
            }
            keys[i] = key;
            ranges[i] = (start as u32, end as u32);
            start = end;
        }
        Index {
            langs: list.iter().map(|&(lang, _)| lang).collect(),
            keys,
            ranges,
            postings,
            profile_lens: list.iter().map(|(_, p)| p.len() as u32).collect(),
        }
    }

    #[inline]
    fn postings(&self, key: u64) -> &[(u8, u16)] {
        let mask = self.keys.len() - 1;
        let mut i = slot(key, mask);
        loop {
            let k = self.keys[i];
            if k == key {
                let (start, end) = self.ranges[i];
                return &self.postings[start as usize..end as usize];
            }
            if k == 0 {
                return &[];
            }
            i = (i + 1) & mask;
        }
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
    used: Vec<u32>,
    ranked: Vec<u128>,
}

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
    /// after, no trigram centred on a space next to a space.
    fn count(&mut self, lower: &[char]) {
        let capacity = (2 * (lower.len() + 2)).next_power_of_two().max(64);
        if self.keys.len() < capacity {
            self.keys = vec![0; capacity];
            self.counts = vec![0; capacity];
        }
        let mask = self.keys.len() - 1;
        let to_trigram_char = |c: char| if is_stop_char(c) { SPACE } else { c as u64 };
        let mut c1 = SPACE;
        let mut c2 = lower.first().map_or(SPACE, |&c| to_trigram_char(c));
        let rest = lower.iter().skip(1).map(|&c| to_trigram_char(c));
        for c3 in rest.chain(std::iter::once(SPACE)) {
            if !(c2 == SPACE && (c1 == SPACE || c3 == SPACE)) {
                // Not 0: c2 is a character ≥ U+0020, in bits 21..42.
                let key = pack(c1, c2, c3);
                let mut i = slot(key, mask);
                loop {
                    let k = self.keys[i];
                    if k == key {
                        self.counts[i] += 1;
                        break;
                    }
                    if k == 0 {
                        self.keys[i] = key;
                        self.counts[i] = 1;
                        self.used.push(i as u32);
                        break;
                    }
                    i = (i + 1) & mask;
                }
            }
            c1 = c2;
            c2 = c3;
        }
    }

    /// whatlang's `calculate_scores_in_profiles` for every language of
    /// `index`, over the lowercased text `lower`.
    pub(crate) fn scores(&mut self, index: &Index, lower: &[char]) -> Outcome {
        self.count(lower);
        // Rank by count, then by trigram, both descending, as whatlang's
        // `sort_unstable_by(|a, b| b.cmp(a))` over distinct (count, trigram).
        self.ranked.clear();
        for &i in &self.used {
            let i = i as usize;
            self.ranked
                .push((u128::from(self.counts[i]) << 64) | u128::from(self.keys[i]));
            self.keys[i] = 0;
        }
        self.used.clear();
        self.ranked.sort_unstable();
        let count = self.ranked.len().min(TEXT_TRIGRAMS_SIZE);
        let mut matched = [0i64; 64];
        for (rank, &entry) in self.ranked.iter().rev().take(count).enumerate() {
            for &(l, profile_rank) in index.postings(entry as u64) {
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
