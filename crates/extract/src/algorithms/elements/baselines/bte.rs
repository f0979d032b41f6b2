//! BTE, Body Text Extraction — Finn, Kushmerick, Smyth, "Fact or fiction:
//! Content classification for digital libraries" (2001), as summarised by
//! Gottron (2008, §2) and Mohammadzadeh et al. (2012, §2.2): the single
//! continuous token window `i..=j` that maximises the tags outside it plus
//! the words inside it. As the tags outside are the total minus the tags
//! inside, that is the window maximising `words - tags` inside: a
//! maximum-sum subarray over +1 (word) / −1 (tag), found in O(n) (Kadane)
//! rather than over the O(n²) windows of the definition, with the same
//! result (a test compares the two).

use crate::algorithms::elements::{self, Token};
use crate::density::text::TextSink;

/// Writes the words of the best window; returns the number of runs.
pub(in crate::algorithms) fn extract(tokens: &[Token], html: &str, sink: &mut TextSink) -> usize {
    match best_window(tokens) {
        Some((i, j)) => elements::write_words(html, tokens, |k, _| (i..=j).contains(&k), sink),
        None => 0,
    }
}

/// The inclusive token range with the largest `words - tags`; the first
/// one on ties. `None` when there is no word.
fn best_window(tokens: &[Token]) -> Option<(usize, usize)> {
    let mut best: Option<(i64, usize, usize)> = None;
    let (mut sum, mut start) = (0i64, 0);
    for (i, token) in tokens.iter().enumerate() {
        if sum <= 0 {
            (sum, start) = (0, i);
        }
        sum += if token.is_word() { 1 } else { -1 };
        if sum > best.map_or(0, |b| b.0) {
            best = Some((sum, start, i));
        }
    }
    best.map(|(_, i, j)| (i, j))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::elements::{tests::run, tokenize, Kind};

    fn window(html: &str) -> Option<String> {
        let mut tokens = Vec::new();
        tokenize(html, &mut tokens);
        let (i, j) = best_window(&tokens)?;
        let (a, b) = (tokens.get(i)?.start as usize, tokens.get(j)?.end as usize);
        html.get(a..b).map(str::to_string)
    }

    #[test]
    fn picks_the_window_maximising_words_minus_tags() {
        // Menu: 2 words in 10 tags. The two paragraphs together score
        // 3 + 4 - 2 = 5, more than the longer one alone (4); the last one is
        // text too, but 7 tags away: one window only.
        let html = "<ul><li><a>Home</a></li><li><a>News</a></li></ul>\
                    <p>one two three</p><p>four five six seven</p>\
                    <div><span><a>Foot</a></span></div><p>eight nine</p>";
        assert_eq!(
            window(html).as_deref(),
            Some("one two three</p><p>four five six seven")
        );
        assert_eq!(run(Kind::Bte, html), "one two three\nfour five six seven");
    }

    /// Finn et al.'s definition as written: every window `i..=j` scored by
    /// the tags outside it plus the words inside it, O(n²) windows; the
    /// first window to end on the best score, and of those ending there
    /// the shortest (what the linear walk keeps).
    fn brute_force(words: &[bool]) -> Option<(usize, usize)> {
        let tags = words.iter().filter(|w| !**w).count() as i64;
        let mut best: Option<(i64, usize, usize)> = None;
        for j in 0..words.len() {
            for i in (0..=j).rev() {
                let inside = &words[i..=j];
                let words_in = inside.iter().filter(|w| **w).count() as i64;
                let tags_in = inside.len() as i64 - words_in;
                let score = (tags - tags_in) + words_in;
                if best.is_none_or(|(b, _, _)| score > b) {
                    best = Some((score, i, j));
                }
            }
        }
        // A window without a word is none (its score is at most `tags`).
        best.filter(|&(score, _, _)| score > tags)
            .map(|(_, i, j)| (i, j))
    }

    proptest::proptest! {
        #[test]
        fn the_linear_walk_finds_the_window_of_the_definition(
            words in proptest::collection::vec(proptest::bool::ANY, 0..40)
        ) {
            let tokens: Vec<Token> = words
                .iter()
                .enumerate()
                .map(|(i, &word)| Token {
                    start: i as u32,
                    end: i as u32 + 1,
                    kind: if word { elements::TokenKind::Word } else { elements::TokenKind::Tag },
                })
                .collect();
            proptest::prop_assert_eq!(best_window(&tokens), brute_force(&words));
        }
    }

    #[test]
    fn no_words_no_window() {
        assert_eq!(window("<p></p><br>"), None);
        assert_eq!(window(""), None);
        assert_eq!(window("word").as_deref(), Some("word"));
    }
}
