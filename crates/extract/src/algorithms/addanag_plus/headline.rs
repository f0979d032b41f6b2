//! The headline: kept with the chosen block unless it repeats the page's
//! title.
//!
//! An `<h1>`/`<h2>` line shortly before the chosen block
//! ([`Params::headline_reach`]) is kept with it (in
//! [`extract`](super::extract)); one that opens the chosen text and
//! repeats the page's title is left out, as Readability does: the title is
//! given apart (and first in text and WET output).

use super::params::{PARAMS, RULES};
use super::parts::Parts;
use super::readings::Reading;
use crate::density::text::TextSink;
use crate::density::Line;

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
