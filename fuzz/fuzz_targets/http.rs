//! HTTP responses inside WARC records (crates/extract/src/http.rs): head parsing (httparse
//! and the lenient fallback), de-chunking and content decoding on any bytes
//! never panic and never return more than the cap; and a body this target
//! encodes (gzip, deflate, zlib, then chunked in chunks of sizes the input
//! picks) decodes back to the bytes it started from, cut at the cap.
#![no_main]

use arbitrary::Arbitrary;
use crawlsift::http::{self, PayloadDecoder, ResponseHead};
use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};
use libfuzzer_sys::fuzz_target;
use std::io::Write;

/// The bytes are the last field, so they take the rest of the input (a
/// seed is `max`, a 0 byte, then a response block).
#[derive(Arbitrary, Debug)]
struct Case {
    max: u16,
    /// None: `bytes` is a block, as a WARC `response` record holds it;
    /// else a payload, encoded here so that decoding has a known answer.
    encode: Option<Encode>,
    bytes: Vec<u8>,
}

#[derive(Arbitrary, Debug)]
struct Encode {
    encoding: Encoding,
    /// Chunk sizes, cycled; none: not chunked.
    chunks: Vec<u8>,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Encoding {
    Identity,
    Gzip,
    XGzip,
    Deflate,
    Zlib,
    /// Bytes that claim brotli (not brotli: the decoder meets junk).
    ClaimedBr,
}

fn check_decoded(head: &ResponseHead<'_>, max: usize) -> Vec<u8> {
    let mut decoder = PayloadDecoder::default();
    let payload = decoder.decode(head, max);
    assert!(
        payload.bytes.len() <= max.max(head.body.len()),
        "over the cap"
    );
    if payload.capped {
        assert_eq!(payload.bytes.len(), max, "a capped payload fills the cap");
    }
    let _ = http::is_html(head.content_type, payload.bytes);
    let _ = http::looks_binary(payload.bytes);
    if let Some(ct) = head.content_type {
        let _ = http::mime_type(ct);
        let _ = http::charset(ct);
    }
    payload.bytes.to_vec()
}

fn compress(encoding: Encoding, payload: &[u8]) -> Vec<u8> {
    let fast = flate2::Compression::fast();
    let result = match encoding {
        Encoding::Identity | Encoding::ClaimedBr => Ok(payload.to_vec()),
        Encoding::Gzip | Encoding::XGzip => {
            let mut e = GzEncoder::new(Vec::new(), fast);
            e.write_all(payload).and_then(|()| e.finish())
        }
        Encoding::Deflate => {
            let mut e = DeflateEncoder::new(Vec::new(), fast);
            e.write_all(payload).and_then(|()| e.finish())
        }
        Encoding::Zlib => {
            let mut e = ZlibEncoder::new(Vec::new(), fast);
            e.write_all(payload).and_then(|()| e.finish())
        }
    };
    result.expect("in memory")
}

fn chunk(body: &[u8], sizes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = body;
    let mut i = 0;
    while !rest.is_empty() {
        let size = usize::from(sizes[i % sizes.len()]).clamp(1, rest.len());
        i += 1;
        let (piece, tail) = rest.split_at(size);
        out.extend_from_slice(format!("{size:x}\r\n").as_bytes());
        out.extend_from_slice(piece);
        out.extend_from_slice(b"\r\n");
        rest = tail;
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

fuzz_target!(|case: Case| {
    let max = usize::from(case.max);
    let Some(Encode { encoding, chunks }) = case.encode else {
        if let Ok(head) = http::parse_response(&case.bytes) {
            assert!(head.body.len() <= case.bytes.len());
            check_decoded(&head, max);
        }
        return;
    };
    let payload = case.bytes;
    let name = match encoding {
        Encoding::Identity => "identity",
        Encoding::Gzip => "gzip",
        Encoding::XGzip => "x-gzip",
        Encoding::Deflate | Encoding::Zlib => "deflate",
        Encoding::ClaimedBr => "br",
    };
    let mut body = compress(encoding, &payload);
    if !chunks.is_empty() {
        body = chunk(&body, &chunks);
    }
    let mut block = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: {name}\r\n{}\r\n",
        if chunks.is_empty() {
            ""
        } else {
            "Transfer-Encoding: chunked\r\n"
        }
    )
    .into_bytes();
    block.extend_from_slice(&body);
    let head = http::parse_response(&block).expect("a well-formed head parses");
    assert_eq!(head.status, 200);
    assert_eq!(head.chunked, !chunks.is_empty());
    let decoded = check_decoded(&head, max);
    match encoding {
        // Undecodable: the body is returned as it is (de-chunked).
        Encoding::ClaimedBr => {}
        // Not decoded: no cap applies.
        Encoding::Identity => assert_eq!(decoded, payload),
        _ if payload.is_empty() => {}
        _ => assert_eq!(decoded, payload[..payload.len().min(max)]),
    }
});
