//! Which furniture marks a reading trusts.
//!
//! The counting pass marks the page furniture the markup names: weak marks
//! (class names such as `sidebar`, hidden elements), strong ones (`<nav>`,
//! a consent dialog) and comment threads. A mark can mislead: an article
//! inside a share plugin's container, a forum whose posts are named as
//! comments. [`Reading::best`] judges each kind of mark by what is left of
//! the page's best chain with it trusted:
//! - weak marks that take away most of it misled
//!   ([`Params::trusted_share`]); the furniture nested inside the weak
//!   furniture is then looked for ([`Nested`]) and judged alike, so an
//!   article inside a share plugin's container still has its video player
//!   and gallery marked;
//! - strong marks that leave no chain of positive value misled too, unless
//!   the page has no text outside its furniture at all (a shell a script
//!   fills);
//! - comment-thread marks that leave a scrap beside the thread (an opening
//!   post of a line, a header: under [`Params::thread_share`] of the chain
//!   with them lifted) name a forum thread's posts. An article beside its
//!   comments keeps far more than that share. On a page whose weak marks
//!   were not trusted the thread is also weighed against the chain with
//!   them trusted ([`Params::weak_thread_share`]): the scrap may be the
//!   forum's weak furniture (a pop-up's help text, a sign-in box) left as
//!   the page's best text only because the posts are named as comments.
//!   There the thread must also outweigh the chain chosen: an article whose
//!   weak marks misled would otherwise lose its text to a longer comment
//!   thread.

use super::params::PARAMS;
use super::parts::Parts;
use super::readings::{best_chain, best_chains, Chain, Costs, Reading, Trust};
use crate::density::cleaning::Cue;
use crate::density::nested::nested_marks;
use crate::density::{Line, Region};
use std::ops::RangeInclusive;

#[cfg(doc)]
use super::params::Params;

impl Reading {
    /// The best chain under `costs`, after deciding which furniture marks to
    /// trust: weak marks that take away most of the page's best text
    /// misled (then the furniture nested in them is looked for, and judged
    /// alike); so did strong ones that leave no text of worth (forums whose
    /// posts are marked as comments), unless the page has no text outside
    /// its furniture at all: a shell whose content a script loads, where
    /// the text left is the footer's and every mark is trusted. `None`
    /// without regions.
    pub(super) fn best(
        parts: &mut [Parts],
        regions: &[Region],
        costs: Costs,
        nested: &mut Nested,
    ) -> Option<Reading> {
        let [all, mut strong] = best_chains(parts, regions, costs, [Trust::All, Trust::Strong])?;
        let trusted =
            |chain: &Chain, strong: &Chain| chain.value >= PARAMS.trusted_share * strong.value;
        let mut any_nested = false;
        if strong.value > 0.0 && !trusted(&all, &strong) {
            let span = regions.get(strong.lo)?.first..=regions.get(strong.hi)?.last;
            any_nested = nested.mark(parts, span);
            if any_nested {
                // Strong furniture nested in weak furniture is strong.
                strong = best_chain(parts, regions, costs, Trust::Strong)?;
            }
        }
        // A shell (a page a script fills): no line outside the furniture
        // holds text; every mark is trusted, and it gives nothing (see "No
        // positive region" in [`extract`](super::extract)).
        let shell = || !parts.iter().any(|p| p.mark == 0 && p.has_text());
        let (chain, trust) = if strong.value <= 0.0 && shell() {
            (all, Trust::All)
        } else if strong.value <= 0.0 {
            (best_chain(parts, regions, costs, Trust::None)?, Trust::None)
        } else if trusted(&all, &strong) {
            (all, Trust::All)
        } else if any_nested {
            match best_chain(parts, regions, costs, Trust::Nested)? {
                chain if trusted(&chain, &strong) => (chain, Trust::Nested),
                _ => (strong, Trust::Strong),
            }
        } else {
            (strong, Trust::Strong)
        };
        // A forum thread whose posts are marked as comments: the page's
        // content is the thread, beside which the best chain without it is
        // a scrap (the opening post, a header). When the weak marks were
        // not trusted, the thread is also weighed with them trusted: the
        // scrap may be weak furniture (a pop-up's help text) that only
        // the thread's marks left as the page's best text.
        let (chain, trust) = match trust.but_comments() {
            Some(lifted) if parts.iter().any(|p| p.mark == 4) => {
                match best_chain(parts, regions, costs, lifted)? {
                    posts if chain.value < PARAMS.thread_share * posts.value => (posts, lifted),
                    _ if matches!(trust, Trust::Strong | Trust::Nested) => {
                        match best_chain(parts, regions, costs, Trust::AllButComments)? {
                            posts
                                if all.value < PARAMS.weak_thread_share * posts.value
                                    && posts.value > chain.value =>
                            {
                                (posts, Trust::AllButComments)
                            }
                            _ => (chain, trust),
                        }
                    }
                    _ => (chain, trust),
                }
            }
            _ => (chain, trust),
        };
        Reading::of(chain, trust, regions)
    }
}

/// Furniture nested in weak furniture ([`nested_marks`]), set in the
/// lines' [`Parts::mark`] when a reading does not trust a page's weak marks:
/// only in the weak furniture of the chain chosen without them (the
/// misleading mark is there; walking all of a page's weak furniture would
/// be slow).
pub(super) struct Nested<'a> {
    pub(super) html: &'a [u8],
    pub(super) lines: &'a [Line],
    /// The lines looked at so far (a page is read up to twice), and
    /// whether any of them has a nested mark.
    pub(super) looked: Option<(RangeInclusive<usize>, bool)>,
    /// Each mark raised, with the line's mark before.
    pub(super) raised: &'a mut Vec<(usize, u8)>,
}

impl Nested<'_> {
    /// Sets the nested marks of the weak furniture among the lines `span`
    /// in `parts`; whether any line has one.
    pub(super) fn mark(&mut self, parts: &mut [Parts], span: RangeInclusive<usize>) -> bool {
        if let Some((looked, any)) = &self.looked {
            if looked.contains(span.start()) && looked.contains(span.end()) {
                return *any;
            }
        }
        let mut any = self.looked.as_ref().is_some_and(|(_, any)| *any);
        let raised = &mut *self.raised;
        nested_marks(self.html, self.lines, span.clone(), |i, cue| {
            if let Some(p) = parts.get_mut(i).filter(|p| p.mark > 0) {
                let mark = if cue >= Cue::Strong { 3 } else { 2 };
                if mark > p.mark {
                    any = true;
                    raised.push((i, p.mark));
                    p.mark = mark;
                }
            }
        });
        self.looked = Some((span, any));
        any
    }
}
