//! The alphabet method of whatlang 0.18.0 (src/alphabets/): a language
//! scores +1 for each letter of the text in its alphabet and -1 for each
//! other letter. The alphabets are copied unchanged; the scoring is the same
//! sums, counted per distinct character (ASCII by table) into arrays on the
//! stack instead of whatlang's vectors.

use crate::{is_stop_char, Lang, Script};
use std::cmp::Reverse;
use std::sync::LazyLock;

const AFR: &str = "abcdefghijklmnopqrstuvwxyzáèéêëíîïóôúû";
const AKA: &str = "abdefghiklmnoprstuwyɔɛ";
const AZE: &str = "abcdefghijklmnopqrstuvxyzçöüğışə̇";
const CAT: &str = "abcdefghijklmnopqrstuvwxyz·àçèéíïòóúü";
const CES: &str = "abcdefghijklmnopqrstuvwxyzáéíóúýčďěňřšťůž";
const CYM: &str = "abcdefghijklmnopqrstuvwxyzàáâäèéêëìíîïòóôöùúûüýÿŵŷẁẃẅỳ";
const DAN: &str = "abcdefghijklmnopqrstuvwxyzåæø";
const DEU: &str = "abcdefghijklmnopqrstuvwxyzßäöü";
const ENG: &str = "abcdefghijklmnopqrstuvwxyz";
const EPO: &str = "abcdefghijklmnoprstuvzĉĝĥĵŝŭ";
const EST: &str = "abcdefghijklmnopqrstuvwxyzäõöü";
const FIN: &str = "abcdefghijklmnopqrstuvwxyzäöšž";
const FRA: &str = "abcdefghijklmnopqrstuvwxyzàâçèéêëîïôùûüÿœ";
const HRV: &str = "abcdefghijklmnopqrstuvwxyzćčđšž";
const HUN: &str = "abcdefghijklmnopqrstuvwxyzáéíóöúüőű";
const IND: &str = "abcdefghijklmnopqrstuvwxyz";
const ITA: &str = "abcdefghijklmnopqrstuvwxyzàèéìòù";
const JAV: &str = "abcdefghijklmnopqrstuvwxyzèé";
const LAT: &str = "abcdefghijklmnopqrstuvwxyz";
const LAV: &str = "abcdefghijklmnopqrstuvwxyzāčēģīķļņōŗšūž";
const LIT: &str = "abcdefghijklmnopqrstuvwxyząčėęįšūųž";
const NLD: &str = "abcdefghijklmnopqrstuvwxyzàèéëïĳ";
const NOB: &str = "abcdefghijklmnopqrstuvwxyzåæø";
const POL: &str = "abcdefghijklmnopqrstuvwxyzóąćęłńśźż";
const POR: &str = "abcdefghijklmnopqrstuvwxyzàáâãçéêíóôõú";
const RON: &str = "abcdefghijklmnopqrstuvwxyzâîăşţ";
const SLK: &str = "abcdefghijklmnopqrstuvwxyzáäéíóôúýčďĺľňŕšťž";
const SLV: &str = "abcdefghijklmnopqrstuvwxyzčšž";
const SNA: &str = "abcdefghijklmnopqrstuvwxyz";
const SPA: &str = "abcdefghijklmnopqrstuvwxyz¡¿áéíñóúü";
const SWE: &str = "abcdefghijklmnopqrstuvwxyzäåö";
const TGL: &str = "abcdefghijklmnopqrstuvwxyzáéíñóú";
const TUK: &str = "abdefghijklmnoprstuwyzäçöüýňşž";
const TUR: &str = "abcdefghijklmnopqrstuvwxyzçöüğış̇";
const UZB: &str = "abcdefghijklmnopqrstuvxyzʻ";
const VIE: &str =
    "abcdefghijklmnopqrstuvwxyzàáâãèéêìíòóôõùúýăđĩũơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ";
const ZUL: &str = "abcdefghijklmnopqrstuvwxyz";

const LATIN_ALPHABETS: &[(Lang, &str)] = &[
    (Lang::Afr, AFR),
    (Lang::Aka, AKA),
    (Lang::Aze, AZE),
    (Lang::Cat, CAT),
    (Lang::Ces, CES),
    (Lang::Cym, CYM),
    (Lang::Dan, DAN),
    (Lang::Deu, DEU),
    (Lang::Eng, ENG),
    (Lang::Epo, EPO),
    (Lang::Est, EST),
    (Lang::Fin, FIN),
    (Lang::Fra, FRA),
    (Lang::Hrv, HRV),
    (Lang::Hun, HUN),
    (Lang::Ind, IND),
    (Lang::Ita, ITA),
    (Lang::Jav, JAV),
    (Lang::Lat, LAT),
    (Lang::Lav, LAV),
    (Lang::Lit, LIT),
    (Lang::Nld, NLD),
    (Lang::Nob, NOB),
    (Lang::Pol, POL),
    (Lang::Por, POR),
    (Lang::Ron, RON),
    (Lang::Slk, SLK),
    (Lang::Slv, SLV),
    (Lang::Sna, SNA),
    (Lang::Spa, SPA),
    (Lang::Swe, SWE),
    (Lang::Tgl, TGL),
    (Lang::Tuk, TUK),
    (Lang::Tur, TUR),
    (Lang::Uzb, UZB),
    (Lang::Vie, VIE),
    (Lang::Zul, ZUL),
];

const BUL: &str = "абвгдежзийклмнопрстуфхцчшщъьюя";
const RUS: &str = "абвгдежзийклмнопрстуфхцчшщъыьэюяё";
const UKR: &str = "абвгдежзийклмнопрстуфхцчшщьюяєіїґ";
const BEL: &str = "абвгдежзйклмнопрстуфхцчшыьэюяёіў";
const SRP: &str = "абвгдежзиклмнопрстуфхцчшђјљњћџ";
const MKD: &str = "абвгдежзиклмнопрстуфхцчшѓѕјљњќџ";

const CYRILLIC_ALPHABETS: &[(Lang, &str)] = &[
    (Lang::Bul, BUL),
    (Lang::Rus, RUS),
    (Lang::Ukr, UKR),
    (Lang::Bel, BEL),
    (Lang::Srp, SRP),
    (Lang::Mkd, MKD),
];

/// whatlang's inverted map (`build_inverted_map`): the sorted characters of
/// the alphabets and, for each, the languages whose alphabet has it (a
/// language twice if its alphabet lists the character twice).
pub(crate) struct Alphabets {
    script: Script,
    chars: Vec<char>,
    langs: Vec<Vec<Lang>>,
    /// `chars` position + 1 of each ASCII character, 0 when absent.
    ascii: [u16; 128],
}

impl Alphabets {
    fn new(script: Script, alphabets: &[(Lang, &str)]) -> Alphabets {
        let mut pairs: Vec<(char, Lang)> = Vec::new();
        for &(lang, alphabet) in alphabets {
            for c in alphabet.chars() {
                pairs.push((c, lang));
            }
        }
        // Stable: each character keeps its languages in the order whatlang
        // pushes them.
        pairs.sort_by_key(|&(c, _)| c);
        let mut chars: Vec<char> = Vec::new();
        let mut langs: Vec<Vec<Lang>> = Vec::new();
        for (c, lang) in pairs {
            if chars.last() != Some(&c) {
                chars.push(c);
                langs.push(Vec::new());
            }
            langs.last_mut().expect("pushed above").push(lang);
        }
        let mut ascii = [0u16; 128];
        for (i, &c) in chars.iter().enumerate() {
            if c.is_ascii() {
                ascii[c as usize] = (i + 1) as u16;
            }
        }
        Alphabets {
            script,
            chars,
            langs,
            ascii,
        }
    }

    fn position(&self, c: char) -> Option<usize> {
        if c.is_ascii() {
            (self.ascii[c as usize] as usize).checked_sub(1)
        } else {
            self.chars.binary_search(&c).ok()
        }
    }
}

pub(crate) static LATIN: LazyLock<Alphabets> =
    LazyLock::new(|| Alphabets::new(Script::Latin, LATIN_ALPHABETS));
pub(crate) static CYRILLIC: LazyLock<Alphabets> =
    LazyLock::new(|| Alphabets::new(Script::Cyrillic, CYRILLIC_ALPHABETS));

/// Most languages of a script (Latin's 37).
pub(crate) const MAX_LANGS: usize = 37;

/// The alphabet scores of a script's languages and the count of letters
/// (non-stop characters) they were taken over.
pub(crate) struct Outcome {
    pub count: usize,
    pub len: usize,
    /// Raw scores in the script's language order (`Script::langs`).
    raw: [(Lang, usize); MAX_LANGS],
    /// whatlang's mock outcome: every language scores 1, in this order.
    mock: bool,
}

impl Outcome {
    /// The languages with their normalised scores in [0, 1], in the
    /// script's order.
    pub(crate) fn scores(&self) -> impl Iterator<Item = (Lang, f64)> + '_ {
        self.raw[..self.len].iter().map(move |&(lang, raw)| {
            if self.mock {
                (lang, 1.0)
            } else {
                (lang, raw as f64 / self.count as f64)
            }
        })
    }

    /// The same in whatlang's order: sorted by raw score with the same
    /// unstable sort over the same sequence (ties keep whatlang's order).
    pub(crate) fn whatlang_order(&self) -> [(Lang, f64); MAX_LANGS] {
        let mut raw = self.raw;
        if !self.mock {
            raw[..self.len].sort_unstable_by_key(|(_, score)| Reverse(*score));
        }
        let sorted = Outcome { raw, ..*self };
        let mut scores = [(Lang::Eng, 0.0); MAX_LANGS];
        for (slot, score) in scores.iter_mut().zip(sorted.scores()) {
            *slot = score;
        }
        scores
    }
}

/// `generic_alphabet_calculate_scores` over the lowercased text `lower`;
/// `char_scores` is scratch space.
pub(crate) fn scores(
    alphabets: &Alphabets,
    lower: &[char],
    char_scores: &mut Vec<usize>,
) -> Outcome {
    char_scores.clear();
    char_scores.resize(alphabets.chars.len(), 0);
    let mut max_raw_score = 0usize;
    for &ch in lower {
        if is_stop_char(ch) {
            continue;
        }
        max_raw_score += 1;
        if let Some(position) = alphabets.position(ch) {
            char_scores[position] += 2;
        }
    }
    let script_langs = alphabets.script.langs();
    let mut lang_scores = [0usize; 70];
    let mut common_score = 0usize;
    for (position, &char_score) in char_scores.iter().enumerate() {
        if char_score > 0 {
            let languages = &alphabets.langs[position];
            if languages.len() == script_langs.len() {
                common_score += char_score;
            } else {
                for &lang in languages {
                    lang_scores[lang as usize] += char_score;
                }
            }
        }
    }
    let mut raw = [(Lang::Eng, 0usize); MAX_LANGS];
    for (slot, &lang) in raw.iter_mut().zip(script_langs) {
        *slot = (
            lang,
            (lang_scores[lang as usize] + common_score).saturating_sub(max_raw_score),
        );
    }
    Outcome {
        count: max_raw_score,
        len: script_langs.len(),
        raw,
        mock: false,
    }
}

/// whatlang has no alphabets for the Arabic, Devanagari and Hebrew scripts:
/// every language scores 1 over a count of 1 (`build_mock`).
pub(crate) fn mock(langs: &[Lang]) -> Outcome {
    let mut raw = [(Lang::Eng, 0usize); MAX_LANGS];
    for (slot, &lang) in raw.iter_mut().zip(langs) {
        *slot = (lang, 1);
    }
    Outcome {
        count: 1,
        len: langs.len(),
        raw,
        mock: true,
    }
}
