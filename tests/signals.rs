//! The quality rules, language id and duplicate keys on crafted edge cases
//! and on real gold texts of the shared datasets.

use crawlsift::signals::{Analyser, Analysis, Config, Filters, RuleSet};

#[path = "support/shared.rs"]
mod support;

/// The shared datasets (TESTING.md); a missing folder fails naming it.
fn datasets() -> std::path::PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets")
}

fn analyse(text: &str) -> Analysis {
    Analyser::new(Config {
        signals: true,
        minhash: true,
    })
    .analyse(text)
}

fn filters(text: &str) -> Filters {
    analyse(text).filters.expect("signals asked for")
}

/// An English text of six distinct sentences, one per line, that every rule
/// set keeps.
const GOOD: &str =
    "The river that runs through the old town has been a source of water for centuries.\n\
Farmers along its banks grow wheat and barley, and they sell their grain at the weekly market.\n\
In the spring the water rises quickly, so the council built a stone wall to protect the houses.\n\
Children learn to swim in the shallow pools near the bridge during the long summer holidays.\n\
Scientists from the university measure the quality of the water every month of the year.\n\
Their reports show that the river is cleaner today than it was twenty years ago.";

#[test]
fn a_plain_english_text_passes_every_rule_set() {
    let a = analyse(GOOD);
    assert_eq!(a.filters, Some(Filters::default()), "{:#?}", a.signals);
    assert_eq!(a.lang, Some("en"));
    assert!(a.lang_score > 0.5);
    let s = a.signals.unwrap();
    assert_eq!(s.c4.kept_lines, 6);
    assert_eq!(s.c4.sentences, 6);
    assert_eq!(s.fineweb.lines, 6);
    assert!(s.gopher_quality.stop_words >= 5);
}

#[test]
fn empty_text_fails_each_set_with_datatroves_reason() {
    let a = analyse("");
    assert_eq!(
        a.filters,
        Some(Filters {
            gopher_quality: Some("gopher_short_doc"),
            gopher_repetition: Some("empty"),
            c4: Some("too_few_sentences"),
            fineweb: Some("empty"),
        })
    );
    assert_eq!(a.lang, None);
    assert_eq!(a.lang_score, 0.0);
    assert_eq!(a.minhash, None);
    // xxh64 of the empty string, seed 0.
    assert_eq!(a.exact_key, Some(0xef46_db37_51d8_e999));
}

#[test]
fn one_word_is_too_short_but_not_repetitive() {
    let f = filters("Hello");
    assert_eq!(f.gopher_quality, Some("gopher_short_doc"));
    assert_eq!(f.gopher_repetition, None);
    assert_eq!(f.c4, Some("too_few_sentences"));
    assert_eq!(f.fineweb, Some("line_punct_ratio"));
}

#[test]
fn repeated_lines_fail_repetition_and_fineweb_duplicates() {
    let line = GOOD.lines().next().unwrap();
    let text = [line; 8].join("\n") + "\n" + GOOD;
    let a = analyse(&text);
    let f = a.filters.unwrap();
    assert_eq!(f.gopher_repetition, Some("dup_line_frac"));
    assert_eq!(f.fineweb, Some("char_dup_ratio"));
    let s = a.signals.unwrap();
    assert!((s.gopher_repetition.dup_line_frac - 8.0 / 14.0).abs() < 1e-9);
    // Paragraphs are separated by blank lines; there are none.
    assert_eq!(s.gopher_repetition.dup_para_frac, 0.0);
    // The same lines as paragraphs trip the paragraph rule first.
    let paragraphs = [line; 8].join("\n\n") + "\n\n" + GOOD;
    assert_eq!(
        filters(&paragraphs).gopher_repetition,
        Some("dup_para_frac")
    );
}

#[test]
fn a_repeated_phrase_fails_the_top_n_gram_rule() {
    let text = format!("{GOOD}\n{}", "buy cheap shoes now ".repeat(40));
    let f = filters(&text);
    assert_eq!(f.gopher_repetition, Some("top_2_gram"));
}

#[test]
fn all_caps_has_no_stop_words_as_datatrove_compares_case() {
    let f = filters(&GOOD.to_uppercase());
    assert_eq!(f.gopher_quality, Some("gopher_enough_stop_words"));
    assert_eq!(f.c4, None);
    assert_eq!(f.fineweb, None);
}

#[test]
fn bullets_ellipses_and_hashes_are_counted_per_line_and_word() {
    let bullets: String = GOOD.lines().map(|l| format!("- {l}\n")).collect();
    assert_eq!(
        filters(&bullets).gopher_quality,
        Some("gopher_too_many_bullets")
    );
    let ellipses: String = GOOD
        .lines()
        .map(|l| format!("{}...\n", l.trim_end_matches('.')))
        .collect();
    let f = filters(&ellipses);
    assert_eq!(f.gopher_quality, Some("gopher_too_many_end_ellipsis"));
    assert_eq!(
        f.c4,
        Some("too_few_sentences"),
        "lines ending in ... are dropped"
    );
    let hashes = format!("{GOOD}\n{}", "#tag ".repeat(30));
    assert_eq!(
        filters(&hashes).gopher_quality,
        Some("gopher_too_many_hashes")
    );
}

#[test]
fn c4_page_rules_and_line_rules() {
    let lorem = format!("{GOOD}\nLorem ipsum dolor sit amet, consectetur adipiscing elit.");
    assert_eq!(filters(&lorem).c4, Some("lorem_ipsum"));
    let brace = format!("{GOOD}\nThe function returns {{ a value }} to the caller.");
    assert_eq!(filters(&brace).c4, Some("curly_bracket"));
    // A brace on a line already dropped (no end punctuation) does not count.
    let dropped = format!("{GOOD}\nvar x = {{ a: 1 }}");
    assert_eq!(filters(&dropped).c4, None);
    let policy = format!("{GOOD}\nThis site uses cookies to improve your experience.\nPlease enable JavaScript in your browser.");
    let s = analyse(&policy).signals.unwrap().c4;
    assert_eq!(
        (s.policy_lines, s.javascript_lines, s.kept_lines),
        (1, 1, 6)
    );
    // Citations are removed before the end-punctuation check.
    let cited = GOOD.replace(".\n", ".[12]\n");
    assert_eq!(analyse(&cited).signals.unwrap().c4.kept_lines, 6);
}

#[test]
fn short_lines_and_list_like_pages_fail_fineweb() {
    let short: String = (0..40)
        .map(|i| format!("Item number {i} is here.\n"))
        .collect();
    assert_eq!(
        filters(&format!("{GOOD}\n{short}")).fineweb,
        Some("short_line_ratio")
    );
    // Two words and a full stop per line of 40 characters: 1/3 newline per token.
    let listy: String = (0..30)
        .map(|i| format!("Internationalization{i:02} Responsibilities.\n"))
        .collect();
    let s = analyse(&listy).signals.unwrap().fineweb;
    assert!((s.list_ratio - 1.0 / 3.0).abs() < 1e-9, "{}", s.list_ratio);
    assert_eq!(filters(&listy).fineweb, Some("list_ratio"));
    let unpunctuated = GOOD.replace(".\n", "\n");
    let unpunctuated = unpunctuated.trim_end_matches('.');
    assert_eq!(filters(unpunctuated).fineweb, Some("line_punct_ratio"));
}

#[test]
fn cjk_text_is_one_word_per_ideograph_so_gopher_finds_words_short() {
    // One paragraph of Chinese news prose (crafted), 6 sentences.
    let zh = "北京市政府今天宣布了一项新的交通计划，目的是减少城市中心的拥堵。\n\
        根据这项计划，市民在工作日可以免费乘坐公共汽车和地铁。\n\
        专家认为，这一措施将鼓励更多的人放弃私家车，选择公共交通出行。\n\
        不过，也有一些市民担心公共交通系统无法承受突然增加的乘客数量。\n\
        市政府表示，将在未来两年内增加三百辆新公共汽车和两条地铁线路。\n\
        这项计划预计将于明年一月正式实施，并在实施半年后进行评估。";
    let a = analyse(zh);
    assert_eq!(a.lang, Some("zh"));
    let s = a.signals.unwrap();
    assert!(s.gopher_quality.words > 150, "{}", s.gopher_quality.words);
    assert!(s.gopher_quality.mean_word_length < 1.01);
    let f = a.filters.unwrap();
    assert_eq!(f.gopher_quality, Some("gopher_below_avg_threshold"));
    // 。 ends every line: FineWeb's line punctuation holds, C4's does not
    // (its END_PUNCTUATION is ASCII).
    assert!(s.fineweb.line_punct_ratio > 0.99);
    assert_eq!(f.c4, Some("too_few_sentences"));
}

#[test]
fn rtl_text_keeps_its_words_and_terminal_marks() {
    let ar = "ذهب الطالب إلى المكتبة في الصباح لكي يقرأ كتابا جديدا عن تاريخ المدينة القديمة.\n\
        هل تعرف متى بنيت هذه المدينة وما هي أهم الأحداث التي مرت بها عبر القرون؟\n\
        قال المعلم إن المدينة بنيت قبل أكثر من ألف عام على ضفاف النهر الكبير.\n\
        وكانت المدينة مركزا مهما للتجارة بين الشرق والغرب لعدة قرون طويلة.";
    let a = analyse(ar);
    assert_eq!(a.lang, Some("ar"));
    let s = a.signals.unwrap();
    assert_eq!(s.fineweb.line_punct_ratio, 1.0, "؟ is sentence-terminal");
    assert!(s.gopher_quality.alpha_words_ratio > 0.9);
    assert!(s.gopher_quality.mean_word_length > 3.0);
    // English stop words never occur in Arabic.
    assert_eq!(
        a.filters.unwrap().gopher_quality,
        Some("gopher_enough_stop_words")
    );
}

#[test]
fn rule_sets_parse_and_the_first_failure_is_reported_in_the_given_order() {
    let sets: Vec<RuleSet> = "gopher, C4,fineweb"
        .split(',')
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(sets, [RuleSet::Gopher, RuleSet::C4, RuleSet::FineWeb]);
    let err = "gopher2".parse::<RuleSet>().unwrap_err().to_string();
    assert!(err.contains("gopher2") && err.contains("fineweb"), "{err}");
    let f = filters("Hello");
    assert_eq!(
        f.first_failure(&sets),
        Some(("gopher_quality", "gopher_short_doc"))
    );
    assert_eq!(
        f.first_failure(&[RuleSet::FineWeb]),
        Some(("fineweb", "line_punct_ratio"))
    );
    assert_eq!(filters(GOOD).first_failure(&sets), None);
}

#[test]
fn json_has_lang_always_and_the_rest_when_asked() {
    let bare = serde_json::to_value(Analyser::new(Config::default()).analyse(GOOD)).unwrap();
    assert_eq!(bare["lang"], "en");
    assert!(bare.get("signals").is_none() && bare.get("minhash").is_none());
    let full = serde_json::to_value(analyse(GOOD)).unwrap();
    assert!(full["filters"]["c4"].is_null());
    assert_eq!(full["exact_key"].as_str().unwrap().len(), 16);
    assert_eq!(full["minhash"].as_array().unwrap().len(), 112);
    assert!(full["signals"]["gopher_repetition"]["dup_n_gram_char_frac"].is_array());
}

/// Gold texts of one dataset with their known language.
fn gold_texts(dataset: &str) -> Vec<(String, String)> {
    let dir = datasets().join(dataset);
    let profile = std::fs::read_to_string(dir.join("profile.jsonl")).expect("profile.jsonl");
    profile
        .lines()
        .filter_map(|line| {
            let row: serde_json::Value = serde_json::from_str(line).ok()?;
            let id = row["id"].as_str()?;
            let text = std::fs::read_to_string(dir.join("gold").join(format!("{id}.txt"))).ok()?;
            Some((row["lang"].as_str()?.to_owned(), text))
        })
        .collect()
}

#[test]
fn english_news_gold_texts_mostly_pass_and_are_english() {
    let golds = gold_texts("scrapinghub");
    let english: Vec<&String> = golds
        .iter()
        .filter(|(l, _)| l == "en")
        .map(|(_, t)| t)
        .collect();
    assert!(english.len() > 150);
    let mut analyser = Analyser::new(Config {
        signals: true,
        minhash: false,
    });
    let (mut en, mut gopher, mut c4, mut fineweb) = (0, 0, 0, 0);
    for text in &english {
        let a = analyser.analyse(text);
        en += usize::from(a.lang == Some("en"));
        let f = a.filters.unwrap();
        gopher += usize::from(f.gopher_quality.is_none() && f.gopher_repetition.is_none());
        c4 += usize::from(f.c4.is_none());
        fineweb += usize::from(f.fineweb.is_none());
    }
    let n = english.len();
    assert!(en * 100 >= n * 98, "english {en}/{n}");
    // Hand-cleaned news articles: the filters were built to keep these.
    assert!(gopher * 100 >= n * 85, "gopher {gopher}/{n}");
    assert!(c4 * 100 >= n * 85, "c4 {c4}/{n}");
    assert!(fineweb * 100 >= n * 80, "fineweb {fineweb}/{n}");
}

#[test]
fn lorem_ipsum_test_pages_fail_c4() {
    let golds = gold_texts("readability_tests");
    let lorem: Vec<&String> = golds
        .iter()
        .map(|(_, t)| t)
        .filter(|t| t.to_lowercase().contains("lorem ipsum"))
        .collect();
    assert!(lorem.len() >= 5, "{}", lorem.len());
    let mut analyser = Analyser::new(Config {
        signals: true,
        minhash: false,
    });
    let failing = lorem
        .iter()
        .filter(|t| analyser.analyse(t).filters.unwrap().c4.is_some())
        .count();
    assert_eq!(failing, lorem.len());
}

/// `analyse_or_drop` (what `--filter` runs) drops a text exactly when the
/// whole analysis has a failure among the sets, under the same rule, and
/// keeps it with the same analysis otherwise: on the gold texts of every
/// dataset (most pass or fail on the first set) and on crafted texts, for
/// several orders of the sets.
#[test]
fn analyse_or_drop_decides_as_the_whole_analysis() {
    let mut texts: Vec<String> = ["scrapinghub", "wcxb_dev", "daniel_dev", "readability_tests"]
        .into_iter()
        .flat_map(gold_texts)
        .map(|(_, text)| text)
        .collect();
    texts.extend(["", "word", GOOD].map(str::to_owned));
    texts.push(format!("{GOOD}\n").repeat(3));
    let orders: [&[RuleSet]; 4] = [
        &[RuleSet::Gopher, RuleSet::C4, RuleSet::FineWeb],
        &[RuleSet::FineWeb, RuleSet::C4, RuleSet::Gopher],
        &[RuleSet::GopherRepetition, RuleSet::GopherQuality],
        &[RuleSet::C4],
    ];
    let config = Config {
        signals: true,
        minhash: true,
    };
    let mut whole = Analyser::new(config);
    let mut lazy = Analyser::new(config);
    let mut lean = Analyser::new(Config {
        signals: false,
        minhash: false,
    });
    let (mut dropped, mut kept) = (0, 0);
    for text in &texts {
        let expected = whole.analyse(text);
        let json = serde_json::to_string(&expected).unwrap();
        for sets in orders {
            let failure = expected.filters.unwrap().first_failure(sets);
            match lazy.analyse_or_drop(text, sets) {
                Err(got) => {
                    assert_eq!(Some(got), failure, "{sets:?} {text:.80?}");
                    dropped += 1;
                }
                Ok(got) => {
                    assert_eq!(failure, None, "{sets:?} {text:.80?}");
                    assert_eq!(serde_json::to_string(&got).unwrap(), json);
                    kept += 1;
                }
            }
            let lean_decision = lean.analyse_or_drop(text, sets).map(|a| {
                assert!(a.signals.is_none() && a.filters.is_none() && a.exact_key.is_none());
            });
            assert_eq!(lean_decision.err(), failure, "{sets:?} {text:.80?}");
        }
    }
    assert!(
        dropped > 1000 && kept > 1000,
        "dropped {dropped}, kept {kept}"
    );
}
