//! The chosen span grown over the lines just outside it.
//!
//! The chain is made of AdDANAg's regions, runs of lines whose text
//! outweighs their markup byte for byte (formula (1)); a line whose text
//! pays for its markup only at [`Params::code_cost`] lies outside every
//! region, and though the chain keeps such lines between its regions, it
//! loses them at its ends: a product's list of features in `<li>`s heavy
//! with classes, an article's opening paragraphs under heavy wrappers, a
//! shopper's favourite products under her profile's header. So the chosen
//! span is grown over the lines just outside it, up to
//! [`Params::edge_reach_above`] lines above it and
//! [`Params::edge_reach_below`] below it, never into another region nor
//! past trusted furniture, to the line where the value of the lines walked
//! over ([`value`], under the reading's costs and trust) is largest, when
//! that value is over [`Params::edge_value`]: a heading, a date or a
//! caption (a few dozen characters) is not worth the risk of taking the
//! block above or below.

use super::params::PARAMS;
use super::parts::Parts;
use super::readings::{value, Costs, Reading};
use crate::density::Region;

#[cfg(doc)]
use super::params::Params;

/// The chosen span grown at each end over the lines next to it that lie
/// outside every region: `(block, last)` are its first and last lines,
/// `reading` and `costs` those it was chosen under.
pub(super) fn edges(
    parts: &[Parts],
    regions: &[Region],
    reading: &Reading,
    costs: Costs,
    (block, last): (usize, usize),
) -> (usize, usize) {
    let keeps = reading.trust.keeps();
    // The line the running value of the lines walked over is best at, and
    // that value; `None` while it is under `edge_value`. The walk stops
    // at trusted furniture.
    let grow = |walk: &mut dyn Iterator<Item = usize>| {
        let (mut sum, mut best) = (0.0, None);
        for i in walk {
            let Some(p) = parts.get(i).filter(|p| !reading.marked(p)) else {
                break;
            };
            sum += value(p, costs, &keeps);
            if sum > best.map_or(PARAMS.edge_value, |(_, v)| v) {
                best = Some((i, sum));
            }
        }
        best.map(|(i, _)| i)
    };
    // Up to the region before the chain, down to the one after it.
    let above = reading
        .chain
        .lo
        .checked_sub(1)
        .and_then(|r| regions.get(r))
        .map_or(0, |r| r.last + 1);
    let below = regions
        .get(reading.chain.hi + 1)
        .map_or(parts.len(), |r| r.first);
    let from = above.max(block.saturating_sub(PARAMS.edge_reach_above));
    let to = below.min(last + 1 + PARAMS.edge_reach_below);
    let first = grow(&mut (from..block).rev()).unwrap_or(block);
    let last = grow(&mut (last + 1..to)).unwrap_or(last);
    (first, last)
}
