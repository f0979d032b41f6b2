//! The extraction algorithms, selectable by name, and the [`Extractor`]
//! that runs one of them page after page on reusable buffers.
//!
//! Each algorithm of the DANA family is a small file describing how it
//! counts (a `LineDensity`); everything else is the shared core in
//! the `density` core.

mod addanag;
mod addanag_plus;
mod dana;
mod danag;
mod elements;
mod filters;
pub mod page_type;

use crate::budget::{Budget, PageTimeout};
use crate::charset;
use crate::density::landmarks::{self, Landmarks};
use crate::density::markdown::Markdown;
use crate::density::{text::TextSink, Columns, Rules, Scratch, Selection};
use crate::metadata::{Metadata, MetadataReader, MetadataSettings};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

pub use crate::density::markdown::MarkdownOptions;
pub use page_type::{Cues, PageType};

/// Every algorithm crawlsift implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// DANA: non-ASCII vs ASCII characters per line.
    Dana,
    /// DANAg: content vs code characters per line.
    Danag,
    /// AdDANAg: DANAg with hyperlink normalisation (Filter 3).
    Addanag,
    /// AdDANAg's profile with crawlsift's region choice: regions weighed by
    /// non-link text, joined by cost/benefit, headline kept.
    AddanagPlus,
    /// DANAg after Filter 1 (hyperlinks removed with their anchor text).
    DanagFilter1,
    /// DANAg after Filter 2 (anchor attributes removed).
    DanagFilter2,
    /// Content code blurring over characters (Gottron 2008).
    Ccb,
    /// CCB with anchor tags left out of the content code vector.
    Accb,
    /// Content code blurring over tokens.
    Tccb,
    /// All text of the page: the papers' "no extraction" baseline.
    Plain,
    /// Body Text Extraction (Finn et al. 2001).
    Bte,
    /// Document Slope Curves (Pinto et al. 2002).
    Dsc,
    /// Content extraction via tag ratios (Weninger and Hsu 2008).
    Cetr,
    /// Density (Moreno et al. 2009).
    DensityMoreno,
}

impl Algorithm {
    /// All algorithms, in the order tables list them.
    pub const ALL: &'static [Algorithm] = &[
        Algorithm::Dana,
        Algorithm::Danag,
        Algorithm::Addanag,
        Algorithm::AddanagPlus,
        Algorithm::DanagFilter1,
        Algorithm::DanagFilter2,
        Algorithm::Ccb,
        Algorithm::Accb,
        Algorithm::Tccb,
        Algorithm::Plain,
        Algorithm::Bte,
        Algorithm::Dsc,
        Algorithm::Cetr,
        Algorithm::DensityMoreno,
    ];

    /// The algorithm used when none is named: the one that measures best on
    /// the shared datasets (see ACCURACY.md).
    pub const DEFAULT: Algorithm = Algorithm::AddanagPlus;

    /// The name used on the command line and in outputs.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Dana => "dana",
            Algorithm::Danag => "danag",
            Algorithm::Addanag => "addanag",
            Algorithm::AddanagPlus => "addanag-plus",
            Algorithm::DanagFilter1 => "danag-f1",
            Algorithm::DanagFilter2 => "danag-f2",
            Algorithm::Ccb => "ccb",
            Algorithm::Accb => "accb",
            Algorithm::Tccb => "tccb",
            Algorithm::Plain => "plain",
            Algorithm::Bte => "bte",
            Algorithm::Dsc => "dsc",
            Algorithm::Cetr => "cetr",
            Algorithm::DensityMoreno => "density-moreno",
        }
    }

    fn family(self) -> Family {
        let line_density = match self {
            Algorithm::Dana => dana::DANA,
            Algorithm::Danag => danag::DANAG,
            Algorithm::Addanag => addanag::ADDANAG,
            Algorithm::AddanagPlus => addanag_plus::ADDANAG_PLUS,
            Algorithm::DanagFilter1 => filters::FILTER_1,
            Algorithm::DanagFilter2 => filters::FILTER_2,
            Algorithm::Ccb => return Family::Elements(elements::Kind::Ccb),
            Algorithm::Accb => return Family::Elements(elements::Kind::Accb),
            Algorithm::Tccb => return Family::Elements(elements::Kind::Tccb),
            Algorithm::Plain => return Family::Elements(elements::Kind::Plain),
            Algorithm::Bte => return Family::Elements(elements::Kind::Bte),
            Algorithm::Dsc => return Family::Elements(elements::Kind::Dsc),
            Algorithm::Cetr => return Family::Elements(elements::Kind::Cetr),
            Algorithm::DensityMoreno => return Family::Elements(elements::Kind::Density),
        };
        Family::LineDensity(line_density)
    }
}

impl Default for Algorithm {
    fn default() -> Self {
        Algorithm::DEFAULT
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm name that crawlsift does not know.
#[derive(Debug, thiserror::Error)]
#[error("unknown algorithm `{name}`; known: {known}")]
pub struct UnknownAlgorithm {
    name: String,
    known: String,
}

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL
            .iter()
            .copied()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let known = Algorithm::ALL
                    .iter()
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join(", ");
                UnknownAlgorithm {
                    name: s.to_string(),
                    known,
                }
            })
    }
}

/// How an algorithm reads the page: the DANA line profile, or a sequence
/// of elements (content code blurring and the baselines, [`elements`]).
enum Family {
    LineDensity(LineDensity),
    Elements(elements::Kind),
}

/// How one algorithm of the DANA family counts: its link rule (the
/// pre-processing Filters) and its two columns per line, and how it chooses
/// the main-content lines of the profile.
#[derive(Clone, Copy)]
struct LineDensity {
    rules: Rules,
    columns: Columns,
    choice: Choice,
}

/// How the main-content lines are chosen from the density profile.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Choice {
    /// The papers' Algorithm 1: the heaviest region and its neighbours
    /// within `gap` lines.
    Algorithm1,
    /// [`addanag_plus`]: non-link weight, cost/benefit chain, headline.
    Chain,
}

/// The default `gap` of Algorithm 1, in virtual lines.
pub const DEFAULT_GAP: usize = 20;

/// The result of extracting one page; borrows the extractor's buffers.
#[derive(Debug)]
pub struct Extraction<'a> {
    /// The page `<title>`, entities decoded, whitespace collapsed.
    pub title: &'a str,
    /// The main text: paragraphs separated by `\n`.
    pub text: &'a str,
    /// The same regions as Markdown, when the extractor renders it
    /// ([`Extractor::with_markdown`]) and the algorithm is of the DANA
    /// family (`None` for the element-based algorithms).
    pub markdown: Option<&'a str>,
    /// What the page says about itself (author, dates, site, description,
    /// canonical URL), read from its head, JSON-LD and bylines; all `None`
    /// when the extractor reads no metadata ([`Extractor::with_metadata`]).
    pub metadata: &'a Metadata,
    /// The encoding the page was decoded from (WHATWG name).
    pub encoding: &'static str,
    /// Virtual lines the page was split into.
    pub lines: usize,
    /// Positive regions found.
    pub regions: usize,
    /// The chosen regions and lines, if any.
    pub selection: Option<Selection>,
    /// What kind of page it is (addanag-plus only: `None` for the other
    /// algorithms), see [`page_type`].
    pub page_type: Option<PageType>,
    /// The extraction's expected word-level F1, in [0, 1] (addanag-plus
    /// only), see [`page_type`].
    pub confidence: Option<f32>,
    /// The cues both are computed from (addanag-plus only).
    pub cues: Option<Cues>,
}

/// Extracts main text with one algorithm, reusing its buffers across pages.
/// A worker thread owns one and calls [`Extractor::extract`] (or, with a
/// page timeout, [`Extractor::try_extract`]) for every record.
///
/// Every algorithm runs in time linear in the page; the page timeout
/// ([`Extractor::with_page_timeout`]) is a backstop on top, for whatever
/// page still takes too long: it bounds the CPU time one page may take.
pub struct Extractor {
    algorithm: Algorithm,
    gap: usize,
    page_timeout: Option<Duration>,
    decoded: String,
    scratch: Scratch,
    title: String,
    text: String,
    entities: String,
    elements: elements::Scratch,
    /// AdDANAg+'s buffers.
    plus: addanag_plus::Buffers,
    /// The Markdown renderer, when Markdown is asked for.
    markdown: Option<Markdown>,
    /// The metadata reader (on unless turned off) and the page's metadata.
    metadata: Option<MetadataReader>,
    page_metadata: Metadata,
}

impl Extractor {
    /// An extractor running `algorithm` with the default `gap`, its buffers
    /// empty.
    pub fn new(algorithm: Algorithm) -> Self {
        Extractor {
            algorithm,
            gap: DEFAULT_GAP,
            page_timeout: None,
            decoded: String::new(),
            scratch: Scratch::default(),
            title: String::new(),
            text: String::new(),
            entities: String::new(),
            elements: elements::Scratch::default(),
            plus: addanag_plus::Buffers::default(),
            markdown: None,
            metadata: Some(MetadataReader::new(MetadataSettings::default())),
            page_metadata: Metadata::default(),
        }
    }

    /// Reads the page metadata ([`Extraction::metadata`]) within these
    /// bounds, or (`None`) not at all. An extractor reads it with
    /// [`MetadataSettings::default`] unless told otherwise.
    pub fn with_metadata(mut self, settings: Option<MetadataSettings>) -> Self {
        self.metadata = settings.map(MetadataReader::new);
        self
    }

    /// Also renders the main content as Markdown ([`Extraction::markdown`]),
    /// in the same walk as the text, which stays as it is.
    pub fn with_markdown(mut self, options: MarkdownOptions) -> Self {
        self.markdown = Some(Markdown::new(options));
        self
    }

    /// Sets the `gap` of Algorithm 1 (virtual lines between regions). A
    /// run of over 4,096 lines of markup only (no text) counts as 4,096
    /// lines: the counting pass folds the rest to keep memory within a
    /// small multiple of the page, so a gap that large bridges any run.
    pub fn with_gap(mut self, gap: usize) -> Self {
        self.gap = gap;
        self
    }

    /// Sets the page timeout of [`Extractor::try_extract`]: the CPU time
    /// one page's extraction may take before it is stopped (`None`: no
    /// limit, the default). The time is checked between the steps of the
    /// algorithm and every so many elements inside its long loops, so a
    /// page stops shortly after its time is spent; `Some(Duration::ZERO)`
    /// stops every page at the first check.
    pub fn with_page_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.page_timeout = timeout;
        self
    }

    /// [`Extractor::with_page_timeout`] on an extractor in use.
    pub fn set_page_timeout(&mut self, timeout: Option<Duration>) {
        self.page_timeout = timeout;
    }

    /// The page timeout of [`Extractor::try_extract`] (`None`: no limit).
    pub fn page_timeout(&self) -> Option<Duration> {
        self.page_timeout
    }

    /// The bytes the extractor's buffers hold on the heap, kept from page
    /// to page: what one worker's extraction costs in memory beside the
    /// page itself. It grows with the largest page extracted so far, by a
    /// small multiple of its size.
    pub fn heap_bytes(&self) -> usize {
        self.decoded.capacity()
            + self.title.capacity()
            + self.text.capacity()
            + self.entities.capacity()
            + self.scratch.heap_bytes()
            + self.elements.heap_bytes()
            + self.plus.heap_bytes()
    }

    /// The algorithm this extractor runs.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Extracts the main text of one page from its raw bytes, however long
    /// it takes (the page timeout is not applied: see
    /// [`Extractor::try_extract`]). `http_charset` is the charset label of
    /// the HTTP `Content-Type`, if any.
    pub fn extract(&mut self, raw: &[u8], http_charset: Option<&str>) -> Extraction<'_> {
        self.extract_at(raw, http_charset, None)
    }

    /// [`Self::extract`] for a page fetched from `url`, which the Markdown's
    /// links are resolved against ([`MarkdownOptions::links`]).
    pub fn extract_at(
        &mut self,
        raw: &[u8],
        http_charset: Option<&str>,
        url: Option<&str>,
    ) -> Extraction<'_> {
        self.set_base(url);
        match self.run(raw, http_charset, url, &mut Budget::unlimited()) {
            Ok(extraction) => extraction,
            // An unlimited budget never runs out.
            Err(timeout) => unreachable!("{timeout}"),
        }
    }

    /// [`Extractor::extract`] within the page timeout
    /// ([`Extractor::with_page_timeout`]): `Err` when the page's
    /// extraction used more CPU time than that and was stopped. The
    /// extractor is then ready for the next page.
    pub fn try_extract(
        &mut self,
        raw: &[u8],
        http_charset: Option<&str>,
    ) -> Result<Extraction<'_>, PageTimeout> {
        self.try_extract_at(raw, http_charset, None)
    }

    /// [`Self::try_extract`] for a page fetched from `url`, which the
    /// Markdown's links are resolved against ([`MarkdownOptions::links`]).
    pub fn try_extract_at(
        &mut self,
        raw: &[u8],
        http_charset: Option<&str>,
        url: Option<&str>,
    ) -> Result<Extraction<'_>, PageTimeout> {
        self.set_base(url);
        let mut budget = match self.page_timeout {
            Some(limit) => Budget::start(limit),
            None => Budget::unlimited(),
        };
        self.run(raw, http_charset, url, &mut budget)
    }

    /// The page URL the Markdown's links are resolved against.
    fn set_base(&mut self, url: Option<&str>) {
        if let Some(markdown) = &mut self.markdown {
            if markdown.options().links {
                markdown.set_base(url);
            }
        }
    }

    /// Extracts one page, checking `budget` between the steps.
    fn run(
        &mut self,
        raw: &[u8],
        http_charset: Option<&str>,
        url: Option<&str>,
        budget: &mut Budget,
    ) -> Result<Extraction<'_>, PageTimeout> {
        let sniffed = charset::sniff(raw, http_charset);
        let density = match self.algorithm.family() {
            Family::LineDensity(density) => density,
            Family::Elements(kind) => {
                let decoded = charset::decode_sniffed(raw, sniffed, &mut self.decoded);
                let html = decoded.text;
                if self.metadata.is_some() {
                    // No counting pass here to note the landmarks: a walk
                    // over the tags of its own does.
                    landmarks::collect(html.as_bytes(), &mut self.scratch.landmarks);
                }
                Self::read_metadata(
                    &mut self.metadata,
                    html,
                    url,
                    &self.scratch.landmarks,
                    None,
                    &mut self.page_metadata,
                );
                budget.check()?;
                let counts = self.elements.extract(
                    kind,
                    html,
                    &mut self.title,
                    &mut self.text,
                    &mut self.entities,
                    budget,
                )?;
                return Ok(Extraction {
                    title: &self.title,
                    text: &self.text,
                    markdown: None,
                    metadata: &self.page_metadata,
                    encoding: decoded.encoding.name(),
                    lines: counts.lines,
                    regions: counts.runs,
                    selection: None,
                    page_type: None,
                    confidence: None,
                    cues: None,
                });
            }
        };
        // Most pages are read as their own bytes once these are known to be
        // valid UTF-8: they are counted first and validated after, while
        // they are in cache (faster than validating first),
        // and counted again only when they turn out not to be.
        let early = sniffed
            .utf8_if_valid()
            .then(|| self.scratch.scan(raw, density.rules));
        let decoded = charset::decode_sniffed(raw, sniffed, &mut self.decoded);
        let html = decoded.text;
        let summary = match early {
            Some(summary) if decoded.borrows(raw) => summary,
            _ => self.scratch.scan(html.as_bytes(), density.rules),
        };
        budget.check()?;

        let mut title = TextSink::new(&mut self.title, &mut self.entities);
        if let Some(text) = summary.title.and_then(|(a, b)| html.get(a..b)) {
            title.append_text(text);
        }

        let mut text =
            TextSink::with_markdown(&mut self.text, &mut self.entities, self.markdown.as_mut());
        let selection = match density.choice {
            Choice::Algorithm1 => {
                let selection = self.scratch.select(density.columns, self.gap);
                budget.check()?;
                if let Some(selection) = selection {
                    self.scratch
                        .text_of(html, selection, density.rules, &mut text);
                }
                selection
            }
            Choice::Chain => addanag_plus::extract(
                &mut self.scratch,
                &mut self.plus,
                html,
                &self.title,
                &mut text,
                budget,
            )?,
        };
        if let Some(markdown) = &mut self.markdown {
            markdown.finish();
        }
        // The scan noted where the tags the metadata reads are; the
        // selection tells where the main text starts.
        let main_start = selection
            .and_then(|s| self.scratch.lines.get(s.lines.0))
            .map(|line| line.start as usize);
        Self::read_metadata(
            &mut self.metadata,
            html,
            url,
            &self.scratch.landmarks,
            main_start,
            &mut self.page_metadata,
        );
        budget.check()?;
        let (page_type, confidence, cues) = if density.choice == Choice::Chain {
            let cues = &mut self.plus.cues;
            cues.read_declared(html.as_bytes(), &self.scratch.landmarks);
            cues.read_title(&self.title);
            cues.count_prices(&self.text);
            cues.count_words(&self.text);
            cues.tags = summary.tags;
            match url {
                Some(url) => cues.read_url(url),
                None => (cues.url, cues.url_depth) = (0, 0),
            }
            let (page_type, types) = cues.page_type();
            (Some(page_type), Some(cues.confidence(&types)), Some(*cues))
        } else {
            (None, None, None)
        };
        Ok(Extraction {
            title: &self.title,
            text: &self.text,
            markdown: self.markdown.as_ref().map(Markdown::written),
            metadata: &self.page_metadata,
            encoding: decoded.encoding.name(),
            lines: self.scratch.lines.len(),
            regions: self.scratch.regions.len(),
            selection,
            page_type,
            confidence,
            cues,
        })
    }

    /// Reads the page's metadata from its `landmarks` (and around
    /// `main_start`, where the selected main text starts) when the
    /// extractor reads it; clears it otherwise.
    fn read_metadata(
        reader: &mut Option<MetadataReader>,
        html: &str,
        url: Option<&str>,
        landmarks: &Landmarks,
        main_start: Option<usize>,
        out: &mut Metadata,
    ) {
        match reader {
            Some(reader) => reader.read(html, url, landmarks, main_start, out),
            None => *out = Metadata::default(),
        }
    }
}
