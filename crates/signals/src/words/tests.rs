//! Tests of [`super`] (`words.rs`).

use super::*;
use proptest::prelude::*;

fn assert_segments_equal(text: &str) {
    let ours: Vec<(usize, &str)> = segments(text).collect();
    let theirs: Vec<(usize, &str)> = text.split_word_bound_indices().collect();
    assert_eq!(ours, theirs, "{text:?}");
}

#[test]
fn segments_equal_unicode_segmentation() {
    for text in [
        "",
        "a",
        "\n",
        "\r\n\r\r\n\n",
        "Hello, world... It's 3.5 km -- don't!",
        "e.g. U.S.A. a:b a.b a'b a;b a,b 1,2 1;2 1.2 1'2 1:2 a1 1a _a a_ __ a_1",
        "a. .a a.. ..a 1. .1 1.. a.1 1.a a'.b a.'b 1.,2 a::b",
        "tabs\tand  many   spaces\x0bvt\x0cff\r\nnext \u{85}nel \u{2028}ls",
        "caf\u{e9} na\u{ef}ve it\u{2019}s e\u{301}t\u{e9} \u{5d0}'\u{5d1} \u{5d0}\"\u{5d1}",
        "\u{1f1e6}\u{1f1e8}\u{1f1e9} a\u{200d}b \u{1f600}\u{200d}\u{1f600} a\u{2060}b",
        "\u{4e2d}\u{6587}\u{5206}\u{8bcd}\u{3002} \u{30ab}\u{30bf}\u{30ab}\u{30ca} 1_\u{30ab}",
        "ascii line\nnon-ascii \u{e9}l\u{e8}ve\nascii again.\r\n\u{301}start mark\n",
        "ends in a space ",
        "x\r",
    ] {
        assert_segments_equal(text);
    }
}

fn assert_words_equal(text: &str) {
    let mut fast = Vec::new();
    for_each_word(text, |w| fast.push(w));
    let plain: Vec<&str> = words(text).collect();
    assert_eq!(fast, plain, "{text:?}");
    assert_tokens_as_classes(text);
}

/// The tokens [`tokenize`] records hold the offsets, lengths,
/// character counts and hashes of the words of [`words`], and the flags
/// the character classes give; its counts are the tokens' and its
/// stop words those of the Gopher list among the words.
fn assert_tokens_as_classes(text: &str) {
    let mut tokens = Vec::new();
    let counts = tokenize(text, &mut tokens);
    let seen: Vec<&str> = words(text).collect();
    assert_eq!(tokens.len(), seen.len());
    let mut expected_counts = TokenCounts::default();
    for (token, word) in tokens.iter().zip(&seen) {
        let non_symbol = usize::from(token.flags & NON_SYMBOL != 0);
        expected_counts.non_symbol += non_symbol;
        expected_counts.non_symbol_chars += non_symbol * token.chars as usize;
        expected_counts.alpha += usize::from(token.flags & ALPHA != 0);
        if let Some(i) = crate::stop_words::STOP_WORDS.iter().position(|s| s == word) {
            expected_counts.stop_words |= 1 << i;
        }
    }
    assert_eq!(counts, expected_counts, "{text:?}");
    let mut hashes = Vec::new();
    token_hashes(text, &tokens, &mut hashes);
    for ((token, word), hash) in tokens.iter().zip(seen).zip(hashes) {
        assert_eq!(&text[token.start as usize..token.end()], word, "{text:?}");
        assert_eq!(hash, token_hash(word.as_bytes()), "{word:?}");
        assert_eq!(token.chars as usize, word.chars().count(), "{word:?}");
        let mut expected = 0;
        if word.chars().any(|c| !punctuation().contains(c)) {
            expected |= NON_SYMBOL;
        }
        if word.chars().any(is_alpha) {
            expected |= ALPHA;
        }
        if word.chars().count() == 1 && word.chars().all(|c| terminal().contains(c)) {
            expected |= TERMINAL;
        }
        if word.chars().all(is_punct) {
            expected |= PUNCT;
        }
        assert_eq!(token.flags, expected, "{word:?} in {text:?}");
    }
}

#[test]
fn short_token_hashes_are_distinct() {
    let mut seen = std::collections::HashSet::new();
    let mut tokens = vec![String::new()];
    for a in ["", "a", "b", "\0", "ab", "\0\0"] {
        for b in ["", "a", "\0", "abc", "the", "\u{e9}"] {
            tokens.push(format!("{a}{b}"));
        }
    }
    tokens.extend(["abcdefg", "abcdefg\0", "abcdefgh", "abcdefgh1"].map(String::from));
    tokens.sort();
    tokens.dedup();
    for t in &tokens {
        assert!(seen.insert(token_hash(t.as_bytes())), "{t:?}");
    }
}

#[test]
fn marks_count_as_no_word() {
    for b in 0u8..128 {
        let block = [b; 64];
        let m = ascii_masks(&block);
        if (m.alnum | m.space) & 1 == 0 {
            assert_eq!(
                MARK_FLAGS[usize::from(b)] & (NON_SYMBOL | ALPHA),
                0,
                "{b:#x}"
            );
        }
    }
}

#[test]
fn mark_flags_are_word_flags() {
    for b in 0u8..128 {
        let word = String::from(char::from(b));
        assert_eq!(MARK_FLAGS[usize::from(b)], word_flags(&word).0, "{b:#x}");
    }
}

#[test]
fn for_each_word_equals_words() {
    for text in [
        "",
        ".",
        "a",
        "U.S. e.g. J. Smith... a..b 1.5 1.. ...a a.1 1.a x.y.z.",
        "GLP-1s, 5-10 mg/23 and/or 2019-2020 (e-mail) a-1 1-a a:1 a,1 a/b/c 10.1155/2024",
        "don't It's O'Neil they're y'all's 'tis rock'n'roll I'd ab'c",
        "tabs\tand  many   spaces\x0bvt\x0cff\r\nnext\x1c\x1fx\x00y\x7f_a a_ __",
        "caf\u{e9} na\u{ef}ve it\u{2019}s don\u{2019}t 5\u{2013}10 \u{2014}dash\u{2014} x",
        "ascii line\nnon-ascii \u{e9}l\u{e8}ve.\nascii again...\r\n\u{301}start mark\n",
        "\u{4e2d}\u{6587}\u{5206}\u{8bcd}\u{3002} a.b \u{30ab}\u{30bf} 1_\u{30ab} end.",
        "x\r",
        "ends in a space ",
        // The ends of a plain word (`plain_word_end`): before each
        // joint, with and without a letter or digit after it.
        "J. K.. A.B A. 1. ab. ab.. a_b 1_ abcdefghijklmnopq_r 12345678901234567,8",
        "x: a:b 1:2 a,b 1,2 a, 1; 1;2 dogs' rock'n roll don't GLP-1 a- a-b and/or a/ 5/",
        "a\tb\x0bc\x0c!d?e(f)g\"h\"#$%&*+<=>@[]^`{|}~ a",
        "A.",
        "ab.",
        "a",
    ] {
        assert_words_equal(text);
    }
}

proptest! {
    #[test]
    fn clitic_split_is_the_clitic_search(word in "[a-zA-Z0-9'’.é-]{0,3}['’]?[nN]?['’]?([sSmMdDtT]|re|Ve|lL|x)?") {
        prop_assert_eq!(clitic_split(&word), clitic_split_reference(&word), "{:?}", word);
    }
}

#[test]
fn clitic_split_of_dataset_words_is_the_clitic_search() {
    let mut with_clitic = 0;
    for text in crate::gold_texts(&["scrapinghub", "wcxb_dev"]) {
        for (_, word) in segments(&text) {
            let split = clitic_split(word);
            assert_eq!(split, clitic_split_reference(word), "{word:?}");
            with_clitic += usize::from(split.is_some());
        }
    }
    assert!(with_clitic > 100, "{with_clitic}");
}

proptest! {
    #[test]
    fn for_each_word_equals_words_on_ascii(text in "[a-zA-Z0-9 .,;:'\"_\r\n\t\x0b\x0c!#/$()-]{0,80}") {
        assert_words_equal(&text);
    }

    #[test]
    fn for_each_word_equals_words_on_mixed(
        text in "[aZ9 .,;:'_/\r\n!?-]{0,10}([\u{e9}\u{2019}\u{2013}\u{2014}\u{301}\u{200d}\u{4e2d}\u{30ab}\u{5d0}\u{85}\u{2028}\u{a0}\u{3000}\u{ff10}\u{3002}\u{ff01}\u{bb}\u{2026}\u{1f600}\u{10a3f}\u{201c}\u{430}\u{b7}\u{ff0c}\u{202f}\u{663}\u{2018}\u{b2}][aZ9 .,;:'_/\r\n-]{0,6}){0,12}"
    ) {
        assert_words_equal(&text);
    }

    /// Long ASCII texts, mostly words and spaces: the bulk path of
    /// [`ascii_words`] and its hand-over to [`ascii_token`] at
    /// punctuation, at words that reach a block's end and at the
    /// stretch's end.
    #[test]
    fn for_each_word_equals_words_on_long_ascii(
        text in "([a-zA-Z0-9]{1,12}[ \n\t]{1,2}|[.,;:'_/!?()\"#\x00-]{1,2}|[a-zA-Z]{1,2}|[a-z]{3,70}|\\.\\.\\.){0,60}"
    ) {
        assert_words_equal(&text);
    }

    #[test]
    fn ascii_masks_equal_the_scalar_definition(block in proptest::array::uniform32(any::<u8>()), other in proptest::array::uniform32(any::<u8>())) {
        let mut whole = [0u8; 64];
        whole[..32].copy_from_slice(&block);
        whole[32..].copy_from_slice(&other);
        prop_assert_eq!(ascii_masks(&whole), ascii_masks_scalar(&whole));
    }

    #[test]
    fn cuts_equal_the_scalar_definition(block in proptest::array::uniform17(proptest::sample::select(vec![b' ', b'\n', b'a', b'.', 0xD0, 0x80, 0x09]))) {
        prop_assert_eq!(cuts_in(&block), cuts_in_scalar(&block));
    }

    #[test]
    fn ascii_segments_equal_unicode_segmentation(text in "[a-zA-Z0-9 .,;:'\"_\r\n\t\x0b\x0c!#/$-]{0,80}") {
        assert_segments_equal(&text);
    }

    #[test]
    fn mixed_segments_equal_unicode_segmentation(
        text in "[aZ9 .,;:'\"_\r\n\x0b-]{0,10}([\u{e9}\u{2019}\u{301}\u{200d}\u{2060}\u{4e2d}\u{30ab}\u{5d0}\u{1f1e6}\u{1f600}\u{85}\u{2028}\u{a0}\u{3000}\u{ff10}][aZ9 .,;:'\"_\r\n-]{0,6}){0,12}"
    ) {
        assert_segments_equal(&text);
    }
}

/// Every gold text and every text crawlsift extracts from the shared
/// datasets' pages is segmented as `unicode-segmentation` segments it,
/// and [`for_each_word`] gives the tokens of [`words`].
#[test]
fn dataset_texts_segment_as_unicode_segmentation() {
    use std::io::Read;
    let root = crate::datasets_dir();
    let mut extractor = crawlsift_extract::Extractor::new(crawlsift_extract::Algorithm::DEFAULT);
    let mut texts = 0;
    for dataset in ["daniel_dev", "readability_tests", "scrapinghub", "wcxb_dev"] {
        for kind in ["gold", "html"] {
            let dir = format!("{root}/{dataset}/{kind}");
            let files = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
            for path in files.map(|e| e.unwrap().path()) {
                let bytes = std::fs::read(&path).unwrap();
                let text = if kind == "gold" {
                    String::from_utf8_lossy(&bytes).into_owned()
                } else {
                    let mut raw = Vec::new();
                    if bytes.starts_with(&[0x1f, 0x8b]) {
                        flate2::read::MultiGzDecoder::new(bytes.as_slice())
                            .read_to_end(&mut raw)
                            .unwrap();
                    } else {
                        raw = bytes;
                    }
                    extractor.extract(&raw, None).text.to_owned()
                };
                let same = segments(&text).eq(text.split_word_bound_indices());
                assert!(same, "{}", path.display());
                let mut fast = Vec::new();
                for_each_word(&text, |w| fast.push(w));
                assert!(fast.iter().copied().eq(words(&text)), "{}", path.display());
                assert_tokens_as_classes(&text);
                texts += 1;
            }
        }
    }
    assert!(texts > 5000, "{texts}");
}

fn all(text: &str) -> Vec<&str> {
    words(text).collect()
}

#[test]
fn punctuation_marks_are_tokens_and_ellipses_one() {
    assert_eq!(
        all("Hello, world... It's 3.5 km — don't!"),
        ["Hello", ",", "world", "...", "It", "'s", "3.5", "km", "—", "do", "n't", "!"]
    );
    assert_eq!(
        all("GLP-1s, 5–10 mg/23 and/or 2019-2020 (e-mail)"),
        [
            "GLP-1s", ",", "5–10", "mg/23", "and/or", "2019", "-", "2020", "(", "e", "-", "mail",
            ")"
        ]
    );
}

#[test]
fn curly_apostrophe_clitics_split_and_names_stay() {
    assert_eq!(all("John’s O'Neil"), ["John", "’s", "O'Neil"]);
}

#[test]
fn han_ideographs_are_words_of_their_own() {
    assert_eq!(all("中文分词。"), ["中", "文", "分", "词", "。"]);
}

/// [`splitlines`] as a char-by-char loop over Python's line breaks.
fn splitlines_reference(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let end = match c {
            '\r' if chars.peek().map(|&(_, c)| c) == Some('\n') => {
                chars.next();
                i + 2
            }
            '\n' | '\r' | '\x0b' | '\x0c' | '\x1c' | '\x1d' | '\x1e' | '\u{85}' | '\u{2028}'
            | '\u{2029}' => i + c.len_utf8(),
            _ => continue,
        };
        lines.push(&text[start..i]);
        start = end;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

proptest! {
    #[test]
    fn splitlines_equals_the_reference(
        text in "([a-z ]{0,12}|[\r\n\x0b\x0c\x1c-\x1f\t]|\u{85}|\u{2028}|\u{2029}|\u{a0}|\u{2019}|\u{e9}){0,30}"
    ) {
        let lines: Vec<&str> = splitlines(&text).collect();
        prop_assert_eq!(lines, splitlines_reference(&text));
    }
}

/// Every character of the Basic Multilingual Plane that [`simple_words`]
/// takes is tokenized as [`words`] tokenizes it, in the contexts where
/// the rules look at it: between letters, digits, itself, full stops,
/// joints and clitics.
#[test]
fn simple_characters_tokenize_as_words() {
    let mut simple = 0;
    let mut failed = Vec::new();
    for code in 0x80..0x1_0000u32 {
        let Some(c) = char::from_u32(code) else {
            continue;
        };
        if simple_classes()[code as usize] == Simple::Complex {
            continue;
        }
        simple += 1;
        for text in [
            format!("a{c}b 1{c}2 {c}{c} x {c} y"),
            format!("a.{c} {c}.a 5{c} {c}5 {c}'s a{c}/b a/{c}"),
            format!("ab{c}cd\u{2019}s {c}-1 1-{c} {c}\u{2013}2 J{c}. a{c}a.b.{c}"),
            format!("\u{e9}{c}\u{e9} \u{663}{c}\u{663} {c}_a"),
        ] {
            let mut fast = Vec::new();
            for_each_word(&text, |w| fast.push(w));
            if !fast.iter().copied().eq(words(&text)) {
                failed.push(code);
                break;
            }
        }
    }
    let ranges: Vec<String> = failed.iter().map(|c| format!("{c:04X}")).collect();
    assert!(
        failed.is_empty(),
        "{} differ: {}",
        failed.len(),
        ranges.join(" ")
    );
    assert!(simple > 50_000, "{simple}");
    for (c, class) in [
        ('\u{e9}', Simple::Class(Wb::ALetter)),
        ('\u{2019}', Simple::Class(Wb::MidNumLet)),
        ('\u{201c}', Simple::Class(Wb::Other)),
        ('\u{a0}', Simple::Space),
        ('\u{301}', Simple::Complex),
        ('\u{5d0}', Simple::Complex),
        ('\u{e01}', Simple::Complex),
    ] {
        assert_eq!(simple_classes()[c as usize], class, "{c:?}");
    }
}

/// The tables painted from the classes' ranges hold, for every
/// character of the Basic Multilingual Plane, what the definitions say
/// of it character by character.
#[test]
fn bmp_tables_are_their_definitions() {
    let (flags, simple) = (bmp_flags(), simple_classes());
    let mut complex = 0;
    for code in 0..0x1_0000u32 {
        let expected = char::from_u32(code).map_or(0, |c| {
            char_flags(c) | if c.is_alphanumeric() { ALNUM } else { 0 }
        });
        assert_eq!(flags[code as usize], expected, "{code:04X}");
        // The regex classes are parsed per character: every 97th.
        if code % 97 == 0 || code < 0x400 {
            assert_eq!(
                simple[code as usize],
                simple_class_definition(code),
                "{code:04X}"
            );
        }
        complex += usize::from(simple[code as usize] == Simple::Complex);
    }
    assert!((4_000..20_000).contains(&complex), "{complex}");
}

#[test]
fn break_candidates_are_the_scalar_ones() {
    for first in 0u8..=255 {
        let mut block = [0u8; 16];
        for (k, b) in block.iter_mut().enumerate() {
            *b = first.wrapping_add((k * 17) as u8);
        }
        assert_eq!(
            break_candidates_in(&block),
            break_candidates_scalar(&block),
            "{block:?}"
        );
    }
}

#[test]
fn splitlines_matches_python() {
    let lines: Vec<&str> = splitlines("a\r\nb\rc\n\nd\u{2028}e\n").collect();
    assert_eq!(lines, ["a", "b", "c", "", "d", "e"]);
    assert_eq!(splitlines("").count(), 0);
}

#[test]
fn alphanumeric_flag_is_std_s() {
    for code in (0..0x1_0000u32).chain([0x1_0000, 0x2_0000, 0x1_F600, 0x10_FFFF]) {
        if let Some(c) = char::from_u32(code) {
            assert_eq!(is_alphanumeric(c), c.is_alphanumeric(), "U+{code:04X}");
        }
    }
}

#[test]
fn ascii_flags_agree_with_classes() {
    for b in 0..128u8 {
        let c = char::from(b);
        let mut flags = 0;
        if !punctuation().contains(c) {
            flags |= NON_SYMBOL;
        }
        if is_alpha(c) {
            flags |= ALPHA;
        }
        if !is_punct(c) {
            flags |= NOT_PUNCT;
        }
        assert_eq!(ASCII_FLAGS[usize::from(b)], flags, "{c:?}");
        assert_eq!(
            terminal().contains(c),
            matches!(c, '.' | '!' | '?'),
            "{c:?}"
        );
    }
}

#[test]
fn classes_hold_what_python_says() {
    assert!(terminal().contains('.') && terminal().contains('。') && !terminal().contains(','));
    assert!(punctuation().contains('\u{1}') && punctuation().contains('»'));
    assert!(!punctuation().contains('\t') && !punctuation().contains('a'));
    assert!(is_alpha('ж') && is_alpha('中') && !is_alpha('1'));
    assert!(is_decimal('٣') && !is_decimal('½'));
    assert!(is_nonspacing_mark('\u{301}'));
    assert!(is_py_space('\u{1f}') && is_py_space('\u{a0}'));
}
