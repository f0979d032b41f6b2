//! Signals of an extracted text: its language, the quality signals and
//! filter decisions of the published rule sets (Gopher quality, Gopher
//! repetition, C4, FineWeb, with datatrove's parameters and reason names),
//! and duplicate keys (an exact key and a MinHash signature).
//!
//! [`Analyser::analyse`] reads a text once for the words (the word
//! boundaries of UAX #29 with the spaCy rules that change English counts)
//! and a few times for lines; its buffers are reused from text to
//! text, so a worker keeps one [`Analyser`].
//!
//! ```
//! use crawlsift_signals::{Analyser, Config};
//! let mut analyser = Analyser::new(Config { signals: true, minhash: false });
//! let a = analyser.analyse("Too short.");
//! assert_eq!(a.filters.unwrap().gopher_quality, Some("gopher_short_doc"));
//! ```

#![warn(missing_docs)]

mod c4;
// The dedup keys' parts are public with the `internals` feature, for the
// example that times them alone; the API is `Analyser`.
#[cfg(feature = "internals")]
pub mod dedup;
#[cfg(not(feature = "internals"))]
mod dedup;
mod fineweb;
mod gopher;
pub mod lang;
mod lines;
mod stop_words;
mod table;
mod words;

pub use c4::C4Signals;
pub use fineweb::FineWebSignals;
pub use gopher::{QualitySignals, RepetitionSignals};

use serde::{Serialize, Serializer};

/// What to compute besides the language.
#[derive(Clone, Copy, Debug, Default)]
pub struct Config {
    /// Raw signals, filter decisions and the exact key.
    pub signals: bool,
    /// The MinHash signature.
    pub minhash: bool,
}

/// Everything known about one text. Absent parts are left out of JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// ISO 639-1 (else 639-3) code; `None` when the text has too few letters.
    pub lang: Option<&'static str>,
    /// Confidence of `lang` in [0, 1] (0 without a language).
    pub lang_score: f64,
    /// The raw values of every rule set; `None` unless [`Config::signals`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signals: Option<Signals>,
    /// Every rule set's decision; `None` unless [`Config::signals`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filters: Option<Filters>,
    /// xxHash64 of the text normalised as datatrove's `simplify_text`
    /// normalises it, as 16 hex digits.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "serialize_key"
    )]
    pub exact_key: Option<u64>,
    /// 14 × 8 MinHash values; `None` without `--minhash` or when the text
    /// has fewer than 5 words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minhash: Option<Vec<u64>>,
}

fn serialize_key<S: Serializer>(key: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
    match key {
        Some(k) => s.serialize_str(&format!("{k:016x}")),
        None => s.serialize_none(),
    }
}

/// The raw values of every rule set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Signals {
    /// Gopher quality's values.
    pub gopher_quality: QualitySignals,
    /// Gopher repetition's values.
    pub gopher_repetition: RepetitionSignals,
    /// C4's values.
    pub c4: C4Signals,
    /// FineWeb's values.
    pub fineweb: FineWebSignals,
}

/// Per rule set, `None` when the text passes, else the name of the first
/// rule it fails (datatrove's reason string).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Filters {
    /// Gopher quality's decision.
    pub gopher_quality: Option<&'static str>,
    /// Gopher repetition's decision.
    pub gopher_repetition: Option<&'static str>,
    /// C4's decision.
    pub c4: Option<&'static str>,
    /// FineWeb's decision.
    pub fineweb: Option<&'static str>,
}

/// A rule set that `--filter` can apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Gopher quality and Gopher repetition.
    Gopher,
    /// Gopher quality alone.
    GopherQuality,
    /// Gopher repetition alone.
    GopherRepetition,
    /// C4.
    C4,
    /// FineWeb.
    FineWeb,
}

impl RuleSet {
    /// The name `--filter` takes.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Gopher => "gopher",
            RuleSet::GopherQuality => "gopher_quality",
            RuleSet::GopherRepetition => "gopher_repetition",
            RuleSet::C4 => "c4",
            RuleSet::FineWeb => "fineweb",
        }
    }

    /// Parses a comma-separated `--filter` list (`gopher,c4,fineweb`).
    pub fn parse_list(list: &str) -> Result<Vec<RuleSet>, UnknownRuleSet> {
        list.split(',')
            .filter(|s| !s.trim().is_empty())
            .map(str::parse)
            .collect()
    }
}

/// A `--filter` list named a rule set that does not exist.
#[derive(Debug, thiserror::Error)]
#[error("unknown filter {0:?}: the filters are gopher (both gopher_quality and gopher_repetition), c4 and fineweb, comma-separated")]
pub struct UnknownRuleSet(pub String);

impl std::str::FromStr for RuleSet {
    type Err = UnknownRuleSet;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "gopher" => Ok(RuleSet::Gopher),
            "gopher_quality" => Ok(RuleSet::GopherQuality),
            "gopher_repetition" => Ok(RuleSet::GopherRepetition),
            "c4" => Ok(RuleSet::C4),
            "fineweb" => Ok(RuleSet::FineWeb),
            _ => Err(UnknownRuleSet(s.to_owned())),
        }
    }
}

impl Filters {
    /// The first failure among `sets`, as (rule set, rule): what a
    /// `--filter` run counts a dropped page under.
    pub fn first_failure(&self, sets: &[RuleSet]) -> Option<(&'static str, &'static str)> {
        sets.iter().find_map(|set| match set {
            RuleSet::Gopher => self
                .gopher_quality
                .map(|r| ("gopher_quality", r))
                .or(self.gopher_repetition.map(|r| ("gopher_repetition", r))),
            RuleSet::GopherQuality => self.gopher_quality.map(|r| ("gopher_quality", r)),
            RuleSet::GopherRepetition => self.gopher_repetition.map(|r| ("gopher_repetition", r)),
            RuleSet::C4 => self.c4.map(|r| ("c4", r)),
            RuleSet::FineWeb => self.fineweb.map(|r| ("fineweb", r)),
        })
    }
}

/// Computes [`Analysis`] values, reusing its buffers.
pub struct Analyser {
    config: Config,
    /// Identify the language (see [`Analyser::without_lang`]).
    lang: bool,
    tokens: Vec<words::Token>,
    /// The spans of the text's lines ([`words::line_spans`]).
    lines: Vec<(usize, usize)>,
    repetition: gopher::Scratch,
    seen: table::HashTable,
    c4: c4::Scratch,
    simplified: String,
    scratch: String,
    minhash: dedup::MinhashBuffers,
}

impl Analyser {
    /// An analyser that identifies the language and computes what `config`
    /// asks for.
    pub fn new(config: Config) -> Analyser {
        Analyser {
            config,
            lang: true,
            tokens: Vec::new(),
            lines: Vec::new(),
            repetition: gopher::Scratch::default(),
            seen: table::HashTable::default(),
            c4: c4::Scratch::default(),
            simplified: String::new(),
            scratch: String::new(),
            minhash: dedup::MinhashBuffers::default(),
        }
    }

    /// An analyser that leaves the language out (`lang` `None`,
    /// `lang_score` 0): identification costs ~4–9 µs per text (512 bytes
    /// read at most; the cost grows with the bytes read).
    pub fn without_lang(mut self) -> Analyser {
        self.lang = false;
        self
    }

    /// The analysis of `text`.
    pub fn analyse(&mut self, text: &str) -> Analysis {
        self.finish(text, Parts::default())
    }

    /// The analysis of `text` in a run that drops the texts failing a rule
    /// set of `sets` (`--filter`): `Err((rule set, rule))` for the first
    /// failure in the order of `sets` (as [`Filters::first_failure`] names
    /// it), else the analysis [`Analyser::analyse`] gives. The rule sets
    /// are computed one after the other and the first failure ends the
    /// work: a dropped text needs neither the other rule sets, nor its
    /// language, nor its keys. The rule sets of `sets` are computed even
    /// when the [`Config`] leaves the signals out; a kept text then has
    /// them in neither `signals` nor `filters`.
    pub fn analyse_or_drop(
        &mut self,
        text: &str,
        sets: &[RuleSet],
    ) -> Result<Analysis, (&'static str, &'static str)> {
        let mut parts = Parts {
            dropping: true,
            ..Parts::default()
        };
        for &set in sets {
            let failure = match set {
                RuleSet::Gopher => self
                    .gopher_quality(text, &mut parts)
                    .map(|rule| ("gopher_quality", rule))
                    .or_else(|| {
                        self.gopher_repetition(text, &mut parts)
                            .map(|rule| ("gopher_repetition", rule))
                    }),
                RuleSet::GopherQuality => self
                    .gopher_quality(text, &mut parts)
                    .map(|rule| ("gopher_quality", rule)),
                RuleSet::GopherRepetition => self
                    .gopher_repetition(text, &mut parts)
                    .map(|rule| ("gopher_repetition", rule)),
                RuleSet::C4 => self.c4(text, &mut parts).map(|rule| ("c4", rule)),
                RuleSet::FineWeb => self.fineweb(text, &mut parts).map(|rule| ("fineweb", rule)),
            };
            if let Some(failure) = failure {
                return Err(failure);
            }
        }
        Ok(self.finish(text, parts))
    }

    /// The analysis, with the rule sets `parts` holds already.
    fn finish(&mut self, text: &str, mut parts: Parts) -> Analysis {
        // The text is kept: every value of the rule sets still to compute
        // is output, failing or not.
        parts.dropping = false;
        let language = if self.lang {
            lang::identify(text)
        } else {
            None
        };
        let mut analysis = Analysis {
            lang: language.map(|l| l.code),
            lang_score: language.map_or(0.0, |l| l.score),
            signals: None,
            filters: None,
            exact_key: None,
            minhash: None,
        };
        if self.config.signals {
            self.gopher_quality(text, &mut parts);
            self.gopher_repetition(text, &mut parts);
            self.c4(text, &mut parts);
            self.fineweb(text, &mut parts);
            if let (Some(quality), Some(repetition), Some(c4), Some(fineweb)) =
                (parts.quality, parts.repetition, parts.c4, parts.fineweb)
            {
                analysis.filters = Some(Filters {
                    gopher_quality: quality.1,
                    gopher_repetition: repetition.1,
                    c4: c4.1,
                    fineweb: fineweb.1,
                });
                analysis.signals = Some(Signals {
                    gopher_quality: quality.0,
                    gopher_repetition: repetition.0,
                    c4: c4.0,
                    fineweb: fineweb.0,
                });
            }
        }
        if self.config.signals || self.config.minhash {
            dedup::simplify(text, &mut self.simplified, &mut self.scratch);
            if self.config.signals {
                analysis.exact_key = Some(dedup::exact_key(&self.simplified));
            }
            if self.config.minhash {
                analysis.minhash = dedup::minhash(&self.simplified, &mut self.minhash);
            }
        }
        analysis
    }

    /// The words of `text` in `self.tokens` (once per text), their counts
    /// and the stop words among them.
    fn tokens(&mut self, text: &str, parts: &mut Parts) -> words::TokenCounts {
        if let Some(counts) = parts.words {
            return counts;
        }
        let counts = words::tokenize(text, &mut self.tokens);
        parts.words = Some(counts);
        counts
    }

    /// The spans of the lines of `text` in `self.lines` (once per text:
    /// Gopher quality and C4 both read them).
    fn line_spans(&mut self, text: &str, parts: &mut Parts) {
        if !parts.line_spans {
            words::line_spans(text, &mut self.lines);
            parts.line_spans = true;
        }
    }

    /// The repeated lines of `text` (once per text: Gopher repetition and
    /// FineWeb both read them).
    fn line_duplicates(&mut self, text: &str, parts: &mut Parts) -> lines::LineDuplicates {
        *parts
            .line_duplicates
            .get_or_insert_with(|| lines::line_duplicates(text, &mut self.seen))
    }

    /// Gopher quality's first failure (computed once per text).
    fn gopher_quality(&mut self, text: &str, parts: &mut Parts) -> Option<&'static str> {
        if parts.quality.is_none() {
            let counts = self.tokens(text, parts);
            self.line_spans(text, parts);
            let signals = gopher::quality_signals(text, self.tokens.len(), &counts, &self.lines);
            let failure = gopher::quality_failure(&signals);
            parts.quality = Some((signals, failure));
        }
        parts.quality.as_ref().and_then(|(_, failure)| *failure)
    }

    /// Gopher repetition's first failure (computed once per text).
    fn gopher_repetition(&mut self, text: &str, parts: &mut Parts) -> Option<&'static str> {
        if parts.repetition.is_none() {
            self.tokens(text, parts);
            let lines = self.line_duplicates(text, parts);
            let signals = gopher::repetition_signals(
                text,
                &self.tokens,
                &lines,
                &mut self.repetition,
                parts.dropping,
            );
            let failure = gopher::repetition_failure(text, &signals);
            parts.repetition = Some((signals, failure));
        }
        parts.repetition.as_ref().and_then(|(_, failure)| *failure)
    }

    /// C4's failure (computed once per text).
    fn c4(&mut self, text: &str, parts: &mut Parts) -> Option<&'static str> {
        if parts.c4.is_none() {
            // The words, when a rule set before has split them.
            self.line_spans(text, parts);
            let tokens = parts.words.map(|_| self.tokens.as_slice());
            let signals = c4::signals(text, &self.lines, tokens, &mut self.c4);
            let failure = c4::failure(&signals);
            parts.c4 = Some((signals, failure));
        }
        parts.c4.as_ref().and_then(|(_, failure)| *failure)
    }

    /// FineWeb's first failure (computed once per text).
    fn fineweb(&mut self, text: &str, parts: &mut Parts) -> Option<&'static str> {
        if parts.fineweb.is_none() {
            self.tokens(text, parts);
            let lines = self.line_duplicates(text, parts);
            let signals = fineweb::signals(self.tokens.len(), &lines);
            let failure = fineweb::failure(&signals);
            parts.fineweb = Some((signals, failure));
        }
        parts.fineweb.as_ref().and_then(|(_, failure)| *failure)
    }
}

/// The rule sets computed so far for one text, each with its first failure.
#[derive(Default)]
struct Parts {
    /// A failing text is dropped (`--filter`): a rule set's values after
    /// its first failure are not needed.
    dropping: bool,
    /// Set once the text is tokenized: its token counts and stop-word mask.
    words: Option<words::TokenCounts>,
    /// Set once `Analyser::lines` holds the text's lines (Python's
    /// `splitlines`).
    line_spans: bool,
    /// Set once the text's lines are counted (Gopher repetition, FineWeb).
    line_duplicates: Option<lines::LineDuplicates>,
    quality: Option<(gopher::QualitySignals, Option<&'static str>)>,
    repetition: Option<(gopher::RepetitionSignals, Option<&'static str>)>,
    c4: Option<(c4::C4Signals, Option<&'static str>)>,
    fineweb: Option<(fineweb::FineWebSignals, Option<&'static str>)>,
}

/// [`Analyser::analyse`] with a new analyser (for one-off use).
pub fn analyse(text: &str, config: &Config) -> Analysis {
    Analyser::new(*config).analyse(text)
}

/// Where the shared test data is (TESTING.md).
#[cfg(test)]
#[path = "../../../tests/support/shared.rs"]
pub(crate) mod support;

/// The shared datasets, for the unit tests; a missing folder fails naming
/// it and TESTING.md.
#[cfg(test)]
pub(crate) fn datasets_dir() -> String {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets")
        .display()
        .to_string()
}

/// The gold texts of the shared datasets named (their `gold/` files, as
/// UTF-8 with replacement), for the unit tests that check a fast path
/// against its reference on real texts.
#[cfg(test)]
pub(crate) fn gold_texts(datasets: &[&str]) -> Vec<String> {
    let root = datasets_dir();
    let mut texts = Vec::new();
    for dataset in datasets {
        let dir = format!("{root}/{dataset}/gold");
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir}: {e}")) {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            texts.push(String::from_utf8_lossy(&bytes).into_owned());
        }
    }
    texts
}
