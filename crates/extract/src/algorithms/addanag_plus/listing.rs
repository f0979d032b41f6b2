//! When the listing reading is taken over the article reading.
//!
//! On listings the links are the content (search results, category pages,
//! tables of contents, link collections). [`extract`](super::extract)
//! reads a page as an article and, when one of the tests below calls for
//! it, as a listing too: anchor text at [`Params::listing_link_cost`], and
//! no markup cost inside `<main>` or `<article>`
//! ([`Params::listing_declared_code_share`]). A card of a listing (a linked
//! title, a teaser, a date, an image) carries several times its text in
//! layout markup, so under the article's code cost a grid of cards is no
//! region of worth and the listing reading would find only a fragment of
//! it (a cookie notice, one card). Where the page declares its content,
//! that markup is the cards' own; outside, it is the page's chrome and
//! still costs.
//!
//! The listing reading is taken when:
//! - the article reading gives less than [`Params::listing_share`] of the
//!   listing reading's text: it was a fragment of the listing. A listing
//!   reading gives at most the page's text, so when the article reading
//!   gives that share of the page's text, no listing reading is made.
//!   Beside a grid of cards ([`super::cards`]) the article reading is
//!   weighed by its value (its text less the markup and links it paid
//!   for), not its text, against [`Params::grid_share`]: a reading that
//!   pays much for the layout around its text is a fragment of the listing
//!   (a card, the bullets of a buying guide under the grid, a block of
//!   footer), while a short article's paragraphs cost little;
//! - the article reading trusted no furniture mark and read the page's
//!   strong furniture, which the listing reading leaves out
//!   ([`furniture_read`]);
//! - the listing reading is a listing of short lines ([`short_lines`]);
//! - the article reading is worth less than [`Params::paid_share`] of its
//!   text: a block of links and layout, not prose (one stretch of a page
//!   of teasers, a news front page, a blog's index, or a link-rich list),
//!   and the listing reading is worth [`Params::paid_listing_worth`] times
//!   more, on a page without a grid of cards (there the grid's markup is
//!   free in the listing reading, which so gains value without being more
//!   right, and the article reading is already weighed by its value). An
//!   article's paragraphs pay little, so few pages are read twice for it;
//! - the page is a landing page whose article reading is some of its
//!   sections, and the listing reading gives [`Params::landing_text`] times
//!   its text: the rest of the pitch (see "A landing page").
//!
//! **A landing page** (a service's, a product's, an agency's: short
//! sections of a pitch, each a heading, a sentence or two and a button,
//! with cards of features, prices and testimonials between) gives the
//! article reading a chain of many small regions with few paragraphs
//! ([`Params::picture_paragraphs`]): some of its sections, cut off where a
//! row of linked cards or buttons, or the layout of a block inside
//! `<main>`, costs more than the next section pays. When the article
//! reading's chain has at least [`Params::landing_regions`] regions and
//! few paragraphs, the page is read as a listing too (its links at a tenth
//! of the cost, its declared layout free). A news article's reading is one
//! region or a few (its paragraphs run on), and one of many regions has
//! many paragraphs. To keep it cheap, the page is read again only when its
//! text leaves room for that much more and a first chain at the listing's
//! costs (the article reading's marks trusted, no grid of cards looked
//! for) gives it. The listing reading must add prose, not links
//! ([`adds_prose`]).

use super::params::PARAMS;
use super::parts::Parts;
use super::readings::{Reading, Trust};
use crate::density::Line;

#[cfg(doc)]
use super::params::Params;

/// Whether the text a landing page's listing reading gives beyond its
/// article reading is under [`Params::landing_added_links`] anchor text:
/// the sections of the pitch, not a menu of links above a short list nor a
/// news page's related links. Each reading comes with the parts it was
/// read on and its text.
pub(super) fn adds_prose(
    lines: &[Line],
    (listing, listing_parts, listing_text): (&Reading, &[Parts], f64),
    (article, parts, article_text): (&Reading, &[Parts], f64),
) -> bool {
    let added_anchors = listing.anchors(lines, listing_parts) - article.anchors(lines, parts);
    added_anchors < PARAMS.landing_added_links * (listing_text - article_text)
}

/// Whether `article`, a reading that trusts no furniture mark, read the
/// page's strong furniture in place of its content, which `listing` found:
/// the listing reading trusts the strong marks and lies apart from the
/// article reading (above or below it). The strong marks are dropped when
/// no chain of positive value is left with them, and on a listing or a
/// front page at the article's costs none is (its links and its cards'
/// layout cost more than their text): the best text left is then a
/// consent dialog (`role="alertdialog"`), a menu or a footer. At the
/// listing reading's costs the content has worth and the marks hold. A
/// listing reading that holds the article reading is the same text with
/// more around it (a forum thread with its header), and is not taken.
///
/// Readings whose spans overlap lie apart too when the listing reading
/// gives none of the article reading's text: the lines they share are
/// furniture the listing reading trusts (the first lines of a newsletter
/// dialog the article reading read, left out as the strong furniture they
/// are). A forum thread with its header gives the article reading's text
/// and is still not taken.
pub(super) fn furniture_read(
    lines: &[Line],
    listing_parts: &[Parts],
    article: &Reading,
    listing: &Reading,
) -> bool {
    if matches!(listing.trust, Trust::None) {
        return false;
    }
    if listing.lines.1 < article.lines.0 || listing.lines.0 > article.lines.1 {
        return true;
    }
    // Spans that overlap: apart when the listing reading gives none of the
    // article reading's text (what they share is furniture it trusts).
    let from = article.lines.0.max(listing.lines.0);
    let to = article.lines.1.min(listing.lines.1);
    !lines
        .get(from..=to)
        .unwrap_or_default()
        .iter()
        .zip(listing_parts.get(from..=to).unwrap_or_default())
        .any(|(l, p)| l.content > 0 && !listing.marked(p))
}

// ---------------------------------------------------------------------------
// A listing of short lines.
//
// A catalogue, a shop's collection, a course list or a tutorial index
// whose article reading is a paragraph among its entries (an intro, a
// product's description, one long teaser) gives the article reading when
// that paragraph holds [`Params::listing_share`] of the listing's text.
// Its entries are short: names, prices, dates, labels, most of them
// linked; the lists beside a short news article (related stories, a box
// of headlines) are headlines of a sentence, 40 to 200 characters. So the
// listing reading is also taken when it holds several times the article
// reading ([`Params::short_listing_share`]) and its lines are mostly short
// ([`Params::short_line`], [`Params::short_lines_share`]: an article whose
// listing reading holds its site's menus of short links has fewer) and
// partly linked ([`Params::short_listing_links`]: a listing's entries link
// to their pages, a product's specifications under its description do
// not).
// ---------------------------------------------------------------------------

/// Whether `listing`, the listing reading, is a listing of short lines
/// beside which the article reading, worth `article_worth`, is a
/// fragment (see "A listing of short lines"). The article reading's worth
/// is its value beside a grid, its text elsewhere, as for
/// [`Params::listing_share`] and [`Params::grid_share`].
pub(super) fn short_lines(
    lines: &[Line],
    parts: &[Parts],
    listing: &Reading,
    article_worth: f64,
) -> bool {
    let (mut with_text, mut short, mut text, mut link) = (0u32, 0u32, 0u64, 0u64);
    for line in listing.given(lines, parts).filter(|l| l.content > 0) {
        with_text += 1;
        short += u32::from(line.content < PARAMS.short_line);
        text += u64::from(line.content);
        link += u64::from(line.link);
    }
    let text = text as f64;
    article_worth < PARAMS.short_listing_share * text
        && f64::from(short) >= PARAMS.short_lines_share * f64::from(with_text)
        && link as f64 >= PARAMS.short_listing_links * text
}
