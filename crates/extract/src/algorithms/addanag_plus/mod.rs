//! AdDANAg+ — crawlsift's own region choice on AdDANAg's density profile (not
//! from a paper; measured in ACCURACY.md). The profile, smoothing and
//! positive regions are AdDANAg's (formula (1), Filter 3); what changes is
//! which regions make up the main content, attacking the three failures
//! of Algorithm 1 seen on the shared datasets:
//! - **the heaviest region is a footer or link list**: regions are not
//!   ranked by their characters; every line is valued by its non-link text
//!   minus a cost for its markup and one for its anchor text that grows
//!   with the square of the line's link density (a menu pays in full, a
//!   paragraph with a few links hardly at all; inside `<main>` or
//!   `<article>` a share of that, [`Params::declared_link_share`]);
//! - **comment threads, share boxes and sidebars are as dense as the
//!   article**: the counting pass marks the page furniture the markup names
//!   ([`Cleaning::Furniture`](crate::density::Cleaning::Furniture)); its
//!   text is worth nothing and stays out of the output (a hidden element
//!   inside a paragraph, such as the MathML beside a formula's image,
//!   costs no markup either). Weak marks (class
//!   names such as `sidebar`) are not trusted when they take away most of
//!   the best chain's value ([`Params::trusted_share`]; the furniture
//!   nested inside weak furniture is then looked for and judged alike: an
//!   article inside a share plugin's container still has its video player
//!   and gallery marked), strong ones (comments, `<nav>`) when no chain of
//!   positive value is left, and those of comment threads when what is
//!   left is worth under [`Params::thread_share`] of the chain with them (a
//!   forum thread whose posts are named as comments; on a page whose weak
//!   marks were not trusted, also with them trusted:
//!   [`Params::weak_thread_share`]);
//! - **the fixed gap cuts articles or swallows comments**: instead of
//!   "distance ≤ gap lines", the chosen regions are the consecutive run of
//!   regions with the largest total value, the lines between them included
//!   (a maximum-sum chain, Kadane's algorithm over regions, like BTE but on
//!   the line profile): a far region is joined when its text pays for the
//!   markup and links between;
//! - **headlines are lost**: an `<h1>`/`<h2>` line shortly before the chosen
//!   block is kept with it, unless it repeats the page title, which is
//!   given apart (Readability's rule; most gold standards leave such
//!   headlines out);
//! - **a short story loses to a longer block elsewhere** (a legal footer,
//!   a poll, the comment thread): the chain under the `<h1>` that repeats
//!   the page's title is read instead when the best chain lies apart from
//!   it and it is worth a share of that chain ([`Params::story_share`]);
//! - **on listings the links are the content** (search results, category
//!   pages, tables of contents): the page is read twice, as an article (full
//!   link cost) and as a listing (a tenth of it); when the article reading
//!   gives less than [`Params::listing_share`] of the listing's text it was
//!   a fragment of a listing, and the listing reading is taken. The listing
//!   reading charges no markup inside `<main>` or `<article>`
//!   ([`Params::listing_declared_code_share`]): there the layout of a grid
//!   of cards is the content's own; nor, on a page whose article reading
//!   has no paragraph, in a grid of cards (a run of alike blocks opened by
//!   the same tag and class, each with text besides its links or long
//!   lines of linked text), which then wins when the article reading's
//!   value (not its text) is under [`Params::grid_share`] of its text; on
//!   such a page, too, a line whose anchors are a sentence long
//!   ([`Params::teaser_anchor`]: a card's linked title or teaser) has its
//!   anchor text counted as text; a page whose article reading trusted no
//!   furniture mark (its best text was a consent dialog or a footer) is
//!   read as a listing too, and the listing reading is taken when it
//!   trusts the strong marks and lies apart from the article reading
//!   ([`furniture_read`]); on a page whose short article reading has a
//!   paragraph, a grid of cards just under it is the listing it introduces
//!   and is given with it ([`Params::intro_grid_reach`]); and a listing
//!   reading of several times the article reading's text whose lines are
//!   mostly short and partly linked (names, prices, labels: not the
//!   headlines beside a news article) is taken
//!   ([`Params::short_lines_share`]); an article reading that pays most of
//!   its text back in markup and links gives way to a listing reading
//!   worth several times more ([`Params::paid_share`]); and a landing
//!   page's article reading, a chain of many short sections with few
//!   paragraphs, gives way to a listing reading with more of its text
//!   ([`Params::landing_regions`]);
//! - **a comment thread under the story, named for its layout only**: an
//!   article reading's span ends before the thread's jump target (`<a
//!   name="comments">`) or the form of its reply box (the first visible
//!   `<textarea>`, in a form of a few fields) when a paragraph is above
//!   it ([`threads`]);
//! - **product pages and threads give blocks twice** (once per screen size,
//!   a post quoted whole in a reply): after the choice of lines, a run of
//!   paragraphs that repeats one given earlier, apart from it, is left out
//!   ([`Params::copy_min_chars`]).
//!
//! Pages whose markup outweighs their text many times over (utility-class
//! CSS frameworks) have no positive line at all under DANAg; there the code
//! column is scaled down so the page's text can still form regions. A page
//! whose positive regions hold no text (a few words under their markup)
//! gives its whole text but for its furniture; a shell whose every line of
//! text is furniture (a page a script fills: its menus, footer and hidden
//! skip links) gives nothing.
//!
//! The lines between the chosen regions are kept (subheadings, captions and
//! short paragraphs under heavy markup) but for the furniture among them;
//! hidden furniture among them that is a collapsed panel (the rest of a
//! description behind "Read more", an accordion's answers: several lines
//! of prose, not links, no line repeated) is kept too
//! ([`Params::panel_lines`]).
//!
//! The code, by concern; [`extract`] runs the steps in order, and each
//! file uses only those listed before it:
//! - [`params`]: every tuned constant, in one [`Params`];
//! - [`parts`]: what a line is worth before the costs, data lines,
//!   paragraphs;
//! - [`readings`]: the costs, the trust in furniture marks, the best chain
//!   of regions, and a reading built on it;
//! - [`furniture`]: which furniture marks a reading trusts (weak marks,
//!   nested marks, comment threads);
//! - [`pictures`]: a page of short sections read again with its pictures
//!   free;
//! - [`edges`](mod@edges): the chosen span grown over the lines just
//!   outside it;
//! - [`grids`]: grids of alike cards, and prices;
//! - [`cards`]: the listing reading's parts on pages with a grid of cards,
//!   linked teasers, a thread of alike posts;
//! - [`listing`]: when the listing reading is taken over the article
//!   reading;
//! - [`products`]: other products' tiles cut off below a product;
//! - [`threads`]: the article's span ended at its comment thread's jump
//!   target or reply form;
//! - [`headline`], [`panels`], [`copies`]: the headline (and the story
//!   under it), collapsed panels and repeated copies of the chosen lines.

mod cards;
mod copies;
mod edges;
mod furniture;
mod grids;
mod headline;
mod listing;
mod panels;
mod params;
mod parts;
mod pictures;
mod products;
mod readings;
#[cfg(test)]
mod tests;
mod threads;

use super::page_type::Cues;
use super::{danag, Choice, LineDensity};
use crate::budget::{Budget, PageTimeout};
use crate::density::text::TextSink;
use crate::density::{Line, Scratch, Selection};
use cards::{card_grid, grid_above_prose, introduced_grid, linked_teasers, thread_grid};
use copies::{drop_repeated_copies, Copies};
use edges::edges;
use furniture::Nested;
use grids::Opens;
use headline::{past_repeated_title, under_headline};
use listing::{adds_prose, furniture_read, short_lines};
use panels::collapsed_panels;
use params::{PARAMS, RULES};
use parts::{fill_parts, Parts};
use pictures::{joins_past_pictures, picture};
use products::{other_products, Product};
use readings::{best_chain, few_paragraphs, has_paragraph, Chain, Costs, Reading, Trust};
use std::ops::Range;
use threads::{before_reply_form, before_thread};

#[cfg(doc)]
use params::Params;

/// AdDANAg+: AdDANAg's link normalisation with the page furniture marked
/// ([`RULES`]), DANAg's columns, the lines chosen by [`extract`].
pub(super) const ADDANAG_PLUS: LineDensity = LineDensity {
    rules: RULES,
    columns: danag::columns,
    choice: Choice::Chain,
};

/// Fixed-point denominator of the code column's scale ([`code_scale`]).
const SCALE_ONE: u64 = 16;

/// addanag-plus's buffers, reused from page to page.
#[derive(Default)]
pub(super) struct Buffers {
    /// Each line's [`Parts`].
    parts: Vec<Parts>,
    /// The parts the listing reading values when they differ from
    /// `parts`: with the page's grid of cards made the cards' own
    /// ([`card_grid`]) and linked teasers' anchor text counted as text
    /// ([`linked_teasers`]).
    listing_parts: Vec<Parts>,
    /// The buffers of [`grids::grid`].
    opens: Opens,
    copies: Copies,
    /// The lines that are pictures ([`picture`]), on a page read again
    /// with their markup free ([`Params::picture_paragraphs`]).
    pictures: Vec<usize>,
    /// The collapsed panels among the chosen lines ([`collapsed_panels`]),
    /// as ranges of lines of the chosen span.
    panels: Vec<Range<usize>>,
    /// The marks [`Nested::mark`] raised, each line's with the mark it
    /// had: a page read again ([`Params::picture_paragraphs`]) has them set
    /// back (`parts` as [`fill_parts`] made them) in place of its parts
    /// filled again.
    raised: Vec<(usize, u8)>,
    /// The last page's cues for its type and confidence.
    pub(super) cues: Cues,
}

impl Buffers {
    /// The bytes its buffers hold on the heap.
    pub(super) fn heap_bytes(&self) -> usize {
        use crate::heap_bytes as bytes;
        bytes(&self.parts)
            + bytes(&self.listing_parts)
            + self.opens.heap_bytes()
            + self.copies.heap_bytes()
            + bytes(&self.pictures)
            + bytes(&self.panels)
            + bytes(&self.raised)
    }
}

/// Chooses the main-content lines and appends their text to `sink`.
/// `buffers` are reused from page to page; `title` is the page's. `Err`
/// when `budget` runs out (checked between the steps).
pub(super) fn extract(
    scratch: &mut Scratch,
    buffers: &mut Buffers,
    html: &str,
    title: &str,
    sink: &mut TextSink,
    budget: &mut Budget,
) -> Result<Option<Selection>, PageTimeout> {
    let (page_text, page_code) = scratch.lines.iter().fold((0u64, 0u64), |(t, c), l| {
        (t + u64::from(l.content), c + u64::from(l.code))
    });
    let scale = code_scale(page_text, page_code);
    let one = SCALE_ONE as u32;
    scratch.profile(|l| (l.content.saturating_mul(one), l.code.saturating_mul(scale)));
    let lines = &scratch.lines;
    let regions = &scratch.regions;
    let Buffers {
        parts,
        listing_parts,
        opens,
        copies,
        pictures,
        panels,
        raised,
        cues,
    } = buffers;
    *cues = Cues::default();
    fill_parts(parts, lines, html.as_bytes());
    let code = PARAMS.code_cost * f64::from(scale) / f64::from(one);
    let costs = Costs {
        code,
        declared_code: code,
        link: PARAMS.link_cost,
    };
    raised.clear();
    let mut nested = Nested {
        html: html.as_bytes(),
        lines,
        looked: None,
        raised,
    };
    budget.check()?;
    let mut best = Reading::best(parts, regions, costs, &mut nested);
    budget.check()?;
    // A page of short sections put apart by pictures: read again with its
    // pictures' markup free (see [`pictures`]).
    pictures.clear();
    let mut few = best
        .as_ref()
        .is_some_and(|b| few_paragraphs(lines, parts, b));
    if few
        && best
            .as_ref()
            .is_some_and(|b| joins_past_pictures(html.as_bytes(), lines, parts, regions, b, costs))
    {
        let html = html.as_bytes();
        pictures.extend(
            lines
                .iter()
                .enumerate()
                .filter(|(_, l)| picture(html, l))
                .map(|(i, _)| i),
        );
    }
    if !pictures.is_empty() {
        // The parts as filled: the nested marks of the first reading set
        // back, latest first.
        for &(i, mark) in nested.raised.iter().rev() {
            if let Some(p) = parts.get_mut(i) {
                p.mark = mark;
            }
        }
        nested.raised.clear();
        for &i in pictures.iter() {
            if let Some(p) = parts.get_mut(i) {
                p.code = 0;
                p.declared_code = 0;
            }
        }
        nested.looked = None;
        budget.check()?;
        best = Reading::best(parts, regions, costs, &mut nested);
        few = best
            .as_ref()
            .is_some_and(|b| few_paragraphs(lines, parts, b));
    }
    // A short story beaten by a longer block elsewhere: the reading under
    // the page's headline (see [`under_headline`]).
    if let Some(story) = best
        .as_ref()
        .and_then(|b| under_headline(html, title, lines, parts, regions, costs, b, sink))
    {
        few = few_paragraphs(lines, parts, &story);
        best = Some(story);
    }
    let article_text = best
        .as_ref()
        .map_or(0.0, |article| article.text(lines, parts));
    let Some(article) = best.filter(|_| article_text > 0.0) else {
        // No positive region with text: a page of a few words under its
        // markup, given whole but for its furniture. A shell (a page a
        // script fills: every line with text is furniture, its menus,
        // footer and hidden skip links) so gives nothing; leaving out only
        // the strong furniture would give a shell's hidden links and
        // sidebars, which hold no main content.
        let furniture = lines.iter().map(|l| (l, l.furniture.is_some()));
        cues.count_page(lines, |i| parts.get(i).map_or(0, |p| p.mark));
        cues.reading = 4;
        for (line, _) in furniture.clone().filter(|(_, marked)| !marked) {
            cues.count_given(line);
        }
        budget.check()?;
        append_runs(html, furniture, sink);
        let (text, markdown) = sink.written_and_markdown();
        drop_repeated_copies(text, copies, markdown, budget)?;
        return Ok(None);
    };
    // A page with a grid of cards is read as a listing with the grid's
    // markup free, and one with linked teasers with their anchor text for
    // text (see [`cards`]). Both only on a page whose article reading has
    // no paragraph ([`Params::grid_paragraph`]).
    let mut has_grid = false;
    // On a page whose article reading has a paragraph, the last line of a
    // grid of cards right after it: the listing the paragraph introduces
    // ([`introduced_grid`]).
    let mut introduced = None;
    // Whether `listing_parts` holds the listing reading's parts.
    let mut own_parts = false;
    // Whether the article reading is one post of a thread of alike posts
    // and `listing_parts` the thread's ([`thread_grid`]).
    let mut thread = false;
    // Whether the article reading is a shop's prose under its grid of
    // priced cards and `listing_parts` the grid's ([`grid_above_prose`]).
    let mut prose_grid = false;
    // A listing reading gives at most the page's text: when the article
    // reading gives its share of that, the listing cannot win and is not
    // read, unless the article reading is furniture (see
    // [`furniture_read`]).
    let short = article_text < PARAMS.listing_share * page_text as f64;
    let furniture = matches!(article.trust, Trust::None);
    // An article reading that pays most of its text back in markup and
    // links (see [`Params::paid_share`]).
    let paid = article.chain.value < PARAMS.paid_share * article_text;
    let listing_costs = Costs {
        link: PARAMS.listing_link_cost,
        declared_code: PARAMS.listing_declared_code_share * costs.code,
        ..costs
    };
    // A landing page whose article reading is a few of its sections (see
    // [`listing`]): read as a listing when the page's text leaves room for
    // [`Params::landing_text`] times the article reading's and a first
    // chain at the listing's costs gives that much.
    let landing = article.chain.hi - article.chain.lo >= PARAMS.landing_regions - 1
        && page_text as f64 > PARAMS.landing_text * article_text
        && few
        && best_chain(parts, regions, listing_costs, article.trust)
            .and_then(|chain| Reading::of(chain, article.trust, regions))
            .is_some_and(|quick| quick.text(lines, parts) > PARAMS.landing_text * article_text);
    budget.check()?;
    let listing = if short || furniture || paid || landing {
        if has_paragraph(lines, parts, &article) {
            if short {
                introduced = introduced_grid(html, lines, (article.lines.1, article_text), opens);
                if introduced.is_none() {
                    thread = thread_grid(html, lines, parts, listing_parts, opens, &article);
                    own_parts = thread;
                }
            }
        } else {
            has_grid = card_grid(html, lines, parts, listing_parts, opens);
            own_parts = linked_teasers(html, lines, parts, listing_parts, has_grid) || has_grid;
        }
        Reading::best(
            if own_parts { listing_parts } else { parts },
            regions,
            listing_costs,
            &mut nested,
        )
    } else if article_text < PARAMS.prose_grid_share * page_text as f64
        && grid_above_prose(
            html,
            lines,
            parts,
            listing_parts,
            opens,
            &article,
            article_text,
        )
    {
        // A shop's prose under its grid of priced cards (see
        // [`grid_above_prose`]).
        prose_grid = true;
        own_parts = true;
        Reading::best(listing_parts, regions, listing_costs, &mut nested)
    } else {
        None
    };
    budget.check()?;
    let share = if has_grid {
        PARAMS.grid_share
    } else {
        PARAMS.listing_share
    };
    let listing_parts = if own_parts {
        &listing_parts[..]
    } else {
        &parts[..]
    };
    // Beside a grid, the article reading is weighed by its value, not its
    // text (see [`Params::grid_share`]).
    let article_worth = if has_grid {
        article.chain.value
    } else {
        article_text
    };
    let listing_text = listing
        .as_ref()
        .map_or(0.0, |listing| listing.text(lines, listing_parts));
    let article_lines = article.lines;
    let worth = (article.chain.value / article_text.max(1.0)).clamp(-1.0, 1.0) as f32;
    let (reading, parts, introduced, reading_costs, product, kind) = match listing {
        Some(listing)
            if (short || furniture)
                && (article_worth < share * listing_text
                    || (furniture && furniture_read(lines, listing_parts, &article, &listing))
                    || short_lines(lines, listing_parts, &listing, article_worth))
                || (paid
                    && !has_grid
                    && listing.chain.value > PARAMS.paid_listing_worth * article.chain.value)
                || (landing
                    && listing_text > PARAMS.landing_text * article_text
                    && adds_prose(
                        lines,
                        (&listing, listing_parts, listing_text),
                        (&article, parts, article_text),
                    )) =>
        {
            (
                listing,
                listing_parts,
                None,
                listing_costs,
                Product::Lines(article_lines),
                1,
            )
        }
        // A shop's prose under its grid of priced cards: the listing
        // reading, the grid's markup free; its products are the content,
        // none is cut as another's.
        Some(listing) if prose_grid => (
            listing,
            listing_parts,
            None,
            listing_costs,
            Product::None,
            3,
        ),
        // A thread of alike posts: the listing reading, the posts' markup
        // free, holds the article reading's post and others.
        Some(listing)
            if thread
                && listing.lines.0 <= article.lines.0
                && listing.lines.1 >= article.lines.1 =>
        {
            (
                listing,
                listing_parts,
                None,
                listing_costs,
                Product::None,
                2,
            )
        }
        _ => (article, &parts[..], introduced, costs, Product::First, 0),
    };
    cues.count_page(lines, |i| parts.get(i).map_or(0, |p| p.mark));
    cues.reading = kind;
    cues.grid = has_grid;
    cues.short = short;
    cues.paid = paid;
    cues.few = few;
    cues.worth = worth;
    let Chain { lo, hi, .. } = reading.chain;
    cues.regions = (hi + 1).saturating_sub(lo) as u32;
    let (block, last) = reading.lines;
    let (block, last) = edges(parts, regions, &reading, reading_costs, (block, last));
    let (block, last) = match introduced {
        Some(grid_last) => (block, grid_last),
        None if few => other_products(html.as_bytes(), lines, opens, (block, last), product),
        None => (block, last),
    };
    // An article's comment thread, found by its jump target or its reply
    // form (see [`threads`]).
    let last = if kind == 0 {
        let last = before_thread(html.as_bytes(), lines, (block, last));
        before_reply_form(html.as_bytes(), lines, (block, last))
    } else {
        last
    };
    let first = (block.saturating_sub(PARAMS.headline_reach)..block)
        .rev()
        .find(|&i| {
            lines
                .get(i)
                .is_some_and(|l| matches!(l.heading, 1 | 2) && l.content > 0)
        })
        .unwrap_or(block);
    let first = past_repeated_title(html, title, lines, parts, (first, last), &reading, sink);
    budget.check()?;
    let Some(chosen) = lines.get(first..=last) else {
        return Ok(None);
    };
    collapsed_panels(html.as_bytes(), lines, parts, (first, last), panels);
    // The panels are in order and apart: one walk along them.
    let mut panel = panels.iter().peekable();
    let Some(chosen_parts) = parts.get(first..=last) else {
        return Ok(None);
    };
    let marks = chosen_parts.iter().enumerate().map(|(i, p)| {
        while panel.next_if(|r| r.end <= i).is_some() {}
        reading.marked(p) && !panel.peek().is_some_and(|r| r.contains(&i))
    });
    let given = chosen.iter().zip(marks).inspect(|&(line, marked)| {
        if !marked {
            cues.count_given(line);
        }
    });
    append_runs(html, given, sink);
    budget.check()?;
    let (text, markdown) = sink.written_and_markdown();
    drop_repeated_copies(text, copies, markdown, budget)?;
    Ok(Some(Selection {
        regions: (lo, hi),
        lines: (first, last),
    }))
}

/// Appends the text of the `lines` not marked (each with whether it is),
/// a paragraph per run; runs split only by furniture inside a paragraph
/// (a hidden `<span>`) are joined by a space.
fn append_runs<'l>(html: &str, lines: impl Iterator<Item = (&'l Line, bool)>, sink: &mut TextSink) {
    let mut run: Option<(usize, usize)> = None;
    let mut inline_gap = true;
    for (line, marked) in lines {
        if marked {
            if let Some((start, end)) = run.take() {
                sink.append_html(html, start, end, ADDANAG_PLUS.rules);
                inline_gap = true;
            }
            inline_gap &= line.inline;
            continue;
        }
        match &mut run {
            Some((_, end)) => *end = line.end as usize,
            None => {
                if inline_gap && line.inline {
                    sink.space();
                } else {
                    sink.paragraph();
                }
                run = Some((line.start as usize, line.end as usize));
            }
        }
    }
    if let Some((start, end)) = run {
        sink.append_html(html, start, end, ADDANAG_PLUS.rules);
    }
}

/// The code column's scale, in `1 / SCALE_ONE`, for a page of `text`
/// characters and `code` markup bytes: 1 unless it has more than
/// [`Params::max_code_per_char`] markup bytes per text character.
fn code_scale(text: u64, code: u64) -> u32 {
    let scale = (PARAMS.max_code_per_char * SCALE_ONE * text)
        .checked_div(code)
        .unwrap_or(SCALE_ONE);
    scale.clamp(1, SCALE_ONE) as u32
}
