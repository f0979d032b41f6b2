//! The split of text outside ASCII whose characters have simple word-break
//! classes, without `unicode-segmentation`.

use super::*;

/// The word-break classes of [`simple_words`], per character of the Basic
/// Multilingual Plane; ASCII as [`ASCII_WB`] gives it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Simple {
    /// Python's whitespace (a segment of it is no token).
    Space,
    /// A class of [`Wb`]: Other, ALetter, Numeric, MidLetter, MidNum,
    /// MidNumLet, ExtendNumLet.
    Class(Wb),
    /// A class whose rules [`simple_words`] does not apply (Extend,
    /// Format, ZWJ, Hebrew_Letter, Katakana, Regional_Indicator,
    /// Extended_Pictographic, and the scripts without spaces UAX #29 leaves
    /// to a dictionary): its stretch goes to [`words`].
    Complex,
}

/// Characters whose Word_Break class in `unicode-segmentation` (Unicode
/// 17) differs from the one in `regex-syntax` (Unicode 16): U+00B8 and
/// characters new in Unicode 17. `simple_characters_tokenize_as_words`
/// lists them when the two crates disagree.
pub(super) const NEWER_CLASSES: [std::ops::RangeInclusive<u32>; 6] = [
    0xB8..=0xB8,
    0x88F..=0x88F,
    0xC5C..=0xC5C,
    0xCDC..=0xCDC,
    0x1ACF..=0x1AEB,
    0xA7CE..=0xA7F1,
];

/// The characters [`simple_words`] leaves to [`Words`]: those whose
/// Word_Break rules look further than a neighbour, and the scripts
/// segmented by dictionary.
pub(super) const COMPLEX_CLASSES: &str = r"[\p{WB=Extend}\p{WB=Format}\p{WB=ZWJ}\p{WB=Hebrew_Letter}\p{WB=Katakana}\p{WB=Regional_Indicator}\p{WB=Double_Quote}\p{WB=Single_Quote}\p{WB=CR}\p{WB=LF}\p{Extended_Pictographic}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tai_Tham}\p{Tai_Viet}\p{Tai_Le}\p{New_Tai_Lue}]";

/// The Word_Break classes [`simple_words`] tells apart, in the order
/// [`simple_classes`] looks them up.
pub(super) const WORD_BREAK_CLASSES: [(&str, Wb); 6] = [
    (r"\p{WB=ALetter}", Wb::ALetter),
    (r"\p{WB=Numeric}", Wb::Numeric),
    (r"\p{WB=MidLetter}", Wb::MidLetter),
    (r"\p{WB=MidNum}", Wb::MidNum),
    (r"\p{WB=MidNumLet}", Wb::MidNumLet),
    (r"\p{WB=ExtendNumLet}", Wb::ExtendNumLet),
];

/// [`Simple`] of every character of the Basic Multilingual Plane, from the
/// Word_Break property tables of `regex-syntax`.
pub(super) fn simple_classes() -> &'static [Simple] {
    static TABLE: OnceLock<Vec<Simple>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let complex = CharClass::from_pattern(COMPLEX_CLASSES);
        let classes =
            WORD_BREAK_CLASSES.map(|(pattern, wb)| (CharClass::from_pattern(pattern), wb));
        // Painted class by class, the first that applies last: outside
        // the BMP's surrogates, a character is `Complex` if that class has
        // it, else the first Word_Break class that has it, else a space if
        // Python says so, else `Other`; ASCII from this file's tables.
        let mut table = vec![Simple::Class(Wb::Other); 0x1_0000];
        for (code, slot) in table.iter_mut().enumerate() {
            if char::from_u32(code as u32).is_some_and(is_py_space) {
                *slot = Simple::Space;
            }
        }
        for (class, wb) in classes.iter().rev() {
            class.each_in_bmp(|c| table[c] = Simple::Class(*wb));
        }
        complex.each_in_bmp(|c| table[c] = Simple::Complex);
        for range in NEWER_CLASSES {
            for code in range {
                table[code as usize] = Simple::Complex;
            }
        }
        table[0xD800..=0xDFFF].fill(Simple::Complex);
        for (code, slot) in table.iter_mut().enumerate().take(0x80) {
            *slot = match ASCII_START[code] {
                Start::Space => Simple::Space,
                _ => Simple::Class(ASCII_WB[code]),
            };
        }
        table
    })
}

/// [`simple_classes`] of one character, character by character: the
/// definition the painted table is tested against.
#[cfg(test)]
pub(super) fn simple_class_definition(code: u32) -> Simple {
    let class = |p: &str| CharClass::from_pattern(p);
    let Some(c) = char::from_u32(code) else {
        return Simple::Complex;
    };
    if c.is_ascii() {
        return match ASCII_START[code as usize] {
            Start::Space => Simple::Space,
            _ => Simple::Class(ASCII_WB[code as usize]),
        };
    }
    if class(COMPLEX_CLASSES).contains(c) || NEWER_CLASSES.iter().any(|r| r.contains(&code)) {
        return Simple::Complex;
    }
    match WORD_BREAK_CLASSES
        .iter()
        .find(|(pattern, _)| class(pattern).contains(c))
    {
        Some(&(_, wb)) => Simple::Class(wb),
        None if is_py_space(c) => Simple::Space,
        None => Simple::Class(Wb::Other),
    }
}

/// The character at `bytes[i]` (a character boundary), its [`Simple`]
/// class and its width; a character outside the Basic Multilingual Plane
/// is [`Simple::Complex`].
#[inline]
pub(super) fn simple_at(bytes: &[u8], i: usize) -> (char, Simple, usize) {
    let Some((code, width)) = decode_bmp(bytes, i) else {
        return ('\0', Simple::Complex, 4);
    };
    let c = char::from_u32(code).unwrap_or('\0');
    let class = simple_classes()
        .get(code as usize)
        .copied()
        .unwrap_or(Simple::Complex);
    (c, class, width)
}

/// The code point and width of the character at `bytes[i]` (a character
/// boundary of UTF-8) when it is in the Basic Multilingual Plane (one to
/// three bytes), else `None`.
#[inline]
pub(crate) fn decode_bmp(bytes: &[u8], i: usize) -> Option<(u32, usize)> {
    let b = *bytes.get(i)?;
    match b {
        0..=0x7F => Some((u32::from(b), 1)),
        0xC0..=0xDF => {
            let b1 = *bytes.get(i + 1)?;
            Some(((u32::from(b & 0x1F) << 6) | u32::from(b1 & 0x3F), 2))
        }
        0xE0..=0xEF => {
            let (b1, b2) = (*bytes.get(i + 1)?, *bytes.get(i + 2)?);
            let code =
                (u32::from(b & 0x0F) << 12) | (u32::from(b1 & 0x3F) << 6) | u32::from(b2 & 0x3F);
            Some((code, 3))
        }
        _ => None,
    }
}

/// Whether every character of `bytes[from..]` is of a [`Simple`] class
/// other than [`Simple::Complex`].
pub(super) fn simple_stretch(bytes: &[u8], from: usize) -> bool {
    let mut i = from;
    while i < bytes.len() {
        if bytes[i] < 0x80 {
            i += 1;
            continue;
        }
        let (_, class, width) = simple_at(bytes, i);
        if class == Simple::Complex {
            return false;
        }
        i += width;
    }
    true
}

/// The tokens of `text[start..end]`, a stretch cut at breaks whose
/// characters are all of a [`Simple`] class, as [`Words`] gives them:
/// [`ascii_words`] with the word-break classes of the characters outside
/// ASCII (letters, digits, `’` between letters, typographic quotes and
/// dashes, the no-break space).
pub(super) fn simple_words<'a>(
    text: &'a str,
    start: usize,
    end: usize,
    emit: &mut impl FnMut(&'a str),
) {
    let bytes = &text.as_bytes()[..end];
    let mut i = start;
    while i < end {
        let (c, class, width) = simple_at(bytes, i);
        let token_end = match class {
            Simple::Space | Simple::Complex => {
                i += width;
                continue;
            }
            Simple::Class(Wb::ALetter | Wb::Numeric | Wb::ExtendNumLet) => {
                let segment_end = simple_segment_end(bytes, i);
                // A segment of spaces is no token (U+202F is ExtendNumLet).
                if !c.is_ascii() && text[i..segment_end].chars().all(is_py_space) {
                    i = segment_end;
                    continue;
                }
                simple_glue(text, end, i, segment_end)
            }
            Simple::Class(_) if c == '.' => {
                let dots = bytes[i..].iter().take_while(|&&b| b == b'.').count();
                emit(&text[i..i + dots]);
                i += dots;
                continue;
            }
            Simple::Class(_) if is_alphanumeric(c) => simple_glue(text, end, i, i + width),
            Simple::Class(_) => i + width,
        };
        emit_split(&text[i..token_end], emit);
        i = token_end;
    }
}

/// Emits `word`, or the word and its clitic when it ends in one
/// ([`clitic_split`]; an apostrophe, `'` or `’` whose first byte is 0xE2,
/// is looked for first).
#[inline]
pub(super) fn emit_split<'a>(word: &'a str, emit: &mut impl FnMut(&'a str)) {
    match (word.len() > 3 && word.bytes().any(|b| b == b'\'' || b == 0xE2))
        .then(|| clitic_split(word))
        .flatten()
    {
        Some(split) => {
            emit(&word[..split]);
            emit(&word[split..]);
        }
        None => emit(word),
    }
}

/// The end of the UAX #29 word segment that starts at `bytes[start]` (a
/// letter, digit or ExtendNumLet of a simple stretch): [`ascii_segment_end`]
/// with [`Simple`] classes.
pub(super) fn simple_segment_end(bytes: &[u8], start: usize) -> usize {
    let class = |i: usize| {
        if i >= bytes.len() {
            return (None, 0);
        }
        match simple_at(bytes, i) {
            (_, Simple::Class(wb), width) => (Some(wb), width),
            (_, _, width) => (None, width),
        }
    };
    let (first, width) = class(start);
    let Some(mut state) = first else {
        return start + width;
    };
    let mut end = start + width;
    // Each character's class is read once: a joint's guard reads the
    // character after it, which is then the one the segment takes.
    let mut next = class(end);
    while let (Some(wb), width) = next {
        let after = class(end + width);
        let joint = match (state, wb) {
            // WB5, WB8, WB9, WB10, WB13a, WB13b
            (Wb::ALetter | Wb::Numeric, Wb::ALetter | Wb::Numeric)
            | (_, Wb::ExtendNumLet)
            | (Wb::ExtendNumLet, Wb::ALetter | Wb::Numeric) => false,
            // WB6, WB7
            (Wb::ALetter, Wb::MidLetter | Wb::MidNumLet | Wb::SingleQuote)
                if after.0 == Some(Wb::ALetter) =>
            {
                true
            }
            // WB11, WB12
            (Wb::Numeric, Wb::MidNum | Wb::MidNumLet | Wb::SingleQuote)
                if after.0 == Some(Wb::Numeric) =>
            {
                true
            }
            _ => break,
        };
        if joint {
            // The joint and the letter or digit after it, whose class the
            // segment goes on with.
            end += width + after.1;
            next = class(end);
        } else {
            state = wb;
            end += width;
            next = after;
        }
    }
    end
}

/// [`Words::glue`] in a simple stretch ending at `stop`: the end of the
/// token `text[start..end]` after the joints spaCy keeps.
pub(super) fn simple_glue(text: &str, stop: usize, start: usize, mut end: usize) -> usize {
    let bytes = &text.as_bytes()[..stop];
    loop {
        // The joint first: most words have none after them, and whether a
        // letter outside ASCII is alphanumeric is a search in a table.
        if end >= stop {
            return end;
        }
        let (joint, _, joint_width) = simple_at(bytes, end);
        if !matches!(joint, '-' | ':' | '.' | ',' | '/' | '–' | '—') {
            return end;
        }
        let Some(left) = text[..end].chars().next_back() else {
            return end;
        };
        if !left.is_alphanumeric() {
            return end;
        }
        if joint == '.' {
            let word = &text[start..end];
            let ellipsis = bytes.get(end + 1) == Some(&b'.');
            let mut letters = word.chars();
            let single_letter =
                letters.next().is_some_and(char::is_alphabetic) && letters.next().is_none();
            if !ellipsis && (single_letter || (word.contains('.') && !word.ends_with('.'))) {
                return end + 1;
            }
        }
        let right = end + joint_width;
        if right >= stop {
            return end;
        }
        let (first, class, width) = simple_at(bytes, right);
        let glued = match joint {
            '-' => first.is_ascii_digit() && !left.is_ascii_digit(),
            '/' => first.is_alphanumeric(),
            _ => first.is_ascii_digit(),
        };
        if !glued {
            return end;
        }
        end = match class {
            Simple::Class(Wb::ALetter | Wb::Numeric | Wb::ExtendNumLet) => {
                simple_segment_end(bytes, right)
            }
            _ => right + width,
        };
    }
}
