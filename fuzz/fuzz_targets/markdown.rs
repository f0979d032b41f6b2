//! The Markdown renderer on any bytes, through the public API
//! (`Extractor::with_markdown`), for every algorithm that renders it: no
//! panic; the text the same as without Markdown; the Markdown bounded by
//! the decoded page (its escapes, fences, table rows and padding are at
//! most a constant times the markup they come from); and the same result
//! when the extractor runs again on the same page after another one.
#![no_main]

use arbitrary::Arbitrary;
use crawlsift::{charset, Algorithm, Extractor, MarkdownOptions};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Case<'a> {
    links: bool,
    images: bool,
    url: Option<&'a str>,
    other: &'a [u8],
    raw: &'a [u8],
}

fuzz_target!(|case: Case<'_>| {
    let Case {
        links,
        images,
        url,
        other,
        raw,
    } = case;
    let mut buffer = String::new();
    let decoded = charset::decode(raw, None, &mut buffer).text.len();
    let bound = 16 * decoded + 64;
    let options = MarkdownOptions { links, images };
    for &algorithm in Algorithm::ALL {
        let mut plain = Extractor::new(algorithm);
        let text = plain.extract(raw, None).text.to_owned();
        let mut extractor = Extractor::new(algorithm).with_markdown(options);
        let first = extractor.extract_at(raw, None, url);
        assert_eq!(first.text, text, "{}: the text changed", algorithm.name());
        let markdown = first.markdown.map(str::to_owned);
        if let Some(md) = &markdown {
            // A long URL in every link is the one unbounded addition.
            let links = if links { url.map_or(0, str::len) * decoded } else { 0 };
            assert!(
                md.len() <= bound + links,
                "{}: {} bytes of Markdown from {decoded} decoded bytes",
                algorithm.name(),
                md.len()
            );
        }
        let _ = extractor.extract_at(other, None, url);
        let again = extractor.extract_at(raw, None, url);
        assert_eq!(
            again.markdown.map(str::to_owned),
            markdown,
            "{}: the same page renders the same after another",
            algorithm.name()
        );
    }
});
