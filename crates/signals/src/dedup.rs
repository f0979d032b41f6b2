//! Duplicate keys: an exact key of the normalised text and a MinHash
//! signature, both computed as datatrove computes them, so that keys made by
//! crawlsift and by datatrove over the same text can be mixed.
//!
//! Normalisation is datatrove's `simplify_text` with its default
//! `TextNormConfig` (datatrove 0.10.1, `utils/text.py`), the text its
//! `MinhashDedupSignature` shingles: lowercase; every run of decimal digits
//! (with one inner `.`, `,`, `،`, `٫`, `⎖`, `⎗`, `⎘` and more digits) becomes
//! `0`; every character of datatrove's punctuation set becomes a space;
//! whitespace runs become one space and the ends are trimmed; NFD, then
//! non-spacing marks (category Mn) are dropped, which strips diacritics.
//!
//! - The exact key is xxHash64 (seed 0) of the normalised text's UTF-8:
//!   pages that differ only in case, digits, punctuation, spacing or accents
//!   share it. (datatrove's `ExactDedupSignature` hashes whatever its
//!   `content_getter` returns; `xxhash.xxh64_intdigest(simplify_text(text))`
//!   reproduces crawlsift's key in Python.)
//! - The MinHash signature follows `MinhashDedupSignature` with the default
//!   `MinhashConfig`: the normalised text's words as spaCy's English
//!   tokenizer splits them (space-separated, symbols apart, a unit split off
//!   a number; its other English exceptions, such as `cannot` → `can` `not`,
//!   are not reproduced), 5-word shingles
//!   joined by a space and hashed with xxHash64, 14 buckets × 8 hashes of the
//!   universal hash `(shingle * a + b) mod (2^61 - 1)` (64-bit wrapping
//!   product, as numpy computes it) with `a`, `b` drawn by numpy's legacy
//!   `RandomState(1).randint` (Mersenne Twister, masked rejection sampling),
//!   the minimum over the shingles. A text with fewer than 5 words has no
//!   signature (datatrove skips it).

use super::words::{self, low_bits};
use crawlsift_simd::{Baseline, Vector, V128};
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;
use xxhash_rust::xxh64::xxh64;

/// `MinhashConfig.n_grams`.
pub const SHINGLE_WORDS: usize = 5;
/// `MinhashConfig.num_buckets`.
pub const BUCKETS: usize = 14;
/// `MinhashConfig.hashes_per_bucket`.
pub const HASHES_PER_BUCKET: usize = 8;
/// `MinhashConfig.seed`.
pub const SEED: u32 = 1;
const HASHES: usize = BUCKETS * HASHES_PER_BUCKET;
const MERSENNE_PRIME: u64 = (1 << 61) - 1;

/// The units spaCy's English tokenizer splits off a number (the ASCII and
/// Latin ones of its `UNITS` list, lowercase as in a normalised text).
const UNITS: [&str; 35] = [
    "km", "km²", "km³", "m", "m²", "m³", "dm", "dm²", "dm³", "cm", "cm²", "cm³", "mm", "mm²",
    "mm³", "ha", "µm", "nm", "yd", "in", "ft", "kg", "g", "mg", "µg", "t", "lb", "oz", "kmh",
    "mph", "mbar", "mb", "kb", "gb", "tb",
];

/// The decimal separators `NUMBERS_PATTERN` allows inside a number.
const DECIMAL_SEPARATORS: [char; 7] = ['.', ',', '،', '٫', '⎖', '⎗', '⎘'];

/// Writes datatrove's `simplify_text(text)` into `out` (`scratch` is a
/// reusable buffer).
pub fn simplify(text: &str, out: &mut String, scratch: &mut String) {
    // lowercase, then numbers -> "0". `str::to_lowercase` is the
    // lowercase of each char but for Σ, whose lowercase depends on its
    // place in a word: without a Σ, chars are lowered one by one in the
    // loop below. No char lowers to a decimal digit or a decimal
    // separator, and those lower to themselves, so numbers are found in
    // the text as in its lowercase.
    scratch.clear();
    let lower_buf;
    let (lower, lowered): (&str, bool) = if text.is_ascii() || !text.contains('\u{3a3}') {
        (text, false)
    } else {
        lower_buf = text.to_lowercase();
        (&lower_buf, true)
    };
    let class = ascii_classes();
    let bytes = lower.as_bytes();
    // Punctuation -> space and whitespace collapsed in the same pass.
    let mut pending_space = false;
    // A character that is neither ASCII nor plain was written: the NFD
    // pass below is needed.
    let mut marks_possible = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (c, width) = if b < 0x80 {
            match class[usize::from(b)] {
                Ascii::Digit => {
                    i = number_end(lower, i);
                    push_char('0', &mut pending_space, scratch);
                }
                Ascii::Separator | Ascii::Kept => {
                    i = ascii_run(bytes, i, &mut pending_space, scratch);
                }
            }
            continue;
        } else {
            match bmp_class(bytes, i) {
                (Bmp::Plain, _) => {
                    i = copy_plain_run(lower, i, &mut pending_space, scratch);
                    continue;
                }
                (Bmp::Separator, width) => {
                    pending_space = true;
                    i += width;
                    continue;
                }
                (Bmp::Other, _) => {}
            }
            let c = lower[i..].chars().next().unwrap_or_default();
            (c, c.len_utf8())
        };
        if words::is_decimal(c) {
            i = number_end(lower, i);
            push_char('0', &mut pending_space, scratch);
            continue;
        }
        let mut each = |c: char| {
            if words::punctuation().contains(c) || words::is_py_space(c) {
                pending_space = true;
            } else {
                marks_possible = true;
                push_char(c, &mut pending_space, scratch);
            }
        };
        if lowered {
            each(c);
        } else {
            c.to_lowercase().for_each(each);
        }
        i += width;
    }
    // NFD, non-spacing marks dropped. An ASCII character neither
    // decomposes nor is reordered (it is a starter), so NFD goes run by
    // run of non-ASCII characters, and ASCII is copied (an ASCII text is
    // its own NFD, and so is a text whose other characters are plain: the
    // buffers are swapped).
    if !marks_possible || scratch.is_ascii() {
        std::mem::swap(out, scratch);
        return;
    }
    out.clear();
    let simplified = scratch.as_str();
    let bytes = simplified.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        let ascii = bytes[start..]
            .iter()
            .position(|&b| b >= 0x80)
            .map_or(bytes.len(), |p| start + p);
        out.push_str(&simplified[start..ascii]);
        if ascii == bytes.len() {
            break;
        }
        let end = bytes[ascii..]
            .iter()
            .position(|&b| b < 0x80)
            .map_or(bytes.len(), |p| ascii + p);
        out.extend(
            simplified[ascii..end]
                .nfd()
                .filter(|&c| !words::is_nonspacing_mark(c)),
        );
        start = end;
    }
    if !simplified.is_ascii() {
        // A mark between spaces may leave a space at an end or two spaces.
        let trimmed = words::py_strip(out);
        if trimmed.len() != out.len() {
            *out = trimmed.to_owned();
        }
    }
}

/// Copies the run of plain characters outside ASCII starting at
/// `lower[start..]` (see [`bmp_classes`]) after a pending space; returns
/// the run's end, at the first ASCII byte or other character ([`simplify`]
/// goes on from there, ASCII in blocks by [`ascii_run`]).
#[inline]
fn copy_plain_run(lower: &str, start: usize, pending_space: &mut bool, out: &mut String) -> usize {
    let bytes = lower.as_bytes();
    if *pending_space && !out.is_empty() {
        out.push(' ');
    }
    *pending_space = false;
    let mut i = start;
    while i < bytes.len() && bytes[i] >= 0x80 {
        let width = match bmp_class(bytes, i) {
            (Bmp::Plain, width) => width,
            _ => break,
        };
        out.push_str(&lower[i..i + width]);
        i += width;
    }
    i
}

/// Writes what [`simplify`] writes for the ASCII bytes from `start` up to
/// the first decimal digit or byte outside ASCII (or the end), 64 bytes at
/// a time; returns where it stopped. A block's bytes are classified into
/// bit masks and its lowered bytes, separators as spaces
/// ([`ascii_block_at`]); a byte is written when it is kept, or when it
/// starts a run of separators that has a kept byte on either side, which
/// is the one space such a run becomes. The runs at the ends stay pending
/// as the byte-by-byte loop would leave them: a run at the start of the
/// text writes nothing, a run before a block's end (or a digit) sets
/// `pending_space`, and a pending space is written before the next kept
/// byte.
#[inline]
fn ascii_run(bytes: &[u8], start: usize, pending_space: &mut bool, out: &mut String) -> usize {
    let mut i = start;
    loop {
        let block = ascii_block_at(bytes, i);
        let limit = block.stop.trailing_zeros();
        let region = low_bits(limit);
        let separators = block.separator & region;
        let kept = !block.separator & region;
        if kept == 0 {
            *pending_space |= separators != 0;
        } else {
            let first = kept.trailing_zeros();
            let last = 63 - kept.leading_zeros();
            // The first separator of each run (one before the block, if a
            // space is pending, goes on into it).
            let mut starts = separators & !(separators << 1 | u64::from(*pending_space));
            if *pending_space {
                if !out.is_empty() {
                    out.push(' ');
                }
            } else if out.is_empty() {
                starts &= !low_bits(first);
            }
            starts &= low_bits(last);
            *pending_space = separators >> last != 0;
            compact(&block.lowered, kept | starts, limit as usize, out);
        }
        i += limit as usize;
        if limit < 64 {
            return i;
        }
    }
}

/// Appends the bytes of `lowered[..len]` whose bit is set in `keep` (ASCII
/// bytes) to `out`, eight at a time where all eight are kept.
#[inline(always)]
fn compact(lowered: &[u8; 64], keep: u64, len: usize, out: &mut String) {
    // SAFETY: only ASCII bytes are appended.
    let out = unsafe { out.as_mut_vec() };
    out.reserve(64);
    let base = out.len();
    let spare = &mut out.spare_capacity_mut()[..64];
    let mut written = 0;
    for (chunk, eight) in lowered.chunks_exact(8).enumerate().take(len.div_ceil(8)) {
        let bits = (keep >> (8 * chunk)) as u8;
        if bits == 0xff {
            for (slot, &b) in spare[written..written + 8].iter_mut().zip(eight) {
                slot.write(b);
            }
            written += 8;
        } else {
            for (k, &b) in eight.iter().enumerate() {
                spare[written].write(b);
                written += usize::from(bits >> k & 1);
            }
        }
    }
    // SAFETY: the `written` bytes after `base` were written above (each
    // slot up to `written` holds the last byte written there, a kept one).
    unsafe { out.set_len(base + written) };
}

/// 64 bytes as [`ascii_run`] sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AsciiBlock {
    /// Each byte lowered if it is kept (a letter), else a space.
    lowered: [u8; 64],
    /// [`Ascii::Separator`] bytes.
    separator: u64,
    /// Decimal digits, bytes outside ASCII, and the positions past the end
    /// of the text: where [`ascii_run`] stops.
    stop: u64,
}

/// The [`AsciiBlock`] of the 64 bytes of `bytes` from `at`.
#[inline(always)]
fn ascii_block_at(bytes: &[u8], at: usize) -> AsciiBlock {
    let mut block = words::with_block(bytes, at, ascii_block);
    block.stop |= !low_bits((bytes.len() - at).min(64) as u32);
    block
}

/// The [`AsciiBlock`] of `block`, 16 bytes at a time. In ASCII the kept
/// characters are the letters; every other byte but a digit is a
/// separator (`ascii_block_scalar` is the definition, the tests compare
/// the two on every byte).
#[inline(always)]
fn ascii_block(block: &[u8; 64]) -> AsciiBlock {
    let mut out = AsciiBlock {
        lowered: [0; 64],
        separator: 0,
        stop: 0,
    };
    for (k, bytes) in block.chunks_exact(16).enumerate() {
        let v = V128::load(Baseline, bytes);
        let folded = v.or_byte(0x20);
        let letter = folded.in_ascii_range(b'a', b'z');
        let digit = v.in_ascii_range(b'0', b'9');
        letter
            .select(folded, V128::splat(Baseline, b' '))
            .store(&mut out.lowered[16 * k..]);
        let bits = |m: V128| u64::from(m.mask()) << (16 * k);
        // `v`'s top bits: the bytes outside ASCII.
        let stop = bits(digit | v);
        out.separator |= !(bits(letter) | stop) & 0xffff << (16 * k);
        out.stop |= stop;
    }
    out
}

/// [`ascii_block`] byte by byte from [`ascii_classes`]: the definition.
#[cfg(test)]
fn ascii_block_scalar(block: &[u8; 64]) -> AsciiBlock {
    let classes = ascii_classes();
    let mut out = AsciiBlock {
        lowered: *block,
        separator: 0,
        stop: 0,
    };
    for (k, b) in out.lowered.iter_mut().enumerate() {
        match classes.get(usize::from(*b)) {
            Some(Ascii::Separator) => {
                out.separator |= 1 << k;
                *b = b' ';
            }
            Some(Ascii::Kept) => *b = b.to_ascii_lowercase(),
            Some(Ascii::Digit) | None => {
                out.stop |= 1 << k;
                *b = b' ';
            }
        }
    }
    out
}

/// What `simplify` does with a character of the Basic Multilingual Plane
/// that is not ASCII.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bmp {
    /// Written as it is (see [`bmp_classes`]).
    Plain,
    /// Becomes a space: it and its lowercase are punctuation or whitespace.
    Separator,
    /// Neither (or outside the plane): lowered, tested and decomposed
    /// char by char.
    Other,
}

/// The [`Bmp`] class and the width of the character at `bytes[i]` (not
/// ASCII).
#[inline]
fn bmp_class(bytes: &[u8], i: usize) -> (Bmp, usize) {
    let (code, width) = match words::decode_bmp(bytes, i) {
        Some((code, width)) if code >= 0x80 => (code, width),
        _ => return (Bmp::Other, 0),
    };
    let classes = bmp_classes();
    let (word, bit) = ((code >> 6) as usize, code & 63);
    if classes.plain[word] >> bit & 1 != 0 {
        (Bmp::Plain, width)
    } else if classes.separator[word] >> bit & 1 != 0 {
        (Bmp::Separator, width)
    } else {
        (Bmp::Other, width)
    }
}

/// One bit per character of the Basic Multilingual Plane for each of two
/// classes.
///
/// A plain character is written by `simplify` as it is, in both passes: it
/// is its own lowercase, its own NFD, a starter (combining class 0, so NFD
/// never moves a mark across it) and not a non-spacing mark, and it is
/// neither punctuation, nor whitespace, nor a decimal digit: CJK
/// ideographs, the letters of Arabic, Hebrew or Thai, lowercase letters
/// without a diacritic. Hangul syllables and kana with a voicing mark
/// decompose, so they are not.
///
/// A separator is not a decimal digit, and it and every character of its
/// lowercase are punctuation or whitespace: curly quotes, dashes, `…`,
/// the no-break space.
struct BmpClasses {
    plain: [u64; 1024],
    separator: [u64; 1024],
}

fn bmp_classes() -> &'static BmpClasses {
    static TABLE: OnceLock<Box<BmpClasses>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new(BmpClasses {
            plain: [0; 1024],
            separator: [0; 1024],
        });
        // The classes painted from their ranges first (a search per
        // character and class was most of this table's cost).
        let punctuation = words::punctuation().in_bmp();
        let decimal = words::decimal().in_bmp();
        let mark = words::nonspacing_mark().in_bmp();
        let separates = |c: char| {
            punctuation.get(c as usize).copied().unwrap_or(false) || words::is_py_space(c)
        };
        for code in 0x80u32..0x1_0000 {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            let (word, bit) = ((code >> 6) as usize, 1u64 << (code & 63));
            // A decimal digit is neither plain nor a separator.
            if decimal[code as usize] {
                continue;
            }
            if c.to_lowercase().all(separates) {
                table.separator[word] |= bit;
                continue;
            }
            let mut lower = c.to_lowercase();
            let plain = lower.next() == Some(c)
                && lower.next().is_none()
                && !mark[code as usize]
                && !separates(c)
                && unicode_normalization::char::canonical_combining_class(c) == 0
                && {
                    // Its NFD is itself.
                    let mut pieces = 0;
                    let mut same = true;
                    unicode_normalization::char::decompose_canonical(c, |d| {
                        pieces += 1;
                        same &= d == c;
                    });
                    pieces == 1 && same
                };
            if plain {
                table.plain[word] |= bit;
            }
        }
        table
    })
}

/// Appends `c` to `out`, after a space if one is pending and `out` is not empty.
#[inline]
fn push_char(c: char, pending_space: &mut bool, out: &mut String) {
    if *pending_space && !out.is_empty() {
        out.push(' ');
    }
    *pending_space = false;
    out.push(c);
}

/// What `simplify` does with an ASCII character.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ascii {
    /// A decimal digit: starts a number, which becomes `0`.
    Digit,
    /// datatrove's punctuation or Python's whitespace: becomes a space.
    Separator,
    /// Kept, lowercased.
    Kept,
}

/// The [`Ascii`] class of each ASCII character.
fn ascii_classes() -> &'static [Ascii; 128] {
    static TABLE: OnceLock<[Ascii; 128]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [Ascii::Kept; 128];
        for (b, slot) in table.iter_mut().enumerate() {
            let c = char::from(b as u8);
            if c.is_ascii_digit() {
                *slot = Ascii::Digit;
            } else if words::punctuation().contains(c) || words::is_py_space(c) {
                *slot = Ascii::Separator;
            }
        }
        table
    })
}

/// The end of the number that starts at `start` of `lower` (a decimal
/// digit): `\p{Nd}+ ([sep] \p{Nd}+)?`.
fn number_end(lower: &str, start: usize) -> usize {
    let digits_end = |from: usize| {
        lower[from..]
            .char_indices()
            .find(|&(_, d)| !words::is_decimal(d))
            .map_or(lower.len(), |(j, _)| from + j)
    };
    let end = digits_end(start);
    let mut tail = lower[end..].chars();
    if let (Some(sep), Some(d)) = (tail.next(), tail.next()) {
        if DECIMAL_SEPARATORS.contains(&sep) && words::is_decimal(d) {
            return digits_end(end + sep.len_utf8());
        }
    }
    end
}

/// The exact key of a normalised text.
pub fn exact_key(simplified: &str) -> u64 {
    xxh64(simplified.as_bytes(), 0)
}

/// datatrove's MinHash parameters `(a, b)` for the default config.
fn parameters() -> &'static ([u64; HASHES], [u64; HASHES]) {
    static PARAMS: OnceLock<([u64; HASHES], [u64; HASHES])> = OnceLock::new();
    PARAMS.get_or_init(|| {
        let mut mt = rand_mt::Mt::new(SEED);
        // numpy's legacy bounded uint64: off + masked rejection of
        // (next_u32 << 32 | next_u32) & mask until <= rng.
        let mut draw = |low: u64, high_exclusive: u64| {
            let rng = high_exclusive - 1 - low;
            let mask = u64::MAX >> rng.leading_zeros();
            loop {
                let value = mt.next_u64() & mask;
                if value <= rng {
                    return low + value;
                }
            }
        };
        let mut a = [0u64; HASHES];
        let mut b = [0u64; HASHES];
        for slot in &mut a {
            *slot = draw(1, MERSENNE_PRIME);
        }
        for slot in &mut b {
            *slot = draw(0, MERSENNE_PRIME);
        }
        (a, b)
    })
}

/// The words spaCy's English tokenizer finds in a normalised text (which
/// has no punctuation left): the space-separated chunks, with every
/// character that is neither a letter nor a digit (`★`, `®`, `£`, `‘`) a
/// token of its own. A run of Han or kana stays one word, as in spaCy's
/// English tokenizer (unlike the UAX #29 split of the rule sets).
fn shingle_words(simplified: &str) -> impl Iterator<Item = &str> {
    simplified
        .split(' ')
        .filter(|chunk| !chunk.is_empty())
        .flat_map(|chunk| {
            let mut rest = chunk;
            std::iter::from_fn(move || {
                let first = rest.chars().next()?;
                let end = if first.is_alphanumeric() {
                    rest.find(|c: char| !c.is_alphanumeric())
                        .unwrap_or(rest.len())
                } else {
                    first.len_utf8()
                };
                let (word, tail) = rest.split_at(end);
                rest = tail;
                Some(word)
            })
        })
}

/// The tokens the shingles are made of: [`shingle_words`], with a unit
/// split off the number before it as spaCy does (`0km` -> `0` `km`).
fn shingle_units(simplified: &str) -> impl Iterator<Item = &str> {
    shingle_words(simplified).flat_map(|word| {
        let unit = word.strip_prefix('0').filter(|rest| UNITS.contains(rest));
        match unit {
            Some(unit) => [Some(&word[..1]), Some(unit)],
            None => [Some(word), None],
        }
        .into_iter()
        .flatten()
    })
}

/// `x % MERSENNE_PRIME` without a division: with `x = hi * 2^61 + lo` and
/// `2^61 ≡ 1`, `x ≡ hi + lo`, which is below `2 * MERSENNE_PRIME`.
#[inline(always)]
fn mod_mersenne(x: u64) -> u64 {
    let r = (x & MERSENNE_PRIME) + (x >> 61);
    if r >= MERSENNE_PRIME {
        r - MERSENNE_PRIME
    } else {
        r
    }
}

/// Reusable buffers of [`minhash`].
#[derive(Default)]
pub struct MinhashBuffers {
    shingle: String,
    /// The hashes of a text's shingles.
    hashes: Vec<u64>,
}

/// The MinHash signature (14 × 8 values, bucket by bucket) of a normalised
/// text, or `None` when it has fewer than 5 words.
pub fn minhash(simplified: &str, buffers: &mut MinhashBuffers) -> Option<Vec<u64>> {
    let MinhashBuffers { shingle, hashes } = buffers;
    hashes.clear();
    let mut window: [&str; SHINGLE_WORDS] = [""; SHINGLE_WORDS];
    let mut words = 0usize;
    for word in shingle_units(simplified) {
        window.copy_within(1.., 0);
        window[SHINGLE_WORDS - 1] = word;
        words += 1;
        if words < SHINGLE_WORDS {
            continue;
        }
        shingle.clear();
        for (i, w) in window.iter().enumerate() {
            if i > 0 {
                shingle.push(' ');
            }
            shingle.push_str(w);
        }
        hashes.push(xxh64(shingle.as_bytes(), 0));
    }
    if hashes.is_empty() {
        return None;
    }
    // Above every value: each is below 2^61 - 1.
    let mut signature = [i64::MAX as u64; HASHES];
    crawlsift_simd::dispatch(MinTask {
        hashes,
        signature: &mut signature,
    });
    Some(signature.to_vec())
}

/// [`min_hashes`] in the copy of the instruction set
/// [`crawlsift_simd::dispatch`] chooses (AVX2 has the 64-bit
/// compare SSE2 lacks).
struct MinTask<'a> {
    hashes: &'a [u64],
    signature: &'a mut [u64; HASHES],
}

impl crawlsift_simd::Task for MinTask<'_> {
    type Output = ();
    #[inline(always)]
    fn run<I: crawlsift_simd::Isa>(self, _isa: I) {
        min_hashes(self.hashes, self.signature);
    }
}

/// Lowers each `signature[j]` to the least `(h * a[j] + b[j]) mod (2^61 -
/// 1)` over the shingle hashes `h`: permutation by permutation, a min
/// reduction over the hashes, which the compiler vectorises (the values
/// are below 2^61, so signed 64-bit compares order them).
#[inline(always)]
fn min_hashes(hashes: &[u64], signature: &mut [u64; HASHES]) {
    let (a, b) = parameters();
    for ((slot, &a), &b) in signature.iter_mut().zip(a).zip(b) {
        let mut least = *slot as i64;
        for &h in hashes {
            let value = mod_mersenne(h.wrapping_mul(a).wrapping_add(b)) as i64;
            least = least.min(value);
        }
        *slot = least as u64;
    }
}

#[cfg(test)]
mod tests;
