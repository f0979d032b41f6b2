//! Language identification: a fork of the detection path of
//! [whatlang](https://github.com/greyblake/whatlang-rs) 0.18.0 (MIT, © 2017
//! Sergey Potapov and whatlang's contributors; see `LICENSE`), rewritten for
//! speed with the same results.
//!
//! Kept from whatlang: its model (the trigram profiles of `trigrams/profiles.rs`, the
//! alphabets, the script ranges and the script → language tables, copied
//! unchanged), its method (whatlang's default `Method::Combined`: script by
//! counting letters, then for scripts of several languages a weighted sum of
//! the alphabet and trigram scores), its arithmetic and its tie-breaking, so
//! [`detect`] returns what `whatlang::detect` returns, language and
//! confidence bit for bit (crawlsift's tests compare the two on every page of
//! its shared datasets and on random mixed-script strings).
//!
//! Changed (the costly parts, per text):
//! * script counting tests one range table per character, not up to 25
//!   functions, and keeps whatlang's move-to-front order in two small
//!   arrays (it decides ties);
//! * the text is lowercased once into a reused buffer, not a new `String`;
//! * alphabet scores are counted per distinct character (ASCII by table);
//! * trigrams are counted in reused tables (a dense one for trigrams of
//!   ' ' and 'a'..='z', open addressing on packed integers for the others),
//!   ranked without a comparison sort (the dense table's bitmap gives them
//!   in order, then a stable counting sort by count), and the profiles are
//!   read through an index built once, a row per profile trigram of its
//!   rank in every language's profile: scoring adds one row per distinct
//!   text trigram to all the script's languages at once (vector
//!   operations), instead of one look-up per profile trigram (≈ 11 000 for
//!   the Latin script, however short the text);
//! * whatlang's two sorts of the script's languages (alphabet scores, then
//!   combined scores) are only run when the best combined score is tied,
//!   the one case where their order decides the result.
//!
//! Left out: allow/deny lists (`Detector`), the alphabet-only and
//! trigram-only methods, string parsing of `Lang` and `Script`, and the
//! optional serde/enum-map/arbitrary derives.

mod alphabets;
mod lang;
mod script;
mod trigrams;

pub use crate::lang::Lang;
pub use crate::script::Script;

use crate::script::{Group, ScriptCounts};
use std::cell::RefCell;

const RELIABLE_CONFIDENCE_THRESHOLD: f64 = 0.9;

/// The outcome of identification: script, language and confidence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Info {
    script: Script,
    lang: Lang,
    confidence: f64,
}

impl Info {
    pub fn lang(&self) -> Lang {
        self.lang
    }

    pub fn script(&self) -> Script {
        self.script
    }

    /// In [0, 1].
    pub fn confidence(&self) -> f64 {
        self.confidence
    }

    pub fn is_reliable(&self) -> bool {
        self.confidence > RELIABLE_CONFIDENCE_THRESHOLD
    }
}

/// The language of `text`, as `whatlang::detect` finds it; `None` when the
/// text has no letter of a known script.
///
/// ```
/// use crawlsift_lang::{detect, Lang};
/// let info = detect("There is no reason not to learn Esperanto.").unwrap();
/// assert_eq!(info.lang(), Lang::Eng);
/// ```
pub fn detect(text: &str) -> Option<Info> {
    let counts = ScriptCounts::of(text);
    let script = counts.main_script()?;
    Some(match script.group() {
        Group::One(lang) => Info {
            script,
            lang,
            confidence: 1.0,
        },
        Group::Mandarin => mandarin_or_japanese(&counts),
        Group::Multi(script) => SCRATCH
            .try_with(|scratch| match scratch.try_borrow_mut() {
                Ok(mut scratch) => combined(text, script, &mut scratch),
                Err(_) => combined(text, script, &mut Scratch::default()),
            })
            .unwrap_or_else(|_| combined(text, script, &mut Scratch::default()))?,
    })
}

/// The language of `text` alone.
pub fn detect_lang(text: &str) -> Option<Lang> {
    detect(text).map(|info| info.lang())
}

/// The script with most letters in `text`.
pub fn detect_script(text: &str) -> Option<Script> {
    ScriptCounts::of(text).main_script()
}

/// Space, punctuation, digit: characters that tell nothing (whatlang's
/// `is_stop_char`).
#[inline]
pub(crate) fn is_stop_char(ch: char) -> bool {
    matches!(ch, '\u{0000}'..='\u{0040}' | '\u{005B}'..='\u{0060}' | '\u{007B}'..='\u{007E}')
}

/// Buffers reused from text to text on each thread.
#[derive(Default)]
struct Scratch {
    lower: Vec<char>,
    char_scores: Vec<usize>,
    trigrams: trigrams::Counter,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Above this many characters the lowercase buffer is dropped after use.
const KEEP_CHARS: usize = 1 << 16;

/// `text.to_lowercase()` as characters, into `out`.
fn lowercase(text: &str, out: &mut Vec<char>) {
    out.clear();
    for ch in text.chars() {
        if ch.is_ascii() {
            out.push(ch.to_ascii_lowercase());
        } else if ch == 'Σ' {
            // Capital sigma lowercases by its context (final ς or σ): leave
            // it to the standard library.
            out.clear();
            out.extend(text.to_lowercase().chars());
            return;
        } else if let Some(lower) = lowercase_common(ch) {
            out.push(lower);
        } else {
            out.extend(ch.to_lowercase());
        }
    }
}

/// `char::to_lowercase` without its table search for Latin-1 and basic
/// Cyrillic (a test checks every character of both blocks).
#[inline]
fn lowercase_common(ch: char) -> Option<char> {
    let c = ch as u32;
    let lower = match c {
        0x80..=0xBF | 0xD7 | 0xDF..=0xFF | 0x430..=0x45F => c,
        0xC0..=0xDE => c + 0x20,
        0x400..=0x40F => c + 0x50,
        0x410..=0x42F => c + 0x20,
        _ => return None,
    };
    char::from_u32(lower)
}

/// whatlang's `combined::detect` for a script of several languages.
fn combined(text: &str, script: Script, scratch: &mut Scratch) -> Option<Info> {
    lowercase(text, &mut scratch.lower);
    let index = trigrams::index(script);
    let alphabet = match script {
        Script::Latin => {
            alphabets::scores(&alphabets::LATIN, &scratch.lower, &mut scratch.char_scores)
        }
        Script::Cyrillic => alphabets::scores(
            &alphabets::CYRILLIC,
            &scratch.lower,
            &mut scratch.char_scores,
        ),
        _ => alphabets::mock(&index.langs),
    };
    let trigram = scratch.trigrams.scores(index, &scratch.lower);
    if scratch.lower.capacity() > KEEP_CHARS {
        scratch.lower = Vec::new();
    }

    // The alphabet's and the trigram's languages are the same set (a test
    // checks it), so whatlang's `all_langs` is the alphabet's order.
    let alphabet_weight = calc_alphabet_weight(alphabet.count);
    let trigram_weight = 1.0 - alphabet_weight;
    let combine = |(lang, a): (Lang, f64)| {
        let t = trigram.scores[lang as usize];
        (lang, a * alphabet_weight + t * trigram_weight)
    };

    // whatlang sorts the alphabet scores, then the combined ones, and takes
    // the first two. When the best combined score is unique (and no score
    // is NaN) the order of the others does not matter: the best and the
    // second best values are the same however ties among the rest fall.
    let mut best: Option<(Lang, f64)> = None;
    let mut second = f64::NEG_INFINITY;
    let mut tie = false;
    for (lang, score) in alphabet.scores().map(combine) {
        tie |= score.is_nan();
        match best {
            Some((_, b)) if score > b => {
                second = b;
                best = Some((lang, score));
            }
            Some((_, b)) => {
                tie |= score == b;
                second = second.max(score);
            }
            None => best = Some((lang, score)),
        }
    }
    if !tie {
        let (lang, score1) = best?;
        let confidence = if alphabet.len > 1 {
            calculate_confidence(score1, second, trigram.count)
        } else {
            1.0
        };
        return Some(Info {
            script,
            lang,
            confidence,
        });
    }

    let mut scores = [(Lang::Eng, 0.0f64); alphabets::MAX_LANGS];
    let len = alphabet.len;
    for (slot, &score) in scores.iter_mut().zip(&alphabet.whatlang_order()[..len]) {
        *slot = combine(score);
    }
    let scores = &mut scores[..len];
    scores.sort_unstable_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Less));

    let &(lang, score1) = scores.first()?;
    let confidence = match scores.get(1) {
        Some(&(_, score2)) => calculate_confidence(score1, score2, trigram.count),
        None => 1.0,
    };
    Some(Info {
        script,
        lang,
        confidence,
    })
}

/// whatlang's weight of the alphabet score: 2/3 for an empty text, falling
/// to 1/3 at 100 letters.
fn calc_alphabet_weight(count: usize) -> f64 {
    let weight = -(count as f64 / 300.0) + 2.0 / 3.0;
    weight.clamp(1.0 / 3.0, 2.0 / 3.0)
}

/// whatlang's confidence that the best score's language is right, given the
/// second best and the number of trigrams.
fn calculate_confidence(highest_score: f64, second_score: f64, count: usize) -> f64 {
    if highest_score == 0.0 {
        return 0.0;
    }
    if second_score == 0.0 {
        return highest_score;
    }
    let confident_rate = (3.0 / count as f64) + 0.015;
    let rate = (highest_score - second_score) / second_score;
    if rate > confident_rate {
        1.0
    } else {
        rate / confident_rate
    }
}

/// whatlang's rule for Han text: Japanese when kana are mixed in.
fn mandarin_or_japanese(counts: &ScriptCounts) -> Info {
    let mandarin_count = counts.count(Script::Mandarin);
    let japanese_count = counts.count(Script::Katakana) + counts.count(Script::Hiragana);
    let total = mandarin_count + japanese_count;
    let jpn_pct = japanese_count as f64 / total as f64;
    let (lang, confidence) = if jpn_pct > 0.2 {
        (Lang::Jpn, 1.0)
    } else if jpn_pct > 0.05 {
        (Lang::Jpn, 0.5)
    } else if jpn_pct > 0.02 {
        (Lang::Cmn, 0.5)
    } else {
        (Lang::Cmn, 1.0)
    };
    Info {
        script: Script::Mandarin,
        lang,
        confidence,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alphabet_and_trigram_languages_are_the_same_set() {
        for script in [
            Script::Latin,
            Script::Cyrillic,
            Script::Arabic,
            Script::Devanagari,
            Script::Hebrew,
        ] {
            let mut a = script.langs().to_vec();
            let mut t = trigrams::index(script).langs.clone();
            a.sort_by_key(|&l| l as usize);
            t.sort_by_key(|&l| l as usize);
            assert_eq!(a, t, "{script}");
            assert!(a.len() <= alphabets::MAX_LANGS);
        }
    }

    #[test]
    fn whatlangs_own_examples() {
        let cases = [
            (
                "Además de todo lo anteriormente dicho, también encontramos...",
                Lang::Spa,
            ),
            ("Та нічого, все нормально. А в тебе як?", Lang::Ukr),
            (
                "Die Ordnung muss für immer in diesem Codebase bleiben",
                Lang::Deu,
            ),
            ("There is no reason not to learn Esperanto.", Lang::Eng),
            (
                "Ĉiuj redaktantoj de Esperanta Vikipedio estas volontuloj.",
                Lang::Epo,
            ),
            ("県見夜上温国阪題富販", Lang::Cmn),
            ("האקדמיה ללשון העברית", Lang::Heb),
        ];
        for (text, lang) in cases {
            assert_eq!(detect_lang(text), Some(lang), "{text}");
        }
        assert_eq!(detect("1234567890-,;!"), None);
        assert_eq!(detect(""), None);
        assert_eq!(
            detect_script("Russian word любовь means love."),
            Some(Script::Latin)
        );
    }

    #[test]
    fn common_lowercasing_is_the_standard_librarys() {
        for ch in (0..0x600u32).filter_map(char::from_u32) {
            if let Some(lower) = lowercase_common(ch) {
                assert_eq!(ch.to_lowercase().collect::<Vec<_>>(), [lower], "{ch:?}");
            }
        }
        assert_eq!(lowercase_common('Ж'), Some('ж'));
        assert_eq!(lowercase_common('É'), Some('é'));
    }

    #[test]
    fn final_sigma_is_lowercased_by_context() {
        let mut out = Vec::new();
        lowercase("ΟΔΟΣ abc", &mut out);
        assert_eq!(out.iter().collect::<String>(), "ΟΔΟΣ abc".to_lowercase());
    }
}
