//! Character classes: Python's `str.isalpha`, `isspace`, `isdecimal`,
//! datatrove's punctuation and sentence terminals, from `regex-syntax`'s
//! Unicode tables.

use super::*;

/// A set of characters: an ASCII table and sorted, disjoint ranges.
pub(crate) struct CharClass {
    ascii: [bool; 128],
    ranges: Vec<(u32, u32)>,
}

impl CharClass {
    /// The class of a `regex-syntax` character class expression (a fixed
    /// pattern written in this file).
    pub(super) fn from_pattern(pattern: &str) -> CharClass {
        let mut ranges = Vec::new();
        if let Ok(hir) = regex_syntax::Parser::new().parse(pattern) {
            if let HirKind::Class(Class::Unicode(class)) = hir.kind() {
                ranges.extend(
                    class
                        .ranges()
                        .iter()
                        .map(|r| (r.start() as u32, r.end() as u32)),
                );
            }
        }
        debug_assert!(!ranges.is_empty(), "bad class pattern {pattern}");
        CharClass::from_ranges(ranges)
    }

    fn from_ranges(mut ranges: Vec<(u32, u32)>) -> CharClass {
        ranges.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (start, end) in ranges {
            match merged.last_mut() {
                Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        let mut ascii = [false; 128];
        for (i, slot) in ascii.iter_mut().enumerate() {
            *slot = search(&merged, i as u32);
        }
        CharClass {
            ascii,
            ranges: merged,
        }
    }

    /// Calls `f` with every code point of the class in the Basic
    /// Multilingual Plane, range by range: the tables of the plane are
    /// built from the ranges, not by a search per character (a search per
    /// character for each table cost ~9 ms at every start).
    pub(crate) fn each_in_bmp(&self, mut f: impl FnMut(usize)) {
        for &(start, end) in &self.ranges {
            for code in start..=end.min(0xFFFF) {
                f(code as usize);
            }
        }
    }

    /// Per character of the Basic Multilingual Plane, whether the class
    /// has it ([`CharClass::each_in_bmp`]).
    pub(crate) fn in_bmp(&self) -> Vec<bool> {
        let mut table = vec![false; 0x1_0000];
        self.each_in_bmp(|c| table[c] = true);
        table
    }

    #[inline]
    pub(crate) fn contains(&self, c: char) -> bool {
        let c = c as u32;
        if c < 128 {
            self.ascii[c as usize]
        } else {
            search(&self.ranges, c)
        }
    }
}

pub(super) fn search(ranges: &[(u32, u32)], c: u32) -> bool {
    ranges
        .binary_search_by(|&(start, end)| {
            if end < c {
                std::cmp::Ordering::Less
            } else if start > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// datatrove's `PUNCTUATION` string (`datatrove/utils/text.py`), without its
/// control characters, which [`punctuation`] adds as ranges.
pub(super) const DATATROVE_PUNCTUATION: &str =
    "!/—”:％１〈&(、━\\【#%「」，】；+^]~“《„';’{|∶´[=-`*．（–？！：$～«〉,><》)?）。…@_.\"}►»";

/// Sentence-ending punctuation: Unicode's `Sentence_Terminal` property plus
/// three Khmer signs, which is datatrove's `TERMINAL_PUNCTUATION` (FineWeb's
/// `stop_chars`) as of Unicode 14; spaCy's sentencizer uses a subset of it.
pub(crate) fn terminal() -> &'static CharClass {
    static CLASS: OnceLock<CharClass> = OnceLock::new();
    CLASS
        .get_or_init(|| CharClass::from_pattern(r"[\p{Sentence_Terminal}\x{17D6}\x{17D9}\x{17DA}]"))
}

/// datatrove's `PUNCTUATION_SET`: its `PUNCTUATION` string, the control
/// characters 0–8, 11–31 and 127–159, and [`terminal`]. A word made only of
/// these is a "symbol" to Gopher and is removed by `simplify_text`.
pub(crate) fn punctuation() -> &'static CharClass {
    static CLASS: OnceLock<CharClass> = OnceLock::new();
    CLASS.get_or_init(|| {
        let mut ranges: Vec<(u32, u32)> = DATATROVE_PUNCTUATION
            .chars()
            .map(|c| (c as u32, c as u32))
            .collect();
        ranges.extend([(0, 8), (11, 31), (127, 159)]);
        ranges.extend(terminal().ranges.iter().copied());
        CharClass::from_ranges(ranges)
    })
}

/// General category L: Python's `str.isalpha` for one character.
pub(super) fn alpha() -> &'static CharClass {
    static CLASS: OnceLock<CharClass> = OnceLock::new();
    CLASS.get_or_init(|| CharClass::from_pattern(r"\p{L}"))
}

/// Python's `str.isalpha` for one character: general category L.
pub(crate) fn is_alpha(c: char) -> bool {
    alpha().contains(c)
}

/// General category P.
pub(super) fn punct() -> &'static CharClass {
    static CLASS: OnceLock<CharClass> = OnceLock::new();
    CLASS.get_or_init(|| CharClass::from_pattern(r"\p{P}"))
}

/// General category P (spaCy's `is_punct` holds for a token made only of these).
pub(crate) fn is_punct(c: char) -> bool {
    punct().contains(c)
}

/// General category Nd (decimal digits of any script).
pub(crate) fn decimal() -> &'static CharClass {
    static CLASS: OnceLock<CharClass> = OnceLock::new();
    CLASS.get_or_init(|| CharClass::from_pattern(r"\p{Nd}"))
}

/// General category Nd (decimal digits of any script).
pub(crate) fn is_decimal(c: char) -> bool {
    decimal().contains(c)
}

/// General category Mn (non-spacing marks: what `simplify_text` strips after NFD).
pub(crate) fn nonspacing_mark() -> &'static CharClass {
    static CLASS: OnceLock<CharClass> = OnceLock::new();
    CLASS.get_or_init(|| CharClass::from_pattern(r"\p{Mn}"))
}

/// General category Mn (non-spacing marks: what `simplify_text` strips after NFD).
pub(crate) fn is_nonspacing_mark(c: char) -> bool {
    nonspacing_mark().contains(c)
}

/// Python's `str.isspace`: Unicode White_Space plus the separators U+001C–U+001F.
#[inline]
pub(crate) fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()`.
#[inline]
pub(crate) fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// Number of characters (Python's `len`).
#[inline]
pub(crate) fn char_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}
