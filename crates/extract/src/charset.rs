//! Finding a page's encoding and decoding it to UTF-8.
//!
//! The order is the one of the WHATWG encoding sniffing algorithm, with
//! corrections crawls need:
//! 1. a byte-order mark;
//! 2. the charset label from the HTTP `Content-Type` (passed in by the caller);
//! 3. a `<meta charset>` / `http-equiv` declaration in the first 4 KiB;
//! 4. for unlabelled pages: UTF-8 if the bytes are valid UTF-8, else the
//!    guess of `chardetng` over a bounded sample.
//!
//! The corrections:
//! - Bytes that are UTF-8 win over a label. Valid UTF-8 with non-ASCII
//!   bytes is read as UTF-8 whatever the label (legacy pages re-encoded by a
//!   CMS or an earlier tool are common, and the chance that legacy-encoded
//!   text forms valid multi-byte UTF-8 is negligible). So are bytes that are
//!   *mostly* UTF-8, a UTF-8 page with a few damaged bytes, decoded with
//!   U+FFFD for them: at least 2 valid multi-byte sequences per invalid one
//!   on a page labelled UTF-8, 8 on others. Legacy text does not come
//!   close: on the Chinese, Russian, Greek and Polish pages of daniel_dev
//!   re-encoded to GBK, Big5, Shift_JIS, EUC-KR and windows-125x, the
//!   highest ratio is 0.35. UTF-8 cut inside its last character, as
//!   crawlers truncate records, is valid.
//! - A UTF-8 label that the bytes refute (not even mostly UTF-8) yields to
//!   a legacy `<meta>` declaration in the first 64 KiB (servers label
//!   pages UTF-8 by default; browsers honour a late `<meta>` by reparsing),
//!   then to the detector; a legacy label is trusted.
//! - Labels that name no encoding (`utf-4`, `unicode`, `iso-8859&#8211;1`)
//!   are ignored and the next step decides; so are labels the bytes refute:
//!   those of WHATWG's "replacement" encoding (`iso-2022-kr`,
//!   `hz-gb-2312`, …), which decodes any page to one U+FFFD, and a UTF-16
//!   label on bytes without a NUL (UTF-16 markup has one in every other
//!   byte). A UTF-16 label takes the byte order the bytes show.
//! - A page in UTF-16 without a byte-order mark, unlabelled by HTTP, is
//!   read as UTF-16 when a `<meta>` in its own code units says so.
//!
//! Detection is fed only the 16-byte blocks holding non-ASCII bytes, and
//! stops as soon as two guesses in a row agree (after 64 and 128 non-ASCII
//! bytes on most pages, at most `DETECT_NON_ASCII`): chardetng is a hundred
//! times slower than extraction, and a sample of the text decides. Two
//! encodings of one script that differ in a few bytes are told apart by the
//! blocks holding those bytes only. Decoding is done
//! by `encoding_rs`, straight to UTF-8; valid UTF-8 is borrowed, not copied.

use encoding_rs::{
    Encoding, ISO_8859_7, REPLACEMENT, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, WINDOWS_1253,
    X_USER_DEFINED,
};

/// How far into the page to look for a `<meta>` charset declaration.
const META_SCAN: usize = 4096;

/// Valid multi-byte UTF-8 sequences per invalid sequence from which bytes
/// that are not valid UTF-8 are still read as UTF-8 (see the module
/// comment): on a page labelled UTF-8, and on others.
const MOSTLY_UTF8_LABELLED: usize = 2;
const MOSTLY_UTF8: usize = 8;

/// Non-ASCII bytes after which the detector is first asked for its guess,
/// and at most given (see [`detect`]). On daniel_dev's pages re-encoded to
/// GBK, Big5, windows-1250/1251/1253, KOI8-U, IBM866 and ISO-8859-2/5, two
/// guesses in a row that agree (64 bytes, then 96) are right on as many
/// pages as 4 KiB (on two more ISO-8859-2 pages); a first guess after 32
/// bytes, on one GBK page fewer.
const FIRST_GUESS: usize = 64;
const DETECT_NON_ASCII: usize = 4 << 10;

/// How far into a page, in non-ASCII bytes, the blocks that tell two
/// [`SIBLINGS`] apart are looked for.
const DISTINGUISH_NON_ASCII: usize = 16 << 10;

/// How many of a page's first bytes [`sniff`] checks for UTF-8, so that a
/// page they refute is not first read as UTF-8 (see
/// [`Sniffed::utf8_if_valid`]). A few microseconds on a UTF-8 page.
const UTF8_PREFIX: usize = 8 << 10;

/// How far into a page whose bytes refute its UTF-8 label (or that has
/// none) a `<meta>` declaration is looked for before guessing. Browsers
/// honour a late one too: they reload the page when parsing meets it.
const META_SCAN_FALLBACK: usize = 64 << 10;

/// A page decoded to UTF-8.
#[derive(Debug)]
pub struct Decoded<'a> {
    /// The text: the raw bytes (after any byte-order mark) when they are
    /// valid UTF-8, else the caller's buffer they were decoded into.
    pub text: &'a str,
    /// The encoding the page was read as; an all-ASCII page keeps its label.
    pub encoding: &'static Encoding,
}

impl Decoded<'_> {
    /// Whether the text is `raw` itself, borrowed, not a decoded copy.
    pub fn borrows(&self, raw: &[u8]) -> bool {
        std::ptr::eq(self.text.as_bytes(), raw)
    }
}

/// What a page says about its encoding before its bytes are validated: a
/// byte-order mark, or a label (HTTP, else `<meta>`) that names an encoding.
#[derive(Clone, Copy, Debug)]
pub struct Sniffed {
    bom: Option<(&'static Encoding, usize)>,
    declared: Option<&'static Encoding>,
    /// Whether the first [`UTF8_PREFIX`] bytes are not UTF-8.
    refuted: bool,
}

impl Sniffed {
    /// Whether the page is read as its own bytes when they are valid UTF-8,
    /// with only their validity left to decide: no byte-order mark, no
    /// label or a UTF-8 one. Most of the web is such a page; callers can
    /// start reading the bytes before [`decode_sniffed`] validates them.
    /// False when the page's first bytes already show that it is not UTF-8
    /// (legacy bytes, mislabelled or unlabelled), so that such a page is not
    /// read twice.
    pub fn utf8_if_valid(&self) -> bool {
        self.bom.is_none() && self.declared.is_none_or(|enc| enc == UTF_8) && !self.refuted
    }
}

impl Sniffed {
    /// The UTF-16 encoding the page is read as, by its byte-order mark or
    /// its label; `None` for other pages. Half the bytes of such a page
    /// are NUL: callers that take NUL bytes for binary data ask this first.
    pub fn utf16(&self) -> Option<&'static Encoding> {
        self.bom
            .map(|(enc, _)| enc)
            .or(self.declared)
            .filter(|enc| *enc == UTF_16LE || *enc == UTF_16BE)
    }
}

/// Looks for the byte-order mark and the encoding label of `raw`;
/// `http_charset` is the HTTP charset label, if any.
pub fn sniff(raw: &[u8], http_charset: Option<&str>) -> Sniffed {
    if let Some(bom) = Encoding::for_bom(raw) {
        return Sniffed {
            bom: Some(bom),
            declared: None,
            refuted: false,
        };
    }
    let declared = declared(raw, http_charset);
    // A legacy page has its first non-ASCII byte in its head or its first
    // lines, mostly; a cut character at the end of the prefix is no proof.
    let prefix = raw.get(..raw.len().min(UTF8_PREFIX)).unwrap_or_default();
    let refuted = declared.is_none_or(|enc| enc == UTF_8)
        && simdutf8::compat::from_utf8(prefix).is_err_and(|err| err.error_len().is_some());
    Sniffed {
        bom: None,
        declared,
        refuted,
    }
}

/// The encoding `raw` is labelled with: the HTTP label, else a `<meta>`
/// declaration, else a `<meta>` declaring UTF-16 in the page's own UTF-16
/// code units; a label the bytes refute (see [`believed`]) is passed over.
fn declared(raw: &[u8], http_charset: Option<&str>) -> Option<&'static Encoding> {
    http_charset
        .and_then(|label| Encoding::for_label(label.trim().as_bytes()))
        .and_then(|enc| believed(enc, raw))
        .or_else(|| {
            meta_charset(raw)
                .map(meta_override)
                .and_then(|enc| believed(enc, raw))
        })
        .or_else(|| utf16_meta(raw))
}

/// `label` as the encoding of `raw`, or `None` when it is evidently wrong:
/// WHATWG's "replacement" encoding (the labels `iso-2022-kr`, `hz-gb-2312`,
/// `csiso2022kr`, …) decodes any page to one U+FFFD; a UTF-16 label on bytes
/// without a NUL byte names no HTML page (its markup is ASCII, a NUL in
/// every other byte). A UTF-16 label takes the byte order the bytes show.
fn believed(label: &'static Encoding, raw: &[u8]) -> Option<&'static Encoding> {
    if label == REPLACEMENT {
        return None;
    }
    if label == UTF_16LE || label == UTF_16BE {
        memchr::memchr(0, raw)?;
        return Some(utf16_order(raw).unwrap_or(label));
    }
    Some(label)
}

/// How many of a page's first code units [`utf16_order`] looks at.
const UTF16_UNITS: usize = 512;

/// The byte order of `raw` when its first bytes are evidently UTF-16
/// without a byte-order mark: at least a quarter of the first
/// [`UTF16_UNITS`] code units are Latin-1 characters (markup) stored in one
/// order, four times as many as in the other.
fn utf16_order(raw: &[u8]) -> Option<&'static Encoding> {
    let head = raw
        .get(..raw.len().min(2 * UTF16_UNITS))
        .unwrap_or_default();
    let (mut le, mut be) = (0, 0);
    for unit in head.chunks_exact(2) {
        match *unit {
            [a, 0] if a != 0 => le += 1,
            [0, b] if b != 0 => be += 1,
            _ => {}
        }
    }
    let units = head.len() / 2;
    if units == 0 {
        None
    } else if 4 * le >= units && le > 4 * be {
        Some(UTF_16LE)
    } else if 4 * be >= units && be > 4 * le {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// UTF-16 in the byte order of `raw`, when its bytes are UTF-16 (see
/// [`utf16_order`]) and a `<meta>` in its first code units declares UTF-16.
/// (A `<meta>` readable as ASCII cannot mean UTF-16: see [`meta_override`].)
fn utf16_meta(raw: &[u8]) -> Option<&'static Encoding> {
    let order = utf16_order(raw)?;
    let units = raw.get(..raw.len().min(2 * META_SCAN)).unwrap_or_default();
    let narrowed: Vec<u8> = units
        .chunks_exact(2)
        .map(|unit| match *unit {
            [a, 0] if order == UTF_16LE => a,
            [0, b] if order == UTF_16BE => b,
            _ => b'?',
        })
        .collect();
    meta_charset(&narrowed)
        .filter(|enc| *enc == UTF_16LE || *enc == UTF_16BE)
        .map(|_| order)
}

/// Decodes `raw` to UTF-8, borrowing it when it is valid UTF-8 and decoding
/// into `buffer` otherwise. `http_charset` is the HTTP charset label, if any.
pub fn decode<'a>(
    raw: &'a [u8],
    http_charset: Option<&str>,
    buffer: &'a mut String,
) -> Decoded<'a> {
    decode_sniffed(raw, sniff(raw, http_charset), buffer)
}

/// [`decode`] with the evidence [`sniff`] found in `raw`.
pub fn decode_sniffed<'a>(raw: &'a [u8], sniffed: Sniffed, buffer: &'a mut String) -> Decoded<'a> {
    if let Some((encoding, bom)) = sniffed.bom {
        let rest = raw.get(bom..).unwrap_or_default();
        if let (true, Ok(text)) = (encoding == UTF_8, validate_utf8(rest)) {
            return Decoded { text, encoding };
        }
        return decode_into(encoding, rest, buffer);
    }
    let declared = sniffed.declared;
    // UTF-16, ISO-2022-JP: their bytes can be valid UTF-8 and mean else.
    if let Some(enc) = declared.filter(|enc| !enc.is_ascii_compatible()) {
        return decode_into(enc, raw, buffer);
    }
    // Validated once: most of the web is UTF-8, and valid UTF-8 is borrowed.
    let err = match validate_utf8(raw) {
        // ASCII decodes the same in every ASCII-compatible encoding.
        Ok(text) if text.is_ascii() => {
            return Decoded {
                text,
                encoding: declared.unwrap_or(UTF_8),
            }
        }
        Ok(text) => {
            return Decoded {
                text,
                encoding: UTF_8,
            }
        }
        Err(err) => err,
    };
    // A legacy label is evidence too: 16 bad sequences settle it.
    let (ratio, give_up) = match declared {
        Some(enc) if enc == UTF_8 => (MOSTLY_UTF8_LABELLED, 256),
        Some(_) => (MOSTLY_UTF8, 16),
        None => (MOSTLY_UTF8, 256),
    };
    let encoding =
        if err.error_len().is_none() || mostly_utf8(raw, err.valid_up_to(), ratio, give_up) {
            // Cut inside its last character (a truncated record), or a few
            // damaged bytes in UTF-8 text.
            UTF_8
        } else {
            match declared {
                Some(enc) if enc != UTF_8 => enc,
                // A UTF-8 label the bytes refute: a legacy `<meta>` declaration
                // (behind an HTTP label), else the detector.
                _ => meta_charset_within(raw, META_SCAN_FALLBACK)
                    .map(meta_override)
                    .filter(|enc| *enc != UTF_8 && enc.is_ascii_compatible())
                    .unwrap_or_else(|| detect(raw)),
            }
        };
    decode_into(encoding, raw, buffer)
}

/// Whether `raw`, valid UTF-8 up to `valid_up_to` and not after, has at
/// least `ratio` valid multi-byte sequences per invalid sequence. Decided
/// by the first `give_up` invalid sequences when they fall short, so
/// legacy text costs a few of its non-ASCII bytes, not a pass over the page.
fn mostly_utf8(raw: &[u8], valid_up_to: usize, ratio: usize, give_up: usize) -> bool {
    /// Multi-byte sequences in valid UTF-8: their leading bytes, counted
    /// in byte-wide lanes a chunk at a time (a loop the compiler vectorises).
    fn sequences(valid: &[u8]) -> usize {
        let chunks = valid.chunks_exact(128);
        let tail = chunks.remainder().iter().filter(|&&b| b >= 0xC0).count();
        chunks.fold(tail, |count, chunk| {
            let leads = chunk.iter().fold(0u8, |n, &b| n + u8::from(b >= 0xC0));
            count + usize::from(leads)
        })
    }
    let mut valid = sequences(raw.get(..valid_up_to).unwrap_or_default());
    let mut invalid = 0;
    let mut at = valid_up_to;
    loop {
        let rest = raw.get(at..).unwrap_or_default();
        let err = match simdutf8::compat::from_utf8(rest) {
            Ok(_) => {
                valid += sequences(rest);
                break;
            }
            Err(err) => err,
        };
        valid += sequences(rest.get(..err.valid_up_to()).unwrap_or_default());
        // `None`: cut inside the last character, not damage.
        let Some(len) = err.error_len() else { break };
        invalid += 1;
        if invalid >= give_up && valid < invalid.saturating_mul(ratio) {
            return false;
        }
        at += err.valid_up_to() + len;
    }
    valid >= invalid.saturating_mul(ratio)
}

/// The guess of `chardetng` (UTF-8 excluded: the caller has ruled it out)
/// over a sample of the 8-byte blocks of `raw` that hold non-ASCII bytes.
/// chardetng reads a few MB/s of non-ASCII text, a hundred times slower
/// than extraction; ASCII blocks (markup, scripts) tell it next to nothing,
/// and a prefix of the text decides. It is asked after [`FIRST_GUESS`]
/// non-ASCII bytes, then after half as many more each time, up to
/// [`DETECT_NON_ASCII`]; the first guess it is sure of that the previous
/// one agrees with is taken. A guess with a sibling in [`SIBLINGS`] is
/// settled by the blocks where the two differ (see [`distinguish`]).
/// Blocks are fed in runs, each carried on to just after an ASCII byte so
/// that no character is cut, with a space where ASCII was left out.
fn detect(raw: &[u8]) -> &'static Encoding {
    let mut feeder = Feeder {
        detector: chardetng::EncodingDetector::new(),
        raw,
        at: 0,
        non_ascii: 0,
    };
    let mut checkpoint = FIRST_GUESS;
    let mut previous = None;
    loop {
        feeder.feed_non_ascii(checkpoint);
        let (guess, sure) = feeder.detector.guess_assess(None, false);
        let settled = sure && previous == Some(guess);
        let exhausted = feeder.at >= raw.len() || feeder.non_ascii >= DETECT_NON_ASCII;
        if settled || exhausted {
            match SIBLINGS.iter().find(|&&(a, b)| guess == a || guess == b) {
                Some(pair) => {
                    distinguish(&mut feeder, pair);
                    break;
                }
                None if settled => return guess,
                None => break,
            }
        }
        previous = Some(guess);
        checkpoint = (checkpoint + checkpoint / 2).min(DETECT_NON_ASCII);
    }
    feeder.detector.feed(&[], true);
    feeder.detector.guess(None, false)
}

/// Blocks of `raw` fed to chardetng: holding non-ASCII bytes (see
/// [`detect`]; 8 bytes feed Polish text, one non-ASCII letter in a word or
/// two, with less ASCII than 16 or 64 and guess as well), and holding the
/// bytes two [`SIBLINGS`] differ in (see [`distinguish`]).
const SAMPLE_BLOCK: usize = 8;
const BLOCK: usize = 16;

/// chardetng and where it is in the page.
struct Feeder<'a> {
    detector: chardetng::EncodingDetector,
    raw: &'a [u8],
    /// Where the next block starts.
    at: usize,
    /// Non-ASCII bytes in the blocks passed (fed or not).
    non_ascii: usize,
}

impl Feeder<'_> {
    /// Feeds the blocks holding non-ASCII bytes until `limit` of those bytes
    /// have been fed, or the page ends.
    fn feed_non_ascii(&mut self, limit: usize) {
        while self.at < self.raw.len() && self.non_ascii < limit {
            let mut end = self.at;
            while self.non_ascii < limit {
                let count = non_ascii(self.block(end, SAMPLE_BLOCK));
                if count == 0 {
                    break;
                }
                self.non_ascii += count;
                end += SAMPLE_BLOCK;
            }
            if end == self.at {
                self.at += SAMPLE_BLOCK;
            } else {
                self.feed_run(end);
            }
        }
    }

    /// The block of `len` bytes starting at `at` (short or empty at the end
    /// of the page).
    fn block(&self, at: usize, len: usize) -> &[u8] {
        let end = self.raw.len().min(at.saturating_add(len));
        self.raw.get(at..end).unwrap_or_default()
    }

    /// Feeds the run from `at` to the end of the block before `end` and on
    /// to just after the next ASCII byte (the rest of a character cut by
    /// the block: a lone lead byte would rule out the right encoding).
    fn feed_run(&mut self, end: usize) {
        let end = end.min(self.raw.len());
        let rest = self.raw.get(end..).unwrap_or_default();
        let end = end
            + rest
                .iter()
                .position(u8::is_ascii)
                .map_or(rest.len(), |ascii| ascii + 1);
        self.detector
            .feed(self.raw.get(self.at..end).unwrap_or_default(), false);
        self.detector.feed(b" ", false);
        self.at = end;
    }
}

/// Non-ASCII bytes in `bytes` (a loop the compiler vectorises).
fn non_ascii(bytes: &[u8]) -> usize {
    bytes.iter().map(|&b| usize::from(b >> 7)).sum()
}

/// Single-byte encodings of one script that differ in a few bytes only, so
/// that text can read right in both and the sample that decides the
/// script does not decide between them: ISO-8859-7 and windows-1253 differ
/// in the accented capitals (Ά is 0xB6 in one, 0xA2 in the other), in
/// 0x80–0xBF only. On daniel_dev's Greek pages re-encoded to ISO-8859-7,
/// the page's blocks holding such bytes tell it right on 61 of 65 pages,
/// the first 4 KiB of non-ASCII bytes on 48. (windows-1250 and ISO-8859-2
/// differ in more letters, ą ś ź among them: a short sample tells them
/// apart on the Polish pages as well as a long one does.)
const SIBLINGS: [(&Encoding, &Encoding); 1] = [(WINDOWS_1253, ISO_8859_7)];

/// Feeds chardetng, which guesses `a` or `b`, the rest of the blocks that
/// hold bytes `a` and `b` decode differently, up to [`DISTINGUISH_NON_ASCII`]
/// non-ASCII bytes into the page: the others add the same to the scores of
/// both. Only these blocks are fed, so the page is only scanned.
fn distinguish(feeder: &mut Feeder, pair: &(&'static Encoding, &'static Encoding)) {
    static DIFFERS: [std::sync::OnceLock<[bool; 256]>; SIBLINGS.len()] =
        [const { std::sync::OnceLock::new() }; SIBLINGS.len()];
    let (a, b) = *pair;
    let index = SIBLINGS.iter().position(|p| p == pair).unwrap_or(0);
    let Some(differs) = DIFFERS.get(index) else {
        return;
    };
    let differs = differs.get_or_init(|| {
        let mut differs = [false; 256];
        for (byte, differs) in (0x80..=0xFFu8).zip(differs.iter_mut().skip(0x80)) {
            let high = [byte];
            *differs =
                a.decode_without_bom_handling(&high).0 != b.decode_without_bom_handling(&high).0;
        }
        differs
    });
    let low = differs.iter().position(|&d| d).unwrap_or(0x80) as u8;
    let high = differs.iter().rposition(|&d| d).unwrap_or(0xFF) as u8;
    let span = high.wrapping_sub(low);
    while feeder.at < feeder.raw.len() && feeder.non_ascii < DISTINGUISH_NON_ASCII {
        // Most of a page has none of these bytes: skimmed 64 bytes at a
        // time, with tests that vectorise (the table lookup does not).
        let wide = feeder.raw.get(feeder.at..).unwrap_or_default();
        let wide = wide.get(..wide.len().min(4 * BLOCK)).unwrap_or_default();
        let (count, in_range) = wide.iter().fold((0u8, false), |(count, any), &byte| {
            (count + (byte >> 7), any | (byte.wrapping_sub(low) <= span))
        });
        if !in_range {
            feeder.non_ascii += usize::from(count);
            feeder.at += wide.len();
            continue;
        }
        let mut end = feeder.at;
        loop {
            let block = feeder.block(end, BLOCK);
            if block.is_empty() || feeder.non_ascii >= DISTINGUISH_NON_ASCII {
                break;
            }
            if !block.iter().any(|&byte| differs[usize::from(byte)]) {
                break;
            }
            feeder.non_ascii += non_ascii(block);
            end += BLOCK;
        }
        if end == feeder.at {
            feeder.non_ascii += non_ascii(feeder.block(end, BLOCK));
            feeder.at += BLOCK;
        } else {
            feeder.feed_run(end);
        }
    }
}

/// `std::str::from_utf8`, with the SIMD validator of `simdutf8` on the
/// common path (valid input); the error details come from `std`.
fn validate_utf8(raw: &[u8]) -> Result<&str, std::str::Utf8Error> {
    simdutf8::basic::from_utf8(raw).or_else(|_| std::str::from_utf8(raw))
}

/// What a `<meta>` label means: the HTML standard reads UTF-16 labels in
/// `<meta>` as UTF-8 (the page could not have been parsed that far otherwise)
/// and x-user-defined as windows-1252.
fn meta_override(enc: &'static Encoding) -> &'static Encoding {
    if enc == UTF_16LE || enc == UTF_16BE {
        UTF_8
    } else if enc == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        enc
    }
}

/// Decodes into `buffer` (invalid sequences become U+FFFD).
fn decode_into<'a>(
    encoding: &'static Encoding,
    raw: &'a [u8],
    buffer: &'a mut String,
) -> Decoded<'a> {
    buffer.clear();
    let mut decoder = encoding.new_decoder_without_bom_handling();
    buffer.reserve(
        decoder
            .max_utf8_buffer_length(raw.len())
            .unwrap_or(raw.len().saturating_mul(3)),
    );
    let _ = decoder.decode_to_string(raw, buffer, true);
    Decoded {
        text: buffer,
        encoding,
    }
}

/// The encoding declared by a `<meta charset=…>` or
/// `<meta http-equiv content="…; charset=…">` in the first `META_SCAN` (4 KiB)
/// bytes, if it names a known encoding. Only the `<meta` tags are read
/// (ASCII case-insensitive), not the whole head; labels are matched by
/// [`Encoding::for_label`], which ignores case.
pub fn meta_charset(raw: &[u8]) -> Option<&'static Encoding> {
    meta_charset_within(raw, META_SCAN)
}

/// [`meta_charset`] in the first `limit` bytes.
fn meta_charset_within(raw: &[u8], limit: usize) -> Option<&'static Encoding> {
    let head = raw.get(..raw.len().min(limit)).unwrap_or_default();
    memchr::memchr_iter(b'<', head).find_map(|lt| {
        let tag = head.get(lt..)?;
        if !tag.get(1..5)?.eq_ignore_ascii_case(b"meta") {
            return None;
        }
        // The tag's bytes: up to its `>`, or the next `<` (an unclosed tag).
        let len = memchr::memchr2(b'<', b'>', tag.get(1..)?).map_or(tag.len(), |i| i + 1);
        let attributes = tag.get(..len)?;
        memchr::memchr2_iter(b'c', b'C', attributes)
            .filter(|&at| {
                attributes
                    .get(at..at + CHARSET.len())
                    .is_some_and(|word| word.eq_ignore_ascii_case(CHARSET))
            })
            .find_map(|at| label_after(tag.get(at + CHARSET.len()..)?))
    })
}

const CHARSET: &[u8] = b"charset";

/// The encoding named by `= label` at the start of `rest`, the bytes after
/// the word `charset`.
fn label_after(rest: &[u8]) -> Option<&'static Encoding> {
    let rest = trim_start(rest);
    let rest = trim_start(rest.strip_prefix(b"=")?);
    let rest = rest
        .strip_prefix(b"\"")
        .or_else(|| rest.strip_prefix(b"'"))
        .unwrap_or(rest);
    let len = rest
        .iter()
        .position(|&b| matches!(b, b'"' | b'\'' | b';' | b'>' | b'/') || b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    Encoding::for_label(rest.get(..len)?)
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let skip = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    bytes.get(skip..).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{GBK, WINDOWS_1251};

    fn run(raw: &[u8], http: Option<&str>) -> (String, &'static str) {
        let mut buf = String::new();
        let d = decode(raw, http, &mut buf);
        (d.text.to_string(), d.encoding.name())
    }

    /// [`meta_charset`] read the plain way, the definition its search for
    /// the declaration is tested against: the first 4 KiB lowercased,
    /// every `charset` in them read when the nearest `<` before it opens a
    /// `<meta` tag (the label after it read as [`meta_charset`] reads it).
    fn meta_charset_reference(raw: &[u8]) -> Option<&'static Encoding> {
        let head = raw.get(..raw.len().min(META_SCAN)).unwrap_or_default();
        let mut lower = [0u8; META_SCAN];
        let lower = lower.get_mut(..head.len()).unwrap_or_default();
        lower
            .iter_mut()
            .zip(head)
            .for_each(|(l, b)| *l = b.to_ascii_lowercase());
        memchr::memmem::find_iter(lower, b"charset").find_map(|at| {
            let tag_start = memchr::memrchr(b'<', lower.get(..at)?)?;
            let tag = lower.get(tag_start..at)?;
            if !tag.starts_with(b"<meta") || tag.contains(&b'>') {
                return None;
            }
            label_after(lower.get(at + CHARSET.len()..)?)
        })
    }

    proptest::proptest! {
        #[test]
        fn meta_reading_equals_reference(head in "(<meta|<META|<Meta|charset|CharSet|=|\"|'|;|>|<| |\t|utf-8|gbk|koi8-r|x|/){0,40}") {
            proptest::prop_assert_eq!(meta_charset(head.as_bytes()), meta_charset_reference(head.as_bytes()));
        }
    }

    #[test]
    fn finds_meta_declarations() {
        assert_eq!(meta_charset(b"<html><meta charset=\"GBK\">"), Some(GBK));
        let http_equiv =
            b"<META HTTP-EQUIV='Content-Type' CONTENT='text/html; charset=windows-1251'>";
        assert_eq!(meta_charset(http_equiv), Some(WINDOWS_1251));
        assert_eq!(meta_charset(b"<p>charset=gbk</p>"), None);
        assert_eq!(meta_charset(b"<meta charset=utf-4>"), None);
    }

    #[test]
    fn http_label_beats_meta_and_bogus_labels_fall_through() {
        let (cp1251, _, _) = WINDOWS_1251.encode("Привет");
        let mut page = b"<meta charset=gbk><p>".to_vec();
        page.extend_from_slice(&cp1251);
        assert_eq!(
            run(&page, Some("windows-1251")).0,
            "<meta charset=gbk><p>Привет"
        );
        // A bogus HTTP label falls through to the meta declaration.
        assert_eq!(run(&page, Some("unicode-1-1-utf-4")).1, "GBK");
        assert_eq!(run(&page, Some("iso-8859&#8211;1")).1, "GBK");
    }

    #[test]
    fn utf8_bytes_declared_legacy_are_read_as_utf8() {
        let page = "<meta charset=windows-1251><p>Привет</p>".as_bytes();
        assert_eq!(
            run(page, None),
            ("<meta charset=windows-1251><p>Привет</p>".into(), "UTF-8")
        );
    }

    #[test]
    fn boms_and_undeclared_pages() {
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend("<p>中文</p>".encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(
            run(&utf16, Some("iso-8859-1")),
            ("<p>中文</p>".into(), "UTF-16LE")
        );
        // Big-endian, behind a UTF-8 label and a `<meta>` saying UTF-8 (the
        // BOM wins), and long enough for the detector to have a say if it
        // were asked.
        let page = "<meta charset=utf-8><p>Привет, это русский текст.</p>".repeat(50);
        let mut utf16 = vec![0xFE, 0xFF];
        utf16.extend(page.encode_utf16().flat_map(u16::to_be_bytes));
        assert_eq!(run(&utf16, Some("utf-8")), (page.clone(), "UTF-16BE"));
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend(page.encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(run(&utf16, None), (page, "UTF-16LE"));
        let (gbk, _, _) =
            GBK.encode("<p>这是一个中文网页，没有声明编码。我们需要猜测它的编码方式。</p>");
        assert_eq!(run(&gbk, None).1, "GBK");
        let (text, enc) = run(b"\xff\xfeinvalid", Some("utf-8"));
        assert_eq!(enc, "UTF-16LE");
        assert!(!text.is_empty());
        // UTF-8 cut inside a character (a truncated record) stays UTF-8.
        let cut = "<p>Привет, это русский текст.</p><p>Ещё".as_bytes();
        let cut = &cut[..cut.len() - 1];
        assert_eq!(
            run(cut, Some("utf-8")),
            (
                "<p>Привет, это русский текст.</p><p>Ещ\u{fffd}".into(),
                "UTF-8"
            )
        );
        // Legacy bytes mislabelled UTF-8 go to the detector.
        let (cp1251, _, _) = WINDOWS_1251.encode("<p>Привет, это русский текст.</p>");
        assert_eq!(run(&cp1251, Some("utf-8")).1, "windows-1251");
    }

    /// A UTF-8 page with one damaged byte, in the words.
    fn damaged_utf8(meta: &str) -> Vec<u8> {
        let page =
            format!("<html><head>{meta}<title>Titel äöü</title></head><body><p>Grüße aus Köln");
        let mut raw = page.into_bytes();
        raw.push(0xE4); // ä in windows-1252, pasted into UTF-8
        raw.extend_from_slice("</p><p>Schöne Grüße</p></body></html>".as_bytes());
        raw
    }

    #[test]
    fn declared_utf8_with_a_damaged_byte_stays_utf8() {
        let expected = "<title>Titel äöü</title></head><body><p>Grüße aus Köln\u{fffd}</p>";
        for (raw, http) in [
            (damaged_utf8(""), Some("utf-8")),
            (damaged_utf8("<meta charset=\"utf-8\">"), None),
            (damaged_utf8("<meta charset=utf-8>"), Some("bogus")),
        ] {
            let (text, enc) = run(&raw, http);
            assert_eq!(enc, "UTF-8", "{http:?}");
            assert!(text.contains(expected), "{text}");
        }
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend(damaged_utf8(""));
        let (text, enc) = run(&bom, Some("windows-1252"));
        assert_eq!(enc, "UTF-8");
        assert!(text.contains(expected), "{text}");
    }

    #[test]
    fn mostly_utf8_beats_a_legacy_label_only_when_clearly_utf8() {
        // Many valid sequences, one bad byte: UTF-8 despite the label.
        let mut raw = "<meta charset=windows-1251><p>Привет, это русский текст.</p>"
            .repeat(3)
            .into_bytes();
        raw.push(0xFF);
        raw.extend_from_slice("<p>Ещё</p>".as_bytes());
        let (text, enc) = run(&raw, None);
        assert_eq!(enc, "UTF-8");
        assert!(text.ends_with("\u{fffd}<p>Ещё</p>"), "{text}");
        // Without a label, 3 valid sequences per bad byte are not enough to
        // overrule the detector; with a UTF-8 label they are.
        let few = b"<p>Gr\xc3\xbc\xc3\x9fe aus K\xc3\xb6ln \xe4</p>";
        assert_eq!(run(few, Some("utf-8")).1, "UTF-8");
        assert_ne!(run(few, None).1, "UTF-8");
        assert_eq!(run(&damaged_utf8(""), None).1, "UTF-8");
    }

    #[test]
    fn a_utf8_label_refuted_by_the_bytes_yields_to_meta_then_the_detector() {
        let (gbk, _, _) = GBK.encode(
            "<meta charset=gbk><title>中文</title><p>这是一个中文网页，服务器说它是 UTF-8。</p>",
        );
        assert_eq!(run(&gbk, Some("utf-8")).1, "GBK");
        let (big5, _, _) = encoding_rs::BIG5.encode(
            "<p>這是一個中文網頁，沒有聲明編碼。我們需要猜測它的編碼方式。這是繁體中文。</p>",
        );
        assert_eq!(run(&big5, Some("utf-8")).1, "Big5");
    }

    #[test]
    fn detection_reads_a_bounded_prefix() {
        // An undeclared GBK page far longer than the detector's bound, its
        // text among ASCII runs of every length (so characters straddle the
        // detector's blocks at every offset).
        let page: String = (0..3000)
            .map(|i| {
                format!(
                    "<p class=\"{}\">这是一个中文网页，没有声明编码。我们需要猜测它的编码方式。</p>\n",
                    "x".repeat(i % 131)
                )
            })
            .collect();
        let (gbk, _, _) = GBK.encode(&page);
        assert!(gbk.iter().filter(|b| !b.is_ascii()).count() > 30 * DETECT_NON_ASCII);
        let (text, enc) = run(&gbk, None);
        assert_eq!(enc, "GBK");
        assert_eq!(text, page);
        // What follows the prefix is not read: a long Korean tail after it
        // does not change the guess.
        let korean =
            "<p>이것은 한국어 웹 페이지입니다. 인코딩을 추측해야 합니다.</p>\n".repeat(20_000);
        let (korean, _, _) = encoding_rs::EUC_KR.encode(&korean);
        assert_eq!(detect(&korean), encoding_rs::EUC_KR);
        let mixed = [&gbk[..], &korean[..]].concat();
        assert_eq!(detect(&mixed), GBK);
        // Text without ASCII past the bound, at an odd offset: the prefix
        // must not end inside a character.
        let solid = format!("<{}", "这是一个中文网页没有声明编码".repeat(1000));
        let (solid, _, _) = GBK.encode(&solid);
        assert_eq!(detect(&solid), GBK);
    }

    fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| {
                if big_endian {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    }

    #[test]
    fn utf16_without_a_byte_order_mark_is_read_by_its_label() {
        let page = "<html><head><title>Grüße</title></head><body><p>Text, 中文</p></body></html>";
        for (label, big_endian, name) in [
            ("utf-16le", false, "UTF-16LE"),
            ("utf-16be", true, "UTF-16BE"),
            // `utf-16` names little-endian; the bytes show big-endian.
            ("utf-16", true, "UTF-16BE"),
        ] {
            let raw = utf16(page, big_endian);
            assert_eq!(run(&raw, Some(label)), (page.into(), name), "{label}");
            assert_eq!(
                sniff(&raw, Some(label)).utf16().map(Encoding::name),
                Some(name)
            );
        }
        // No HTTP label: a `<meta>` in the page's own code units.
        let meta = format!("<meta charset=\"UTF-16\">{page}");
        for (big_endian, name) in [(false, "UTF-16LE"), (true, "UTF-16BE")] {
            let raw = utf16(&meta, big_endian);
            assert_eq!(run(&raw, None), (meta.clone(), name));
        }
        // A `<meta>` readable as ASCII that says UTF-16 means UTF-8.
        assert_eq!(run(meta.as_bytes(), None), (meta.clone(), "UTF-8"));
        assert_eq!(sniff(meta.as_bytes(), None).utf16(), None);
    }

    #[test]
    fn labels_the_bytes_refute_are_passed_over() {
        let ascii = "<p>Plain ASCII words under a label that would garble them.</p>";
        for label in [
            "iso-2022-kr",
            "hz-gb-2312",
            "csiso2022kr",
            "utf-16",
            "utf-16be",
        ] {
            assert_eq!(
                run(ascii.as_bytes(), Some(label)),
                (ascii.into(), "UTF-8"),
                "{label}"
            );
        }
        let chinese = "<p>这是一个中文网页，服务器说它是 UTF-16。</p>";
        assert_eq!(
            run(chinese.as_bytes(), Some("utf-16")),
            (chinese.into(), "UTF-8")
        );
        // Legacy bytes under a "replacement" label: the detector decides.
        let (gbk, _, _) =
            GBK.encode("<p>这是一个中文网页，没有声明编码。我们需要猜测它的编码方式。</p>");
        assert_eq!(run(&gbk, Some("iso-2022-kr")).1, "GBK");
        // Behind a refuted HTTP label, the `<meta>` is read.
        let (cp1251, _, _) = WINDOWS_1251.encode("<meta charset=windows-1251><p>Привет, мир</p>");
        assert_eq!(run(&cp1251, Some("hz-gb-2312")).1, "windows-1251");
        assert_eq!(run(&cp1251, Some("utf-16le")).1, "windows-1251");
    }

    #[test]
    fn a_late_meta_declaration_beats_guessing_when_the_bytes_are_not_utf8() {
        let page = format!(
            "<script>{}</script><meta charset=koi8-r><p>Привет</p>",
            "var x = 1;\n".repeat(1000)
        );
        let (koi8, _, _) = encoding_rs::KOI8_R.encode(&page);
        assert!(meta_charset(&koi8).is_none());
        // Six letters could be any Cyrillic encoding (chardetng guesses
        // KOI8-U); the label says which.
        assert_eq!(run(&koi8, Some("utf-8")), (page.clone(), "KOI8-R"));
        assert_eq!(run(&koi8, None), (page, "KOI8-R"));
    }
}
