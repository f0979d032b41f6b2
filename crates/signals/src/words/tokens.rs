//! Tokens with the flags the rules read, the split's cuts, and the sinks
//! that count them.

use super::*;
use crawlsift_simd::{Baseline, Vector, V128};

/// One token of [`words`] with what the rules need of it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    /// Byte offset of the token in the text.
    pub start: u32,
    /// Bytes.
    pub len: u32,
    /// Characters (Python's `len`).
    pub chars: u32,
    /// [`NON_SYMBOL`], [`ALPHA`], [`TERMINAL`], [`PUNCT`].
    pub flags: u8,
}

impl Token {
    /// Byte offset of the end of the token in the text.
    #[inline]
    pub(crate) fn end(&self) -> usize {
        self.start as usize + self.len as usize
    }
}

/// The token has a character outside datatrove's `PUNCTUATION_SET`.
pub(crate) const NON_SYMBOL: u8 = 1;
/// The token has an alphabetic character (`str.isalpha`).
pub(crate) const ALPHA: u8 = 2;
/// The token is one sentence-terminal character ([`terminal`]).
pub(crate) const TERMINAL: u8 = 4;
/// Every character of the token is punctuation ([`is_punct`]).
pub(crate) const PUNCT: u8 = 8;
/// In [`ASCII_FLAGS`] only: the character is not punctuation.
pub(super) const NOT_PUNCT: u8 = 16;
/// In [`bmp_flags`] only: the character is alphanumeric
/// (`char::is_alphanumeric`, which [`is_alphanumeric`] reads from there).
pub(super) const ALNUM: u8 = 32;

/// [`NON_SYMBOL`] and [`ALPHA`] of each ASCII character: what
/// `punctuation()` and `is_alpha` say of it (`ascii_flags_agree_with_classes`).
pub(super) static ASCII_FLAGS: [u8; 128] = {
    const PUNCTUATION: &[u8] = b"!&\\#%+^]~';{|[=-`*$,><)?@_.\"}/:(";
    let mut table = [NON_SYMBOL; 128];
    let mut b = 0;
    while b < 128 {
        if b <= 8 || (b >= 11 && b <= 31) || b == 127 {
            table[b] = 0;
        }
        let mut i = 0;
        while i < PUNCTUATION.len() {
            if PUNCTUATION[i] as usize == b {
                table[b] = 0;
            }
            i += 1;
        }
        // General category P in ASCII (`is_punct`).
        if !matches!(b as u8, b'!'..=b'#' | b'%'..=b'*' | b','..=b'/' | b':' | b';' | b'?' | b'@' | b'['..=b']' | b'_' | b'{' | b'}')
        {
            table[b] |= NOT_PUNCT;
        }
        if (b >= b'a' as usize && b <= b'z' as usize) || (b >= b'A' as usize && b <= b'Z' as usize)
        {
            table[b] |= ALPHA;
        }
        b += 1;
    }
    table
};

/// The [`Token::flags`] of a token of one ASCII character
/// ([`ascii_word_flags`] of it).
pub(super) static MARK_FLAGS: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = ascii_word_flags(&[b as u8]);
        b += 1;
    }
    table
};

/// The [`Token::flags`] of an ASCII token.
pub(super) const fn ascii_word_flags(word: &[u8]) -> u8 {
    let mut flags = 0;
    let mut i = 0;
    while i < word.len() {
        flags |= ASCII_FLAGS[word[i] as usize];
        i += 1;
    }
    if flags & NOT_PUNCT == 0 {
        flags |= PUNCT;
    }
    if matches!(word, [b'.' | b'!' | b'?']) {
        flags |= TERMINAL;
    }
    flags & !NOT_PUNCT
}

/// The [`Token::flags`] of a word of ASCII letters and digits only, which
/// holds a letter or not.
#[inline]
pub(super) fn plain_word_flags(letters: bool) -> u8 {
    // Computed rather than branched on.
    NON_SYMBOL | (ALPHA * u8::from(letters))
}

/// Calls `emit` with every token of [`words`]`(text)`, in order: the same
/// tokens (`for_each_word_equals_words` and the dataset test compare them),
/// faster on ASCII.
///
/// No token spans a break after a line feed or a space break (see
/// [`segments`]): the character before such a break is a space or a line
/// feed, which neither ends a token that could be glued on nor is a full
/// stop of an ellipsis. So the text is cut there into stretches as
/// [`segments`] cuts it: a stretch of ASCII is tokenized by [`ascii_words`]
/// in one pass over its bytes; the stretch around a non-ASCII character by
/// [`simple_words`] when its characters are of the classes that function
/// applies (letters, digits, punctuation and spaces of the Basic
/// Multilingual Plane outside the scripts and classes with rules of their
/// own), else by [`words`] itself.
pub(crate) fn for_each_word<'a>(text: &'a str, emit: impl FnMut(&'a str)) {
    /// Every token to the closure, flags or not.
    struct Each<F>(F);
    impl<'a, F: FnMut(&'a str)> TokenSink<'a> for Each<F> {
        fn plain_uncounted(&mut self, text: &'a str, start: usize, end: usize, _: u8) {
            (self.0)(&text[start..end])
        }
        fn count_words(&mut self, _: usize, _: usize, _: usize) {}
        fn token(&mut self, word: &'a str) {
            (self.0)(word)
        }
    }
    for_each_token(text, &mut Each(emit));
}

/// Where [`for_each_token`] puts the tokens of a text, in order.
pub(super) trait TokenSink<'a> {
    /// An ASCII token whose [`Token::flags`] the split knows: a word of
    /// letters and digits only, or one mark; `text[start..end]`, given by
    /// its offsets (the split knows they are character boundaries: a sink
    /// that needs no `&str` of it is spared the checks of slicing).
    fn plain(&mut self, text: &'a str, start: usize, end: usize, flags: u8) {
        self.plain_uncounted(text, start, end, flags);
        if flags & NON_SYMBOL != 0 {
            self.count_words(1, end - start, usize::from(flags & ALPHA != 0));
        }
    }
    /// [`TokenSink::plain`] but for the counts of [`tokenize`]: a mark
    /// adds none (no ASCII mark has [`NON_SYMBOL`] or [`ALPHA`],
    /// `marks_count_as_no_word`), and the caller gives those of words
    /// to [`TokenSink::count_words`], for a block of them at once.
    fn plain_uncounted(&mut self, text: &'a str, start: usize, end: usize, flags: u8);
    /// Adds `words` words of ASCII letters and digits only, given to
    /// [`TokenSink::plain_uncounted`], to the counts: `chars` characters
    /// in all, `alpha` of them with a letter.
    fn count_words(&mut self, words: usize, chars: usize, alpha: usize);
    /// Any other token.
    fn token(&mut self, word: &'a str);
}

/// [`for_each_word`], with each token's [`Token::flags`] when the split
/// already knows them (a word of ASCII letters and digits only, or one
/// ASCII mark).
pub(super) fn for_each_token<'a>(text: &'a str, sink: &mut impl TokenSink<'a>) {
    let bytes = text.as_bytes();
    let mut pos = 0;
    while pos < bytes.len() {
        let Some(wide) = first_non_ascii(&bytes[pos..]).map(|w| pos + w) else {
            ascii_words(text, pos, bytes.len(), sink);
            return;
        };
        let start = (pos + 1..=wide)
            .rev()
            .find(|&i| cut_before(bytes, i))
            .unwrap_or(pos);
        ascii_words(text, pos, start, sink);
        let end = next_cut(bytes, wide + 1);
        if simple_stretch(&bytes[..end], wide) {
            simple_words(text, start, end, &mut |word| sink.token(word));
        } else {
            words(&text[start..end]).for_each(|word| sink.token(word));
        }
        pos = end;
    }
}

/// The first `i` from `from` (at least 1) that is a [`cut_before`] in
/// `bytes`, else the end of `bytes`. Sixteen positions at a time: the stretch after a
/// character outside ASCII runs to the end of its line in a text of a
/// script without ASCII words.
#[inline]
pub(super) fn next_cut(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    // Bit k of a block at `i`: a cut before `i + k`, from the bytes at
    // `i + k - 1` and `i + k`.
    while let Some(block) = bytes.get(i - 1..i + 16).and_then(|b| b.first_chunk::<17>()) {
        let cuts = cuts_in(block);
        if cuts != 0 {
            return i + cuts.trailing_zeros() as usize;
        }
        i += 16;
    }
    (i..bytes.len())
        .find(|&i| cut_before(bytes, i))
        .unwrap_or(bytes.len())
}

/// Bit k: a [`cut_before`] `block[k + 1]` ([`next_cut`]): after a line
/// feed, or after a space before a word byte (ASCII, no space).
#[inline]
pub(super) fn cuts_in(block: &[u8; 17]) -> u32 {
    let before = V128::load(Baseline, block);
    let at = V128::load(Baseline, &block[1..]);
    // `at`'s top bits: the bytes outside ASCII.
    let word = !(at.mask() | at.eq(b' ').mask());
    (before.eq(b'\n').mask() | before.eq(b' ').mask() & word) & 0xFFFF
}

/// [`cuts_in`] byte by byte: the definition.
#[cfg(test)]
pub(super) fn cuts_in_scalar(block: &[u8; 17]) -> u32 {
    (0..16).fold(0, |cuts, k| cuts | u32::from(cut_before(block, k + 1)) << k)
}
