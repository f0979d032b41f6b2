//! Readings of the page: the value of a line under a reading's costs and
//! trust, the best chain of regions, and what a chain gives.
//!
//! A line is worth its non-link text less a cost per markup byte
//! ([`Params::code_cost`]) and one per anchor-text character
//! ([`Params::link_cost`]) times the square of the line's link density: a
//! menu pays in full, a paragraph with a few links (density .2) 4 %.
//! Inside `<main>` or `<article>` a line pays
//! [`Params::declared_link_share`] of the link cost: where the page itself
//! says its content is, link-dense lines are more often part of it (a
//! changelog of links, a list of sources, a listing) than elsewhere. The
//! text of furniture a reading trusts is worth nothing ([`Trust`]).
//!
//! The chosen regions are the run of consecutive regions with the largest
//! total value, the lines between them included ([`best_chain`]); which
//! furniture marks to trust is decided in [`super::furniture`].

use super::params::PARAMS;
use super::parts::{is_paragraph, Parts};
use crate::density::{Line, Region};

#[cfg(doc)]
use super::params::Params;

/// What markup and anchor text cost against non-link text.
#[derive(Clone, Copy)]
pub(super) struct Costs {
    /// Per markup byte.
    pub(super) code: f64,
    /// Per markup byte inside `<main>` or `<article>`.
    pub(super) declared_code: f64,
    /// Per anchor-text character on a line of links only.
    pub(super) link: f64,
}

/// Which furniture marks a valuation trusts.
#[derive(Clone, Copy)]
pub(super) enum Trust {
    All,
    /// Strong marks and those nested in weak furniture.
    Nested,
    Strong,
    None,
    /// [`Trust::All`] but for comment threads.
    AllButComments,
    /// [`Trust::Nested`] but for comment threads.
    NestedButComments,
    /// [`Trust::Strong`] but for comment threads.
    StrongButComments,
}

impl Trust {
    /// How much of a line's text counts, by its [`Parts::mark`]: the text
    /// of trusted furniture is worth nothing.
    pub(super) fn keeps(self) -> [f64; 5] {
        match self {
            Trust::All => [1.0, 0.0, 0.0, 0.0, 0.0],
            Trust::Nested => [1.0, 1.0, 0.0, 0.0, 0.0],
            Trust::Strong => [1.0, 1.0, 1.0, 0.0, 0.0],
            Trust::None => [1.0, 1.0, 1.0, 1.0, 1.0],
            Trust::AllButComments => [1.0, 0.0, 0.0, 0.0, 1.0],
            Trust::NestedButComments => [1.0, 1.0, 0.0, 0.0, 1.0],
            Trust::StrongButComments => [1.0, 1.0, 1.0, 0.0, 1.0],
        }
    }

    /// This trust with the marks of comment threads lifted; `None` when it
    /// trusts none.
    pub(super) fn but_comments(self) -> Option<Trust> {
        match self {
            Trust::All => Some(Trust::AllButComments),
            Trust::Nested => Some(Trust::NestedButComments),
            Trust::Strong => Some(Trust::StrongButComments),
            _ => None,
        }
    }
}

/// A line's value: its non-link text minus the cost of its markup and
/// links, without a branch (lines come in no predictable order of kinds).
pub(super) fn value(parts: &Parts, costs: Costs, keeps: &[f64; 5]) -> f64 {
    let kept = keeps.get(usize::from(parts.mark)).copied().unwrap_or(1.0);
    f64::from(parts.text) * kept
        - costs.code * f64::from(parts.code)
        - costs.declared_code * f64::from(parts.declared_code)
        - costs.link * parts.links
}

/// A run of consecutive regions (inclusive indices) and its value.
#[derive(Clone, Copy)]
pub(super) struct Chain {
    pub(super) lo: usize,
    pub(super) hi: usize,
    pub(super) value: f64,
}

/// The run of consecutive regions with the largest total value of their
/// lines and the lines between them (the first on ties); `None` without
/// regions.
pub(super) fn best_chain(
    parts: &[Parts],
    regions: &[Region],
    costs: Costs,
    trust: Trust,
) -> Option<Chain> {
    best_chains(parts, regions, costs, [trust]).map(|[chain]| chain)
}

/// [`best_chain`] under each of `trusts`, in one walk over the lines: the
/// sums of the trusts are independent, so the processor adds them side by
/// side (each is a chain of dependent additions, in the lines' order).
pub(super) fn best_chains<const K: usize>(
    parts: &[Parts],
    regions: &[Region],
    costs: Costs,
    trusts: [Trust; K],
) -> Option<[Chain; K]> {
    let keeps = trusts.map(Trust::keeps);
    // The values of lines `from..to`, summed in order from -0.0 as
    // `Iterator::sum` does.
    let sum = |from: usize, to: usize| -> [f64; K] {
        let mut sums = [-0.0; K];
        for p in parts.get(from..to).unwrap_or_default() {
            for (sum, keeps) in sums.iter_mut().zip(&keeps) {
                *sum += value(p, costs, keeps);
            }
        }
        sums
    };
    let mut best: [Option<(f64, usize, usize)>; K] = [None; K];
    // The best chain ending at the previous region: its value and first
    // region.
    let mut open: [Option<(f64, usize)>; K] = [None; K];
    // The previous region's last line.
    let mut last = None;
    for (j, region) in regions.iter().enumerate() {
        let own = sum(region.first, region.last + 1);
        let gap = last.map(|last: usize| sum(last + 1, region.first));
        for k in 0..K {
            let (Some(open), Some(best), Some(&own)) =
                (open.get_mut(k), best.get_mut(k), own.get(k))
            else {
                continue;
            };
            let chain = match (*open, gap.and_then(|gap| gap.get(k).copied())) {
                (Some((v, start)), Some(gap)) => {
                    let joined = v + gap;
                    if joined > 0.0 {
                        (joined + own, start)
                    } else {
                        (own, j)
                    }
                }
                _ => (own, j),
            };
            *open = Some(chain);
            if best.is_none_or(|(b, _, _)| chain.0 > b) {
                *best = Some((chain.0, chain.1, j));
            }
        }
        last = Some(region.last);
    }
    let mut chains = [Chain {
        lo: 0,
        hi: 0,
        value: 0.0,
    }; K];
    for (chain, best) in chains.iter_mut().zip(best) {
        let (value, lo, hi) = best?;
        *chain = Chain { lo, hi, value };
    }
    Some(chains)
}

/// One reading of the page: the best chain of regions, and which furniture
/// marks were trusted in choosing it. [`Reading::best`] makes one.
pub(super) struct Reading {
    pub(super) chain: Chain,
    pub(super) trust: Trust,
    /// The chain's lines.
    pub(super) lines: (usize, usize),
}

impl Reading {
    /// The reading of `chain` under `trust`: its span, from its first
    /// region's first line to its last region's last.
    pub(super) fn of(chain: Chain, trust: Trust, regions: &[Region]) -> Option<Reading> {
        let span = (regions.get(chain.lo)?.first, regions.get(chain.hi)?.last);
        Some(Reading {
            chain,
            trust,
            lines: span,
        })
    }

    /// Whether a line with `parts` is furniture whose mark this reading
    /// trusts.
    pub(super) fn marked(&self, parts: &Parts) -> bool {
        self.trust.keeps().get(usize::from(parts.mark)) == Some(&0.0)
    }

    /// The lines this reading gives (headline aside): those of its span
    /// but its furniture.
    pub(super) fn given<'l>(
        &'l self,
        lines: &'l [Line],
        parts: &'l [Parts],
    ) -> impl Iterator<Item = &'l Line> {
        let (first, last) = self.lines;
        let chosen = lines.get(first..=last).unwrap_or_default();
        let marks = parts.get(first..=last).unwrap_or_default();
        chosen
            .iter()
            .zip(marks)
            .filter(|(_, p)| !self.marked(p))
            .map(|(l, _)| l)
    }

    /// The text characters this reading gives (headline aside).
    pub(super) fn text(&self, lines: &[Line], parts: &[Parts]) -> f64 {
        let text: u64 = self.given(lines, parts).map(|l| u64::from(l.content)).sum();
        text as f64
    }

    /// The anchor-text characters of the text given.
    pub(super) fn anchors(&self, lines: &[Line], parts: &[Parts]) -> f64 {
        let anchors: u64 = self.given(lines, parts).map(|l| u64::from(l.link)).sum();
        anchors as f64
    }
}

/// Whether the text of `reading` holds fewer than
/// [`Params::picture_paragraphs`] paragraphs ([`is_paragraph`]); the lines
/// are read up to the last paragraph needed (an article's span runs to
/// thousands of lines).
pub(super) fn few_paragraphs(lines: &[Line], parts: &[Parts], reading: &Reading) -> bool {
    reading
        .given(lines, parts)
        .filter(|l| is_paragraph(l))
        .take(PARAMS.picture_paragraphs)
        .count()
        < PARAMS.picture_paragraphs
}

/// Whether the text of `reading` has a paragraph ([`is_paragraph`]).
pub(super) fn has_paragraph(lines: &[Line], parts: &[Parts], reading: &Reading) -> bool {
    reading.given(lines, parts).any(is_paragraph)
}
