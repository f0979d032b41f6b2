//! Every algorithm on any bytes, through the public API (`Extractor`):
//! no panic; title and text bounded by the decoded page (entities expand
//! at most 6 bytes for 5, blocks add a line break each); and the same
//! extractor gives the same result when it runs again on the same page
//! after another one (its reused buffers hold no state between pages).
#![no_main]

use arbitrary::Arbitrary;
use crawlsift::{charset, Algorithm, Extractor};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Case<'a> {
    label: Option<&'a str>,
    other: &'a [u8],
    raw: &'a [u8],
}

fuzz_target!(|case: Case<'_>| {
    let Case { label, other, raw } = case;
    let mut buffer = String::new();
    let decoded = charset::decode(raw, label, &mut buffer).text.len();
    let bound = 2 * decoded + 16;
    for &algorithm in Algorithm::ALL {
        let mut extractor = Extractor::new(algorithm);
        let first = extractor.extract(raw, label);
        assert!(
            first.text.len() <= bound && first.title.len() <= bound,
            "{}: {} bytes of text, {} of title from {decoded} decoded bytes",
            algorithm.name(),
            first.text.len(),
            first.title.len()
        );
        let first = (
            first.title.to_owned(),
            first.text.to_owned(),
            first.encoding,
        );
        let _ = extractor.extract(other, None);
        let again = extractor.extract(raw, label);
        assert_eq!(
            (again.title, again.text, again.encoding),
            (first.0.as_str(), first.1.as_str(), first.2),
            "{}: the same page extracts the same after another",
            algorithm.name()
        );
    }
});
