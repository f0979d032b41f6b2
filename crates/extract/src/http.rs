//! HTTP responses inside WARC `response` records: head parsing (httparse,
//! with a lenient fallback for heads it rejects), de-chunking, content
//! decoding, and deciding whether the payload is an HTML page.

use std::io::Read;

/// Headers read per response; more are ignored by httparse's fast path and
/// picked up by the fallback.
const MAX_HEADERS: usize = 128;
/// Bytes looked at when sniffing a payload for HTML or binary content.
const SNIFF_BYTES: usize = 1024;

/// The parts of an HTTP response head that extraction needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResponseHead<'a> {
    /// The status code, e.g. 200.
    pub status: u16,
    /// The first `Content-Type` value, trimmed.
    pub content_type: Option<&'a str>,
    /// Whether `Transfer-Encoding` names `chunked`.
    pub chunked: bool,
    /// The last `Content-Encoding` value, trimmed; `None` if absent, empty
    /// or `identity`.
    pub content_encoding: Option<&'a str>,
    /// The body, still chunked/encoded as sent.
    pub body: &'a [u8],
}

/// Why a block is not a usable HTTP response.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpError {
    /// The first line is not an `HTTP/x.y <code>` status line; holds its
    /// first 40 bytes.
    #[error("no HTTP status line (block starts {0:?})")]
    NoStatusLine(String),
    /// The block ends before the blank line that ends the head.
    #[error("the HTTP head has no end (no blank line)")]
    NoHeadEnd,
}

/// Parses the head of an HTTP response block.
pub fn parse_response(block: &[u8]) -> Result<ResponseHead<'_>, HttpError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let parsed = httparse::ParserConfig::default()
        .allow_spaces_after_header_name_in_responses(true)
        .allow_obsolete_multiline_headers_in_responses(true)
        .allow_multiple_spaces_in_response_status_delimiters(true)
        .ignore_invalid_headers_in_responses(true)
        .parse_response(&mut response, block);
    match (parsed, response.code) {
        (Ok(httparse::Status::Complete(len)), Some(status)) => {
            let pairs = response
                .headers
                .iter()
                .map(|h| (h.name.as_bytes(), h.value));
            Ok(head_from(
                status,
                pairs,
                block.get(len..).unwrap_or_default(),
            ))
        }
        _ => parse_lenient(block),
    }
}

/// Line-by-line parse for heads httparse rejects (bare CR, junk lines, too many headers).
fn parse_lenient(block: &[u8]) -> Result<ResponseHead<'_>, HttpError> {
    let status_line_end = memchr::memchr(b'\n', block).ok_or(HttpError::NoHeadEnd)?;
    let status_line = block.get(..status_line_end).unwrap_or_default();
    let status = parse_status_line(status_line).ok_or_else(|| {
        HttpError::NoStatusLine(
            String::from_utf8_lossy(status_line.get(..40).unwrap_or(status_line)).into_owned(),
        )
    })?;
    let mut pos = status_line_end + 1;
    let mut lines = Vec::new();
    loop {
        let rest = block.get(pos..).unwrap_or_default();
        let Some(nl) = memchr::memchr(b'\n', rest) else {
            return Err(HttpError::NoHeadEnd);
        };
        let line = rest.get(..nl).unwrap_or_default().trim_ascii_end();
        pos += nl + 1;
        if line.is_empty() {
            break;
        }
        if let Some(colon) = memchr::memchr(b':', line) {
            lines.push((
                line.get(..colon).unwrap_or_default().trim_ascii(),
                line.get(colon + 1..).unwrap_or_default(),
            ));
        }
    }
    Ok(head_from(
        status,
        lines.into_iter(),
        block.get(pos..).unwrap_or_default(),
    ))
}

/// `HTTP/1.1 200 OK` -> 200.
fn parse_status_line(line: &[u8]) -> Option<u16> {
    let rest = line.strip_prefix(b"HTTP/")?;
    let mut parts = rest
        .split(|b| b.is_ascii_whitespace())
        .filter(|p| !p.is_empty());
    parts.next()?;
    std::str::from_utf8(parts.next()?).ok()?.parse().ok()
}

fn head_from<'a>(
    status: u16,
    headers: impl Iterator<Item = (&'a [u8], &'a [u8])>,
    body: &'a [u8],
) -> ResponseHead<'a> {
    let mut head = ResponseHead {
        status,
        content_type: None,
        chunked: false,
        content_encoding: None,
        body,
    };
    for (name, value) in headers {
        let value = std::str::from_utf8(value).ok().map(str::trim);
        if name.eq_ignore_ascii_case(b"content-type") && head.content_type.is_none() {
            head.content_type = value;
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            head.chunked |= value.is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
        } else if name.eq_ignore_ascii_case(b"content-encoding") {
            head.content_encoding =
                value.filter(|v| !v.is_empty() && !v.eq_ignore_ascii_case("identity"));
        }
    }
    head
}

/// The MIME type of a Content-Type value, lower-cased: `text/html; charset=x` -> `text/html`.
pub fn mime_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// The `charset` parameter of a Content-Type value, unquoted.
pub fn charset(content_type: &str) -> Option<&str> {
    content_type
        .split(';')
        .skip(1)
        .find_map(|param| {
            let (name, value) = param.split_once('=')?;
            name.trim()
                .eq_ignore_ascii_case("charset")
                .then(|| value.trim().trim_matches(['"', '\'']).trim())
        })
        .filter(|c| !c.is_empty())
}

/// Whether a payload with this Content-Type should be extracted as HTML.
/// Declared HTML types are; missing or generic types fall back to sniffing.
pub fn is_html(content_type: Option<&str>, payload: &[u8]) -> bool {
    let mime = content_type.map(mime_type).unwrap_or_default();
    match mime.as_str() {
        "text/html" | "application/xhtml+xml" => true,
        ""
        | "application/octet-stream"
        | "unknown/unknown"
        | "text/plain"
        | "application/unknown" => sniff_html(payload),
        _ => false,
    }
}

/// True when the first bytes (after a BOM and whitespace) open an HTML document.
/// A UTF-16 page (with its byte-order mark) is read by its ASCII half.
pub fn sniff_html(payload: &[u8]) -> bool {
    let head = payload.get(..SNIFF_BYTES).unwrap_or(payload);
    let narrowed: Vec<u8>;
    let head = if let Some(units) = head.strip_prefix(b"\xFF\xFE") {
        narrowed = narrow_utf16(units, |[lo, hi]| (hi == 0).then_some(lo));
        &narrowed[..]
    } else if let Some(units) = head.strip_prefix(b"\xFE\xFF") {
        narrowed = narrow_utf16(units, |[hi, lo]| (hi == 0).then_some(lo));
        &narrowed[..]
    } else {
        head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head)
    };
    let head = head.trim_ascii_start();
    const OPENERS: [&[u8]; 8] = [
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<body",
        b"<title",
        b"<meta",
        b"<!--",
        b"<script",
    ];
    OPENERS.iter().any(|o| {
        head.get(..o.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(o))
    })
}

/// The Latin-1 code units of UTF-16 `units`, up to the first other one.
fn narrow_utf16(units: &[u8], latin1: impl Fn([u8; 2]) -> Option<u8>) -> Vec<u8> {
    units
        .chunks_exact(2)
        .map_while(|unit| match *unit {
            [a, b] => latin1([a, b]),
            _ => None,
        })
        .collect()
}

/// True when the payload start looks like binary data rather than text,
/// whatever its label: more than one byte in `BINARY_DENSITY` of its first
/// KiB is a control byte that text does not use (NUL, and the C0 controls
/// other than tab, line feed, form feed, carriage return and escape: the
/// WHATWG "binary data bytes"). Images, archives and compressed data are
/// full of them; a text page with a stray NUL is not binary. A UTF-16 page
/// with its byte-order mark is text: half its bytes are NUL.
pub fn looks_binary(payload: &[u8]) -> bool {
    if payload.starts_with(b"\xFF\xFE") || payload.starts_with(b"\xFE\xFF") {
        return false;
    }
    let head = payload.get(..SNIFF_BYTES).unwrap_or(payload);
    let binary = head.iter().filter(|&&b| binary_unit(b.into())).count();
    binary * BINARY_DENSITY > head.len()
}

/// [`looks_binary`] for a payload in `utf16` (UTF-16LE or UTF-16BE)
/// without a byte-order mark, as its label says (see
/// [`crate::charset::Sniffed::utf16`]): the same test on its code units.
pub fn looks_binary_utf16(payload: &[u8], utf16: &'static encoding_rs::Encoding) -> bool {
    let big_endian = utf16 == encoding_rs::UTF_16BE;
    let head = payload.get(..SNIFF_BYTES).unwrap_or(payload);
    let units = head.chunks_exact(2).map(|unit| match *unit {
        [a, b] if big_endian => u16::from_be_bytes([a, b]),
        [a, b] => u16::from_le_bytes([a, b]),
        _ => 0,
    });
    let binary = units.filter(|&unit| binary_unit(unit)).count();
    binary * BINARY_DENSITY > head.len() / 2
}

/// A control character text does not use (see [`looks_binary`]).
fn binary_unit(unit: u16) -> bool {
    matches!(unit, 0x00..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F)
}

/// See [`looks_binary`].
const BINARY_DENSITY: usize = 32;

/// Undoes chunked transfer-encoding and content-encoding, reusing its buffers.
#[derive(Debug, Default)]
pub struct PayloadDecoder {
    dechunked: Vec<u8>,
    decoded: Vec<u8>,
}

/// A decoded payload and whether it hit the size cap.
#[derive(Debug)]
pub struct Payload<'a> {
    /// The de-chunked payload, decoded (at most `max` bytes) when its
    /// encoding is known and decodes, else as sent.
    pub bytes: &'a [u8],
    /// Decoding stopped at the cap (a decompression bomb or a huge page).
    pub capped: bool,
}

impl PayloadDecoder {
    /// The payload of `head`, de-chunked and decoded, at most `max` bytes.
    /// Damaged encodings are decoded as far as they go; a body that only
    /// claims an encoding (ClueWeb stores decoded bodies under
    /// `Content-Encoding: gzip`) is returned as is.
    pub fn decode<'s>(&'s mut self, head: &ResponseHead<'s>, max: usize) -> Payload<'s> {
        let mut body = head.body;
        if head.chunked && dechunk(body, &mut self.dechunked) {
            body = &self.dechunked;
        }
        let Some(encoding) = head.content_encoding.map(str::to_ascii_lowercase) else {
            return Payload {
                bytes: body,
                capped: false,
            };
        };
        self.decoded.clear();
        let limit = max as u64 + 1;
        let result = match encoding.as_str() {
            "gzip" | "x-gzip" if body.starts_with(&[0x1f, 0x8b]) => {
                flate2::read::MultiGzDecoder::new(body)
                    .take(limit)
                    .read_to_end(&mut self.decoded)
            }
            "deflate" => {
                let zlib = flate2::read::ZlibDecoder::new(body)
                    .take(limit)
                    .read_to_end(&mut self.decoded);
                if zlib.is_err() && self.decoded.is_empty() {
                    flate2::read::DeflateDecoder::new(body)
                        .take(limit)
                        .read_to_end(&mut self.decoded)
                } else {
                    zlib
                }
            }
            "br" => brotli_decompressor::Decompressor::new(body, 4096)
                .take(limit)
                .read_to_end(&mut self.decoded),
            _ => {
                return Payload {
                    bytes: body,
                    capped: false,
                }
            }
        };
        if result.is_err() && self.decoded.is_empty() {
            return Payload {
                bytes: body,
                capped: false,
            };
        }
        let capped = self.decoded.len() > max;
        self.decoded.truncate(max);
        Payload {
            bytes: &self.decoded,
            capped,
        }
    }
}

/// Joins the chunks of a chunked body into `out`. Returns false when the body
/// is not chunked after all (writers often store it de-chunked but keep the
/// header); a damaged chunk stream keeps the chunks read so far.
fn dechunk(body: &[u8], out: &mut Vec<u8>) -> bool {
    out.clear();
    let mut pos = 0;
    let mut first = true;
    loop {
        let rest = body.get(pos..).unwrap_or_default();
        let Some(nl) = memchr::memchr(b'\n', rest) else {
            return !first;
        };
        let line = rest.get(..nl).unwrap_or_default();
        let size_field = line
            .split(|&b| b == b';')
            .next()
            .unwrap_or_default()
            .trim_ascii();
        let size = std::str::from_utf8(size_field)
            .ok()
            .and_then(|s| usize::from_str_radix(s, 16).ok());
        let Some(size) = size else { return !first };
        first = false;
        if size == 0 {
            return true;
        }
        let start = pos + nl + 1;
        let chunk = body
            .get(start..start.saturating_add(size))
            .unwrap_or_else(|| body.get(start..).unwrap_or_default());
        out.extend_from_slice(chunk);
        pos = start + chunk.len();
        let after = body.get(pos..).unwrap_or_default();
        pos += after
            .iter()
            .take(2)
            .take_while(|&&b| b == b'\r' || b == b'\n')
            .count();
        if chunk.len() < size {
            return true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn utf16(bom: &[u8], text: &str, be: bool) -> Vec<u8> {
        let units =
            text.encode_utf16()
                .flat_map(|u| if be { u.to_be_bytes() } else { u.to_le_bytes() });
        bom.iter().copied().chain(units).collect()
    }

    #[test]
    fn utf16_pages_with_a_bom_are_html_not_binary() {
        for (bom, be) in [(&b"\xFF\xFE"[..], false), (&b"\xFE\xFF"[..], true)] {
            let page = utf16(bom, "<!DOCTYPE html><html><p>Grüße, 世界</p></html>", be);
            assert!(!looks_binary(&page));
            assert!(sniff_html(&page) && is_html(None, &page));
            // Without its byte-order mark, half NUL bytes are binary.
            assert!(looks_binary(&page[2..]));
        }
        assert!(!sniff_html(&utf16(b"\xFF\xFE", "just text", false)));
    }

    #[test]
    fn utf16_without_a_bom_is_text_by_its_code_units() {
        for (be, encoding) in [
            (false, encoding_rs::UTF_16LE),
            (true, encoding_rs::UTF_16BE),
        ] {
            let page = utf16(b"", "<!DOCTYPE html><html><p>Grüße, 世界</p></html>", be);
            assert!(looks_binary(&page));
            assert!(!looks_binary_utf16(&page, encoding));
        }
        // Binary data stays binary whatever its label.
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0\x1f\xf3\xffa";
        assert!(looks_binary_utf16(png, encoding_rs::UTF_16LE));
        assert!(looks_binary_utf16(png, encoding_rs::UTF_16BE));
    }

    #[test]
    fn a_stray_nul_is_text_and_control_bytes_are_binary() {
        let mut page = b"<html><body><p>".to_vec();
        page.extend(b"Some ordinary text. ".repeat(60));
        page[100] = 0;
        page[700] = 0;
        assert!(!looks_binary(&page));
        assert!(!looks_binary(b"<html><body>nul\0byte</body></html>"));
        assert!(looks_binary(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR binary"));
        // Compressed data: every byte value, evenly spread.
        let noise: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        assert!(looks_binary(&noise));
        // Tabs, line breaks, form feeds and escapes (ISO-2022-JP) are text.
        assert!(!looks_binary(b"<p>\t\r\n\x0c\x1b$B\x1b(B</p>"));
    }

    #[test]
    fn parses_head_and_content_type() {
        let block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=\"EUC-JP\"\r\n\r\n<html>";
        let head = parse_response(block).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((head.status, head.body), (200, &b"<html>"[..]));
        assert_eq!(head.content_type.and_then(charset), Some("EUC-JP"));
        assert!(is_html(head.content_type, head.body));
    }

    #[test]
    fn lenient_fallback_takes_broken_heads() {
        let block = b"HTTP/1.0 404 Not Found\nbad header line\nContent-Type: text/plain\n\n<!DOCTYPE html><p>";
        let head = parse_response(block).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(head.status, 404);
        assert!(
            is_html(head.content_type, head.body),
            "text/plain that sniffs as HTML"
        );
        assert!(parse_response(b"<html>not http").is_err());
    }

    #[test]
    fn dechunks_and_tolerates_already_dechunked_bodies() {
        let mut out = Vec::new();
        assert!(dechunk(
            b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n",
            &mut out
        ));
        assert_eq!(out, b"hello world");
        assert!(!dechunk(b"<html>hello</html>", &mut out));
    }

    #[test]
    fn decodes_gzip_and_caps_output() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&[b'a'; 10_000])
            .unwrap_or_else(|e| panic!("{e}"));
        let body = gz.finish().unwrap_or_else(|e| panic!("{e}"));
        let head = ResponseHead {
            status: 200,
            content_type: None,
            chunked: false,
            content_encoding: Some("gzip"),
            body: &body,
        };
        let mut decoder = PayloadDecoder::default();
        let payload = decoder.decode(&head, 100);
        assert_eq!((payload.bytes.len(), payload.capped), (100, true));
        let plain = ResponseHead {
            body: b"<html>",
            ..head
        };
        assert_eq!(
            decoder.decode(&plain, 100).bytes,
            b"<html>",
            "claimed gzip, stored plain"
        );
    }
}
