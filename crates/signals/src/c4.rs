//! C4's page rules (Raffel et al. 2020, "Exploring the Limits of Transfer
//! Learning with a Unified Text-to-Text Transformer", §2.2), with the
//! parameters and the order of datatrove's `C4QualityFilter` (datatrove
//! 0.10.1, `pipeline/filters/c4_filters.py`, defaults `split_paragraph=True`):
//!
//! each line (`str.splitlines`, stripped) is dropped if a whitespace-separated
//! word is over 1000 characters; Wikipedia-style citations (`[1]`, `[edit]`,
//! `[citation needed]`) are removed; the line is dropped if it does not end
//! in `.` `?` `!` `"` `'` or ends in `...`, or has fewer than 3 words. Then
//! the page fails `lorem_ipsum` if the line contains "lorem ipsum"; the line
//! is dropped if it mentions "javascript"; the page fails `curly_bracket` if
//! the line has a `{`; the line is dropped if it has a policy phrase ("terms
//! of use", "privacy policy", "cookie policy", "uses cookies", "use of
//! cookies", "use cookies"). A page whose kept lines hold fewer than 5
//! sentences fails `too_few_sentences`. Sentences are counted as spaCy's
//! sentencizer does: a new one starts at a non-punctuation token after a
//! sentence-terminal token. Case is folded in ASCII only.
//!
//! The bad-words rule of the paper is not applied (datatrove's
//! `C4QualityFilter` does not either; its list must be downloaded).

use super::words::{self, Token, PUNCT, TERMINAL};
use memchr::memmem;
use serde::Serialize;
use std::sync::OnceLock;

/// `max_word_length`.
pub const MAX_WORD_LENGTH: usize = 1000;
/// `min_words_per_line`.
pub const MIN_WORDS_PER_LINE: usize = 3;
/// `min_num_sentences`.
pub const MIN_NUM_SENTENCES: usize = 5;
/// `END_PUNCTUATION`.
pub const END_PUNCTUATION: [char; 5] = ['.', '?', '!', '"', '\''];
/// `POLICY_SUBSTRINGS`.
pub const POLICY_SUBSTRINGS: [&str; 6] = [
    "terms of use",
    "privacy policy",
    "cookie policy",
    "uses cookies",
    "use of cookies",
    "use cookies",
];

/// Raw values of the C4 rules.
#[derive(Clone, Debug, PartialEq, Default, Serialize)]
pub struct C4Signals {
    /// Lines (`str.splitlines`).
    pub lines: usize,
    /// Lines kept after every line rule.
    pub kept_lines: usize,
    /// Sentences in the kept lines.
    pub sentences: usize,
    /// Lines dropped for a word over 1000 characters.
    pub long_word_lines: usize,
    /// Lines dropped for not ending in terminal punctuation.
    pub no_terminal_punct_lines: usize,
    /// Lines dropped for fewer than 3 words.
    pub too_few_words_lines: usize,
    /// Lines dropped for mentioning javascript.
    pub javascript_lines: usize,
    /// Lines dropped for a policy phrase.
    pub policy_lines: usize,
    /// The first line-level page failure met, if any: `lorem_ipsum` or
    /// `curly_bracket` (checked in line order, on lines that survive the
    /// line rules before them).
    pub page_rule: Option<&'static str>,
}

/// The C4 signals of `text`, whose lines span `lines`
/// ([`words::line_spans`]), with its tokens when they were split.
pub(crate) fn signals(
    text: &str,
    lines: &[(usize, usize)],
    tokens: Option<&[Token]>,
    scratch: &mut Scratch,
) -> C4Signals {
    let mut s = C4Signals::default();
    let Scratch {
        lower,
        phrases,
        opening_brackets,
        curly_brackets,
    } = scratch;
    // The brackets of the whole text, found in one pass rather than two
    // searches per line. A line's citations hold no `{`, so the line has
    // one as the text does there.
    opening_brackets.clear();
    curly_brackets.clear();
    for at in memchr::memchr2_iter(b'[', b'{', text.as_bytes()) {
        if text.as_bytes()[at] == b'[' {
            opening_brackets.push(at);
        } else {
            curly_brackets.push(at);
        }
    }
    let (mut next_opening, mut next_curly) = (0, 0);
    // The phrases of the whole text, ASCII case folded, by start.
    phrases.clear();
    lower.clear();
    lower.push_str(text);
    lower.make_ascii_lowercase();
    each_phrase(lower.as_bytes(), |at, to, pattern| {
        phrases.push((at, to, pattern))
    });
    phrases.sort_unstable();
    let mut next_phrase = 0;
    // Offsets of tokens fit in a u32 only below 4 GiB.
    let mut tokens = tokens
        .filter(|_| u32::try_from(text.len()).is_ok())
        .map(|tokens| TokenCursor { tokens, next: 0 });
    for &(raw_start, raw_end) in lines {
        let raw = &text[raw_start..raw_end];
        s.lines += 1;
        let line = words::py_strip(raw);
        let (n_words, long_word) = count_words_to_the_rules(line);
        if long_word {
            s.long_word_lines += 1;
            continue;
        }
        let start = line.as_ptr() as usize - text.as_ptr() as usize;
        let end = start + line.len();
        let cleaned;
        let (line, in_text) = if any_within(opening_brackets, &mut next_opening, start, end) {
            cleaned = remove_citations(line);
            let same = cleaned.len() == line.len();
            (cleaned.as_str(), same)
        } else {
            (line, true)
        };
        if !line.ends_with(END_PUNCTUATION) || line.ends_with("...") {
            s.no_terminal_punct_lines += 1;
            continue;
        }
        if n_words < MIN_WORDS_PER_LINE {
            s.too_few_words_lines += 1;
            continue;
        }
        // Which phrases the line holds: those found in the text that lie
        // in it, or (for a line whose citations were removed) those found
        // in the line itself.
        let mut held = 0u32;
        while phrases.get(next_phrase).is_some_and(|p| p.0 < start) {
            next_phrase += 1;
        }
        if in_text {
            for &(at, to, pattern) in &phrases[next_phrase..] {
                if at >= end {
                    break;
                }
                if to <= end {
                    held |= 1 << pattern;
                }
            }
        } else {
            let line = line.to_ascii_lowercase();
            each_phrase(line.as_bytes(), |_, _, pattern| held |= 1 << pattern);
        }
        if held & 1 << LOREM_IPSUM != 0 {
            s.page_rule.get_or_insert("lorem_ipsum");
            // datatrove stops at the page failure; the counts below it are
            // of the lines before it.
            break;
        }
        if held & 1 << JAVASCRIPT != 0 {
            s.javascript_lines += 1;
            continue;
        }
        if any_within(curly_brackets, &mut next_curly, start, end) {
            s.page_rule.get_or_insert("curly_bracket");
            break;
        }
        if held >> POLICY != 0 {
            s.policy_lines += 1;
            continue;
        }
        s.kept_lines += 1;
        // `in_text`: the line is `text[start..start + line.len()]`.
        s.sentences += tokens
            .as_mut()
            .filter(|_| in_text)
            .and_then(|cursor| cursor.sentences(start, start + line.len()))
            .unwrap_or_else(|| sentences(line));
    }
    s
}

/// [`count_words`] as far as the rules need it: a line of at most
/// [`MAX_WORD_LENGTH`] bytes has no word over that many characters, and
/// its words are counted up to [`MIN_WORDS_PER_LINE`] only (the count is
/// compared with it, and a line of prose reaches it in a few bytes).
#[inline]
fn count_words_to_the_rules(line: &str) -> (usize, bool) {
    if line.len() > MAX_WORD_LENGTH {
        return count_words(line);
    }
    let words = line
        .split(words::is_py_space)
        .filter(|w| !w.is_empty())
        .take(MIN_WORDS_PER_LINE)
        .count();
    (words, false)
}

/// The whitespace-separated words of `line` (`line.split()`), and whether
/// one is over [`MAX_WORD_LENGTH`] characters.
fn count_words(line: &str) -> (usize, bool) {
    let mut n_words = 0;
    let mut long_word = false;
    if line.is_ascii() {
        // Python's whitespace in ASCII: \t \n \x0b \x0c \r \x1c-\x1f and space.
        let space = |b: u8| matches!(b, b'\t'..=b'\r' | 0x1c..=b' ');
        let mut start = None;
        for (i, &b) in line.as_bytes().iter().enumerate() {
            match (space(b), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    n_words += 1;
                    long_word |= i - s > MAX_WORD_LENGTH;
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            n_words += 1;
            long_word |= line.len() - s > MAX_WORD_LENGTH;
        }
        return (n_words, long_word);
    }
    for word in line.split(words::is_py_space).filter(|w| !w.is_empty()) {
        n_words += 1;
        if word.len() > MAX_WORD_LENGTH && words::char_len(word) > MAX_WORD_LENGTH {
            long_word = true;
        }
    }
    (n_words, long_word)
}

/// Reusable buffers of [`signals`].
#[derive(Default)]
pub(crate) struct Scratch {
    /// A line, lowercased.
    lower: String,
    /// The phrases found in a text: (start, end, pattern).
    phrases: Vec<(usize, usize, u8)>,
    /// The offsets of the text's `[`, in order.
    opening_brackets: Vec<usize>,
    /// The offsets of the text's `{`, in order.
    curly_brackets: Vec<usize>,
}

/// Whether one of the `offsets` (in order) lies in `start..end`, the next
/// line's bounds: `next` is moved past the offsets before `start` (the
/// lines come in order).
#[inline]
fn any_within(offsets: &[usize], next: &mut usize, start: usize, end: usize) -> bool {
    while offsets.get(*next).is_some_and(|&at| at < start) {
        *next += 1;
    }
    offsets.get(*next).is_some_and(|&at| at < end)
}

/// Numbers of the [`PHRASES`]: `lorem ipsum`, `javascript`, then the
/// policy phrases.
const LOREM_IPSUM: u32 = 0;
const JAVASCRIPT: u32 = 1;
const POLICY: u32 = 2;

/// The phrases of the rules: `lorem ipsum`, `javascript`, then
/// [`POLICY_SUBSTRINGS`], numbered in that order.
const PHRASES: [&str; 2 + POLICY_SUBSTRINGS.len()] = [
    "lorem ipsum",
    "javascript",
    POLICY_SUBSTRINGS[0],
    POLICY_SUBSTRINGS[1],
    POLICY_SUBSTRINGS[2],
    POLICY_SUBSTRINGS[3],
    POLICY_SUBSTRINGS[4],
    POLICY_SUBSTRINGS[5],
];

/// The word the searches of [`each_phrase`] share.
const COOKIE: &str = "cookie";

/// Calls `each(start, end, phrase number)` for every occurrence of a
/// [`PHRASES`] phrase in `lower` (a text or a line lowercased in ASCII:
/// C4 folds case in ASCII only). Each phrase without `cookie` is searched
/// for on its own; the four with it come from one search of `cookie`,
/// each found where its `cookie` is. No phrase overlaps itself, so either
/// way every occurrence is found once.
fn each_phrase(lower: &[u8], mut each: impl FnMut(usize, usize, u8)) {
    let searches = phrase_searches();
    for (pattern, finder) in &searches.alone {
        for at in finder.find_iter(lower) {
            each(at, at + finder.needle().len(), *pattern);
        }
    }
    for at in searches.cookie.find_iter(lower) {
        for &(pattern, phrase, offset) in &searches.with_cookie {
            let Some(start) = at.checked_sub(offset) else {
                continue;
            };
            if lower[start..].starts_with(phrase.as_bytes()) {
                each(start, start + phrase.len(), pattern);
            }
        }
    }
}

/// The searches of [`each_phrase`], the phrases sorted into them once.
struct PhraseSearches {
    /// Each phrase without `cookie`: its number and its search.
    alone: Vec<(u8, memmem::Finder<'static>)>,
    /// The search of `cookie`.
    cookie: memmem::Finder<'static>,
    /// Each phrase with `cookie`: its number, the phrase and where its
    /// `cookie` starts in it.
    with_cookie: Vec<(u8, &'static str, usize)>,
}

fn phrase_searches() -> &'static PhraseSearches {
    static SEARCHES: OnceLock<PhraseSearches> = OnceLock::new();
    SEARCHES.get_or_init(|| {
        let mut searches = PhraseSearches {
            alone: Vec::new(),
            cookie: memmem::Finder::new(COOKIE),
            with_cookie: Vec::new(),
        };
        for (pattern, phrase) in PHRASES.iter().enumerate() {
            match phrase.find(COOKIE) {
                Some(offset) => searches.with_cookie.push((pattern as u8, phrase, offset)),
                None => searches
                    .alone
                    .push((pattern as u8, memmem::Finder::new(phrase))),
            }
        }
        searches
    })
}

pub(crate) fn failure(s: &C4Signals) -> Option<&'static str> {
    if let Some(rule) = s.page_rule {
        return Some(rule);
    }
    (s.sentences < MIN_NUM_SENTENCES).then_some("too_few_sentences")
}

/// `CITATION_REGEX.sub("", line)` for `\[\d*]|\[edit]|\[citation needed]`.
fn remove_citations(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let skip = if after[digits..].starts_with(']') {
            Some(digits + 1)
        } else if after.starts_with("edit]") {
            Some(5)
        } else if after.starts_with("citation needed]") {
            Some(16)
        } else {
            None
        };
        match skip {
            Some(n) => rest = &after[n..],
            None => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Sentences of `line` as spaCy's sentencizer splits them.
/// The tokens of the whole text, read line after line.
struct TokenCursor<'a> {
    tokens: &'a [Token],
    /// The first token not read yet.
    next: usize,
}

impl TokenCursor<'_> {
    /// [`sentences`] of the line `text[start..end]` (stripped), counted on
    /// the tokens of the whole text that lie in it. They are the line's own
    /// tokens: no token spans a line break, and no UAX #29 rule or spaCy
    /// rule looks across the whitespace around a stripped line, but for
    /// marks that join a space (WB4): a token that starts before `start`
    /// and ends after it, or crosses `end`, is such a case, and `None`
    /// sends the line to [`sentences`]. Lines come in order.
    fn sentences(&mut self, start: usize, end: usize) -> Option<usize> {
        let tokens = self.tokens;
        while let Some(token) = tokens.get(self.next) {
            if token.start as usize >= start {
                break;
            }
            self.next += 1;
            if token.end() > start {
                return None;
            }
        }
        let mut count = Sentences::default();
        while let Some(token) = tokens.get(self.next) {
            if token.start as usize >= end {
                break;
            }
            self.next += 1;
            if token.end() > end {
                return None;
            }
            count.token(token.flags & TERMINAL != 0, token.flags & PUNCT != 0);
        }
        Some(count.count)
    }
}

fn sentences(line: &str) -> usize {
    let terminal = words::terminal();
    let mut count = Sentences::default();
    words::for_each_word(line, |token| {
        let mut chars = token.chars();
        let single_terminal = match (chars.next(), chars.next()) {
            (Some(c), None) => terminal.contains(c),
            _ => false,
        };
        count.token(single_terminal, token.chars().all(words::is_punct));
    });
    count.count
}

/// spaCy's sentencizer as a count over a line's tokens: the first token
/// starts a sentence, and so does a token after a sentence-terminal one
/// that is neither terminal nor punctuation.
#[derive(Default)]
struct Sentences {
    count: usize,
    seen_terminal: bool,
}

impl Sentences {
    /// The next token: whether it is one sentence-terminal character, and
    /// whether it is made of punctuation only.
    #[inline]
    fn token(&mut self, single_terminal: bool, punct: bool) {
        if self.count == 0 {
            self.count = 1;
        }
        if self.seen_terminal && !single_terminal && !punct {
            self.count += 1;
            self.seen_terminal = false;
        } else if single_terminal {
            self.seen_terminal = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every occurrence of each phrase, searched for on its own.
    fn phrases_one_by_one(lower: &[u8]) -> Vec<(usize, usize, u8)> {
        let mut found: Vec<_> = PHRASES
            .iter()
            .enumerate()
            .flat_map(|(pattern, phrase)| {
                memmem::find_iter(lower, phrase)
                    .map(move |at| (at, at + phrase.len(), pattern as u8))
            })
            .collect();
        found.sort_unstable();
        found
    }

    #[test]
    fn phrases_found_through_cookie_are_those_searched_one_by_one() {
        let mut texts = crate::gold_texts(&["scrapinghub", "wcxb_dev"]);
        texts.push(
            "This site uses cookies. We use cookies; see the use of cookies in our Cookie \
             Policy, privacy policy and terms of use. cookie cookies use cookie uses cookie"
                .to_owned(),
        );
        texts.push("cookie policy".into());
        texts.push("uses cookies".into());
        let mut with_cookie = 0;
        for text in texts {
            let lower = text.to_ascii_lowercase();
            let mut found = Vec::new();
            each_phrase(lower.as_bytes(), |at, to, pattern| {
                found.push((at, to, pattern))
            });
            found.sort_unstable();
            let expected = phrases_one_by_one(lower.as_bytes());
            with_cookie += expected
                .iter()
                .filter(|p| PHRASES[p.2 as usize].contains(COOKIE))
                .count();
            assert_eq!(found, expected, "{text:?}");
        }
        // The texts have phrases found through `cookie` to compare.
        assert!(with_cookie >= 10, "{with_cookie}");
    }

    #[test]
    fn ascii_words_counted_as_the_char_split() {
        let long = "x".repeat(MAX_WORD_LENGTH);
        for line in [
            String::new(),
            " ".into(),
            "a".into(),
            " a  b\tc\x0bd\x0ce\rf\x1cg\x1fh ".into(),
            "a\u{a0}b".into(),
            "a\u{3000}b c".into(),
            " a  b ".into(),
            "a\x1bb\x7fc".into(),
            format!("{long} a"),
            format!("a {long}x"),
            format!("{long}x"),
        ] {
            let mut expected = (0, false);
            for word in line.split(words::is_py_space).filter(|w| !w.is_empty()) {
                expected.0 += 1;
                expected.1 |= words::char_len(word) > MAX_WORD_LENGTH;
            }
            assert_eq!(count_words(&line), expected, "{line:?}");
            let (n, long) = count_words_to_the_rules(&line);
            assert_eq!(
                (n < MIN_WORDS_PER_LINE, long),
                (expected.0 < MIN_WORDS_PER_LINE, expected.1),
                "{line:?}"
            );
        }
    }

    #[test]
    fn citations_removed_like_the_regex() {
        assert_eq!(
            remove_citations("a[1] b[] c[edit] d[citation needed]."),
            "a b c d."
        );
        assert_eq!(remove_citations("keep [x] and [12"), "keep [x] and [12");
    }

    /// The C4 signals of `text` counted on the whole text's tokens and
    /// line by line are the same.
    fn assert_tokens_count_as_lines(text: &str) {
        let mut tokens = Vec::new();
        words::tokenize(text, &mut tokens);
        let mut scratch = Scratch::default();
        let mut lines = Vec::new();
        words::line_spans(text, &mut lines);
        let shared = signals(text, &lines, Some(&tokens), &mut scratch);
        let alone = signals(text, &lines, None, &mut scratch);
        assert_eq!(format!("{shared:?}"), format!("{alone:?}"), "{text:?}");
    }

    proptest::proptest! {
        #[test]
        fn sentences_on_shared_tokens_equal_sentences_by_line(
            text in "([a-z]{1,4}|[ .!?,'\\[\\]1\n\r\t\x1c\x0b-]|\u{a0}|\u{301}|\u{2028}|\u{85}|\u{3002}|\u{2019}|\u{5d0}|\u{4e2d}|\u{200d}|\u{1f600}){0,40}"
        ) {
            assert_tokens_count_as_lines(&text);
        }
    }

    #[test]
    fn sentences_on_shared_tokens_of_dataset_texts() {
        let texts =
            crate::gold_texts(&["daniel_dev", "scrapinghub", "wcxb_dev", "readability_tests"]);
        for text in &texts {
            assert_tokens_count_as_lines(text);
        }
        assert!(texts.len() > 2500, "{}", texts.len());
    }

    #[test]
    fn a_mark_after_a_line_break_is_counted_by_line() {
        for text in [
            "One two three. Four five six. \u{a0}\u{301}Seven eight nine.",
            "One two three.\x1c\u{301} Four. Five six seven.",
            "Alpha beta gamma. Delta.\n\u{301}x y z. Again and again.",
        ] {
            assert_tokens_count_as_lines(text);
        }
    }

    #[test]
    fn sentences_split_after_terminal_marks() {
        assert_eq!(sentences("One. Two! Three? \"Four.\" Five"), 5);
        assert_eq!(sentences("Wait... what"), 1);
        assert_eq!(sentences(""), 0);
    }
}
