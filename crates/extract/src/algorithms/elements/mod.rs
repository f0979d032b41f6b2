//! Algorithms that read a page as a sequence of elements (characters, tokens
//! or virtual lines) instead of through the DANA line profile: content code
//! blurring ([`super::ccb`]) and the baselines of the papers' comparisons
//! ([`super::baselines`]). This file holds what they share: the token walk,
//! writing the chosen elements as text, and the reusable buffers.

mod baselines;
pub(crate) mod ccb;
pub(crate) mod tokens;

#[cfg(test)]
pub(crate) use tokens::tests;
pub(crate) use tokens::{chars, tokenize, write_lines, write_words, Token, TokenKind};

use crate::budget::{Budget, PageTimeout};
use crate::density::text::TextSink;
use crate::density::{LinkRule, Rules, Scratch as LineScratch};

/// The element-sequence algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Ccb,
    Accb,
    Tccb,
    Plain,
    Bte,
    Dsc,
    Cetr,
    Density,
}

/// Buffers reused from page to page by one [`super::Extractor`].
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub tokens: Vec<Token>,
    pub ccb: ccb::Buffers,
    pub lines: LineScratch,
    /// CETR's smoothing.
    pub smooth: ccb::Blur,
    /// Tags per line (CETR), tags before each token (DSC).
    pub counts: Vec<u32>,
    /// Per-line features (CETR).
    pub ratios: Vec<f32>,
    pub gradients: Vec<f32>,
    /// Per-line cluster (CETR).
    pub clusters: Vec<u8>,
    /// Which tokens or lines were chosen.
    pub chosen: Vec<bool>,
}

/// Sizes of what one extraction saw, for [`super::Extraction`].
pub(crate) struct Counts {
    /// Virtual lines, for the line-based algorithms (else 0).
    pub lines: usize,
    /// Separate runs of text written.
    pub runs: usize,
}

impl Scratch {
    /// The bytes its buffers hold on the heap.
    pub fn heap_bytes(&self) -> usize {
        crate::heap_bytes(&self.tokens)
            + self.ccb.heap_bytes()
            + self.lines.heap_bytes()
            + self.smooth.heap_bytes()
            + crate::heap_bytes(&self.counts)
            + crate::heap_bytes(&self.ratios)
            + crate::heap_bytes(&self.gradients)
            + crate::heap_bytes(&self.clusters)
            + crate::heap_bytes(&self.chosen)
    }

    /// Extracts `html` with `kind`: the title into `title`, the main text into
    /// `text` (both cleared first); `Err` when `budget` runs out.
    pub fn extract(
        &mut self,
        kind: Kind,
        html: &str,
        title: &mut String,
        text: &mut String,
        entities: &mut String,
        budget: &mut Budget,
    ) -> Result<Counts, PageTimeout> {
        let line_based = matches!(kind, Kind::Plain | Kind::Cetr | Kind::Density);
        let title_range = if line_based {
            self.lines
                .scan(html.as_bytes(), Rules::papers(LinkRule::Keep))
                .title
        } else {
            tokenize(html, &mut self.tokens)
        };
        let mut sink = TextSink::new(title, entities);
        if let Some(t) = title_range.and_then(|(a, b)| html.get(a..b)) {
            sink.append_text(t);
        }
        budget.check()?;
        let mut sink = TextSink::new(text, entities);
        let runs = match kind {
            Kind::Ccb => ccb::extract(self, html, ccb::Vector::Characters, &mut sink, budget)?,
            Kind::Accb => ccb::extract(
                self,
                html,
                ccb::Vector::CharactersWithoutAnchors,
                &mut sink,
                budget,
            )?,
            Kind::Tccb => ccb::extract(self, html, ccb::Vector::Tokens, &mut sink, budget)?,
            Kind::Plain => baselines::plain::extract(html, &mut sink),
            Kind::Bte => baselines::bte::extract(&self.tokens, html, &mut sink),
            Kind::Dsc => baselines::dsc::extract(self, html, &mut sink),
            Kind::Cetr => baselines::cetr::extract(self, html, &mut sink, budget)?,
            Kind::Density => baselines::density::extract(self, html, &mut sink),
        };
        Ok(Counts {
            lines: if line_based {
                self.lines.lines.len()
            } else {
                0
            },
            runs,
        })
    }
}
