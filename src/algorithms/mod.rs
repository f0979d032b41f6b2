//! The extraction algorithms, selectable by name.

use std::fmt;
use std::str::FromStr;

/// Every algorithm dana implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// DANA: non-ASCII vs ASCII characters per line.
    Dana,
    /// DANAg: content vs code characters per line.
    Danag,
    /// AdDANAg: DANAg with hyperlink normalisation (Filter 3).
    Addanag,
}

impl Algorithm {
    /// All algorithms, in the order tables list them.
    pub const ALL: &'static [Algorithm] = &[Algorithm::Dana, Algorithm::Danag, Algorithm::Addanag];

    /// The name used on the command line and in outputs.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Dana => "dana",
            Algorithm::Danag => "danag",
            Algorithm::Addanag => "addanag",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm name that dana does not know.
#[derive(Debug, thiserror::Error)]
#[error("unknown algorithm `{0}`; known: dana, danag, addanag")]
pub struct UnknownAlgorithm(pub String);

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL
            .iter()
            .copied()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownAlgorithm(s.to_string()))
    }
}

/// The result of extracting one page; borrows the extractor's buffers.
#[derive(Debug)]
pub struct Extraction<'a> {
    /// The page `<title>`, entities decoded, whitespace collapsed.
    pub title: &'a str,
    /// The main text: paragraphs separated by `\n`.
    pub text: &'a str,
    /// The encoding the page was decoded from (WHATWG name).
    pub encoding: &'static str,
}

/// Extracts main text with one algorithm, reusing its buffers across pages.
/// A worker thread owns one and calls [`Extractor::extract`] for every record.
pub struct Extractor {
    algorithm: Algorithm,
    decoded: String,
    title: String,
    text: String,
}

impl Extractor {
    pub fn new(algorithm: Algorithm) -> Self {
        Extractor { algorithm, decoded: String::new(), title: String::new(), text: String::new() }
    }

    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Extracts the main text of one page from its raw bytes. `http_charset` is
    /// the charset label of the HTTP `Content-Type`, if any.
    pub fn extract(&mut self, raw: &[u8], http_charset: Option<&str>) -> Extraction<'_> {
        // Placeholder until the density core lands: all text, no extraction.
        let _ = http_charset;
        self.decoded.clear();
        self.decoded.push_str(&String::from_utf8_lossy(raw));
        self.title.clear();
        self.text.clear();
        self.text.push_str(&self.decoded);
        Extraction { title: &self.title, text: &self.text, encoding: "UTF-8" }
    }
}
