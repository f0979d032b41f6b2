//! Tests of [`super`] (`gopher.rs`).

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
                .filter(|l| l.chars().count() <= crate::lines::SHORT_LINE_LENGTH)
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
    for (i, word) in crate::stop_words::STOP_WORDS.iter().enumerate() {
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
