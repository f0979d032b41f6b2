//! Token hashes and the tokenizer the rule sets call.

use super::*;

/// [`token_hash_in`] of a token on its own.
#[cfg(test)]
pub(crate) fn token_hash(bytes: &[u8]) -> u64 {
    token_hash_in(bytes, 0, bytes.len())
}

/// [`token_hash_in`] of every token of `text`, in order (only the
/// repetition rules compare words by hash, so a text that fails the rules
/// before them is not hashed).
pub(crate) fn token_hashes(text: &str, tokens: &[Token], out: &mut Vec<u64>) {
    out.clear();
    out.extend(
        tokens
            .iter()
            .map(|t| token_hash_in(text.as_bytes(), t.start as usize, t.len as usize)),
    );
}

/// A 64-bit hash of the token `text[start..start + len]`, by which n-grams
/// are compared. A token of up to 7 bytes (most words) is packed with its
/// length into one `u64` and mixed by a bijection (splitmix64's
/// finaliser), so no two such tokens share a hash and no hash function is
/// called; a longer one is hashed by xxh3-64. The short token is read as
/// one `u64` load from the text when eight bytes follow its start (its
/// bytes kept by a mask), rather than copied by a variable length.
#[inline]
pub(super) fn token_hash_in(text: &[u8], start: usize, len: usize) -> u64 {
    let bytes = &text[start..start + len];
    if len > 7 {
        return xxhash_rust::xxh3::xxh3_64(bytes);
    }
    let word = match text.get(start..start + 8) {
        Some(eight) => u64::from_le_bytes(eight.try_into().unwrap_or([0; 8])),
        None => {
            let mut packed = [0u8; 8];
            packed[..len].copy_from_slice(bytes);
            u64::from_le_bytes(packed)
        }
    };
    // The token's bytes, and its length in the top byte.
    let mut x = (word & ((1u64 << (8 * len)) - 1)) | (len as u64) << 56;
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// [`NON_SYMBOL`], [`ALPHA`], [`TERMINAL`] and [`NOT_PUNCT`] of one
/// character, as the classes say.
pub(super) fn char_flags(c: char) -> u8 {
    let mut flags = 0;
    if !punctuation().contains(c) {
        flags |= NON_SYMBOL;
    }
    if is_alpha(c) {
        flags |= ALPHA;
    }
    if terminal().contains(c) {
        flags |= TERMINAL;
    }
    if !is_punct(c) {
        flags |= NOT_PUNCT;
    }
    flags
}

/// `char::is_alphanumeric`, from [`bmp_flags`] in the Basic Multilingual
/// Plane (`simple_words` asks it of every ideograph: std's search in its
/// tables was a tenth of the split of a Chinese text).
#[inline]
pub(super) fn is_alphanumeric(c: char) -> bool {
    match bmp_flags().get(c as usize) {
        Some(&flags) => flags & ALNUM != 0,
        None => c.is_alphanumeric(),
    }
}

/// [`char_flags`] of every character of the Basic Multilingual Plane, and
/// [`ALNUM`], so that a token's characters are not each looked up in four
/// range tables.
pub(super) fn bmp_flags() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // `char_flags` class by class: a character is a non-symbol and
        // not punctuation until a class says otherwise.
        let mut table = vec![NON_SYMBOL | NOT_PUNCT; 0x1_0000];
        punctuation().each_in_bmp(|c| table[c] &= !NON_SYMBOL);
        alpha().each_in_bmp(|c| table[c] |= ALPHA);
        terminal().each_in_bmp(|c| table[c] |= TERMINAL);
        punct().each_in_bmp(|c| table[c] &= !NOT_PUNCT);
        for (code, flags) in table.iter_mut().enumerate() {
            match char::from_u32(code as u32) {
                // A letter (category L) is Alphabetic: std's search is
                // asked only of the other characters.
                Some(_) if *flags & ALPHA != 0 => *flags |= ALNUM,
                Some(c) if c.is_alphanumeric() => *flags |= ALNUM,
                Some(_) => {}
                // Surrogates.
                None => *flags = 0,
            }
        }
        table
    })
}

/// Fills `out` with the tokens of `text`. Returns the counts of the
/// tokens' flags that the Gopher quality rules read and the stop words
/// among the tokens, summed as the tokens are found rather than in a pass
/// over `out`.
pub(crate) fn tokenize(text: &str, out: &mut Vec<Token>) -> TokenCounts {
    out.clear();
    let mut sink = Tokens {
        base: text.as_ptr() as usize,
        out,
        counts: TokenCounts::default(),
    };
    for_each_token(text, &mut sink);
    sink.counts
}

/// Counts over the tokens of a text ([`tokenize`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TokenCounts {
    /// Tokens with [`NON_SYMBOL`].
    pub non_symbol: usize,
    /// Their characters.
    pub non_symbol_chars: usize,
    /// Tokens with [`ALPHA`].
    pub alpha: usize,
    /// The stop words among the tokens: the bits of
    /// [`stop_words::stop_word_bit`].
    pub stop_words: u8,
}

/// The [`TokenSink`] of [`tokenize`]. Its methods are inlined into the
/// split's loop, which calls them for every word.
pub(super) struct Tokens<'o> {
    /// The address of the text's first byte.
    base: usize,
    out: &'o mut Vec<Token>,
    counts: TokenCounts,
}

impl Tokens<'_> {
    #[inline(always)]
    fn push(&mut self, start: usize, len: usize, flags: u8, chars: u32) {
        self.out.push(Token {
            start: start as u32,
            len: len as u32,
            chars,
            flags,
        });
    }
}

/// The key of [`stop_words::short_stop_word_bit`] of the word
/// `bytes[start..start + len]`: its bytes as a little-endian `u32`,
/// zero-padded, when it has two to four; 0 otherwise. The four bytes from
/// `start` are read whatever the length and masked without a branch.
#[inline(always)]
pub(super) fn short_word_key(bytes: &[u8], start: usize, len: usize) -> u32 {
    let four = match bytes.get(start..).and_then(|b| b.first_chunk::<4>()) {
        Some(four) => u32::from_le_bytes(*four),
        None => {
            let tail = bytes.get(start..).unwrap_or_default();
            let mut padded = [0u8; 4];
            padded[..tail.len()].copy_from_slice(tail);
            u32::from_le_bytes(padded)
        }
    };
    // Computed rather than branched on, as a word's length is a coin
    // toss: `short` is all ones for two to four bytes, and `mask` keeps
    // `len` bytes then (any bytes for a longer word, which `short` clears).
    let short = u32::from(len.wrapping_sub(2) < 3).wrapping_neg();
    let mask = ((1u64 << (8 * (len & 7))) - 1) as u32;
    four & mask & short
}

impl<'a> TokenSink<'a> for Tokens<'_> {
    #[inline(always)]
    fn plain_uncounted(&mut self, text: &'a str, start: usize, end: usize, flags: u8) {
        let len = end - start;
        self.push(start, len, flags, len as u32);
        // Once every stop word is seen, no word adds one.
        if self.counts.stop_words != u8::MAX {
            let key = short_word_key(text.as_bytes(), start, len);
            self.counts.stop_words |= stop_words::short_stop_word_bit(key);
        }
    }

    #[inline(always)]
    fn count_words(&mut self, words: usize, chars: usize, alpha: usize) {
        self.counts.non_symbol += words;
        self.counts.non_symbol_chars += chars;
        self.counts.alpha += alpha;
    }

    fn token(&mut self, word: &'a str) {
        let (flags, chars) = word_flags(word);
        let start = word.as_ptr() as usize - self.base;
        self.push(start, word.len(), flags, chars);
        // Added without a branch: which flags a token has is a coin toss.
        let non_symbol = usize::from(flags & NON_SYMBOL != 0);
        self.counts.non_symbol += non_symbol;
        self.counts.non_symbol_chars += non_symbol * chars as usize;
        self.counts.alpha += usize::from(flags & ALPHA != 0);
        if self.counts.stop_words != u8::MAX {
            self.counts.stop_words |= stop_words::stop_word_bit(word.as_bytes());
        }
    }
}

/// The [`Token::flags`] of `word` and its characters.
pub(super) fn word_flags(word: &str) -> (u8, u32) {
    if word.is_ascii() {
        return (ascii_word_flags(word.as_bytes()), word.len() as u32);
    }
    let mut flags = 0;
    let mut chars = 0u32;
    let bmp = bmp_flags();
    for c in word.chars() {
        chars += 1;
        flags |= match bmp.get(c as usize) {
            Some(&f) => f,
            None => char_flags(c),
        };
    }
    if flags & NOT_PUNCT == 0 {
        flags |= PUNCT;
    }
    if chars > 1 {
        flags &= !TERMINAL;
    }
    (flags & !(NOT_PUNCT | ALNUM), chars)
}
