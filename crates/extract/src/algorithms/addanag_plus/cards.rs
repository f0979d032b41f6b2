//! The listing reading's parts on pages whose cards the article's costs
//! undervalue: a grid of cards, linked teasers, a thread of alike posts, a
//! shop's grid above its prose, and a grid under its introduction. Each
//! finds its grid with [`grid`] and makes it the cards' own
//! ([`make_cards`]): its markup free, as inside `<main>`, and where its
//! anchors are its content, its anchor text counted as text.

use super::grids::{grid, opening_tag, prices_in, Opens, Prices};
use super::params::PARAMS;
use super::parts::{is_paragraph, weighed, Parts};
use super::readings::Reading;
use crate::density::Line;

#[cfg(doc)]
use super::params::Params;

// ---------------------------------------------------------------------------
// Grids of cards.
//
// A listing or collection page (a shop's category, a site's archive of
// stories) is a run of cards wrapped in several times their text in layout
// markup. Outside `<main>` and `<article>` that markup outweighs the
// cards' text, so neither reading finds the grid (a shop's category page:
// the article reading keeps the buying guide under it, the listing
// reading a fragment). The listing reading takes the grid's markup for the
// cards' own, as inside `<main>`. Only pages whose article reading has no
// paragraph are looked at: an article's teasers are grids of cards too.
// ---------------------------------------------------------------------------

/// Sets `grid_parts` to the parts of the lines with the page's grid of
/// cards ([`grid`], `opens` its buffers) made the cards' own: their markup
/// counted as declared content's and the weak marks on them lifted (a grid
/// outside the page's `<main>`). False, `grid_parts` untouched, when the
/// page has no grid. Read only on pages whose article reading has no
/// paragraph ([`Params::grid_paragraph`]).
///
/// A run whose cards hold a price each is preferred to any run without (a
/// shop's products: "Priced cards" in [`super::grids`]), and in a grid of
/// priced cards the anchor text counts as text ([`make_cards`]): the
/// linked names are the listing, not links away from it. The prices are
/// counted only on these pages (one byte search over the page).
pub(super) fn card_grid(
    html: &str,
    lines: &[Line],
    parts: &[Parts],
    grid_parts: &mut Vec<Parts>,
    opens: &mut Opens,
) -> bool {
    let Some((first, last)) = grid(
        html.as_bytes(),
        lines,
        opens,
        0..lines.len(),
        Prices::Preferred,
    ) else {
        return false;
    };
    make_cards(lines, parts, grid_parts, (first, last), opens.priced);
    true
}

// ---------------------------------------------------------------------------
// Linked teasers.
//
// A card is often one link: `<a>` around the card's title and teaser (a
// story's summary, a course's description), so every line of the card is
// anchor text, and under any link cost the listing of such cards is worth
// less than a line of plain text beside it (a news front page, a shop's
// best sellers, a Wikipedia category: the article reading keeps a cookie
// notice or a fragment). What tells a teaser from a menu entry is its
// length: a menu's anchors are a word or two, a card's a sentence.
// ---------------------------------------------------------------------------

/// Counts the anchor text of the linked teasers of `lines` as text in
/// `listing_parts`, which holds the listing reading's parts if `filled`,
/// else is first filled from `parts`; false, and `listing_parts`
/// untouched, when the page has no linked teaser.
///
/// A linked teaser is a line whose anchors hold [`Params::teaser_anchor`]
/// characters of text each on average (a line that starts inside an
/// anchor opened above it, as a card's teaser under a linked title does,
/// counts as one anchor); menus and tag lists have shorter anchors. Only
/// pages whose article reading has no paragraph
/// ([`Params::grid_paragraph`]) are read so: beside an article, the linked
/// teasers are other stories.
pub(super) fn linked_teasers(
    html: &str,
    lines: &[Line],
    parts: &[Parts],
    listing_parts: &mut Vec<Parts>,
    mut filled: bool,
) -> bool {
    let mut any = false;
    for (i, l) in lines.iter().enumerate() {
        if l.link < PARAMS.teaser_anchor {
            continue;
        }
        let line = html
            .as_bytes()
            .get(l.start as usize..l.end as usize)
            .unwrap_or_default();
        if l.link < PARAMS.teaser_anchor.saturating_mul(anchors(line).max(1)) {
            continue;
        }
        if !filled {
            listing_parts.clear();
            listing_parts.extend_from_slice(parts);
            filled = true;
        }
        if let Some(p) = listing_parts.get_mut(i) {
            p.text = l.content;
            p.links = 0.0;
        }
        any = true;
    }
    any
}

/// The `<a>` tags `line` opens.
fn anchors(line: &[u8]) -> u32 {
    let opens = memchr::memchr_iter(b'<', line).filter(|&at| {
        line.get(at + 1)
            .is_some_and(|b| b.eq_ignore_ascii_case(&b'a'))
            && line
                .get(at + 2)
                .is_some_and(|b| b.is_ascii_whitespace() || *b == b'>')
    });
    u32::try_from(opens.count()).unwrap_or(u32::MAX)
}

// ---------------------------------------------------------------------------
// A thread of alike posts.
//
// A question-and-answer thread (Stack Exchange's sites) puts each post in
// the same block: the same tag and class around the post's text, then its
// votes, its author's card, its share and edit links and its comments,
// several hundred bytes of markup and links per post. Each post is a
// region, and the markup between two posts costs more than a short post
// pays, so the article reading keeps one post (the longest answer), its
// text under [`Params::listing_share`] of the page's. The posts give
// themselves away as cards do ([`grid`]): the tag that opens the article
// reading's post opens each of the others. When the article reading lies
// inside a grid of blocks opened by the tag that opens its first line,
// and that grid holds [`Params::thread_paragraphs`] paragraphs more than
// the article reading (unmarked lines of [`Params::grid_paragraph`]
// characters: the other posts), the listing reading is made with the
// grid's markup free ([`make_cards`]) and taken when it holds the article
// reading: the whole thread. A short news article beside a grid of
// teasers is not read so: its first line does not open the teasers'
// blocks, and the teasers are no paragraphs.
//
// Only the tag opening the article reading's first line is sought: the
// whole page's grid, as [`card_grid`] seeks it, may be a grid of teasers
// that holds the article. The search is gated, cheapest test first, so
// that it costs nothing measurable: only pages whose article reading is
// short and has a paragraph, without a grid under it
// ([`introduced_grid`]), are looked at; the article reading's first line
// must open a tag with a class; [`Params::thread_paragraphs`] unmarked
// paragraphs must lie outside the article reading (a pass over the lines'
// counts); the class must be named [`Params::grid_min_cards`] times in the
// page (one substring search). Few pages get past them to [`grid`].
// ---------------------------------------------------------------------------

/// Sets `grid_parts` to the parts of the lines with the thread of posts
/// the article reading is one of made the cards' own ([`make_cards`]);
/// false, `grid_parts` untouched, when the page is no such thread (see "A
/// thread of alike posts"). `opens` are [`grid`]'s buffers. Kept out of
/// [`extract`](super::extract), which most pages run without it.
#[inline(never)]
pub(super) fn thread_grid(
    html: &str,
    lines: &[Line],
    parts: &[Parts],
    grid_parts: &mut Vec<Parts>,
    opens: &mut Opens,
    article: &Reading,
) -> bool {
    let (from, to) = article.lines;
    let html = html.as_bytes();
    // The cheapest tests first: the tag opening the article reading's
    // first line has a class,
    let Some((_, Some(class))) = lines
        .get(from)
        .and_then(|l| html.get(l.start as usize..l.end as usize))
        .and_then(opening_tag)
    else {
        return false;
    };
    // the page holds paragraphs outside the article reading,
    let outside = lines
        .iter()
        .zip(parts)
        .enumerate()
        .filter(|&(i, (l, p))| (i < from || i > to) && p.mark == 0 && is_paragraph(l))
        .take(PARAMS.thread_paragraphs)
        .count();
    // and names the class as often as a grid has cards.
    if outside < PARAMS.thread_paragraphs
        || memchr::memmem::find_iter(html, class)
            .nth(PARAMS.grid_min_cards - 1)
            .is_none()
    {
        return false;
    }
    let Some((first, last)) = grid(html, lines, opens, from..from + 1, Prices::Ignored) else {
        return false;
    };
    if first > from || last < to {
        return false;
    }
    let own = article
        .given(lines, parts)
        .filter(|l| is_paragraph(l))
        .count();
    let all = lines
        .get(first..=last)
        .unwrap_or_default()
        .iter()
        .zip(parts.get(first..=last).unwrap_or_default())
        .filter(|(l, p)| p.mark == 0 && is_paragraph(l))
        .count();
    if all < own + PARAMS.thread_paragraphs {
        return false;
    }
    make_cards(lines, parts, grid_parts, (first, last), false);
    true
}

/// Sets `grid_parts` to `parts` with lines `first..=last`, a grid of cards
/// ([`grid`]), made the cards' own: their markup counted as declared
/// content's, the weak marks on them lifted, and their anchor text counted
/// as text when their lines of text are as long as a linked card's or the
/// grid is `priced` (a price per card: a shop's products, whose linked
/// names are the listing).
fn make_cards(
    lines: &[Line],
    parts: &[Parts],
    grid_parts: &mut Vec<Parts>,
    (first, last): (usize, usize),
    priced: bool,
) {
    // The grid's anchors are its content when its lines of text are as
    // long as a linked card's (titles and teasers, not a list of links),
    // or when each card holds a price (a product's linked name).
    let grid_lines = lines.get(first..=last).unwrap_or_default();
    let (text, text_lines) = grid_lines.iter().fold((0, 0), |(text, n), l| {
        (text + weighed(l), n + u32::from(l.content > 0))
    });
    let linked = priced || text >= PARAMS.grid_linked_line * text_lines;
    grid_parts.clear();
    grid_parts.extend_from_slice(parts);
    let chosen = grid_parts.get_mut(first..=last).unwrap_or_default();
    for (p, l) in chosen.iter_mut().zip(grid_lines) {
        p.declared_code = p.declared_code.saturating_add(p.code);
        p.code = 0;
        if linked {
            p.text = l.content;
            p.links = 0.0;
        }
        if p.mark == 1 {
            p.mark = 0;
        }
    }
}

// ---------------------------------------------------------------------------
// A shop's prose under its grid.
//
// A shop's category page often closes with a few paragraphs written for
// search engines (what to look for in a graphics card, the brand's story
// of its gym shirts), under the grid of its products. The paragraphs are
// an article reading of a third of the page's text, so no listing
// reading is made, and the grid, cards of a linked name and a price, is
// worth less than the prose at the article's costs. The golds keep the
// grid (and most leave the prose out). When the article reading is under
// [`Params::prose_grid_share`] of the page's text and a grid of priced
// cards ([`grid`], a price per card) starts above it, ends before its end
// and holds at least its text, the page is read as a listing with the
// grid's markup free and its linked names for text ([`make_cards`]), and
// that reading is taken. A product's description lies above the grid of
// other products for sale, and a news article's teasers hold no price:
// neither is read so. The same shape catches a newsletter dialog read
// under a shop's front page of priced offers.
//
// A grid search costs as much as a reading of the page, so it is gated:
// the article reading must have at least its text above it, then a byte
// search over that part of the page must find a price per
// [`Params::prose_grid_card_text`] characters of the article reading's
// text. A shop's grid of cards of a name, a few labels and a price has
// several times that many; a news article, blog post or recipe with a
// few prices above its text (a shop's teaser, a sidebar's offer) fewer.
// ---------------------------------------------------------------------------

/// Whether the article reading (of `article_text` characters) lies under a
/// grid of priced cards ([`grid`]) that starts above it and ends before its
/// end, holds at least its text and at most [`Params::prose_grid_lines`]
/// lines with text per price (a product card is a name, a few labels and a
/// price; a mega menu whose columns each end with an offer is priced
/// blocks of twenty links); if so, `grid_parts` is set to the grid's cards
/// ([`make_cards`]). The grid is sought (`opens` its buffers) only when
/// the text above the article reading is at least its own, and enough
/// prices lie there ([`Params::prose_grid_card_text`]: a byte search over
/// the lines with text above the article reading).
pub(super) fn grid_above_prose(
    html: &str,
    lines: &[Line],
    parts: &[Parts],
    grid_parts: &mut Vec<Parts>,
    opens: &mut Opens,
    article: &Reading,
    article_text: f64,
) -> bool {
    let html = html.as_bytes();
    // The grid holds the article reading's text and lies mostly above it
    // (a card or two may run into it): with less text above, none is
    // sought.
    let above_text: u64 = lines
        .get(..article.lines.0)
        .unwrap_or_default()
        .iter()
        .map(|l| u64::from(l.content))
        .sum();
    if (above_text as f64) < article_text {
        return false;
    }
    // Truncation intended: a price per whole `prose_grid_card_text`.
    let needed = PARAMS
        .grid_min_cards
        .max((article_text / PARAMS.prose_grid_card_text) as usize);
    // Only the lines with text are searched: a card's price is its text,
    // and the bytes of scripts, styles and pictures are most of a page's.
    let prices = lines
        .get(..article.lines.0)
        .unwrap_or_default()
        .iter()
        .filter(|l| l.content > 0)
        .flat_map(|l| prices_in(html, l.start as usize, l.end as usize))
        .take(needed)
        .count();
    if prices < needed {
        return false;
    }
    let Some((first, last)) = grid(html, lines, opens, 0..lines.len(), Prices::Preferred) else {
        return false;
    };
    if !opens.priced || first >= article.lines.0 || last >= article.lines.1 {
        return false;
    }
    let cards = lines.get(first..=last).unwrap_or_default();
    let text: u64 = cards.iter().map(|l| u64::from(l.content)).sum();
    let text_lines = cards.iter().filter(|l| l.content > 0).count();
    let prices = match (opens.prices.get(first), opens.prices.get(last + 1)) {
        (Some(a), Some(b)) => b.wrapping_sub(*a) as usize,
        _ => 0,
    };
    if (text as f64) < article_text || text_lines > PARAMS.prose_grid_lines * prices {
        return false;
    }
    make_cards(lines, parts, grid_parts, (first, last), true);
    true
}

// ---------------------------------------------------------------------------
// A grid under its introduction.
//
// A shop's category page or a catalogue often opens with a paragraph or
// two about what it lists, then the grid of cards (a nursery's indoor
// pots, a shop's categories, a university's certificate programmes). The
// paragraph makes it an article, so the grid is not sought there, and the
// article reading keeps the paragraph alone: the cards' layout markup
// outweighs their text. When the introduction is under
// [`Params::listing_share`] of the page's text and a grid of cards starts
// within [`Params::intro_grid_reach`] lines after it (a sort bar or a menu
// may lie between), the grid is given with it, if it is one: no furniture
// inside, at least as much text as the introduction (the listing is the
// page's content, the paragraph its preface), and at least
// [`Params::intro_grid_code`] markup bytes per character of text (a card
// wraps its title and price in layout). A short news article's "more
// stories" and comments are grids too, and each check keeps some out:
// they are furniture (comments, sidebars), lists of headlines with little
// markup, boxes of links shorter than the article, or further down the
// page.
// ---------------------------------------------------------------------------

/// The last line of a grid of cards ([`grid`], `opens` its buffers) that
/// starts within [`Params::intro_grid_reach`] lines after `intro_last`,
/// holds no furniture, at least the introduction's `intro_text` and
/// [`Params::intro_grid_code`] markup bytes per character of its text;
/// `None` if the page has none. The grid is looked for in
/// [`Params::intro_grid_window`] lines after the introduction, and a grid
/// that runs to their end is none (it is not known whole): a grid search
/// over a whole long page, for every short article, would be costly.
pub(super) fn introduced_grid(
    html: &str,
    lines: &[Line],
    (intro_last, intro_text): (usize, f64),
    opens: &mut Opens,
) -> Option<usize> {
    // Only the lines of the window are read, and only the groups of tags
    // that open a line within the reach are sorted.
    let after = intro_last + 1;
    let rest = lines.get(after..)?;
    let end = rest.len().min(PARAMS.intro_grid_window);
    let (first, last) = grid(
        html.as_bytes(),
        rest.get(..end)?,
        opens,
        0..PARAMS.intro_grid_reach + 1,
        Prices::Ignored,
    )?;
    if first > PARAMS.intro_grid_reach || (last + 1 >= end && end < rest.len()) {
        return None;
    }
    let (first, last) = (first + after, last + after);
    let cards = lines.get(first..=last)?;
    if cards.iter().any(|l| l.furniture.is_some()) {
        return None;
    }
    let (text, code) = cards.iter().fold((0u64, 0u64), |(t, c), l| {
        (t + u64::from(l.content), c + u64::from(l.code))
    });
    (text as f64 >= intro_text && code >= u64::from(PARAMS.intro_grid_code) * text).then_some(last)
}
