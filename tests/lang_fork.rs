//! `crawlsift-lang` (lang/, the fork of whatlang 0.18's detection path that crawlsift
//! uses) against upstream `whatlang` 0.18: the same language, script and
//! confidence on every page of the shared datasets (the text crawlsift extracts,
//! whole and as the sample of `MAX_BYTES` it identifies, and the gold text) and on
//! random strings that mix scripts. A difference is a bug in the fork.

use crawlsift::signals::lang::{head, MAX_BYTES};
use crawlsift::{Algorithm, Extractor};
use crawlsift_eval::dataset::Dataset;
use proptest::prelude::*;

#[path = "support/shared.rs"]
mod support;

/// The shared datasets (TESTING.md); a missing folder fails naming it.
fn datasets() -> std::path::PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets")
}

/// (language code, script name, confidence), or None.
type Found = Option<(&'static str, String, f64)>;

fn upstream(text: &str) -> Found {
    whatlang::detect(text).map(|i| {
        (
            i.lang().code(),
            i.script().name().to_string(),
            i.confidence(),
        )
    })
}

fn fork(text: &str) -> Found {
    crawlsift_lang::detect(text).map(|i| {
        (
            i.lang().code(),
            i.script().name().to_string(),
            i.confidence(),
        )
    })
}

/// None when both agree (confidence to 1e-9), else a description.
fn differ(text: &str) -> Option<String> {
    let (a, b) = (upstream(text), fork(text));
    let same = match (&a, &b) {
        (None, None) => true,
        (Some((la, sa, ca)), Some((lb, sb, cb))) => {
            la == lb && sa == sb && ((ca - cb).abs() <= 1e-9 || (ca.is_nan() && cb.is_nan()))
        }
        _ => false,
    };
    (!same).then(|| format!("whatlang {a:?}, crawlsift-lang {b:?}"))
}

#[test]
fn same_results_as_whatlang_on_every_shared_page() {
    let mut dirs: Vec<_> = std::fs::read_dir(datasets())
        .expect("shared datasets")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("html").is_dir())
        .collect();
    dirs.sort();
    assert!(
        dirs.len() >= 3,
        "expected the shared datasets in {}",
        datasets().display()
    );
    let mut extractor = Extractor::new(Algorithm::DEFAULT);
    let (mut html, mut failures, mut texts, mut identified) = (Vec::new(), Vec::new(), 0, 0);
    for dir in &dirs {
        let data = Dataset::open(dir).expect("shared dataset");
        for page in &data.pages {
            page.read_html(&mut html).expect("page");
            let text = extractor.extract(&html, None).text.to_owned();
            let gold =
                String::from_utf8_lossy(&std::fs::read(&page.gold).expect("gold")).into_owned();
            for (what, t) in [
                ("sample", head(&text, MAX_BYTES)),
                ("text", &text),
                ("first 64 bytes", head(&text, 64)),
                ("gold", &gold),
            ] {
                texts += 1;
                identified += usize::from(upstream(t).is_some());
                if let Some(d) = differ(t) {
                    failures.push(format!("{} {} ({what}): {d}", data.name, page.id));
                }
            }
        }
    }
    assert!(texts > 8000, "{texts} texts");
    assert!(
        identified > texts * 9 / 10,
        "{identified} of {texts} identified"
    );
    assert!(
        failures.is_empty(),
        "{} of {texts} texts differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn same_results_as_whatlang_on_long_repetitive_texts() {
    // Trigrams counted more than 1024 times, more than 600 distinct ones,
    // and ties in count among them.
    let words: Vec<String> = (0..900)
        .map(|i| format!("w{}x{}", char::from(b'a' + (i % 26) as u8), i))
        .collect();
    let texts = [
        "the cat sat on the mat. ".repeat(3000),
        "Съешь же ещё этих мягких французских булок. ".repeat(500) + &words.join(" "),
        words.join(" ") + &" der die das".repeat(2000),
        "ab ".repeat(5000),
    ];
    for text in &texts {
        assert_eq!(differ(text), None, "{}…", head(text, 80));
    }
    // Languages tied on the best score: whatlang's sort order decides.
    for text in ["a", "q", "ب", "ש", "क", "ж", "ab", "zz zz"] {
        assert_eq!(differ(text), None, "{text}");
    }
}

/// Runs of characters from one block (or any code point), mixed.
fn mixed_text() -> impl Strategy<Value = String> {
    let run = prop_oneof![
        proptest::string::string_regex("[a-zA-Z]{1,12}").unwrap(),
        proptest::string::string_regex("[ .,;0-9!?'-]{1,4}").unwrap(),
        proptest::string::string_regex("[à-ÿÀ-Þ]{1,6}").unwrap(),
        proptest::string::string_regex("[ā-ž]{1,6}").unwrap(),
        proptest::string::string_regex("[а-яА-Яёєіїґў]{1,10}").unwrap(),
        proptest::string::string_regex("[α-ωΑ-Ω]{1,8}").unwrap(),
        proptest::string::string_regex("[ء-ي]{1,8}").unwrap(),
        proptest::string::string_regex("[א-ת]{1,8}").unwrap(),
        proptest::string::string_regex("[क-ह]{1,8}").unwrap(),
        proptest::string::string_regex("[一-鿌]{1,6}").unwrap(),
        proptest::string::string_regex("[ぁ-ゖァ-ヺ]{1,6}").unwrap(),
        proptest::string::string_regex("[가-힣]{1,6}").unwrap(),
        proptest::string::string_regex("[\u{1D2B}\u{1D78}ᴀ-ᵿ]{1,4}").unwrap(),
        proptest::string::string_regex("[ΣΟΔ]{1,4}").unwrap(),
        any::<char>().prop_map(String::from),
    ];
    proptest::collection::vec(
        (run, proptest::string::string_regex("[ \n]{0,1}").unwrap()),
        0..40,
    )
    .prop_map(|runs| runs.into_iter().map(|(r, sep)| r + &sep).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn same_results_as_whatlang_on_mixed_scripts(text in mixed_text()) {
        prop_assert_eq!(differ(&text), None, "text {:?}", text);
    }

    #[test]
    fn same_results_as_whatlang_on_words(words in proptest::collection::vec(
        proptest::sample::select(vec![
            "the", "and", "of", "der", "die", "und", "le", "la", "les", "de", "el", "los",
            "och", "og", "het", "een", "ja", "и", "в", "не", "що", "із", "и", "је", "αυτό",
            "في", "من", "של", "את", "का", "है", "dan", "yang", "ng", "na", "è", "ő",
        ]),
        0..60,
    )) {
        let text = words.join(" ");
        prop_assert_eq!(differ(&text), None, "text {:?}", text);
    }
}
