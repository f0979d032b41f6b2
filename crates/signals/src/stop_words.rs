//! Gopher's stop words as bits, for the word split to count as it goes
//! (the rule that reads them is [`crate::gopher`]'s).

/// `STOP_WORDS` of datatrove's `GopherQualityFilter` (case-sensitive, as
/// datatrove compares them); a word's bit is its place here.
pub const STOP_WORDS: [&str; 8] = ["the", "be", "to", "of", "and", "that", "have", "with"];

/// The stop words of [`STOP_WORDS`] as keys of
/// [`short_stop_word_bit`]: the little-endian `u32` of each word's bytes,
/// zero-padded (every stop word has two to four bytes).
pub(crate) const STOP_WORD_KEYS: [u32; 8] = {
    let mut keys = [0u32; 8];
    let mut i = 0;
    while i < keys.len() {
        let word = STOP_WORDS[i].as_bytes();
        assert!(word.len() >= 2 && word.len() <= 4);
        let mut k = 0;
        while k < word.len() {
            keys[i] |= (word[k] as u32) << (8 * k);
            k += 1;
        }
        i += 1;
    }
    keys
};

/// [`stop_word_bit`] of a word of two to four bytes given as its `key`:
/// the little-endian `u32` of its bytes, zero-padded; 0 (no stop word) is
/// the key of any other word. The key is compared with the eight stop
/// words at once and without a branch, for the words whose length the
/// split knows: a match on the word switches on its length, which is a
/// coin toss from word to word.
#[inline(always)]
pub(crate) fn short_stop_word_bit(key: u32) -> u8 {
    crawlsift_simd::u32_matches(&STOP_WORD_KEYS, key)
}

/// [`short_stop_word_bit`] compare by compare: the definition.
#[cfg(test)]
pub(crate) fn short_stop_word_bit_scalar(key: u32) -> u8 {
    STOP_WORD_KEYS
        .iter()
        .enumerate()
        .fold(0, |bits, (i, &k)| bits | u8::from(key == k) << i)
}

/// The bit of `word` in the stop-word mask, if it is one.
#[inline]
pub(crate) fn stop_word_bit(word: &[u8]) -> u8 {
    // A match on the literals (a length switch, then integer compares)
    // rather than 8 string compares; `stop_word_bits_follow_the_list`
    // checks it against STOP_WORDS.
    match word {
        b"the" => 1,
        b"be" => 1 << 1,
        b"to" => 1 << 2,
        b"of" => 1 << 3,
        b"and" => 1 << 4,
        b"that" => 1 << 5,
        b"have" => 1 << 6,
        b"with" => 1 << 7,
        _ => 0,
    }
}
