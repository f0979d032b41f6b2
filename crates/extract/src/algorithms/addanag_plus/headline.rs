//! The headline: kept with the chosen block unless it repeats the page's
//! title, and the story under it.
//!
//! An `<h1>`/`<h2>` line shortly before the chosen block
//! ([`Params::headline_reach`]) is kept with it (in
//! [`extract`](super::extract)); one that opens the chosen text and
//! repeats the page's title is left out, as Readability does: the title is
//! given apart (and first in text and WET output).
//!
//! **The story under its headline** ([`under_headline`]). A short story
//! loses to a longer block elsewhere on the page (a legal footer, a poll,
//! another story's teaser, the comment thread): the best chain is worth
//! more. But the page names its story: the `<h1>` that repeats its title
//! heads it. When the best chain lies apart from that headline (neither
//! holding it nor starting within [`Params::headline_reach`] lines under
//! it), the chain that starts at the first region under the headline
//! (within [`Params::story_reach`] lines), and runs as far down as pays,
//! is the article reading instead when it holds a paragraph, is worth at
//! least [`Params::story_share`] of the best chain, and ends before the
//! best chain's region before (a story cut by a box in its middle, the
//! best chain its longer half, is left as it is: joined, it gives the box)
//! or starts after it.

use super::params::{PARAMS, RULES};
use super::parts::{is_paragraph, Parts};
use super::readings::{value, Chain, Costs, Reading};
use crate::density::text::TextSink;
use crate::density::{Line, Region};

#[cfg(doc)]
use super::params::Params;

/// The first of the chosen lines `first..=last` after a headline that
/// opens their text and repeats `title`, else `first`. `sink` is used to
/// read the headline and left empty.
pub(super) fn past_repeated_title(
    html: &str,
    title: &str,
    lines: &[Line],
    parts: &[Parts],
    (first, last): (usize, usize),
    reading: &Reading,
    sink: &mut TextSink,
) -> usize {
    let opening = (first..last).find(|&i| {
        let marked = parts.get(i).is_none_or(|p| reading.marked(p));
        lines.get(i).is_some_and(|l| l.content > 0 && !marked)
    });
    let Some((i, heading)) = opening.and_then(|i| {
        lines
            .get(i)
            .filter(|l| matches!(l.heading, 1 | 2))
            .map(|l| (i, l))
    }) else {
        return first;
    };
    sink.append_html(html, heading.start as usize, heading.end as usize, RULES);
    let repeated = repeats(title, sink.written());
    sink.clear();
    if repeated {
        i + 1
    } else {
        first
    }
}

/// Whether `heading` repeats `title`: more than 3/4 of it (by the length
/// of its words) is words of the title, Readability's `textSimilarity`.
/// False for texts of more than [`Params::max_headline_words`] words: each
/// word is looked for among the other's, and a page can put its whole text
/// in its title and an unclosed `<h1>`.
pub(super) fn repeats(title: &str, heading: &str) -> bool {
    fn words(text: &str) -> impl Iterator<Item = &str> + Clone {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
    }
    let same = |a: &str, b: &str| match (a.is_ascii(), b.is_ascii()) {
        (true, true) => a.eq_ignore_ascii_case(b),
        _ => a
            .chars()
            .flat_map(char::to_lowercase)
            .eq(b.chars().flat_map(char::to_lowercase)),
    };
    let too_long = |text| words(text).nth(PARAMS.max_headline_words).is_some();
    if words(title).next().is_none() || too_long(title) || too_long(heading) {
        return false;
    }
    // The length of the words joined by spaces: all, and those not in the title.
    let (mut all, mut new) = ((0, 0), (0, 0));
    for word in words(heading) {
        all = (all.0 + word.len(), all.1 + 1);
        if !words(title).any(|t| same(t, word)) {
            new = (new.0 + word.len(), new.1 + 1);
        }
    }
    let joined = |(len, count): (usize, usize)| len + count.saturating_sub(1);
    all.1 > 0 && (joined(new) as f64) < 0.25 * joined(all) as f64
}

/// The article reading that starts under the page's headline, when the
/// best reading `best` (under `costs`) lies apart from it (see the
/// module's doc); `None` when it does not, or there is no such headline.
/// `sink` is used to read the headlines and left empty.
#[allow(clippy::too_many_arguments)]
pub(super) fn under_headline(
    html: &str,
    title: &str,
    lines: &[Line],
    parts: &[Parts],
    regions: &[Region],
    costs: Costs,
    best: &Reading,
    sink: &mut TextSink,
) -> Option<Reading> {
    // The headline: of the page's first few `<h1>` lines of text, the
    // first that repeats the title (a site's name alone is too short).
    let head = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.heading == 1 && l.content >= PARAMS.story_headline_chars)
        .take(PARAMS.story_headlines)
        .find(|(_, l)| {
            sink.append_html(html, l.start as usize, l.end as usize, RULES);
            let repeated = repeats(title, sink.written());
            sink.clear();
            repeated
        })
        .map(|(i, _)| i)?;
    let (first, last) = best.lines;
    let heads = first <= head + PARAMS.headline_reach && head <= last;
    if heads || parts.get(head).is_none_or(|p| best.marked(p)) {
        return None;
    }
    // The first region under the headline (or holding it).
    let lo = regions.partition_point(|r| r.last < head);
    if regions.get(lo)?.first > head + PARAMS.story_reach {
        return None;
    }
    // The chain from `lo` down to the region where its value is largest.
    let keeps = best.trust.keeps();
    let sum = |from: usize, to: usize| -> f64 {
        parts
            .get(from..to)
            .unwrap_or_default()
            .iter()
            .map(|p| value(p, costs, &keeps))
            .sum()
    };
    let (mut run, mut top, mut previous) = (0.0, None, None);
    for (j, region) in regions.iter().enumerate().skip(lo) {
        if let Some(previous) = previous {
            run += sum(previous + 1, region.first);
        }
        run += sum(region.first, region.last + 1);
        if top.is_none_or(|(v, _)| run > v) {
            top = Some((run, j));
        }
        previous = Some(region.last);
    }
    let (value, hi) = top?;
    let apart = hi + 1 < best.chain.lo || best.chain.hi < lo;
    if !apart || value < PARAMS.story_share * best.chain.value {
        return None;
    }
    let story = Reading::of(Chain { lo, hi, value }, best.trust, regions)?;
    let has_paragraph = story.given(lines, parts).any(is_paragraph);
    has_paragraph.then_some(story)
}
