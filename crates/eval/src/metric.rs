//! The papers' word-level metric: precision, recall and F1 of the longest
//! common token subsequence of an extraction and its gold text.

use super::lcs::Lcs;
use super::tokenize::Tokenizer;
use serde::Serialize;
use std::collections::HashMap;

/// The score of one extraction against its gold text.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Score {
    /// LCS length over extracted tokens: how much of the extraction is gold.
    pub precision: f64,
    /// LCS length over gold tokens: how much of the gold was extracted.
    pub recall: f64,
    /// Harmonic mean of precision and recall; 0 when both are 0.
    pub f1: f64,
    /// Tokens in the extracted text.
    pub extracted_tokens: usize,
    /// Tokens in the gold text.
    pub gold_tokens: usize,
}

impl Score {
    /// P = lcs/extracted, R = lcs/gold. Empty sides: nothing extracted from a
    /// page with gold scores 0; nothing extracted from a page without gold
    /// scores 1; text extracted from a page without gold has P = 0, R = 1.
    pub fn from_counts(lcs: usize, extracted_tokens: usize, gold_tokens: usize) -> Score {
        let ratio = |n: usize, d: usize| n as f64 / d as f64;
        let (precision, recall) = match (extracted_tokens, gold_tokens) {
            (0, 0) => (1.0, 1.0),
            (0, _) => (0.0, 0.0),
            (_, 0) => (0.0, 1.0),
            (e, g) => (ratio(lcs, e), ratio(lcs, g)),
        };
        let f1 = if precision + recall > 0.0 {
            2.0 * precision * recall / (precision + recall)
        } else {
            0.0
        };
        Score {
            precision,
            recall,
            f1,
            extracted_tokens,
            gold_tokens,
        }
    }
}

/// Scores extractions page after page, reusing its buffers; one per worker.
#[derive(Default)]
pub struct Scorer {
    tokenizer: Tokenizer,
    /// The gold vocabulary of the current page, interned to dense ids.
    ids: HashMap<String, u32>,
    gold: Vec<u32>,
    /// Extracted tokens that occur in the gold: the others cannot be part of
    /// the LCS, so they are only counted.
    extracted: Vec<u32>,
    lcs: Lcs,
}

impl Scorer {
    /// A scorer with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// The score of the `extracted` text against the `gold` text.
    pub fn score(&mut self, extracted: &str, gold: &str) -> Score {
        let Scorer {
            tokenizer,
            ids,
            gold: gold_ids,
            extracted: extracted_ids,
            lcs,
        } = self;
        ids.clear();
        gold_ids.clear();
        extracted_ids.clear();
        tokenizer.for_each_token(gold, |token| {
            let id = match ids.get(token) {
                Some(&id) => id,
                None => {
                    let id = u32::try_from(ids.len()).unwrap_or(u32::MAX);
                    ids.insert(token.to_owned(), id);
                    id
                }
            };
            gold_ids.push(id);
        });
        let mut extracted_tokens = 0;
        tokenizer.for_each_token(extracted, |token| {
            extracted_tokens += 1;
            if let Some(&id) = ids.get(token) {
                extracted_ids.push(id);
            }
        });
        let common = lcs.length(gold_ids, extracted_ids);
        Score::from_counts(common, extracted_tokens, gold_ids.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn hand_computed_english() {
        // Gold 6 tokens, extraction 5; LCS = "the cat sat on" = 4.
        let s = Scorer::new().score("menu the cat sat on", "the cat sat on the mat");
        assert_eq!((s.extracted_tokens, s.gold_tokens), (5, 6));
        assert!(close(s.precision, 4.0 / 5.0));
        assert!(close(s.recall, 4.0 / 6.0));
        assert!(close(s.f1, 2.0 * 0.8 * (4.0 / 6.0) / (0.8 + 4.0 / 6.0)));
    }

    #[test]
    fn order_matters_not_just_the_bag_of_words() {
        // Same words, reversed: the LCS is a single token.
        let s = Scorer::new().score("c b a", "a b c");
        assert!(close(s.precision, 1.0 / 3.0));
        assert!(close(s.recall, 1.0 / 3.0));
    }

    #[test]
    fn case_and_punctuation_count() {
        let s = Scorer::new().score("Hello world.", "hello world");
        assert!(close(s.f1, 0.0));
    }

    #[test]
    fn hand_computed_chinese() {
        // Gold: 7 Han characters + "。" = 8 tokens. The extraction has 5
        // tokens, of which 北 京 天 are in order in the gold: LCS = 3.
        let s = Scorer::new().score("广告 北京天", "我爱北京天安门。");
        assert_eq!((s.extracted_tokens, s.gold_tokens), (5, 8));
        assert!(close(s.precision, 3.0 / 5.0));
        assert!(close(s.recall, 3.0 / 8.0));
    }

    #[test]
    fn empty_sides() {
        let mut scorer = Scorer::new();
        let both = scorer.score(" ", "\n");
        assert_eq!((both.precision, both.recall, both.f1), (1.0, 1.0, 1.0));
        let nothing = scorer.score("", "some gold");
        assert_eq!(
            (nothing.precision, nothing.recall, nothing.f1),
            (0.0, 0.0, 0.0)
        );
        let no_gold = scorer.score("some text", "");
        assert_eq!(
            (no_gold.precision, no_gold.recall, no_gold.f1),
            (0.0, 1.0, 0.0)
        );
    }

    #[test]
    fn identical_texts_score_one() {
        let text = "Ein Satz, noch einer. 日本語のテキスト and more";
        let s = Scorer::new().score(text, text);
        assert_eq!((s.precision, s.recall, s.f1), (1.0, 1.0, 1.0));
    }
}
