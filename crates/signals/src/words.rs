//! Word and character classes shared by the rule sets.
//!
//! The published filters (datatrove's `GopherQualityFilter`,
//! `GopherRepetitionFilter`, `C4QualityFilter`, `FineWebQualityFilter`)
//! count words as spaCy's English tokenizer splits them (datatrove's
//! `split_into_words`, punctuation tokens included). crawlsift splits at the
//! Unicode word boundaries of UAX #29 (`unicode-segmentation`), keeps every
//! non-space segment as a token (so punctuation marks count as words, as in
//! spaCy), and adds the two spaCy rules that change counts on English text:
//! a run of full stops (`...`) is one token, and the clitics `n't`, `'s`,
//! `'m`, `'d`, `'re`, `'ve`, `'ll` are split off their word (`don't` → `do`
//! `n't`); a joint UAX #29 breaks and spaCy keeps is glued back (`GLP-1`,
//! `5–10`, `and/or`, the final stop of `U.S.`, `e.g.`, `J.`; see
//! `Words::glue`). Scripts written without spaces follow UAX #29: every Han
//! ideograph and every kana is a word of its own (datatrove segments Chinese
//! with jieba and Japanese with SudachiPy, which give words of one to three
//! characters); Thai, Lao, Khmer and Burmese runs stay whole, as UAX #29 has
//! no dictionary.
//!
//! Character classes come from the Unicode tables of `regex-syntax`, so
//! they follow the Unicode version of that crate; Python's `str.isalpha`
//! (general category L) and `str.isspace` are matched by `is_alpha` and
//! `is_py_space`.

use crate::stop_words;
use regex_syntax::hir::{Class, HirKind};
use std::sync::OnceLock;
use unicode_segmentation::UnicodeSegmentation;

/// A set of characters: an ASCII table and sorted, disjoint ranges.
pub(crate) struct CharClass {
    ascii: [bool; 128],
    ranges: Vec<(u32, u32)>,
}

impl CharClass {
    /// The class of a `regex-syntax` character class expression (a fixed
    /// pattern written in this file).
    fn from_pattern(pattern: &str) -> CharClass {
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

fn search(ranges: &[(u32, u32)], c: u32) -> bool {
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
const DATATROVE_PUNCTUATION: &str =
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
fn alpha() -> &'static CharClass {
    static CLASS: OnceLock<CharClass> = OnceLock::new();
    CLASS.get_or_init(|| CharClass::from_pattern(r"\p{L}"))
}

/// Python's `str.isalpha` for one character: general category L.
pub(crate) fn is_alpha(c: char) -> bool {
    alpha().contains(c)
}

/// General category P.
fn punct() -> &'static CharClass {
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
fn next_line_break(bytes: &[u8]) -> Option<(usize, usize)> {
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
fn break_candidates(bytes: &[u8], at: usize) -> u32 {
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

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn break_candidates_in(block: &[u8; 16]) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline; the load reads the 16
    // bytes of `block`.
    unsafe {
        let v = _mm_loadu_si128(block.as_ptr().cast());
        // Below 0x20, unsigned: the minimum of v and 0x1F is v.
        let below = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
        let c2 = _mm_cmpeq_epi8(v, _mm_set1_epi8(0xc2u8 as i8));
        let e2 = _mm_cmpeq_epi8(v, _mm_set1_epi8(0xe2u8 as i8));
        _mm_movemask_epi8(_mm_or_si128(below, _mm_or_si128(c2, e2))) as u32
    }
}

/// [`break_candidates_in`] byte by byte: the definition, and the version
/// of targets without SSE2.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn break_candidates_scalar(block: &[u8; 16]) -> u32 {
    block
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b < 0x20 || b == 0xc2 || b == 0xe2)
        .fold(0, |bits, (k, _)| bits | 1 << k)
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn break_candidates_in(block: &[u8; 16]) -> u32 {
    break_candidates_scalar(block)
}

/// The clitics spaCy's English tokenizer splits off the word before them.
const CLITICS: [&str; 7] = ["n't", "'s", "'m", "'d", "'re", "'ve", "'ll"];

/// Tokens of `text` as described in the module comment, in order, each a
/// slice of `text`; no allocation.
pub fn words(text: &str) -> Words<'_> {
    Words {
        segments: segments(text).peekable(),
        text,
        pending: None,
    }
}

/// The iterator of [`words`].
pub struct Words<'a> {
    segments: std::iter::Peekable<Segments<'a>>,
    text: &'a str,
    pending: Option<&'a str>,
}

/// The UAX #29 word-boundary segments of `text` with their byte offsets:
/// exactly `text.split_word_bound_indices()` of `unicode-segmentation`
/// (which stays the definition: `segments_equal_unicode_segmentation` and
/// `dataset_texts_segment_as_unicode_segmentation` compare the two), but
/// faster on ASCII. UAX #29 always breaks after a line feed (WB3a), and
/// between a space and a following ASCII character other than a space (no
/// rule joins them: WB3d joins spaces, WB4 only Extend, Format and ZWJ), and
/// no rule looks across either break. So the text is cut at these breaks
/// into stretches: a stretch of ASCII only is segmented by
/// [`ascii_segment_end`], the stretch around a non-ASCII character (from
/// the last such break before it to the first after it, within its line)
/// by `unicode-segmentation`.
pub(crate) fn segments(text: &str) -> Segments<'_> {
    Segments {
        text,
        pos: 0,
        ascii_end: 0,
        unicode: None,
    }
}

/// The iterator of [`segments`].
#[derive(Clone)]
pub(crate) struct Segments<'a> {
    text: &'a str,
    /// Start of the next segment.
    pos: usize,
    /// End of the current ASCII stretch.
    ascii_end: usize,
    /// The segments of the current non-ASCII stretch: its offset, its
    /// segments and its end.
    unicode: Option<(usize, unicode_segmentation::UWordBoundIndices<'a>, usize)>,
}

/// A break that no UAX #29 rule looks across precedes `bytes[i]`: a space
/// before an ASCII character that is not a space.
#[inline]
fn space_break(bytes: &[u8], i: usize) -> bool {
    bytes[i - 1] == b' ' && bytes[i] < 0x80 && bytes[i] != b' '
}

/// Whether [`for_each_token`] may cut `bytes` before `bytes[i]` (`i` at
/// least 1): after a line feed (WB3a), or at a [`space_break`].
#[inline]
fn cut_before(bytes: &[u8], i: usize) -> bool {
    bytes[i - 1] == b'\n' || space_break(bytes, i)
}

impl<'a> Iterator for Segments<'a> {
    type Item = (usize, &'a str);

    #[inline]
    fn next(&mut self) -> Option<(usize, &'a str)> {
        let bytes = self.text.as_bytes();
        loop {
            if let Some((base, stretch, end)) = &mut self.unicode {
                if let Some((at, segment)) = stretch.next() {
                    return Some((*base + at, segment));
                }
                self.pos = *end;
                self.unicode = None;
            }
            if self.pos < self.ascii_end {
                let start = self.pos;
                self.pos = ascii_segment_end(&bytes[..self.ascii_end], start);
                return Some((start, &self.text[start..self.pos]));
            }
            if self.pos >= bytes.len() {
                return None;
            }
            let pos = self.pos;
            let line_end =
                memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i + 1);
            let Some(wide) = bytes[pos..line_end].iter().position(|&b| b >= 0x80) else {
                self.ascii_end = line_end;
                continue;
            };
            let wide = pos + wide;
            if let Some(cut) = (pos + 1..wide).rev().find(|&i| space_break(bytes, i)) {
                self.ascii_end = cut;
                continue;
            }
            let end = (wide + 1..line_end)
                .find(|&i| space_break(bytes, i))
                .unwrap_or(line_end);
            let stretch = &self.text[pos..end];
            self.unicode = Some((pos, stretch.split_word_bound_indices(), end));
        }
    }
}

/// The UAX #29 word-break classes of ASCII characters (`WordBreakProperty.txt`;
/// `"` is Double_Quote, which only matters beside Hebrew letters, so Other here).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Wb {
    Other,
    Cr,
    Lf,
    Newline,
    WSegSpace,
    ALetter,
    Numeric,
    MidLetter,
    MidNum,
    MidNumLet,
    SingleQuote,
    ExtendNumLet,
}

const fn ascii_wb(b: u8) -> Wb {
    match b {
        b'\r' => Wb::Cr,
        b'\n' => Wb::Lf,
        0x0b | 0x0c => Wb::Newline,
        b' ' => Wb::WSegSpace,
        b'a'..=b'z' | b'A'..=b'Z' => Wb::ALetter,
        b'0'..=b'9' => Wb::Numeric,
        b':' => Wb::MidLetter,
        b',' | b';' => Wb::MidNum,
        b'.' => Wb::MidNumLet,
        b'\'' => Wb::SingleQuote,
        b'_' => Wb::ExtendNumLet,
        _ => Wb::Other,
    }
}

static ASCII_WB: [Wb; 128] = {
    let mut table = [Wb::Other; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = ascii_wb(b as u8);
        b += 1;
    }
    table
};

/// The end of the UAX #29 word segment that starts at `start` in `line`,
/// a stretch of ASCII that [`segments`] cut at breaks, by the
/// rules that apply to ASCII characters: WB3 (CR × LF), WB3a/WB3b (breaks
/// around CR, LF, Newline), WB3d (spaces together), WB5 to WB13b (letters,
/// digits, `_`, and `:` `.` `'` between letters, `.` `,` `;` `'` between
/// digits); everything else breaks (WB999).
#[inline]
fn ascii_segment_end(line: &[u8], start: usize) -> usize {
    let class = |i: usize| line.get(i).map(|&b| ASCII_WB[usize::from(b & 0x7f)]);
    let first = ASCII_WB[usize::from(line[start] & 0x7f)];
    let mut end = start + 1;
    match first {
        Wb::Cr if class(end) == Some(Wb::Lf) => end += 1,
        Wb::WSegSpace => {
            while class(end) == Some(Wb::WSegSpace) {
                end += 1;
            }
        }
        Wb::ALetter | Wb::Numeric | Wb::ExtendNumLet => {
            let mut state = first;
            loop {
                // WB5, WB8, WB9, WB10 (letters and digits after a letter
                // or digit) over a run at once.
                if matches!(state, Wb::ALetter | Wb::Numeric) {
                    let run = line[end..]
                        .iter()
                        .take_while(|b| b.is_ascii_alphanumeric())
                        .count();
                    if run > 0 {
                        end += run;
                        state = ASCII_WB[usize::from(line[end - 1] & 0x7f)];
                    }
                }
                let Some(next) = class(end) else { break };
                state = match (state, next) {
                    // WB5, WB8, WB9, WB10, WB13a, WB13b
                    (Wb::ALetter | Wb::Numeric, Wb::ALetter | Wb::Numeric)
                    | (_, Wb::ExtendNumLet)
                    | (Wb::ExtendNumLet, Wb::ALetter | Wb::Numeric) => next,
                    // WB6, WB7
                    (Wb::ALetter, Wb::MidLetter | Wb::MidNumLet | Wb::SingleQuote)
                        if class(end + 1) == Some(Wb::ALetter) =>
                    {
                        end += 1;
                        Wb::ALetter
                    }
                    // WB11, WB12
                    (Wb::Numeric, Wb::MidNum | Wb::MidNumLet | Wb::SingleQuote)
                        if class(end + 1) == Some(Wb::Numeric) =>
                    {
                        end += 1;
                        Wb::Numeric
                    }
                    _ => break,
                };
                end += 1;
            }
        }
        _ => {}
    }
    end
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if let Some(word) = self.pending.take() {
            return Some(word);
        }
        loop {
            let (start, segment) = self.segments.next()?;
            if segment.chars().all(is_py_space) {
                continue;
            }
            if segment == "." {
                let mut end = start + 1;
                while let Some(&(next, ".")) = self.segments.peek() {
                    if next != end {
                        break;
                    }
                    end += 1;
                    self.segments.next();
                }
                return Some(&self.text[start..end]);
            }
            let end = self.glue(start, start + segment.len());
            let segment = &self.text[start..end];
            // `'` or the first byte of `’`: a clitic is possible. (A byte
            // loop: `str::contains` of a non-ASCII char sets up a substring
            // search per call.)
            if segment.len() > 3 && segment.bytes().any(|b| b == b'\'' || b == 0xE2) {
                if let Some(split) = clitic_split(segment) {
                    self.pending = Some(&segment[split..]);
                    return Some(&segment[..split]);
                }
            }
            return Some(segment);
        }
    }
}

impl Words<'_> {
    /// Extends a token ending at `end` over the joints spaCy does not split
    /// and UAX #29 does: a hyphen, dash, slash, colon, full stop or comma
    /// between a letter or digit and a digit (`GLP-1`, `5–10`, `mg/23`,
    /// `10.1155/2024`), and a slash between letters (`and/or`); but not
    /// `-` between digits, which spaCy splits (`2019-2020`). Returns the new end.
    fn glue(&mut self, start: usize, mut end: usize) -> usize {
        loop {
            let Some(left) = self.text[..end].chars().next_back() else {
                return end;
            };
            if !left.is_alphanumeric() {
                return end;
            }
            // Every joint below starts with one of these bytes (`–` and `—`
            // with 0xE2): without one at `end`, there is nothing to glue,
            // and the segments need not be looked ahead.
            if !matches!(
                self.text.as_bytes().get(end),
                Some(b'-' | b':' | b'.' | b',' | b'/' | 0xE2)
            ) {
                return end;
            }
            let mut ahead = self.segments.clone();
            let Some((joint_at, joint)) = ahead.next() else {
                return end;
            };
            // An abbreviation's last full stop (`U.S.`, `e.g.`, `J.`), not
            // an ellipsis: spaCy keeps it in the token.
            if joint == "." && joint_at == end {
                let word = &self.text[start..end];
                let ellipsis = matches!(ahead.clone().next(), Some((at, ".")) if at == end + 1);
                let mut letters = word.chars();
                let single_letter =
                    letters.next().is_some_and(char::is_alphabetic) && letters.next().is_none();
                if !ellipsis && (single_letter || (word.contains('.') && !word.ends_with('.'))) {
                    self.segments.next();
                    return end + 1;
                }
            }
            let Some((right_at, right)) = ahead.next() else {
                return end;
            };
            if joint_at != end || right_at != end + joint.len() {
                return end;
            }
            let Some(first) = right.chars().next() else {
                return end;
            };
            let glued = match joint {
                "-" => first.is_ascii_digit() && !left.is_ascii_digit(),
                "–" | "—" | ":" | "." | "," => first.is_ascii_digit(),
                "/" => first.is_alphanumeric(),
                _ => false,
            };
            if !glued {
                return end;
            }
            self.segments.next();
            self.segments.next();
            end = right_at + right.len();
        }
    }
}

/// Where a trailing clitic of [`CLITICS`] starts in `word` (its
/// apostrophe `'` or `’`, case ignored), if one does after at least one
/// letter. Each clitic is matched from the word's end: its letters after
/// the apostrophe first (a byte or two, which most words fail), then the
/// apostrophe in either form, then its letters before it. A word ends in
/// at most one clitic (`clitic_split_is_the_clitic_search` checks this
/// against the search of each clitic in both forms).
fn clitic_split(word: &str) -> Option<usize> {
    let bytes = word.as_bytes();
    for clitic in CLITICS {
        let Some((before, after)) = clitic.split_once('\'') else {
            continue;
        };
        let Some(end) = bytes.len().checked_sub(after.len()) else {
            continue;
        };
        if !bytes[end..].eq_ignore_ascii_case(after.as_bytes()) {
            continue;
        }
        let apostrophe = if end >= 1 && bytes[end - 1] == b'\'' {
            end - 1
        } else if end >= 3 && &bytes[end - 3..end] == "\u{2019}".as_bytes() {
            end - 3
        } else {
            continue;
        };
        let Some(at) = apostrophe.checked_sub(before.len()) else {
            continue;
        };
        if !bytes[at..apostrophe].eq_ignore_ascii_case(before.as_bytes()) {
            continue;
        }
        // The clitic is not the whole word, and a letter comes before it.
        return (at > 0 && word[..at].chars().any(is_alpha)).then_some(at);
    }
    None
}

/// [`clitic_split`] as the search of each clitic of [`CLITICS`] in both
/// forms of the apostrophe: the definition it is tested against.
#[cfg(test)]
fn clitic_split_reference(word: &str) -> Option<usize> {
    for clitic in CLITICS {
        // Both apostrophes: ' and ’ (3 bytes).
        for curly in [false, true] {
            let matched = if curly {
                let plain_at = clitic.find('\'')?;
                let mut buf = [0u8; 8];
                let n = clitic.len() + 2;
                buf[..plain_at].copy_from_slice(&clitic.as_bytes()[..plain_at]);
                buf[plain_at..plain_at + 3].copy_from_slice("\u{2019}".as_bytes());
                buf[plain_at + 3..n].copy_from_slice(&clitic.as_bytes()[plain_at + 1..]);
                ends_with_ignore_case(word, &buf[..n])
            } else {
                ends_with_ignore_case(word, clitic.as_bytes())
            };
            if let Some(at) = matched {
                if word[..at].chars().any(is_alpha) {
                    return Some(at);
                }
            }
        }
    }
    None
}

#[cfg(test)]
fn ends_with_ignore_case(word: &str, suffix: &[u8]) -> Option<usize> {
    let bytes = word.as_bytes();
    if bytes.len() <= suffix.len() {
        return None;
    }
    let at = bytes.len() - suffix.len();
    (word.is_char_boundary(at) && bytes[at..].eq_ignore_ascii_case(suffix)).then_some(at)
}

/// One token of [`words`] with what the rules need of it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    /// Byte offset of the token in the text.
    pub start: u32,
    /// Bytes.
    pub len: u32,
    /// Characters (Python's `len`).
    pub chars: u32,
    /// [`NON_SYMBOL`], [`ALPHA`], [`TERMINAL`], [`PUNCT`].
    pub flags: u8,
}

impl Token {
    /// Byte offset of the end of the token in the text.
    #[inline]
    pub(crate) fn end(&self) -> usize {
        self.start as usize + self.len as usize
    }
}

/// The token has a character outside datatrove's `PUNCTUATION_SET`.
pub(crate) const NON_SYMBOL: u8 = 1;
/// The token has an alphabetic character (`str.isalpha`).
pub(crate) const ALPHA: u8 = 2;
/// The token is one sentence-terminal character ([`terminal`]).
pub(crate) const TERMINAL: u8 = 4;
/// Every character of the token is punctuation ([`is_punct`]).
pub(crate) const PUNCT: u8 = 8;
/// In [`ASCII_FLAGS`] only: the character is not punctuation.
const NOT_PUNCT: u8 = 16;
/// In [`bmp_flags`] only: the character is alphanumeric
/// (`char::is_alphanumeric`, which [`is_alphanumeric`] reads from there).
const ALNUM: u8 = 32;

/// [`NON_SYMBOL`] and [`ALPHA`] of each ASCII character: what
/// `punctuation()` and `is_alpha` say of it (`ascii_flags_agree_with_classes`).
static ASCII_FLAGS: [u8; 128] = {
    const PUNCTUATION: &[u8] = b"!&\\#%+^]~';{|[=-`*$,><)?@_.\"}/:(";
    let mut table = [NON_SYMBOL; 128];
    let mut b = 0;
    while b < 128 {
        if b <= 8 || (b >= 11 && b <= 31) || b == 127 {
            table[b] = 0;
        }
        let mut i = 0;
        while i < PUNCTUATION.len() {
            if PUNCTUATION[i] as usize == b {
                table[b] = 0;
            }
            i += 1;
        }
        // General category P in ASCII (`is_punct`).
        if !matches!(b as u8, b'!'..=b'#' | b'%'..=b'*' | b','..=b'/' | b':' | b';' | b'?' | b'@' | b'['..=b']' | b'_' | b'{' | b'}')
        {
            table[b] |= NOT_PUNCT;
        }
        if (b >= b'a' as usize && b <= b'z' as usize) || (b >= b'A' as usize && b <= b'Z' as usize)
        {
            table[b] |= ALPHA;
        }
        b += 1;
    }
    table
};

/// The [`Token::flags`] of a token of one ASCII character
/// ([`ascii_word_flags`] of it).
static MARK_FLAGS: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = ascii_word_flags(&[b as u8]);
        b += 1;
    }
    table
};

/// The [`Token::flags`] of an ASCII token.
const fn ascii_word_flags(word: &[u8]) -> u8 {
    let mut flags = 0;
    let mut i = 0;
    while i < word.len() {
        flags |= ASCII_FLAGS[word[i] as usize];
        i += 1;
    }
    if flags & NOT_PUNCT == 0 {
        flags |= PUNCT;
    }
    if matches!(word, [b'.' | b'!' | b'?']) {
        flags |= TERMINAL;
    }
    flags & !NOT_PUNCT
}

/// The [`Token::flags`] of a word of ASCII letters and digits only, which
/// holds a letter or not.
#[inline]
fn plain_word_flags(letters: bool) -> u8 {
    // Computed rather than branched on.
    NON_SYMBOL | (ALPHA * u8::from(letters))
}

/// Calls `emit` with every token of [`words`]`(text)`, in order: the same
/// tokens (`for_each_word_equals_words` and the dataset test compare them),
/// faster on ASCII.
///
/// No token spans a break after a line feed or a space break (see
/// [`segments`]): the character before such a break is a space or a line
/// feed, which neither ends a token that could be glued on nor is a full
/// stop of an ellipsis. So the text is cut there into stretches as
/// [`segments`] cuts it: a stretch of ASCII is tokenized by [`ascii_words`]
/// in one pass over its bytes; the stretch around a non-ASCII character by
/// [`simple_words`] when its characters are of the classes that function
/// applies (letters, digits, punctuation and spaces of the Basic
/// Multilingual Plane outside the scripts and classes with rules of their
/// own), else by [`words`] itself.
pub(crate) fn for_each_word<'a>(text: &'a str, emit: impl FnMut(&'a str)) {
    /// Every token to the closure, flags or not.
    struct Each<F>(F);
    impl<'a, F: FnMut(&'a str)> TokenSink<'a> for Each<F> {
        fn plain_uncounted(&mut self, text: &'a str, start: usize, end: usize, _: u8) {
            (self.0)(&text[start..end])
        }
        fn count_words(&mut self, _: usize, _: usize, _: usize) {}
        fn token(&mut self, word: &'a str) {
            (self.0)(word)
        }
    }
    for_each_token(text, &mut Each(emit));
}

/// Where [`for_each_token`] puts the tokens of a text, in order.
trait TokenSink<'a> {
    /// An ASCII token whose [`Token::flags`] the split knows: a word of
    /// letters and digits only, or one mark; `text[start..end]`, given by
    /// its offsets (the split knows they are character boundaries: a sink
    /// that needs no `&str` of it is spared the checks of slicing).
    fn plain(&mut self, text: &'a str, start: usize, end: usize, flags: u8) {
        self.plain_uncounted(text, start, end, flags);
        if flags & NON_SYMBOL != 0 {
            self.count_words(1, end - start, usize::from(flags & ALPHA != 0));
        }
    }
    /// [`TokenSink::plain`] but for the counts of [`tokenize`]: a mark
    /// adds none (no ASCII mark has [`NON_SYMBOL`] or [`ALPHA`],
    /// `marks_count_as_no_word`), and the caller gives those of words
    /// to [`TokenSink::count_words`], for a block of them at once.
    fn plain_uncounted(&mut self, text: &'a str, start: usize, end: usize, flags: u8);
    /// Adds `words` words of ASCII letters and digits only, given to
    /// [`TokenSink::plain_uncounted`], to the counts: `chars` characters
    /// in all, `alpha` of them with a letter.
    fn count_words(&mut self, words: usize, chars: usize, alpha: usize);
    /// Any other token.
    fn token(&mut self, word: &'a str);
}

/// [`for_each_word`], with each token's [`Token::flags`] when the split
/// already knows them (a word of ASCII letters and digits only, or one
/// ASCII mark).
fn for_each_token<'a>(text: &'a str, sink: &mut impl TokenSink<'a>) {
    let bytes = text.as_bytes();
    let mut pos = 0;
    while pos < bytes.len() {
        let Some(wide) = first_non_ascii(&bytes[pos..]).map(|w| pos + w) else {
            ascii_words(text, pos, bytes.len(), sink);
            return;
        };
        let start = (pos + 1..=wide)
            .rev()
            .find(|&i| cut_before(bytes, i))
            .unwrap_or(pos);
        ascii_words(text, pos, start, sink);
        let end = next_cut(bytes, wide + 1);
        if simple_stretch(&bytes[..end], wide) {
            simple_words(text, start, end, &mut |word| sink.token(word));
        } else {
            words(&text[start..end]).for_each(|word| sink.token(word));
        }
        pos = end;
    }
}

/// The first `i` from `from` (at least 1) that is a [`cut_before`] in
/// `bytes`, else the end of `bytes`. Sixteen positions at a time: the stretch after a
/// character outside ASCII runs to the end of its line in a text of a
/// script without ASCII words.
#[inline]
fn next_cut(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    // Bit k of a block at `i`: a cut before `i + k`, from the bytes at
    // `i + k - 1` and `i + k`.
    while let Some(block) = bytes.get(i - 1..i + 16).and_then(|b| b.first_chunk::<17>()) {
        let cuts = cuts_in(block);
        if cuts != 0 {
            return i + cuts.trailing_zeros() as usize;
        }
        i += 16;
    }
    (i..bytes.len())
        .find(|&i| cut_before(bytes, i))
        .unwrap_or(bytes.len())
}

/// Bit k: a [`cut_before`] `block[k + 1]` ([`next_cut`]).
#[cfg(target_arch = "x86_64")]
#[inline]
fn cuts_in(block: &[u8; 17]) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline; the loads read bytes 0
    // to 15 and 1 to 16 of `block`.
    unsafe {
        let before = _mm_loadu_si128(block.as_ptr().cast());
        let at = _mm_loadu_si128(block.as_ptr().add(1).cast());
        let bits = |x: __m128i| _mm_movemask_epi8(x) as u32;
        let line_feed = bits(_mm_cmpeq_epi8(before, _mm_set1_epi8(b'\n' as i8)));
        let space = bits(_mm_cmpeq_epi8(before, _mm_set1_epi8(b' ' as i8)));
        // ASCII (high bit clear) and no space.
        let word = !bits(at) & !bits(_mm_cmpeq_epi8(at, _mm_set1_epi8(b' ' as i8)));
        (line_feed | space & word) & 0xFFFF
    }
}

/// [`cuts_in`] byte by byte: the definition, and the version of targets
/// without SSE2.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn cuts_in_scalar(block: &[u8; 17]) -> u32 {
    (0..16).fold(0, |cuts, k| cuts | u32::from(cut_before(block, k + 1)) << k)
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn cuts_in(block: &[u8; 17]) -> u32 {
    cuts_in_scalar(block)
}

/// The word-break classes of [`simple_words`], per character of the Basic
/// Multilingual Plane; ASCII as [`ASCII_WB`] gives it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Simple {
    /// Python's whitespace (a segment of it is no token).
    Space,
    /// A class of [`Wb`]: Other, ALetter, Numeric, MidLetter, MidNum,
    /// MidNumLet, ExtendNumLet.
    Class(Wb),
    /// A class whose rules [`simple_words`] does not apply (Extend,
    /// Format, ZWJ, Hebrew_Letter, Katakana, Regional_Indicator,
    /// Extended_Pictographic, and the scripts without spaces UAX #29 leaves
    /// to a dictionary): its stretch goes to [`words`].
    Complex,
}

/// Characters whose Word_Break class in `unicode-segmentation` (Unicode
/// 17) differs from the one in `regex-syntax` (Unicode 16): U+00B8 and
/// characters new in Unicode 17. `simple_characters_tokenize_as_words`
/// lists them when the two crates disagree.
const NEWER_CLASSES: [std::ops::RangeInclusive<u32>; 6] = [
    0xB8..=0xB8,
    0x88F..=0x88F,
    0xC5C..=0xC5C,
    0xCDC..=0xCDC,
    0x1ACF..=0x1AEB,
    0xA7CE..=0xA7F1,
];

/// The characters [`simple_words`] leaves to [`Words`]: those whose
/// Word_Break rules look further than a neighbour, and the scripts
/// segmented by dictionary.
const COMPLEX_CLASSES: &str = r"[\p{WB=Extend}\p{WB=Format}\p{WB=ZWJ}\p{WB=Hebrew_Letter}\p{WB=Katakana}\p{WB=Regional_Indicator}\p{WB=Double_Quote}\p{WB=Single_Quote}\p{WB=CR}\p{WB=LF}\p{Extended_Pictographic}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tai_Tham}\p{Tai_Viet}\p{Tai_Le}\p{New_Tai_Lue}]";

/// The Word_Break classes [`simple_words`] tells apart, in the order
/// [`simple_classes`] looks them up.
const WORD_BREAK_CLASSES: [(&str, Wb); 6] = [
    (r"\p{WB=ALetter}", Wb::ALetter),
    (r"\p{WB=Numeric}", Wb::Numeric),
    (r"\p{WB=MidLetter}", Wb::MidLetter),
    (r"\p{WB=MidNum}", Wb::MidNum),
    (r"\p{WB=MidNumLet}", Wb::MidNumLet),
    (r"\p{WB=ExtendNumLet}", Wb::ExtendNumLet),
];

/// [`Simple`] of every character of the Basic Multilingual Plane, from the
/// Word_Break property tables of `regex-syntax`.
fn simple_classes() -> &'static [Simple] {
    static TABLE: OnceLock<Vec<Simple>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let complex = CharClass::from_pattern(COMPLEX_CLASSES);
        let classes =
            WORD_BREAK_CLASSES.map(|(pattern, wb)| (CharClass::from_pattern(pattern), wb));
        // Painted class by class, the first that applies last: outside
        // the BMP's surrogates, a character is `Complex` if that class has
        // it, else the first Word_Break class that has it, else a space if
        // Python says so, else `Other`; ASCII from this file's tables.
        let mut table = vec![Simple::Class(Wb::Other); 0x1_0000];
        for (code, slot) in table.iter_mut().enumerate() {
            if char::from_u32(code as u32).is_some_and(is_py_space) {
                *slot = Simple::Space;
            }
        }
        for (class, wb) in classes.iter().rev() {
            class.each_in_bmp(|c| table[c] = Simple::Class(*wb));
        }
        complex.each_in_bmp(|c| table[c] = Simple::Complex);
        for range in NEWER_CLASSES {
            for code in range {
                table[code as usize] = Simple::Complex;
            }
        }
        table[0xD800..=0xDFFF].fill(Simple::Complex);
        for (code, slot) in table.iter_mut().enumerate().take(0x80) {
            *slot = match ASCII_START[code] {
                Start::Space => Simple::Space,
                _ => Simple::Class(ASCII_WB[code]),
            };
        }
        table
    })
}

/// [`simple_classes`] of one character, character by character: the
/// definition the painted table is tested against.
#[cfg(test)]
fn simple_class_definition(code: u32) -> Simple {
    let class = |p: &str| CharClass::from_pattern(p);
    let Some(c) = char::from_u32(code) else {
        return Simple::Complex;
    };
    if c.is_ascii() {
        return match ASCII_START[code as usize] {
            Start::Space => Simple::Space,
            _ => Simple::Class(ASCII_WB[code as usize]),
        };
    }
    if class(COMPLEX_CLASSES).contains(c) || NEWER_CLASSES.iter().any(|r| r.contains(&code)) {
        return Simple::Complex;
    }
    match WORD_BREAK_CLASSES
        .iter()
        .find(|(pattern, _)| class(pattern).contains(c))
    {
        Some(&(_, wb)) => Simple::Class(wb),
        None if is_py_space(c) => Simple::Space,
        None => Simple::Class(Wb::Other),
    }
}

/// The character at `bytes[i]` (a character boundary), its [`Simple`]
/// class and its width; a character outside the Basic Multilingual Plane
/// is [`Simple::Complex`].
#[inline]
fn simple_at(bytes: &[u8], i: usize) -> (char, Simple, usize) {
    let Some((code, width)) = decode_bmp(bytes, i) else {
        return ('\0', Simple::Complex, 4);
    };
    let c = char::from_u32(code).unwrap_or('\0');
    let class = simple_classes()
        .get(code as usize)
        .copied()
        .unwrap_or(Simple::Complex);
    (c, class, width)
}

/// The code point and width of the character at `bytes[i]` (a character
/// boundary of UTF-8) when it is in the Basic Multilingual Plane (one to
/// three bytes), else `None`.
#[inline]
pub(crate) fn decode_bmp(bytes: &[u8], i: usize) -> Option<(u32, usize)> {
    let b = *bytes.get(i)?;
    match b {
        0..=0x7F => Some((u32::from(b), 1)),
        0xC0..=0xDF => {
            let b1 = *bytes.get(i + 1)?;
            Some(((u32::from(b & 0x1F) << 6) | u32::from(b1 & 0x3F), 2))
        }
        0xE0..=0xEF => {
            let (b1, b2) = (*bytes.get(i + 1)?, *bytes.get(i + 2)?);
            let code =
                (u32::from(b & 0x0F) << 12) | (u32::from(b1 & 0x3F) << 6) | u32::from(b2 & 0x3F);
            Some((code, 3))
        }
        _ => None,
    }
}

/// Whether every character of `bytes[from..]` is of a [`Simple`] class
/// other than [`Simple::Complex`].
fn simple_stretch(bytes: &[u8], from: usize) -> bool {
    let mut i = from;
    while i < bytes.len() {
        if bytes[i] < 0x80 {
            i += 1;
            continue;
        }
        let (_, class, width) = simple_at(bytes, i);
        if class == Simple::Complex {
            return false;
        }
        i += width;
    }
    true
}

/// The tokens of `text[start..end]`, a stretch cut at breaks whose
/// characters are all of a [`Simple`] class, as [`Words`] gives them:
/// [`ascii_words`] with the word-break classes of the characters outside
/// ASCII (letters, digits, `’` between letters, typographic quotes and
/// dashes, the no-break space).
fn simple_words<'a>(text: &'a str, start: usize, end: usize, emit: &mut impl FnMut(&'a str)) {
    let bytes = &text.as_bytes()[..end];
    let mut i = start;
    while i < end {
        let (c, class, width) = simple_at(bytes, i);
        let token_end = match class {
            Simple::Space | Simple::Complex => {
                i += width;
                continue;
            }
            Simple::Class(Wb::ALetter | Wb::Numeric | Wb::ExtendNumLet) => {
                let segment_end = simple_segment_end(bytes, i);
                // A segment of spaces is no token (U+202F is ExtendNumLet).
                if !c.is_ascii() && text[i..segment_end].chars().all(is_py_space) {
                    i = segment_end;
                    continue;
                }
                simple_glue(text, end, i, segment_end)
            }
            Simple::Class(_) if c == '.' => {
                let dots = bytes[i..].iter().take_while(|&&b| b == b'.').count();
                emit(&text[i..i + dots]);
                i += dots;
                continue;
            }
            Simple::Class(_) if is_alphanumeric(c) => simple_glue(text, end, i, i + width),
            Simple::Class(_) => i + width,
        };
        emit_split(&text[i..token_end], emit);
        i = token_end;
    }
}

/// Emits `word`, or the word and its clitic when it ends in one
/// ([`clitic_split`]; an apostrophe, `'` or `’` whose first byte is 0xE2,
/// is looked for first).
#[inline]
fn emit_split<'a>(word: &'a str, emit: &mut impl FnMut(&'a str)) {
    match (word.len() > 3 && word.bytes().any(|b| b == b'\'' || b == 0xE2))
        .then(|| clitic_split(word))
        .flatten()
    {
        Some(split) => {
            emit(&word[..split]);
            emit(&word[split..]);
        }
        None => emit(word),
    }
}

/// The end of the UAX #29 word segment that starts at `bytes[start]` (a
/// letter, digit or ExtendNumLet of a simple stretch): [`ascii_segment_end`]
/// with [`Simple`] classes.
fn simple_segment_end(bytes: &[u8], start: usize) -> usize {
    let class = |i: usize| {
        if i >= bytes.len() {
            return (None, 0);
        }
        match simple_at(bytes, i) {
            (_, Simple::Class(wb), width) => (Some(wb), width),
            (_, _, width) => (None, width),
        }
    };
    let (first, width) = class(start);
    let Some(mut state) = first else {
        return start + width;
    };
    let mut end = start + width;
    // Each character's class is read once: a joint's guard reads the
    // character after it, which is then the one the segment takes.
    let mut next = class(end);
    while let (Some(wb), width) = next {
        let after = class(end + width);
        let joint = match (state, wb) {
            // WB5, WB8, WB9, WB10, WB13a, WB13b
            (Wb::ALetter | Wb::Numeric, Wb::ALetter | Wb::Numeric)
            | (_, Wb::ExtendNumLet)
            | (Wb::ExtendNumLet, Wb::ALetter | Wb::Numeric) => false,
            // WB6, WB7
            (Wb::ALetter, Wb::MidLetter | Wb::MidNumLet | Wb::SingleQuote)
                if after.0 == Some(Wb::ALetter) =>
            {
                true
            }
            // WB11, WB12
            (Wb::Numeric, Wb::MidNum | Wb::MidNumLet | Wb::SingleQuote)
                if after.0 == Some(Wb::Numeric) =>
            {
                true
            }
            _ => break,
        };
        if joint {
            // The joint and the letter or digit after it, whose class the
            // segment goes on with.
            end += width + after.1;
            next = class(end);
        } else {
            state = wb;
            end += width;
            next = after;
        }
    }
    end
}

/// [`Words::glue`] in a simple stretch ending at `stop`: the end of the
/// token `text[start..end]` after the joints spaCy keeps.
fn simple_glue(text: &str, stop: usize, start: usize, mut end: usize) -> usize {
    let bytes = &text.as_bytes()[..stop];
    loop {
        // The joint first: most words have none after them, and whether a
        // letter outside ASCII is alphanumeric is a search in a table.
        if end >= stop {
            return end;
        }
        let (joint, _, joint_width) = simple_at(bytes, end);
        if !matches!(joint, '-' | ':' | '.' | ',' | '/' | '–' | '—') {
            return end;
        }
        let Some(left) = text[..end].chars().next_back() else {
            return end;
        };
        if !left.is_alphanumeric() {
            return end;
        }
        if joint == '.' {
            let word = &text[start..end];
            let ellipsis = bytes.get(end + 1) == Some(&b'.');
            let mut letters = word.chars();
            let single_letter =
                letters.next().is_some_and(char::is_alphabetic) && letters.next().is_none();
            if !ellipsis && (single_letter || (word.contains('.') && !word.ends_with('.'))) {
                return end + 1;
            }
        }
        let right = end + joint_width;
        if right >= stop {
            return end;
        }
        let (first, class, width) = simple_at(bytes, right);
        let glued = match joint {
            '-' => first.is_ascii_digit() && !left.is_ascii_digit(),
            '/' => first.is_alphanumeric(),
            _ => first.is_ascii_digit(),
        };
        if !glued {
            return end;
        }
        end = match class {
            Simple::Class(Wb::ALetter | Wb::Numeric | Wb::ExtendNumLet) => {
                simple_segment_end(bytes, right)
            }
            _ => right + width,
        };
    }
}

/// The offset of the first byte of `bytes` that is not ASCII, eight bytes
/// at a time.
#[inline]
fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let high = word & HIGH;
        if high != 0 {
            return Some(at + (high.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b >= 0x80)
        .map(|i| at + i)
}

/// What [`ascii_words`] does at a byte that starts a segment.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Start {
    /// Python's whitespace: a segment of it is no token.
    Space,
    /// A letter, digit or `_`: a word segment ([`ascii_segment_end`]).
    Word,
    /// A full stop: an ellipsis token with the full stops after it.
    Dot,
    /// Any other character: a token of one character.
    Other,
}

static ASCII_START: [Start; 128] = {
    let mut table = [Start::Other; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = match ascii_wb(b as u8) {
            Wb::ALetter | Wb::Numeric | Wb::ExtendNumLet => Start::Word,
            _ if b == b'.' as usize => Start::Dot,
            // \t \n \x0b \x0c \r \x1c-\x1f and space: `is_py_space`.
            _ if (b >= 0x09 && b <= 0x0d) || (b >= 0x1c && b <= 0x20) => Start::Space,
            _ => Start::Other,
        };
        b += 1;
    }
    table
};

/// The tokens of `text[start..end]`, ASCII cut at breaks (see
/// [`for_each_word`]), as [`Words`] gives them, in one pass: spaces are
/// stepped over, a word segment is glued on as [`Words::glue`] does and its
/// clitic split off, a run of full stops is one token, any other character
/// is a token.
///
/// In bulk first: the 64 bytes from the current position are classified
/// into bit masks ([`ascii_masks`]), and up to the first byte where a rule
/// beyond "a run of letters and digits is a word, any other character but
/// a space is a token" may apply (a `_`; a joint before a letter or digit,
/// or a hyphen before a digit; a full stop before a full stop; a single
/// letter before a full stop, `J.`), tokens are found with
/// `trailing_zeros` and no branch per byte: a run of letters and digits
/// followed by a space or a mark there is whole ([`plain_word_end`]). The
/// token at that byte (or the word that reaches it) goes through
/// [`ascii_token`]; then the next 64 bytes from there are classified.
fn ascii_words<'a>(text: &'a str, start: usize, end: usize, sink: &mut impl TokenSink<'a>) {
    let bytes = &text.as_bytes()[..end];
    let mut i = start;
    while i < end {
        let m = ascii_masks_at(bytes, i);
        let valid = low_bits((end - i).min(64) as u32);
        // Bit k: byte k + 1 is a letter or digit (`before_alnum`), a digit
        // (`before_digit`); unknown for the last byte, so a joint there
        // stops the bulk.
        let before_alnum = m.alnum >> 1 | 1 << 63;
        let before_digit = (m.alnum & !m.letter) >> 1 | 1 << 63;
        // A single letter before a full stop (`J.`), which is glued to it.
        let letter_before_dot = m.letter & !(m.alnum << 1) & m.dot >> 1;
        let hard = m.underscore
            | (m.joint | m.dot) & before_alnum
            | m.hyphen & before_digit
            | m.dot & m.dot >> 1
            | letter_before_dot
            | !valid;
        let limit = hard.trailing_zeros();
        let region = low_bits(limit);
        let words = m.alnum & region;
        let marks = !(m.alnum | m.space) & region;
        let mut starts = words & !(words << 1) | marks;
        let mut stop = limit;
        while starts != 0 {
            let at = starts.trailing_zeros();
            let from = i + at as usize;
            if marks >> at & 1 != 0 {
                sink.plain_uncounted(
                    text,
                    from,
                    from + 1,
                    MARK_FLAGS[usize::from(bytes[from] & 0x7f)],
                );
                starts &= starts - 1;
                continue;
            }
            let rest = words >> at;
            let run = (!rest).trailing_zeros();
            // The bits of the run: adding 1 to `rest` clears them.
            let word = rest & !rest.wrapping_add(1);
            let letters = m.letter >> at & word != 0;
            // A word that reaches the limit ends where the bulk cannot
            // tell.
            if at + run >= limit {
                stop = at;
                break;
            }
            sink.plain_uncounted(text, from, from + run as usize, plain_word_flags(letters));
            starts &= starts - 1;
        }
        count_block_words(words & low_bits(stop), m.letter, sink);
        i += stop as usize;
        if stop < 64 && i < end {
            i = ascii_token(text, bytes, i, sink);
        }
    }
}

/// Gives `sink` the counts of the words whose bytes are the bits of
/// `words` (each run of bits a whole word, followed by a bit that is no
/// letter or digit), with the letters of the block: a few operations per
/// block rather than three counts per word. A word of digits only is a
/// run of digits that starts at a word's start and ends at its end:
/// adding its first bit to the digits carries to the bit after the run,
/// which is outside `words` just when the run is the whole word.
#[inline(always)]
fn count_block_words<'a>(words: u64, letter: u64, sink: &mut impl TokenSink<'a>) {
    let word_starts = words & !(words << 1);
    let digits = words & !letter;
    let digit_word_starts = word_starts & digits;
    let past_digits = digits.wrapping_add(digit_word_starts) & !digits;
    let digit_words = (past_digits & !words).count_ones();
    let n = word_starts.count_ones();
    sink.count_words(
        n as usize,
        words.count_ones() as usize,
        (n - digit_words) as usize,
    );
}

/// The `n` low bits set (`n` ≤ 64).
#[inline]
pub(crate) fn low_bits(n: u32) -> u64 {
    u64::MAX.checked_shr(64 - n).unwrap_or(0)
}

/// The token of `bytes` (ASCII, cut at the stretch's end) that starts at
/// `i`, given to `sink` (nothing for a space); returns where the next
/// starts. A word of letters and digits only that ends where no joint
/// follows ([`plain_word_end`]) is found eight bytes at a time
/// ([`alnum_run`]) and given with its flags; any other goes through
/// [`ascii_segment_end`] and [`ascii_glue`].
#[inline]
fn ascii_token<'a>(text: &'a str, bytes: &[u8], i: usize, sink: &mut impl TokenSink<'a>) -> usize {
    match ASCII_START[usize::from(bytes[i] & 0x7f)] {
        Start::Space => i + 1,
        Start::Word => {
            let (run, letters) = alnum_run(bytes, i);
            if run > 0 && plain_word_end(bytes, i, i + run, letters) {
                sink.plain(text, i, i + run, plain_word_flags(letters));
                return i + run;
            }
            let word_end = ascii_glue(bytes, i, ascii_segment_end(bytes, i));
            emit_split(&text[i..word_end], &mut |word| sink.token(word));
            word_end
        }
        Start::Dot => {
            let dots = bytes[i..].iter().take_while(|&&b| b == b'.').count();
            sink.token(&text[i..i + dots]);
            i + dots
        }
        Start::Other => {
            sink.token(&text[i..i + 1]);
            i + 1
        }
    }
}

/// One bit per byte of a block of 64 bytes: ASCII letters, ASCII letters
/// and digits, Python's whitespace in ASCII (`\t` to `\r`, `\x1c` to
/// `\x1f`, the space), and the marks [`ascii_words`] tells apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct AsciiMasks {
    letter: u64,
    alnum: u64,
    space: u64,
    /// `.`
    dot: u64,
    /// `_`
    underscore: u64,
    /// The joints of [`plain_word_end`] but the full stop and the hyphen:
    /// `:` `,` `;` `'` `/`.
    joint: u64,
    /// `-`, which joins a word only before a digit.
    hyphen: u64,
}

/// [`ascii_masks`] of the 64 bytes of `bytes` from `at`; past the end,
/// bytes that are none of the classes.
#[inline(always)]
fn ascii_masks_at(bytes: &[u8], at: usize) -> AsciiMasks {
    with_block(bytes, at, ascii_masks)
}

/// `classify` of the 64 bytes of `bytes` from `at`, zero bytes past the
/// end (copied into a block only there).
#[inline(always)]
pub(crate) fn with_block<T>(bytes: &[u8], at: usize, classify: impl FnOnce(&[u8; 64]) -> T) -> T {
    let tail = &bytes[at..];
    match tail.first_chunk::<64>() {
        Some(block) => classify(block),
        None => {
            let mut padded = [0u8; 64];
            padded[..tail.len()].copy_from_slice(tail);
            classify(&padded)
        }
    }
}

/// The [`AsciiMasks`] of `block`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn ascii_masks(block: &[u8; 64]) -> AsciiMasks {
    // SAFETY: SSE2 is part of the x86_64 baseline.
    unsafe { ascii_masks_sse2(block) }
}

/// [`ascii_masks`] 16 bytes at a time.
#[cfg(target_arch = "x86_64")]
#[inline]
unsafe fn ascii_masks_sse2(block: &[u8; 64]) -> AsciiMasks {
    use std::arch::x86_64::*;
    let splat = |b: u8| _mm_set1_epi8(b as i8);
    // Signed compares: a byte from 0x80 is negative, in no range.
    let within = |x: __m128i, lo: u8, hi: u8| {
        _mm_and_si128(
            _mm_cmpgt_epi8(x, splat(lo - 1)),
            _mm_cmpgt_epi8(splat(hi + 1), x),
        )
    };
    let mut m = AsciiMasks::default();
    for lane in 0..4 {
        // The load reads 16 bytes of `block`.
        let v = _mm_loadu_si128(block.as_ptr().add(lane * 16).cast());
        let bits = |x: __m128i| u64::from(_mm_movemask_epi8(x) as u16) << (lane * 16);
        let letter = within(_mm_or_si128(v, splat(0x20)), b'a', b'z');
        let alnum = _mm_or_si128(letter, within(v, b'0', b'9'));
        let space = _mm_or_si128(within(v, 0x09, 0x0d), within(v, 0x1c, 0x20));
        let eq = |b: u8| _mm_cmpeq_epi8(v, splat(b));
        let joint = _mm_or_si128(
            _mm_or_si128(_mm_or_si128(eq(b':'), eq(b',')), eq(b';')),
            _mm_or_si128(eq(b'\''), eq(b'/')),
        );
        m.letter |= bits(letter);
        m.alnum |= bits(alnum);
        m.space |= bits(space);
        m.dot |= bits(eq(b'.'));
        m.underscore |= bits(eq(b'_'));
        m.joint |= bits(joint);
        m.hyphen |= bits(eq(b'-'));
    }
    m
}

/// The [`AsciiMasks`] of `block`, byte by byte: the definition, and the
/// version of targets without SSE2.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn ascii_masks_scalar(block: &[u8; 64]) -> AsciiMasks {
    let mut m = AsciiMasks::default();
    for (k, &b) in block.iter().enumerate() {
        let bit = 1u64 << k;
        if b.is_ascii_alphabetic() {
            m.letter |= bit;
        }
        if b.is_ascii_alphanumeric() {
            m.alnum |= bit;
        }
        if matches!(b, 0x09..=0x0d | 0x1c..=0x20) {
            m.space |= bit;
        }
        if b == b'.' {
            m.dot |= bit;
        }
        if b == b'_' {
            m.underscore |= bit;
        }
        if matches!(b, b':' | b',' | b';' | b'\'' | b'/') {
            m.joint |= bit;
        }
        if b == b'-' {
            m.hyphen |= bit;
        }
    }
    m
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn ascii_masks(block: &[u8; 64]) -> AsciiMasks {
    ascii_masks_scalar(block)
}

/// The length of the run of ASCII letters and digits that starts at
/// `bytes[start]`, and whether it holds a letter, eight bytes at a time
/// (every byte of `bytes` from `start` is ASCII): a byte `b` below 0x80
/// is at least `c` when `b + (0x80 - c)` has its high bit set, and no
/// such sum carries into the next byte.
#[inline]
fn alnum_run(bytes: &[u8], start: usize) -> (usize, bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let at_least = |x: u64, c: u8| x.wrapping_add(ONES * u64::from(0x80 - c)) & HIGH;
    let mut at = start;
    let mut letters = 0u64;
    loop {
        let rest = &bytes[at..];
        let x = match rest.get(..8) {
            Some(eight) => u64::from_le_bytes(eight.try_into().unwrap_or([0; 8])),
            None => {
                // Past the end: zero bytes, which end the run.
                let mut padded = [0u8; 8];
                padded[..rest.len()].copy_from_slice(rest);
                u64::from_le_bytes(padded)
            }
        };
        let digit = at_least(x, b'0') & !at_least(x, b'9' + 1);
        let folded = x | (ONES * 0x20);
        let letter = at_least(folded, b'a') & !at_least(folded, b'z' + 1);
        let other = !(digit | letter) & HIGH;
        if other != 0 {
            let n = other.trailing_zeros() as usize / 8;
            letters |= letter & ((1u64 << (8 * n)) - 1);
            return (at + n - start, letters != 0);
        }
        letters |= letter;
        at += 8;
    }
}

/// Whether the run of letters and digits `bytes[start..end]` is a whole
/// token: [`ascii_segment_end`] and [`ascii_glue`] would end it at `end`.
/// `_` joins a word segment (WB13a); `:` `,` `;` `.` `'` join it only
/// before a letter or digit (WB6, WB7, WB11, WB12), and so do the joints
/// `:` `.` `,` `/` glue on; `-` is glued on only before a digit and after
/// a letter; a full stop after a single letter is glued to it (`J.`)
/// unless an ellipsis follows.
#[inline]
fn plain_word_end(bytes: &[u8], start: usize, end: usize, letters: bool) -> bool {
    let Some(&joint) = bytes.get(end) else {
        return true;
    };
    let next = bytes.get(end + 1).copied();
    let before_word = next.is_some_and(|b| b.is_ascii_alphanumeric());
    match joint {
        b'_' => false,
        b':' | b',' | b';' | b'\'' | b'/' => !before_word,
        // Glued on before a digit after a letter: whole after a digit or
        // before anything else.
        b'-' => bytes[end - 1].is_ascii_digit() || !next.is_some_and(|b| b.is_ascii_digit()),
        b'.' => !before_word && (end - start > 1 || !letters || next == Some(b'.')),
        _ => true,
    }
}

/// [`Words::glue`] on ASCII: the end of the token `bytes[start..end]`
/// (a word segment) after the joints spaCy keeps. In ASCII every joint
/// (`-` `:` `.` `,` `/`) is a segment of its own, and so is a full stop
/// after it; the segment after a joint that glues starts with a letter or
/// digit, so it is a word segment.
#[inline]
fn ascii_glue(bytes: &[u8], start: usize, mut end: usize) -> usize {
    loop {
        let left = bytes[end - 1];
        if !left.is_ascii_alphanumeric() {
            return end;
        }
        let Some(&joint) = bytes.get(end) else {
            return end;
        };
        if !matches!(joint, b'-' | b':' | b'.' | b',' | b'/') {
            return end;
        }
        if joint == b'.' {
            let word = &bytes[start..end];
            let ellipsis = bytes.get(end + 1) == Some(&b'.');
            let single_letter = word.len() == 1 && word[0].is_ascii_alphabetic();
            if !ellipsis && (single_letter || (word.contains(&b'.') && !word.ends_with(b"."))) {
                return end + 1;
            }
        }
        let Some(&first) = bytes.get(end + 1) else {
            return end;
        };
        let glued = match joint {
            b'-' => first.is_ascii_digit() && !left.is_ascii_digit(),
            b'/' => first.is_ascii_alphanumeric(),
            _ => first.is_ascii_digit(),
        };
        if !glued {
            return end;
        }
        end = ascii_segment_end(bytes, end + 1);
    }
}

/// [`token_hash_in`] of a token on its own.
#[cfg(test)]
pub(crate) fn token_hash(bytes: &[u8]) -> u64 {
    token_hash_in(bytes, 0, bytes.len())
}

/// [`token_hash_in`] of every token of `text`, in order (only the
/// repetition rules compare words by hash, so a text that fails the rules
/// before them is not hashed).
pub(crate) fn token_hashes(text: &str, tokens: &[Token], out: &mut Vec<u64>) {
    out.clear();
    out.extend(
        tokens
            .iter()
            .map(|t| token_hash_in(text.as_bytes(), t.start as usize, t.len as usize)),
    );
}

/// A 64-bit hash of the token `text[start..start + len]`, by which n-grams
/// are compared. A token of up to 7 bytes (most words) is packed with its
/// length into one `u64` and mixed by a bijection (splitmix64's
/// finaliser), so no two such tokens share a hash and no hash function is
/// called; a longer one is hashed by xxh3-64. The short token is read as
/// one `u64` load from the text when eight bytes follow its start (its
/// bytes kept by a mask), rather than copied by a variable length.
#[inline]
fn token_hash_in(text: &[u8], start: usize, len: usize) -> u64 {
    let bytes = &text[start..start + len];
    if len > 7 {
        return xxhash_rust::xxh3::xxh3_64(bytes);
    }
    let word = match text.get(start..start + 8) {
        Some(eight) => u64::from_le_bytes(eight.try_into().unwrap_or([0; 8])),
        None => {
            let mut packed = [0u8; 8];
            packed[..len].copy_from_slice(bytes);
            u64::from_le_bytes(packed)
        }
    };
    // The token's bytes, and its length in the top byte.
    let mut x = (word & ((1u64 << (8 * len)) - 1)) | (len as u64) << 56;
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// [`NON_SYMBOL`], [`ALPHA`], [`TERMINAL`] and [`NOT_PUNCT`] of one
/// character, as the classes say.
fn char_flags(c: char) -> u8 {
    let mut flags = 0;
    if !punctuation().contains(c) {
        flags |= NON_SYMBOL;
    }
    if is_alpha(c) {
        flags |= ALPHA;
    }
    if terminal().contains(c) {
        flags |= TERMINAL;
    }
    if !is_punct(c) {
        flags |= NOT_PUNCT;
    }
    flags
}

/// `char::is_alphanumeric`, from [`bmp_flags`] in the Basic Multilingual
/// Plane (`simple_words` asks it of every ideograph: std's search in its
/// tables was a tenth of the split of a Chinese text).
#[inline]
fn is_alphanumeric(c: char) -> bool {
    match bmp_flags().get(c as usize) {
        Some(&flags) => flags & ALNUM != 0,
        None => c.is_alphanumeric(),
    }
}

/// [`char_flags`] of every character of the Basic Multilingual Plane, and
/// [`ALNUM`], so that a token's characters are not each looked up in four
/// range tables.
fn bmp_flags() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // `char_flags` class by class: a character is a non-symbol and
        // not punctuation until a class says otherwise.
        let mut table = vec![NON_SYMBOL | NOT_PUNCT; 0x1_0000];
        punctuation().each_in_bmp(|c| table[c] &= !NON_SYMBOL);
        alpha().each_in_bmp(|c| table[c] |= ALPHA);
        terminal().each_in_bmp(|c| table[c] |= TERMINAL);
        punct().each_in_bmp(|c| table[c] &= !NOT_PUNCT);
        for (code, flags) in table.iter_mut().enumerate() {
            match char::from_u32(code as u32) {
                // A letter (category L) is Alphabetic: std's search is
                // asked only of the other characters.
                Some(_) if *flags & ALPHA != 0 => *flags |= ALNUM,
                Some(c) if c.is_alphanumeric() => *flags |= ALNUM,
                Some(_) => {}
                // Surrogates.
                None => *flags = 0,
            }
        }
        table
    })
}

/// Fills `out` with the tokens of `text`. Returns the counts of the
/// tokens' flags that the Gopher quality rules read and the stop words
/// among the tokens, summed as the tokens are found rather than in a pass
/// over `out`.
pub(crate) fn tokenize(text: &str, out: &mut Vec<Token>) -> TokenCounts {
    out.clear();
    let mut sink = Tokens {
        base: text.as_ptr() as usize,
        out,
        counts: TokenCounts::default(),
    };
    for_each_token(text, &mut sink);
    sink.counts
}

/// Counts over the tokens of a text ([`tokenize`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TokenCounts {
    /// Tokens with [`NON_SYMBOL`].
    pub non_symbol: usize,
    /// Their characters.
    pub non_symbol_chars: usize,
    /// Tokens with [`ALPHA`].
    pub alpha: usize,
    /// The stop words among the tokens: the bits of
    /// [`stop_words::stop_word_bit`].
    pub stop_words: u8,
}

/// The [`TokenSink`] of [`tokenize`]. Its methods are inlined into the
/// split's loop, which calls them for every word.
struct Tokens<'o> {
    /// The address of the text's first byte.
    base: usize,
    out: &'o mut Vec<Token>,
    counts: TokenCounts,
}

impl Tokens<'_> {
    #[inline(always)]
    fn push(&mut self, start: usize, len: usize, flags: u8, chars: u32) {
        self.out.push(Token {
            start: start as u32,
            len: len as u32,
            chars,
            flags,
        });
    }
}

/// The key of [`stop_words::short_stop_word_bit`] of the word
/// `bytes[start..start + len]`: its bytes as a little-endian `u32`,
/// zero-padded, when it has two to four; 0 otherwise. The four bytes from
/// `start` are read whatever the length and masked without a branch.
#[inline(always)]
fn short_word_key(bytes: &[u8], start: usize, len: usize) -> u32 {
    let four = match bytes.get(start..).and_then(|b| b.first_chunk::<4>()) {
        Some(four) => u32::from_le_bytes(*four),
        None => {
            let tail = bytes.get(start..).unwrap_or_default();
            let mut padded = [0u8; 4];
            padded[..tail.len()].copy_from_slice(tail);
            u32::from_le_bytes(padded)
        }
    };
    // Computed rather than branched on, as a word's length is a coin
    // toss: `short` is all ones for two to four bytes, and `mask` keeps
    // `len` bytes then (any bytes for a longer word, which `short` clears).
    let short = u32::from(len.wrapping_sub(2) < 3).wrapping_neg();
    let mask = ((1u64 << (8 * (len & 7))) - 1) as u32;
    four & mask & short
}

impl<'a> TokenSink<'a> for Tokens<'_> {
    #[inline(always)]
    fn plain_uncounted(&mut self, text: &'a str, start: usize, end: usize, flags: u8) {
        let len = end - start;
        self.push(start, len, flags, len as u32);
        // Once every stop word is seen, no word adds one.
        if self.counts.stop_words != u8::MAX {
            let key = short_word_key(text.as_bytes(), start, len);
            self.counts.stop_words |= stop_words::short_stop_word_bit(key);
        }
    }

    #[inline(always)]
    fn count_words(&mut self, words: usize, chars: usize, alpha: usize) {
        self.counts.non_symbol += words;
        self.counts.non_symbol_chars += chars;
        self.counts.alpha += alpha;
    }

    fn token(&mut self, word: &'a str) {
        let (flags, chars) = word_flags(word);
        let start = word.as_ptr() as usize - self.base;
        self.push(start, word.len(), flags, chars);
        // Added without a branch: which flags a token has is a coin toss.
        let non_symbol = usize::from(flags & NON_SYMBOL != 0);
        self.counts.non_symbol += non_symbol;
        self.counts.non_symbol_chars += non_symbol * chars as usize;
        self.counts.alpha += usize::from(flags & ALPHA != 0);
        if self.counts.stop_words != u8::MAX {
            self.counts.stop_words |= stop_words::stop_word_bit(word.as_bytes());
        }
    }
}

/// The [`Token::flags`] of `word` and its characters.
fn word_flags(word: &str) -> (u8, u32) {
    if word.is_ascii() {
        return (ascii_word_flags(word.as_bytes()), word.len() as u32);
    }
    let mut flags = 0;
    let mut chars = 0u32;
    let bmp = bmp_flags();
    for c in word.chars() {
        chars += 1;
        flags |= match bmp.get(c as usize) {
            Some(&f) => f,
            None => char_flags(c),
        };
    }
    if flags & NOT_PUNCT == 0 {
        flags |= PUNCT;
    }
    if chars > 1 {
        flags &= !TERMINAL;
    }
    (flags & !(NOT_PUNCT | ALNUM), chars)
}

#[cfg(test)]
mod tests;
