//! The split of ASCII text 64 bytes at a time: the block's class masks,
//! plain words counted in bulk.

use super::*;
use crawlsift_simd::{Baseline, Vector, V128};

/// The offset of the first byte of `bytes` that is not ASCII, eight bytes
/// at a time.
#[inline]
pub(super) fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let high = word & HIGH;
        if high != 0 {
            return Some(at + (high.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b >= 0x80)
        .map(|i| at + i)
}

/// What [`ascii_words`] does at a byte that starts a segment.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Start {
    /// Python's whitespace: a segment of it is no token.
    Space,
    /// A letter, digit or `_`: a word segment ([`ascii_segment_end`]).
    Word,
    /// A full stop: an ellipsis token with the full stops after it.
    Dot,
    /// Any other character: a token of one character.
    Other,
}

pub(super) static ASCII_START: [Start; 128] = {
    let mut table = [Start::Other; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = match ascii_wb(b as u8) {
            Wb::ALetter | Wb::Numeric | Wb::ExtendNumLet => Start::Word,
            _ if b == b'.' as usize => Start::Dot,
            // \t \n \x0b \x0c \r \x1c-\x1f and space: `is_py_space`.
            _ if (b >= 0x09 && b <= 0x0d) || (b >= 0x1c && b <= 0x20) => Start::Space,
            _ => Start::Other,
        };
        b += 1;
    }
    table
};

/// The tokens of `text[start..end]`, ASCII cut at breaks (see
/// [`for_each_word`]), as [`Words`] gives them, in one pass: spaces are
/// stepped over, a word segment is glued on as [`Words::glue`] does and its
/// clitic split off, a run of full stops is one token, any other character
/// is a token.
///
/// In bulk first: the 64 bytes from the current position are classified
/// into bit masks ([`ascii_masks`]), and up to the first byte where a rule
/// beyond "a run of letters and digits is a word, any other character but
/// a space is a token" may apply (a `_`; a joint before a letter or digit,
/// or a hyphen before a digit; a full stop before a full stop; a single
/// letter before a full stop, `J.`), tokens are found with
/// `trailing_zeros` and no branch per byte: a run of letters and digits
/// followed by a space or a mark there is whole ([`plain_word_end`]). The
/// token at that byte (or the word that reaches it) goes through
/// [`ascii_token`]; then the next 64 bytes from there are classified.
pub(super) fn ascii_words<'a>(
    text: &'a str,
    start: usize,
    end: usize,
    sink: &mut impl TokenSink<'a>,
) {
    let bytes = &text.as_bytes()[..end];
    let mut i = start;
    while i < end {
        let m = ascii_masks_at(bytes, i);
        let valid = low_bits((end - i).min(64) as u32);
        // Bit k: byte k + 1 is a letter or digit (`before_alnum`), a digit
        // (`before_digit`); unknown for the last byte, so a joint there
        // stops the bulk.
        let before_alnum = m.alnum >> 1 | 1 << 63;
        let before_digit = (m.alnum & !m.letter) >> 1 | 1 << 63;
        // A single letter before a full stop (`J.`), which is glued to it.
        let letter_before_dot = m.letter & !(m.alnum << 1) & m.dot >> 1;
        let hard = m.underscore
            | (m.joint | m.dot) & before_alnum
            | m.hyphen & before_digit
            | m.dot & m.dot >> 1
            | letter_before_dot
            | !valid;
        let limit = hard.trailing_zeros();
        let region = low_bits(limit);
        let words = m.alnum & region;
        let marks = !(m.alnum | m.space) & region;
        let mut starts = words & !(words << 1) | marks;
        let mut stop = limit;
        while starts != 0 {
            let at = starts.trailing_zeros();
            let from = i + at as usize;
            if marks >> at & 1 != 0 {
                sink.plain_uncounted(
                    text,
                    from,
                    from + 1,
                    MARK_FLAGS[usize::from(bytes[from] & 0x7f)],
                );
                starts &= starts - 1;
                continue;
            }
            let rest = words >> at;
            let run = (!rest).trailing_zeros();
            // The bits of the run: adding 1 to `rest` clears them.
            let word = rest & !rest.wrapping_add(1);
            let letters = m.letter >> at & word != 0;
            // A word that reaches the limit ends where the bulk cannot
            // tell.
            if at + run >= limit {
                stop = at;
                break;
            }
            sink.plain_uncounted(text, from, from + run as usize, plain_word_flags(letters));
            starts &= starts - 1;
        }
        count_block_words(words & low_bits(stop), m.letter, sink);
        i += stop as usize;
        if stop < 64 && i < end {
            i = ascii_token(text, bytes, i, sink);
        }
    }
}

/// Gives `sink` the counts of the words whose bytes are the bits of
/// `words` (each run of bits a whole word, followed by a bit that is no
/// letter or digit), with the letters of the block: a few operations per
/// block rather than three counts per word. A word of digits only is a
/// run of digits that starts at a word's start and ends at its end:
/// adding its first bit to the digits carries to the bit after the run,
/// which is outside `words` just when the run is the whole word.
#[inline(always)]
pub(super) fn count_block_words<'a>(words: u64, letter: u64, sink: &mut impl TokenSink<'a>) {
    let word_starts = words & !(words << 1);
    let digits = words & !letter;
    let digit_word_starts = word_starts & digits;
    let past_digits = digits.wrapping_add(digit_word_starts) & !digits;
    let digit_words = (past_digits & !words).count_ones();
    let n = word_starts.count_ones();
    sink.count_words(
        n as usize,
        words.count_ones() as usize,
        (n - digit_words) as usize,
    );
}

/// The `n` low bits set (`n` ≤ 64).
#[inline]
pub(crate) fn low_bits(n: u32) -> u64 {
    u64::MAX.checked_shr(64 - n).unwrap_or(0)
}

/// The token of `bytes` (ASCII, cut at the stretch's end) that starts at
/// `i`, given to `sink` (nothing for a space); returns where the next
/// starts. A word of letters and digits only that ends where no joint
/// follows ([`plain_word_end`]) is found eight bytes at a time
/// ([`alnum_run`]) and given with its flags; any other goes through
/// [`ascii_segment_end`] and [`ascii_glue`].
#[inline]
pub(super) fn ascii_token<'a>(
    text: &'a str,
    bytes: &[u8],
    i: usize,
    sink: &mut impl TokenSink<'a>,
) -> usize {
    match ASCII_START[usize::from(bytes[i] & 0x7f)] {
        Start::Space => i + 1,
        Start::Word => {
            let (run, letters) = alnum_run(bytes, i);
            if run > 0 && plain_word_end(bytes, i, i + run, letters) {
                sink.plain(text, i, i + run, plain_word_flags(letters));
                return i + run;
            }
            let word_end = ascii_glue(bytes, i, ascii_segment_end(bytes, i));
            emit_split(&text[i..word_end], &mut |word| sink.token(word));
            word_end
        }
        Start::Dot => {
            let dots = bytes[i..].iter().take_while(|&&b| b == b'.').count();
            sink.token(&text[i..i + dots]);
            i + dots
        }
        Start::Other => {
            sink.token(&text[i..i + 1]);
            i + 1
        }
    }
}

/// One bit per byte of a block of 64 bytes: ASCII letters, ASCII letters
/// and digits, Python's whitespace in ASCII (`\t` to `\r`, `\x1c` to
/// `\x1f`, the space), and the marks [`ascii_words`] tells apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct AsciiMasks {
    pub(super) letter: u64,
    pub(super) alnum: u64,
    pub(super) space: u64,
    /// `.`
    pub(super) dot: u64,
    /// `_`
    pub(super) underscore: u64,
    /// The joints of [`plain_word_end`] but the full stop and the hyphen:
    /// `:` `,` `;` `'` `/`.
    pub(super) joint: u64,
    /// `-`, which joins a word only before a digit.
    pub(super) hyphen: u64,
}

/// [`ascii_masks`] of the 64 bytes of `bytes` from `at`; past the end,
/// bytes that are none of the classes.
#[inline(always)]
pub(super) fn ascii_masks_at(bytes: &[u8], at: usize) -> AsciiMasks {
    with_block(bytes, at, ascii_masks)
}

/// `classify` of the 64 bytes of `bytes` from `at`, zero bytes past the
/// end (copied into a block only there).
#[inline(always)]
pub(crate) fn with_block<T>(bytes: &[u8], at: usize, classify: impl FnOnce(&[u8; 64]) -> T) -> T {
    let tail = &bytes[at..];
    match tail.first_chunk::<64>() {
        Some(block) => classify(block),
        None => {
            let mut padded = [0u8; 64];
            padded[..tail.len()].copy_from_slice(tail);
            classify(&padded)
        }
    }
}

/// The [`AsciiMasks`] of `block`, 16 bytes at a time.
#[inline]
pub(super) fn ascii_masks(block: &[u8; 64]) -> AsciiMasks {
    let mut m = AsciiMasks::default();
    for (lane, bytes) in block.chunks_exact(16).enumerate() {
        let v = V128::load(Baseline, bytes);
        let bits = |x: V128| u64::from(x.mask()) << (lane * 16);
        let letter = v.or_byte(0x20).in_ascii_range(b'a', b'z');
        let alnum = letter | v.in_ascii_range(b'0', b'9');
        let space = v.in_ascii_range(0x09, 0x0d) | v.in_ascii_range(0x1c, 0x20);
        let joint = v.eq(b':') | v.eq(b',') | v.eq(b';') | v.eq(b'\'') | v.eq(b'/');
        m.letter |= bits(letter);
        m.alnum |= bits(alnum);
        m.space |= bits(space);
        m.dot |= bits(v.eq(b'.'));
        m.underscore |= bits(v.eq(b'_'));
        m.joint |= bits(joint);
        m.hyphen |= bits(v.eq(b'-'));
    }
    m
}

/// The [`AsciiMasks`] of `block`, byte by byte: the definition.
#[cfg(test)]
pub(super) fn ascii_masks_scalar(block: &[u8; 64]) -> AsciiMasks {
    let mut m = AsciiMasks::default();
    for (k, &b) in block.iter().enumerate() {
        let bit = 1u64 << k;
        if b.is_ascii_alphabetic() {
            m.letter |= bit;
        }
        if b.is_ascii_alphanumeric() {
            m.alnum |= bit;
        }
        if matches!(b, 0x09..=0x0d | 0x1c..=0x20) {
            m.space |= bit;
        }
        if b == b'.' {
            m.dot |= bit;
        }
        if b == b'_' {
            m.underscore |= bit;
        }
        if matches!(b, b':' | b',' | b';' | b'\'' | b'/') {
            m.joint |= bit;
        }
        if b == b'-' {
            m.hyphen |= bit;
        }
    }
    m
}

/// The length of the run of ASCII letters and digits that starts at
/// `bytes[start]`, and whether it holds a letter, eight bytes at a time
/// (every byte of `bytes` from `start` is ASCII): a byte `b` below 0x80
/// is at least `c` when `b + (0x80 - c)` has its high bit set, and no
/// such sum carries into the next byte.
#[inline]
pub(super) fn alnum_run(bytes: &[u8], start: usize) -> (usize, bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let at_least = |x: u64, c: u8| x.wrapping_add(ONES * u64::from(0x80 - c)) & HIGH;
    let mut at = start;
    let mut letters = 0u64;
    loop {
        let rest = &bytes[at..];
        let x = match rest.get(..8) {
            Some(eight) => u64::from_le_bytes(eight.try_into().unwrap_or([0; 8])),
            None => {
                // Past the end: zero bytes, which end the run.
                let mut padded = [0u8; 8];
                padded[..rest.len()].copy_from_slice(rest);
                u64::from_le_bytes(padded)
            }
        };
        let digit = at_least(x, b'0') & !at_least(x, b'9' + 1);
        let folded = x | (ONES * 0x20);
        let letter = at_least(folded, b'a') & !at_least(folded, b'z' + 1);
        let other = !(digit | letter) & HIGH;
        if other != 0 {
            let n = other.trailing_zeros() as usize / 8;
            letters |= letter & ((1u64 << (8 * n)) - 1);
            return (at + n - start, letters != 0);
        }
        letters |= letter;
        at += 8;
    }
}

/// Whether the run of letters and digits `bytes[start..end]` is a whole
/// token: [`ascii_segment_end`] and [`ascii_glue`] would end it at `end`.
/// `_` joins a word segment (WB13a); `:` `,` `;` `.` `'` join it only
/// before a letter or digit (WB6, WB7, WB11, WB12), and so do the joints
/// `:` `.` `,` `/` glue on; `-` is glued on only before a digit and after
/// a letter; a full stop after a single letter is glued to it (`J.`)
/// unless an ellipsis follows.
#[inline]
pub(super) fn plain_word_end(bytes: &[u8], start: usize, end: usize, letters: bool) -> bool {
    let Some(&joint) = bytes.get(end) else {
        return true;
    };
    let next = bytes.get(end + 1).copied();
    let before_word = next.is_some_and(|b| b.is_ascii_alphanumeric());
    match joint {
        b'_' => false,
        b':' | b',' | b';' | b'\'' | b'/' => !before_word,
        // Glued on before a digit after a letter: whole after a digit or
        // before anything else.
        b'-' => bytes[end - 1].is_ascii_digit() || !next.is_some_and(|b| b.is_ascii_digit()),
        b'.' => !before_word && (end - start > 1 || !letters || next == Some(b'.')),
        _ => true,
    }
}

/// [`Words::glue`] on ASCII: the end of the token `bytes[start..end]`
/// (a word segment) after the joints spaCy keeps. In ASCII every joint
/// (`-` `:` `.` `,` `/`) is a segment of its own, and so is a full stop
/// after it; the segment after a joint that glues starts with a letter or
/// digit, so it is a word segment.
#[inline]
pub(super) fn ascii_glue(bytes: &[u8], start: usize, mut end: usize) -> usize {
    loop {
        let left = bytes[end - 1];
        if !left.is_ascii_alphanumeric() {
            return end;
        }
        let Some(&joint) = bytes.get(end) else {
            return end;
        };
        if !matches!(joint, b'-' | b':' | b'.' | b',' | b'/') {
            return end;
        }
        if joint == b'.' {
            let word = &bytes[start..end];
            let ellipsis = bytes.get(end + 1) == Some(&b'.');
            let single_letter = word.len() == 1 && word[0].is_ascii_alphabetic();
            if !ellipsis && (single_letter || (word.contains(&b'.') && !word.ends_with(b"."))) {
                return end + 1;
            }
        }
        let Some(&first) = bytes.get(end + 1) else {
            return end;
        };
        let glued = match joint {
            b'-' => first.is_ascii_digit() && !left.is_ascii_digit(),
            b'/' => first.is_ascii_alphanumeric(),
            _ => first.is_ascii_digit(),
        };
        if !glued {
            return end;
        }
        end = ascii_segment_end(bytes, end + 1);
    }
}
