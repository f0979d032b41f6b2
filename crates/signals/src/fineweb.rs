//! FineWeb's own page rules (Penedo et al. 2024, "The FineWeb Datasets",
//! §3.3), with the parameters and the order of datatrove's
//! `FineWebQualityFilter` (datatrove 0.10.1,
//! `pipeline/filters/fineweb_quality_filter.py`), on the non-blank lines of
//! `text.split("\n")`:
//!
//! - `line_punct_ratio`: fewer than 12 % of lines end in sentence-terminal
//!   punctuation (Unicode `Sentence_Terminal`; the line is not stripped);
//! - `short_line_ratio`: more than 67 % of lines are 30 characters or shorter;
//! - `char_dup_ratio`: more than 1 % of the characters (newlines not counted)
//!   are in lines that repeat an earlier line;
//! - `list_ratio`: more than 0.3 newlines per word (a list-like page).

use crate::lines::{self, LineDuplicates};
use serde::Serialize;

/// `line_punct_thr`.
pub const LINE_PUNCT_THR: f64 = 0.12;
/// `short_line_thr`.
pub const SHORT_LINE_THR: f64 = 0.67;
// `short_line_length`: `crate::lines::SHORT_LINE_LENGTH`.
/// `char_duplicates_ratio`.
pub const CHAR_DUPLICATES_RATIO: f64 = 0.01;
/// `new_line_ratio`.
pub const NEW_LINE_RATIO: f64 = 0.3;

/// Raw values of the FineWeb rules.
#[derive(Clone, Debug, PartialEq, Default, Serialize)]
pub struct FineWebSignals {
    /// Non-blank lines.
    pub lines: usize,
    /// Fraction of lines ending in sentence-terminal punctuation.
    pub line_punct_ratio: f64,
    /// Fraction of lines of at most 30 characters (datatrove's
    /// `short_line_length`).
    pub short_line_ratio: f64,
    /// Fraction of the characters (newlines not counted) in lines that
    /// repeat an earlier line.
    pub char_dup_ratio: f64,
    /// Newlines per word.
    pub list_ratio: f64,
}

/// The FineWeb signals of a text with `words_in_text` tokens, from what
/// [`lines::line_duplicates`] counts of its lines (the non-blank lines of
/// `text.split("\n")` are those between runs of line feeds).
pub(crate) fn signals(words_in_text: usize, lines: &LineDuplicates) -> FineWebSignals {
    let (n, punct, short) = (
        lines.text_lines,
        lines.terminal_end_lines,
        lines.short_lines,
    );
    let newlines = lines.line_feeds;
    let chars = lines.chars - newlines;
    FineWebSignals {
        lines: n,
        line_punct_ratio: lines::ratio(punct, n),
        short_line_ratio: lines::ratio(short, n),
        char_dup_ratio: lines::ratio(lines.repeated_text_chars, chars),
        list_ratio: lines::ratio(newlines, words_in_text),
    }
}

/// The first FineWeb rule `s` breaks, in datatrove's order (`empty` when no
/// line has text).
pub(crate) fn failure(s: &FineWebSignals) -> Option<&'static str> {
    if s.lines == 0 {
        return Some("empty");
    }
    if s.line_punct_ratio < LINE_PUNCT_THR {
        return Some("line_punct_ratio");
    }
    if s.short_line_ratio > SHORT_LINE_THR {
        return Some("short_line_ratio");
    }
    if s.char_dup_ratio > CHAR_DUPLICATES_RATIO {
        return Some("char_dup_ratio");
    }
    if s.list_ratio > NEW_LINE_RATIO {
        return Some("list_ratio");
    }
    None
}
