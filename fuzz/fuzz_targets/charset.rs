//! Charset sniffing and decoding (crates/extract/src/charset.rs) on any bytes and any HTTP
//! label: the text is valid UTF-8, at most 3 bytes per input byte (the
//! longest a one-byte character or an error's U+FFFD takes), the input
//! itself when it is borrowed, and the same through `sniff` +
//! `decode_sniffed` as through `decode`.
#![no_main]

use arbitrary::Arbitrary;
use crawlsift::charset;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Case<'a> {
    label: Option<&'a str>,
    raw: &'a [u8],
}

fuzz_target!(|case: Case<'_>| {
    let Case { label, raw } = case;
    let mut buffer = String::new();
    let decoded = charset::decode(raw, label, &mut buffer);
    let (text, encoding) = (decoded.text, decoded.encoding);
    assert!(std::str::from_utf8(text.as_bytes()).is_ok());
    assert!(
        text.len() <= 3 * raw.len(),
        "{} bytes of {} decode to {} bytes",
        raw.len(),
        encoding.name(),
        text.len()
    );
    if decoded.borrows(raw) {
        assert_eq!(text.as_bytes(), raw);
    }
    let text = text.to_owned();

    let sniffed = charset::sniff(raw, label);
    let mut again = String::new();
    let second = charset::decode_sniffed(raw, sniffed, &mut again);
    assert_eq!(second.text, text);
    assert_eq!(second.encoding, encoding);
    if sniffed.utf8_if_valid() && std::str::from_utf8(raw).is_ok() {
        assert!(
            second.borrows(raw),
            "valid UTF-8 without a label is borrowed"
        );
    }
    let _ = charset::meta_charset(raw);
});
