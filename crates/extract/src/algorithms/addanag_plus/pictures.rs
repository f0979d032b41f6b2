//! A page of short sections put apart by pictures.
//!
//! A landing page (a service's or a product's: a hero line, a strip of
//! customers' logos, an illustration, then the next pitch) puts its short
//! sections apart with pictures: lines without text whose markup (an
//! `<img>` with its `srcset` and inline style, the wrappers of an `<svg>`)
//! costs more than a section's few sentences are worth, so the chain stops
//! at the first picture. When the article reading holds fewer than
//! [`Params::picture_paragraphs`] paragraphs, the page is read again with
//! the markup of its unlinked pictures free ([`picture`]): a picture laid
//! out between two sections joins them. An article has more paragraphs,
//! and its pictures lead to what follows it (a linked thumbnail is a
//! teaser, and still costs). The page is read again only when the chain
//! would reach further down past a picture ([`joins_past_pictures`]).

use super::params::PARAMS;
use super::parts::Parts;
use super::readings::{value, Costs, Reading};
use crate::density::{Line, Region};

#[cfg(doc)]
use super::params::Params;

/// Whether `line` is a picture: a line without text, with
/// [`Params::picture_min_code`] markup bytes or more (a smaller one costs
/// little and is not read), whose markup opens an image (`<img`, `<svg`,
/// `<picture`) and no link (`<a `, `</a>`: a linked thumbnail is a
/// teaser's). Its tags are read in order and the reading stops at a link,
/// a script or a style (not a picture: scripts are not read through).
pub(super) fn picture(html: &[u8], line: &Line) -> bool {
    if line.content > 0 || line.code < PARAMS.picture_min_code {
        return false;
    }
    let Some(bytes) = html.get(line.start as usize..line.end as usize) else {
        return false;
    };
    let mut image = false;
    for at in memchr::memchr_iter(b'<', bytes) {
        let tag = bytes.get(at + 1..).unwrap_or_default();
        let is = |name: &[u8]| tag.starts_with(name);
        if is(b"a ") || is(b"/a>") || is(b"script") || is(b"style") {
            return false;
        }
        image |= is(b"img") || is(b"svg") || is(b"picture");
    }
    image
}

/// Whether the chain of `reading` would reach further down with its
/// pictures' markup free ([`picture`]): walking from the chain over the
/// regions after it, with the lines between, while the chain's value plus
/// theirs stays positive, past a picture they come to be worth more than
/// nothing. Only then is the page read again (a second reading of every
/// page with few paragraphs and a picture would be costly). Above the
/// chain, the pictures are an article's lead photo with its caption and
/// byline, and are not walked.
pub(super) fn joins_past_pictures(
    html: &[u8],
    lines: &[Line],
    parts: &[Parts],
    regions: &[Region],
    reading: &Reading,
    costs: Costs,
) -> bool {
    let keeps = reading.trust.keeps();
    let (hi, carried) = (reading.chain.hi, reading.chain.value);
    // The worth of lines `from..to`, pictures free, and whether one is there.
    let worth = |from: usize, to: usize| {
        let (mut sum, mut any) = (0.0, false);
        let chosen = lines.get(from..to).unwrap_or_default();
        for (l, p) in chosen.iter().zip(parts.get(from..to).unwrap_or_default()) {
            sum += value(p, costs, &keeps);
            if picture(html, l) {
                any = true;
                sum += costs.code * f64::from(p.code)
                    + costs.declared_code * f64::from(p.declared_code);
            }
        }
        (sum, any)
    };
    let (mut sum, mut any, mut end) = (0.0, false, regions.get(hi).map_or(0, |r| r.last + 1));
    for region in regions.get(hi + 1..).unwrap_or_default() {
        let (w, a) = worth(end, region.last + 1);
        (sum, any, end) = (sum + w, any || a, region.last + 1);
        if any && sum > 0.0 {
            return true;
        }
        if carried + sum <= 0.0 {
            break;
        }
    }
    false
}
