//! Finding a page's encoding and decoding it to UTF-8.
//!
//! The order is the one of the WHATWG encoding sniffing algorithm, with one
//! correction crawls need:
//! 1. a byte-order mark;
//! 2. the charset label from the HTTP `Content-Type` (passed in by the caller);
//! 3. a `<meta charset>` / `http-equiv` declaration in the first 4 KiB;
//! 4. for unlabelled pages: UTF-8 if the bytes are valid UTF-8, else the
//!    guess of `chardetng`.
//!
//! Two corrections crawls need. A page labelled UTF-8 whose bytes are not
//! valid UTF-8 goes to the detector too (mislabelled legacy pages are
//! common); UTF-8 cut inside its last character, as crawlers truncate
//! records, still counts as valid. And a page labelled with a legacy encoding (windows-1251, GBK,
//! …) whose bytes are valid UTF-8 and contain non-ASCII bytes is read as
//! UTF-8. Such pages are common (re-encoded by a CMS or by an earlier tool),
//! and the chance that legacy-encoded text happens to form valid multi-byte
//! UTF-8 is negligible. Labels that name no encoding (`utf-4`, `unicode`,
//! `iso-8859&#8211;1`) are ignored and the next step decides. Decoding is
//! done by `encoding_rs`; valid UTF-8 is borrowed, not copied.

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};

/// How far into the page to look for a `<meta>` charset declaration.
const META_SCAN: usize = 4096;

/// A page decoded to UTF-8.
#[derive(Debug)]
pub struct Decoded<'a> {
    pub text: &'a str,
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
}

impl Sniffed {
    /// Whether the page is read as its own bytes when they are valid UTF-8,
    /// with only their validity left to decide: no byte-order mark, no
    /// label or a UTF-8 one. Most of the web is such a page; callers can
    /// start reading the bytes before [`decode_sniffed`] validates them.
    pub fn utf8_if_valid(&self) -> bool {
        self.bom.is_none() && self.declared.is_none_or(|enc| enc == UTF_8)
    }
}

/// Looks for the byte-order mark and the encoding label of `raw`;
/// `http_charset` is the HTTP charset label, if any.
pub fn sniff(raw: &[u8], http_charset: Option<&str>) -> Sniffed {
    if let Some(bom) = Encoding::for_bom(raw) {
        return Sniffed {
            bom: Some(bom),
            declared: None,
        };
    }
    let declared = http_charset
        .and_then(|label| Encoding::for_label(label.trim().as_bytes()))
        .or_else(|| meta_charset(raw).map(meta_override));
    Sniffed {
        bom: None,
        declared,
    }
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
    // Validated once: most of the web is UTF-8, and valid UTF-8 is borrowed.
    let encoding = match (declared, validate_utf8(raw)) {
        // UTF-16, ISO-2022-JP: their bytes can be valid UTF-8 and mean else.
        (Some(enc), _) if !enc.is_ascii_compatible() => enc,
        // ASCII decodes the same in every ASCII-compatible encoding.
        (Some(enc), Ok(text)) if text.is_ascii() => {
            return Decoded {
                text,
                encoding: enc,
            }
        }
        (_, Ok(text)) => {
            return Decoded {
                text,
                encoding: UTF_8,
            }
        }
        // UTF-8 cut inside its last character (a truncated record).
        (_, Err(err)) if err.error_len().is_none() => UTF_8,
        (Some(enc), Err(_)) if enc != UTF_8 => enc,
        (_, Err(_)) => {
            let mut detector = chardetng::EncodingDetector::new();
            detector.feed(raw, true);
            detector.guess(None, true)
        }
    };
    decode_into(encoding, raw, buffer)
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
    let head = raw.get(..raw.len().min(META_SCAN)).unwrap_or_default();
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
}
