// The script model copied from whatlang 0.18.0 (src/scripts/script.rs,
// chars.rs, lang_mapping.rs), unchanged but for string parsing (FromStr) and
// the optional derives, which were left out.

use crate::Lang;
use std::fmt;

/// Represents a writing system (Latin, Cyrillic, Arabic, etc).
#[derive(PartialEq, Eq, Debug, Clone, Copy, Hash)]
pub enum Script {
    // Keep this in alphabetic order (for C bindings)
    Arabic,
    Armenian,
    Bengali,
    Cyrillic,
    Devanagari,
    Ethiopic,
    Georgian,
    Greek,
    Gujarati,
    Gurmukhi,
    Hangul,
    Hebrew,
    Hiragana,
    Kannada,
    Katakana,
    Khmer,
    Latin,
    Malayalam,
    Mandarin,
    Myanmar,
    Oriya,
    Sinhala,
    Tamil,
    Telugu,
    Thai,
}

// Array of all existing Script values.
const VALUES: [Script; 25] = [
    Script::Arabic,
    Script::Armenian,
    Script::Bengali,
    Script::Cyrillic,
    Script::Devanagari,
    Script::Ethiopic,
    Script::Georgian,
    Script::Greek,
    Script::Gujarati,
    Script::Gurmukhi,
    Script::Hangul,
    Script::Hebrew,
    Script::Hiragana,
    Script::Kannada,
    Script::Katakana,
    Script::Khmer,
    Script::Latin,
    Script::Malayalam,
    Script::Mandarin,
    Script::Myanmar,
    Script::Oriya,
    Script::Sinhala,
    Script::Tamil,
    Script::Telugu,
    Script::Thai,
];

impl Script {
    /// Get all existing scripts.
    ///
    /// # Example
    /// ```
    /// use crawlsift_lang::Script;
    /// for script in Script::all() {
    ///     println!("{}", script);
    /// }
    /// ```
    pub fn all() -> &'static [Script] {
        &VALUES
    }

    pub fn name(&self) -> &str {
        match *self {
            Script::Latin => "Latin",
            Script::Cyrillic => "Cyrillic",
            Script::Arabic => "Arabic",
            Script::Devanagari => "Devanagari",
            Script::Hiragana => "Hiragana",
            Script::Katakana => "Katakana",
            Script::Ethiopic => "Ethiopic",
            Script::Hebrew => "Hebrew",
            Script::Bengali => "Bengali",
            Script::Georgian => "Georgian",
            Script::Mandarin => "Mandarin",
            Script::Hangul => "Hangul",
            Script::Greek => "Greek",
            Script::Kannada => "Kannada",
            Script::Tamil => "Tamil",
            Script::Thai => "Thai",
            Script::Gujarati => "Gujarati",
            Script::Gurmukhi => "Gurmukhi",
            Script::Telugu => "Telugu",
            Script::Malayalam => "Malayalam",
            Script::Oriya => "Oriya",
            Script::Myanmar => "Myanmar",
            Script::Sinhala => "Sinhala",
            Script::Khmer => "Khmer",
            Script::Armenian => "Armenian",
        }
    }

    pub fn langs(&self) -> &[Lang] {
        script_langs(*self)
    }
}

impl fmt::Display for Script {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.name())
    }
}

const LATIN_LANGS: [Lang; 37] = [
    Lang::Spa,
    Lang::Eng,
    Lang::Por,
    Lang::Ind,
    Lang::Fra,
    Lang::Deu,
    Lang::Jav,
    Lang::Vie,
    Lang::Ita,
    Lang::Tur,
    Lang::Pol,
    Lang::Ron,
    Lang::Hrv,
    Lang::Nld,
    Lang::Uzb,
    Lang::Hun,
    Lang::Aze,
    Lang::Ces,
    Lang::Zul,
    Lang::Swe,
    Lang::Aka,
    Lang::Sna,
    Lang::Afr,
    Lang::Fin,
    Lang::Slk,
    Lang::Tgl,
    Lang::Tuk,
    Lang::Dan,
    Lang::Nob,
    Lang::Cat,
    Lang::Lit,
    Lang::Slv,
    Lang::Epo,
    Lang::Lav,
    Lang::Est,
    Lang::Lat,
    Lang::Cym,
];
const CYRILLIC_LANGS: [Lang; 6] = [
    Lang::Rus,
    Lang::Ukr,
    Lang::Srp,
    Lang::Bel,
    Lang::Bul,
    Lang::Mkd,
];
const ARABIC_LANGS: [Lang; 3] = [Lang::Ara, Lang::Urd, Lang::Pes];
const DEVANAGARI_LANGS: [Lang; 3] = [Lang::Hin, Lang::Mar, Lang::Nep];
const HEBREW_LANGS: [Lang; 2] = [Lang::Heb, Lang::Yid];

pub(crate) fn script_langs(script: Script) -> &'static [Lang] {
    match script {
        Script::Latin => &LATIN_LANGS,
        Script::Cyrillic => &CYRILLIC_LANGS,
        Script::Devanagari => &DEVANAGARI_LANGS,
        Script::Hebrew => &HEBREW_LANGS,
        Script::Arabic => &ARABIC_LANGS,
        Script::Mandarin => &[Lang::Cmn],
        Script::Bengali => &[Lang::Ben],
        Script::Hangul => &[Lang::Kor],
        Script::Georgian => &[Lang::Kat],
        Script::Greek => &[Lang::Ell],
        Script::Kannada => &[Lang::Kan],
        Script::Tamil => &[Lang::Tam],
        Script::Thai => &[Lang::Tha],
        Script::Gujarati => &[Lang::Guj],
        Script::Gurmukhi => &[Lang::Pan],
        Script::Telugu => &[Lang::Tel],
        Script::Malayalam => &[Lang::Mal],
        Script::Oriya => &[Lang::Ori],
        Script::Myanmar => &[Lang::Mya],
        Script::Sinhala => &[Lang::Sin],
        Script::Khmer => &[Lang::Khm],
        Script::Ethiopic => &[Lang::Amh],
        Script::Armenian => &[Lang::Hye],
        Script::Katakana | Script::Hiragana => &[Lang::Jpn],
    }
}

/// whatlang's `is_*` functions (src/scripts/chars.rs), unchanged: the
/// reference that [`classify`] is tested against on every code point.
#[cfg(test)]
mod whatlang_ranges {
    pub fn is_cyrillic(ch: char) -> bool {
        matches!(ch,
            '\u{0400}'..='\u{0484}'
            | '\u{0487}'..='\u{052F}'
            | '\u{2DE0}'..='\u{2DFF}'
            | '\u{A640}'..='\u{A69D}'
            | '\u{1D2B}'
            | '\u{1D78}'
            | '\u{A69F}'
        )
    }

    // https://en.wikipedia.org/wiki/Latin_script_in_Unicode
    pub fn is_latin(ch: char) -> bool {
        matches!(ch,
            'a'..='z'
            | 'A'..='Z'
            | '\u{0080}'..='\u{00FF}'
            | '\u{0100}'..='\u{017F}'
            | '\u{0180}'..='\u{024F}'
            | '\u{0250}'..='\u{02AF}'
            | '\u{1D00}'..='\u{1D7F}'
            | '\u{1D80}'..='\u{1DBF}'
            | '\u{1E00}'..='\u{1EFF}'
            | '\u{2100}'..='\u{214F}'
            | '\u{2C60}'..='\u{2C7F}'
            | '\u{A720}'..='\u{A7FF}'
            | '\u{AB30}'..='\u{AB6F}'
        )
    }

    // Based on https://en.wikipedia.org/wiki/Arabic_script_in_Unicode
    pub fn is_arabic(ch: char) -> bool {
        matches!(ch,
            '\u{0600}'..='\u{06FF}'
            | '\u{0750}'..='\u{07FF}'
            | '\u{08A0}'..='\u{08FF}'
            | '\u{FB50}'..='\u{FDFF}'
            | '\u{FE70}'..='\u{FEFF}'
            | '\u{10E60}'..='\u{10E7F}'
            | '\u{1EE00}'..='\u{1EEFF}'
        )
    }

    // Based on https://en.wikipedia.org/wiki/Devanagari#Unicode
    pub fn is_devanagari(ch: char) -> bool {
        matches!(ch, '\u{0900}'..='\u{097F}' | '\u{A8E0}'..='\u{A8FF}' | '\u{1CD0}'..='\u{1CFF}')
    }

    // Based on https://www.key-shortcut.com/en/writing-systems/ethiopian-script/
    pub fn is_ethiopic(ch: char) -> bool {
        matches!(ch, '\u{1200}'..='\u{139F}' | '\u{2D80}'..='\u{2DDF}' | '\u{AB00}'..='\u{AB2F}')
    }

    // Based on https://en.wikipedia.org/wiki/Hebrew_(Unicode_block)
    pub fn is_hebrew(ch: char) -> bool {
        matches!(ch, '\u{0590}'..='\u{05FF}')
    }

    pub fn is_georgian(ch: char) -> bool {
        matches!(ch, '\u{10A0}'..='\u{10FF}')
    }

    pub fn is_mandarin(ch: char) -> bool {
        matches!(ch,
            '\u{2E80}'..='\u{2E99}'
            | '\u{2E9B}'..='\u{2EF3}'
            | '\u{2F00}'..='\u{2FD5}'
            | '\u{3005}'
            | '\u{3007}'
            | '\u{3021}'..='\u{3029}'
            | '\u{3038}'..='\u{303B}'
            | '\u{3400}'..='\u{4DB5}'
            | '\u{4E00}'..='\u{9FCC}'
            | '\u{F900}'..='\u{FA6D}'
            | '\u{FA70}'..='\u{FAD9}'
        )
    }

    pub fn is_bengali(ch: char) -> bool {
        matches!(ch, '\u{0980}'..='\u{09FF}')
    }

    pub fn is_hiragana(ch: char) -> bool {
        matches!(ch, '\u{3040}'..='\u{309F}')
    }

    pub fn is_katakana(ch: char) -> bool {
        matches!(ch, '\u{30A0}'..='\u{30FF}')
    }

    // Hangul is Korean Alphabet. Unicode ranges are taken from: https://en.wikipedia.org/wiki/Hangul
    pub fn is_hangul(ch: char) -> bool {
        matches!(ch,
            '\u{AC00}'..='\u{D7AF}'
            | '\u{1100}'..='\u{11FF}'
            | '\u{3130}'..='\u{318F}'
            | '\u{3200}'..='\u{32FF}'
            | '\u{A960}'..='\u{A97F}'
            | '\u{D7B0}'..='\u{D7FF}'
            | '\u{FF00}'..='\u{FFEF}'
        )
    }

    // Taken from: https://en.wikipedia.org/wiki/Greek_and_Coptic
    pub fn is_greek(ch: char) -> bool {
        matches!(ch, '\u{0370}'..='\u{03FF}')
    }

    // Based on: https://en.wikipedia.org/wiki/Kannada_(Unicode_block)
    pub fn is_kannada(ch: char) -> bool {
        matches!(ch, '\u{0C80}'..='\u{0CFF}')
    }

    // Based on: https://en.wikipedia.org/wiki/Tamil_(Unicode_block)
    pub fn is_tamil(ch: char) -> bool {
        matches!(ch, '\u{0B80}'..='\u{0BFF}')
    }

    // Based on: https://en.wikipedia.org/wiki/Thai_(Unicode_block)
    pub fn is_thai(ch: char) -> bool {
        matches!(ch, '\u{0E00}'..='\u{0E7F}')
    }

    // Based on: https://en.wikipedia.org/wiki/Gujarati_(Unicode_block)
    pub fn is_gujarati(ch: char) -> bool {
        matches!(ch, '\u{0A80}'..='\u{0AFF}')
    }

    // Gurmukhi is the script for Punjabi language.
    // Based on: https://en.wikipedia.org/wiki/Gurmukhi_(Unicode_block)
    pub fn is_gurmukhi(ch: char) -> bool {
        matches!(ch, '\u{0A00}'..='\u{0A7F}')
    }

    pub fn is_telugu(ch: char) -> bool {
        matches!(ch, '\u{0C00}'..='\u{0C7F}')
    }

    // Based on: https://en.wikipedia.org/wiki/Malayalam_(Unicode_block)
    pub fn is_malayalam(ch: char) -> bool {
        matches!(ch, '\u{0D00}'..='\u{0D7F}')
    }

    // Based on: https://en.wikipedia.org/wiki/Malayalam_(Unicode_block)
    pub fn is_oriya(ch: char) -> bool {
        matches!(ch, '\u{0B00}'..='\u{0B7F}')
    }

    // Based on: https://en.wikipedia.org/wiki/Myanmar_(Unicode_block)
    pub fn is_myanmar(ch: char) -> bool {
        matches!(ch, '\u{1000}'..='\u{109F}')
    }

    // Based on: https://en.wikipedia.org/wiki/Sinhala_(Unicode_block)
    pub fn is_sinhala(ch: char) -> bool {
        matches!(ch, '\u{0D80}'..='\u{0DFF}')
    }

    // Based on: https://en.wikipedia.org/wiki/Khmer_alphabet
    pub fn is_khmer(ch: char) -> bool {
        matches!(ch, '\u{1780}'..='\u{17FF}' | '\u{19E0}'..='\u{19FF}')
    }

    // See:
    // * https://en.wikipedia.org/wiki/Armenian_alphabet
    // * https://www.unicode.org/charts/PDF/U0530.pdf
    // * https://www.unicode.org/charts/PDF/UFB00.pdf
    pub fn is_armenian(ch: char) -> bool {
        matches!(ch, '\u{0530}'..='\u{058F}' | '\u{FB13}'..='\u{FB17}')
    }
}

/// What a script stands for (whatlang's `ScriptLangGroup`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Group {
    /// Several languages: told apart by alphabets and trigrams.
    Multi(Script),
    /// One language.
    One(Lang),
    /// Mandarin, or Japanese when kana are mixed in.
    Mandarin,
}

impl Script {
    pub(crate) fn group(self) -> Group {
        match self {
            Script::Latin
            | Script::Cyrillic
            | Script::Arabic
            | Script::Devanagari
            | Script::Hebrew => Group::Multi(self),
            Script::Mandarin => Group::Mandarin,
            Script::Bengali => Group::One(Lang::Ben),
            Script::Hangul => Group::One(Lang::Kor),
            Script::Georgian => Group::One(Lang::Kat),
            Script::Greek => Group::One(Lang::Ell),
            Script::Kannada => Group::One(Lang::Kan),
            Script::Tamil => Group::One(Lang::Tam),
            Script::Thai => Group::One(Lang::Tha),
            Script::Gujarati => Group::One(Lang::Guj),
            Script::Gurmukhi => Group::One(Lang::Pan),
            Script::Telugu => Group::One(Lang::Tel),
            Script::Malayalam => Group::One(Lang::Mal),
            Script::Oriya => Group::One(Lang::Ori),
            Script::Myanmar => Group::One(Lang::Mya),
            Script::Sinhala => Group::One(Lang::Sin),
            Script::Khmer => Group::One(Lang::Khm),
            Script::Ethiopic => Group::One(Lang::Amh),
            Script::Armenian => Group::One(Lang::Hye),
            Script::Katakana | Script::Hiragana => Group::One(Lang::Jpn),
        }
    }
}

/// The order in which whatlang's `raw_detect_script` first tries the scripts.
const FIRST_ORDER: [Script; 25] = [
    Script::Latin,
    Script::Cyrillic,
    Script::Arabic,
    Script::Mandarin,
    Script::Devanagari,
    Script::Hebrew,
    Script::Ethiopic,
    Script::Georgian,
    Script::Bengali,
    Script::Hangul,
    Script::Hiragana,
    Script::Katakana,
    Script::Greek,
    Script::Kannada,
    Script::Tamil,
    Script::Thai,
    Script::Gujarati,
    Script::Gurmukhi,
    Script::Telugu,
    Script::Malayalam,
    Script::Oriya,
    Script::Myanmar,
    Script::Sinhala,
    Script::Khmer,
    Script::Armenian,
];

/// The script of a character by whatlang's `is_*` ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    None,
    One(Script),
    /// U+1D2B and U+1D78 are in both the Latin and the Cyrillic ranges:
    /// whatlang counts them for whichever of the two it tries first.
    LatinOrCyrillic,
}

/// One range test per character instead of whatlang's up to 25; the ranges
/// are those of whatlang's `is_*` functions (a test checks every code point).
#[inline]
pub(crate) fn classify(ch: char) -> Class {
    use Script::*;
    let s = match ch {
        'a'..='z' | 'A'..='Z' => Latin,
        '\u{0000}'..='\u{007F}' => return Class::None,
        '\u{0080}'..='\u{02AF}' => Latin,
        '\u{0370}'..='\u{03FF}' => Greek,
        '\u{0400}'..='\u{0484}' | '\u{0487}'..='\u{052F}' => Cyrillic,
        '\u{0530}'..='\u{058F}' => Armenian,
        '\u{0590}'..='\u{05FF}' => Hebrew,
        '\u{0600}'..='\u{06FF}' | '\u{0750}'..='\u{07FF}' | '\u{08A0}'..='\u{08FF}' => Arabic,
        '\u{0900}'..='\u{097F}' => Devanagari,
        '\u{0980}'..='\u{09FF}' => Bengali,
        '\u{0A00}'..='\u{0A7F}' => Gurmukhi,
        '\u{0A80}'..='\u{0AFF}' => Gujarati,
        '\u{0B00}'..='\u{0B7F}' => Oriya,
        '\u{0B80}'..='\u{0BFF}' => Tamil,
        '\u{0C00}'..='\u{0C7F}' => Telugu,
        '\u{0C80}'..='\u{0CFF}' => Kannada,
        '\u{0D00}'..='\u{0D7F}' => Malayalam,
        '\u{0D80}'..='\u{0DFF}' => Sinhala,
        '\u{0E00}'..='\u{0E7F}' => Thai,
        '\u{1000}'..='\u{109F}' => Myanmar,
        '\u{10A0}'..='\u{10FF}' => Georgian,
        '\u{1100}'..='\u{11FF}' => Hangul,
        '\u{1200}'..='\u{139F}' => Ethiopic,
        '\u{1780}'..='\u{17FF}' | '\u{19E0}'..='\u{19FF}' => Khmer,
        '\u{1CD0}'..='\u{1CFF}' => Devanagari,
        '\u{1D2B}' | '\u{1D78}' => return Class::LatinOrCyrillic,
        '\u{1D00}'..='\u{1DBF}' | '\u{1E00}'..='\u{1EFF}' | '\u{2100}'..='\u{214F}' => Latin,
        '\u{2C60}'..='\u{2C7F}' => Latin,
        '\u{2D80}'..='\u{2DDF}' => Ethiopic,
        '\u{2DE0}'..='\u{2DFF}' => Cyrillic,
        '\u{2E80}'..='\u{2E99}'
        | '\u{2E9B}'..='\u{2EF3}'
        | '\u{2F00}'..='\u{2FD5}'
        | '\u{3005}'
        | '\u{3007}'
        | '\u{3021}'..='\u{3029}'
        | '\u{3038}'..='\u{303B}'
        | '\u{3400}'..='\u{4DB5}'
        | '\u{4E00}'..='\u{9FCC}' => Mandarin,
        '\u{3040}'..='\u{309F}' => Hiragana,
        '\u{30A0}'..='\u{30FF}' => Katakana,
        '\u{3130}'..='\u{318F}' | '\u{3200}'..='\u{32FF}' => Hangul,
        '\u{A640}'..='\u{A69D}' | '\u{A69F}' => Cyrillic,
        '\u{A720}'..='\u{A7FF}' => Latin,
        '\u{A8E0}'..='\u{A8FF}' => Devanagari,
        '\u{A960}'..='\u{A97F}' => Hangul,
        '\u{AB00}'..='\u{AB2F}' => Ethiopic,
        '\u{AB30}'..='\u{AB6F}' => Latin,
        '\u{AC00}'..='\u{D7AF}' | '\u{D7B0}'..='\u{D7FF}' => Hangul,
        '\u{F900}'..='\u{FA6D}' | '\u{FA70}'..='\u{FAD9}' => Mandarin,
        '\u{FB13}'..='\u{FB17}' => Armenian,
        '\u{FB50}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}' => Arabic,
        '\u{FF00}'..='\u{FFEF}' => Hangul,
        '\u{10E60}'..='\u{10E7F}' | '\u{1EE00}'..='\u{1EEFF}' => Arabic,
        _ => return Class::None,
    };
    Class::One(s)
}

/// Letters counted per script, as whatlang's `raw_detect_script` counts
/// them, with the order it ends with: whatlang tries the scripts in turn and
/// moves the one that matched a step forward, which decides ties between
/// scripts (and the two code points in two scripts), so that order is kept
/// here too, in two small arrays instead of 25 function calls a character.
pub(crate) struct ScriptCounts {
    counts: [usize; 25],
    order: [Script; 25],
}

impl ScriptCounts {
    pub(crate) fn of(text: &str) -> ScriptCounts {
        let mut order = FIRST_ORDER;
        let mut pos = [0u8; 25];
        for (i, &s) in FIRST_ORDER.iter().enumerate() {
            pos[s as usize] = i as u8;
        }
        let mut counts = [0usize; 25];
        for ch in text.chars() {
            let script = if ch.is_ascii() {
                if !ch.is_ascii_alphabetic() {
                    continue;
                }
                Script::Latin
            } else {
                match classify(ch) {
                    Class::None => continue,
                    Class::One(s) => s,
                    Class::LatinOrCyrillic => {
                        if pos[Script::Latin as usize] < pos[Script::Cyrillic as usize] {
                            Script::Latin
                        } else {
                            Script::Cyrillic
                        }
                    }
                }
            };
            counts[script as usize] += 1;
            let i = pos[script as usize] as usize;
            if i > 0 {
                let before = order[i - 1];
                order[i - 1] = script;
                order[i] = before;
                pos[script as usize] = (i - 1) as u8;
                pos[before as usize] = i as u8;
            }
        }
        ScriptCounts { counts, order }
    }

    pub(crate) fn count(&self, script: Script) -> usize {
        self.counts[script as usize]
    }

    /// The script with most letters; ties broken as whatlang breaks them (by
    /// the same unstable sort over the same sequence).
    pub(crate) fn main_script(&self) -> Option<Script> {
        let max = self.counts.iter().copied().max().unwrap_or(0);
        if max == 0 {
            return None;
        }
        if self.counts.iter().filter(|&&c| c == max).count() == 1 {
            return self.order.iter().copied().find(|&s| self.count(s) == max);
        }
        let mut counters = self.order.map(|s| (s, self.count(s)));
        counters.sort_unstable_by_key(|&(_, count)| std::cmp::Reverse(count));
        Some(counters[0].0)
    }
}

#[cfg(test)]
mod tests {
    use super::whatlang_ranges::*;
    use super::*;

    type Is = fn(char) -> bool;

    const IS: [(Script, Is); 25] = [
        (Script::Latin, is_latin),
        (Script::Cyrillic, is_cyrillic),
        (Script::Arabic, is_arabic),
        (Script::Mandarin, is_mandarin),
        (Script::Devanagari, is_devanagari),
        (Script::Hebrew, is_hebrew),
        (Script::Ethiopic, is_ethiopic),
        (Script::Georgian, is_georgian),
        (Script::Bengali, is_bengali),
        (Script::Hangul, is_hangul),
        (Script::Hiragana, is_hiragana),
        (Script::Katakana, is_katakana),
        (Script::Greek, is_greek),
        (Script::Kannada, is_kannada),
        (Script::Tamil, is_tamil),
        (Script::Thai, is_thai),
        (Script::Gujarati, is_gujarati),
        (Script::Gurmukhi, is_gurmukhi),
        (Script::Telugu, is_telugu),
        (Script::Malayalam, is_malayalam),
        (Script::Oriya, is_oriya),
        (Script::Myanmar, is_myanmar),
        (Script::Sinhala, is_sinhala),
        (Script::Khmer, is_khmer),
        (Script::Armenian, is_armenian),
    ];

    #[test]
    fn classify_agrees_with_whatlangs_ranges_on_every_code_point() {
        for ch in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let stop = crate::is_stop_char(ch);
            let matching: Vec<Script> = IS
                .iter()
                .filter(|(_, is)| !stop && is(ch))
                .map(|&(s, _)| s)
                .collect();
            let expected = match matching.as_slice() {
                [] => Class::None,
                [s] => Class::One(*s),
                [Script::Latin, Script::Cyrillic] => Class::LatinOrCyrillic,
                other => panic!("{ch:?} is in {other:?}"),
            };
            assert_eq!(classify(ch), expected, "{:?} U+{:04X}", ch, ch as u32);
        }
    }

    #[test]
    fn first_order_names_every_script_once() {
        let mut seen = FIRST_ORDER.to_vec();
        seen.sort_by_key(|&s| s as usize);
        assert_eq!(seen, Script::all());
    }
}
