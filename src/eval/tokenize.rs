//! Word-level tokens of the papers' metric: whitespace-separated words, except
//! that scripts written without spaces (kana, Han) count one token per
//! character, so Chinese and Japanese are not scored as a few giant "words".

use unicode_normalization::{is_nfkc_quick, IsNormalized, UnicodeNormalization};

/// Whether `c` is a kana or Han character, which is a token on its own.
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{3134F}')
}

/// Splits texts into tokens after NFKC normalisation; keeps its normalisation
/// buffer across calls.
#[derive(Default)]
pub struct Tokenizer {
    normalized: String,
}

impl Tokenizer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Calls `f` with every token of `text`, in order. Case and punctuation
    /// are kept: a token is one kana/Han character or a maximal run of
    /// characters that are neither whitespace nor kana/Han.
    pub fn for_each_token(&mut self, text: &str, mut f: impl FnMut(&str)) {
        // Most text is already NFKC; the quick check skips the copy for it.
        let text = if text.is_ascii() || is_nfkc_quick(text.chars()) == IsNormalized::Yes {
            text
        } else {
            self.normalized.clear();
            self.normalized.extend(text.nfkc());
            &self.normalized
        };
        let mut run_start = None;
        for (i, c) in text.char_indices() {
            let cjk = is_cjk(c);
            if !cjk && !c.is_whitespace() {
                run_start.get_or_insert(i);
                continue;
            }
            if let Some(run) = run_start.take().and_then(|start| text.get(start..i)) {
                f(run);
            }
            if let Some(single) = text.get(i..i + c.len_utf8()).filter(|_| cjk) {
                f(single);
            }
        }
        if let Some(run) = run_start.and_then(|start| text.get(start..)) {
            f(run);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        Tokenizer::new().for_each_token(text, |t| out.push(t.to_string()));
        out
    }

    #[test]
    fn words_keep_case_and_punctuation() {
        assert_eq!(
            tokens("  Hello, World!\n\tIt's\u{00A0}2024. "),
            ["Hello,", "World!", "It's", "2024."]
        );
        assert!(tokens(" \n\t\u{3000} ").is_empty());
    }

    #[test]
    fn chinese_is_one_token_per_han_character() {
        assert_eq!(
            tokens("我爱北京天安门。"),
            ["我", "爱", "北", "京", "天", "安", "门", "。"]
        );
    }

    #[test]
    fn kana_split_from_latin_and_digits() {
        assert_eq!(
            tokens("東京はTokyo2020です"),
            ["東", "京", "は", "Tokyo2020", "で", "す"]
        );
    }

    #[test]
    fn korean_hangul_is_split_by_spaces_only() {
        assert_eq!(tokens("안녕하세요 세계"), ["안녕하세요", "세계"]);
    }

    #[test]
    fn nfkc_folds_compatibility_forms() {
        // Full-width Latin, a ligature, half-width katakana (which becomes
        // full-width kana and so single-character tokens).
        assert_eq!(tokens("ＡＢＣ ﬁne ｶﾀ"), ["ABC", "fine", "カ", "タ"]);
    }
}
