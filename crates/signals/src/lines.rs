//! What the rule sets read of a text's lines and paragraphs, counted once:
//! the split into runs of line feeds, repeated lines and pieces, and the
//! line counts Gopher and FineWeb share.

use crate::table::HashTable;
use crate::words;
use std::sync::OnceLock;

/// FineWeb's `short_line_length`: a line of at most this many characters
/// is short.
pub const SHORT_LINE_LENGTH: usize = 30;

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
    /// Those of at most [`SHORT_LINE_LENGTH`](SHORT_LINE_LENGTH)
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
    let short = SHORT_LINE_LENGTH;
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

/// `part / whole`, 0 for an empty whole.
pub(crate) fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}
