//! UAX #29 word segments with spaCy's two English rules (runs of full stops,
//! clitics) and the joints it keeps glued: the [`words`] iterator.

use super::*;

/// The clitics spaCy's English tokenizer splits off the word before them.
pub(super) const CLITICS: [&str; 7] = ["n't", "'s", "'m", "'d", "'re", "'ve", "'ll"];

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
pub(super) fn space_break(bytes: &[u8], i: usize) -> bool {
    bytes[i - 1] == b' ' && bytes[i] < 0x80 && bytes[i] != b' '
}

/// Whether [`for_each_token`] may cut `bytes` before `bytes[i]` (`i` at
/// least 1): after a line feed (WB3a), or at a [`space_break`].
#[inline]
pub(super) fn cut_before(bytes: &[u8], i: usize) -> bool {
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
pub(super) enum Wb {
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

pub(super) const fn ascii_wb(b: u8) -> Wb {
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

pub(super) static ASCII_WB: [Wb; 128] = {
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
pub(super) fn ascii_segment_end(line: &[u8], start: usize) -> usize {
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
pub(super) fn clitic_split(word: &str) -> Option<usize> {
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
pub(super) fn clitic_split_reference(word: &str) -> Option<usize> {
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
pub(super) fn ends_with_ignore_case(word: &str, suffix: &[u8]) -> Option<usize> {
    let bytes = word.as_bytes();
    if bytes.len() <= suffix.len() {
        return None;
    }
    let at = bytes.len() - suffix.len();
    (word.is_char_boundary(at) && bytes[at..].eq_ignore_ascii_case(suffix)).then_some(at)
}
