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
    /// Calls `f` with every token of `text`, in order. Case and punctuation
    /// are kept: a token is one kana/Han character or a maximal run of
    /// characters that are neither whitespace nor kana/Han.
    pub fn for_each_token(&mut self, text: &str, mut f: impl FnMut(&str)) {
        // NFKC keeps whitespace whitespace and composes nothing across it, so
        // each whitespace-separated run can be normalised on its own: the
        // copy is then paid only by the few runs that are not already NFKC
        // (one `&nbsp;` character would otherwise copy the whole page).
        for run in text
            .split(char::is_whitespace)
            .filter(|run| !run.is_empty())
        {
            if run.is_ascii() || is_nfkc_quick(run.chars()) == IsNormalized::Yes {
                split_normalized(run, &mut f);
            } else {
                self.normalized.clear();
                self.normalized.extend(run.nfkc());
                split_normalized(&self.normalized, &mut f);
            }
        }
    }
}

/// The tokens of NFKC text: whitespace separates, kana/Han stand alone.
fn split_normalized(text: &str, f: &mut impl FnMut(&str)) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        Tokenizer::default().for_each_token(text, |t| out.push(t.to_string()));
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

    proptest::proptest! {
        /// Normalising run by run gives the tokens of normalising the whole text.
        #[test]
        fn run_by_run_nfkc_equals_whole_text_nfkc(
            chars in proptest::collection::vec(proptest::sample::select(vec![
                'a', 'e', ' ', '\n', '\u{00A0}', '\u{3000}', '\u{00A8}', '\u{0301}', 'ｶ', 'ﾞ',
                '\u{1100}', '\u{1161}', '한', '中', 'ﬁ', 'Ａ', '\u{2002}', '.',
            ]), 0..40)
        ) {
            let text: String = chars.into_iter().collect();
            let whole: String = text.nfkc().collect();
            let mut expected = Vec::new();
            split_normalized(&whole, &mut |t: &str| expected.push(t.to_string()));
            proptest::prop_assert_eq!(tokens(&text), expected);
        }
    }

    #[test]
    fn nfkc_folds_compatibility_forms() {
        // Full-width Latin, a ligature, half-width katakana (which becomes
        // full-width kana and so single-character tokens).
        assert_eq!(tokens("ＡＢＣ ﬁne ｶﾀ"), ["ABC", "fine", "カ", "タ"]);
        // A non-whitespace character whose NFKC form holds a space (U+00A8
        // DIAERESIS becomes space + combining diaeresis) splits its word.
        assert_eq!(tokens("a\u{00A8}b"), ["a", "\u{0308}b"]);
    }
}
