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
//!   `<article>` 30 % of that);
//! - **comment threads, share boxes and sidebars are as dense as the
//!   article**: the counting pass marks the page furniture the markup names
//!   ([`Cleaning::Furniture`]); its text is worth nothing and stays out of
//!   the output (a hidden element inside a paragraph, such as the MathML
//!   beside a formula's image, costs no markup either). Weak marks (class
//!   names such as `sidebar`) are not trusted when they take away more than
//!   3/4 of the best chain's value (the furniture nested inside weak
//!   furniture is then looked for and judged alike: an article inside a
//!   share plugin's container still has its video player and gallery
//!   marked), strong ones (comments, `<nav>`) when no chain of positive
//!   value is left, and those of comment threads when what is left is worth
//!   under [`THREAD_SHARE`] of the chain with them (a forum thread whose
//!   posts are named as comments; on a page whose weak marks were not
//!   trusted, also with them trusted: [`WEAK_THREAD_SHARE`]);
//! - **the fixed gap cuts articles or swallows comments**: instead of
//!   "distance ≤ gap lines", the chosen regions are the consecutive run of
//!   regions with the largest total value, the lines between them included
//!   (a maximum-sum chain, Kadane's algorithm over regions, like BTE but on
//!   the line profile): a far region is joined when its text pays for the
//!   markup and links between;
//! - **headlines are lost**: an `<h1>`/`<h2>` line shortly before the chosen
//!   block is kept with it, unless it repeats the page title, which is
//!   given apart (Readability's rule; the gold standards of scrapinghub,
//!   wcxb and the Readability tests leave such headlines out, daniel's keep
//!   them, ACCURACY.md);
//! - **on listings the links are the content** (search results, category
//!   pages, tables of contents): the page is read twice, as an article (full
//!   link cost) and as a listing (a tenth of it); when the article reading
//!   gives less than [`LISTING_SHARE`] of the listing's text it was a
//!   fragment of a listing, and the listing reading is taken. The listing
//!   reading charges no markup inside `<main>` or `<article>`
//!   ([`LISTING_DECLARED_CODE_SHARE`]): there the layout of a grid of cards
//!   is the content's own; nor, on a page whose article reading has no
//!   paragraph, in a grid of cards (a run of alike blocks opened by the
//!   same tag and class, each with text besides its links or long lines
//!   of linked text), which then wins when the article reading's value
//!   (not its text) is under [`GRID_SHARE`] of its text; on such a page,
//!   too, a line whose anchors are a sentence long ([`TEASER_ANCHOR`]: a
//!   card's linked title or teaser) has its anchor text counted as text;
//!   a page whose article reading trusted no furniture mark (its best text
//!   was a consent dialog or a footer) is read as a listing too, and the
//!   listing reading is taken when it trusts the strong marks and lies
//!   apart from the article reading ([`furniture_read`]);
//!   on a page whose short article reading has a paragraph, a grid of
//!   cards just under it is the listing it introduces and is given with it
//!   ([`INTRO_GRID_REACH`]); and a listing reading of several times the
//!   article reading's text whose lines are mostly short and partly
//!   linked (names, prices, labels: not the headlines beside a news
//!   article) is taken ([`SHORT_LINES_SHARE`]); an article reading that
//!   pays most of its text back in markup and links gives way to a
//!   listing reading worth several times more ([`PAID_SHARE`]); and a
//!   landing page's article reading, a chain of many short sections with
//!   few paragraphs, gives way to a listing reading with more of its text
//!   ([`LANDING_REGIONS`]);
//! - **product pages and threads give blocks twice** (once per screen size,
//!   a post quoted whole in a reply): after the choice of lines, a run of
//!   paragraphs that repeats one given earlier, apart from it, is left out
//!   ([`COPY_MIN_CHARS`]).
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
//! of prose, not links, no line repeated) is kept too ([`PANEL_LINES`]).

use super::{danag, Choice, LineDensity};
use crate::density::cleaning::Cue;
use crate::density::nested::nested_marks;
use crate::density::text::TextSink;
use crate::density::{Cleaning, Line, LinkRule, Region, Rules, Scratch, Selection};
use std::ops::{Range, RangeInclusive};

pub(super) const ADDANAG_PLUS: LineDensity = LineDensity {
    rules: Rules {
        links: LinkRule::Normalise,
        cleaning: Cleaning::Furniture,
    },
    columns: danag::columns,
    choice: Choice::Chain,
};

/// Cost of one markup byte (after Filter 3) against one character of
/// non-link text. Chosen on the shared datasets, and the same choice on
/// both halves of each (ACCURACY.md).
const CODE_COST: f64 = 0.13;
/// Cost of one character of anchor text (on top of its markup) on a line
/// of links only; it falls with the square of the line's link density, so
/// a menu pays in full and a paragraph with a few links (density .2) 4 %.
const LINK_COST: f64 = 2.5;
/// The share of the link cost a line pays inside `<main>` or `<article>`:
/// where the page itself says its content is, link-dense lines are more
/// often part of it (a changelog of links, a list of sources, a listing)
/// than elsewhere. Chosen on the shared datasets (ACCURACY.md).
const DECLARED_LINK_SHARE: f64 = 0.3;
/// Pages with more than this many markup bytes per text character get their
/// code column scaled down to this ratio.
const MAX_CODE_PER_CHAR: u64 = 4;
/// The link cost of the listing reading (see [`LISTING_SHARE`]).
const LISTING_LINK_COST: f64 = 0.2;
/// The share of the markup cost the listing reading charges inside
/// `<main>` or `<article>`: none. A card of a listing (a linked title, a
/// teaser, a date, an image) carries several times its text in layout
/// markup, so under the article's code cost a grid of cards is no region
/// of worth and the listing reading found only a fragment of it (a cookie
/// notice, one card). Where the page declares its content, that markup is
/// the cards' own; outside, it is the page's chrome and still costs. On
/// wcxb_dev this lifts listings .476 → .551 and collections .503 → .533
/// and leaves the article sets unchanged (0 is better than .1, .2, .3 and
/// .5 there, on both halves; ACCURACY.md).
const LISTING_DECLARED_CODE_SHARE: f64 = 0.0;
/// A page is read as a listing (search results, category pages, link
/// collections: the links are the content) when the article reading gives
/// less than this share of the text the listing reading gives.
const LISTING_SHARE: f64 = 0.15;
/// How many lines above the chosen block a headline is looked for.
const HEADLINE_REACH: usize = 10;
/// Weak furniture marks are trusted when the best chain with them is worth
/// at least this share of the best chain without them.
const TRUSTED_SHARE: f64 = 0.25;
/// Marks of comment threads are not trusted when the best chain with them
/// is worth less than this share of the best chain without them: the page
/// is a forum thread whose posts are named as comments, and what is left
/// without them is a scrap (an opening post of a line, a header). An
/// article beside its comments keeps far more than that share (the marks
/// are still lifted when nothing of worth is left at all). On wcxb_dev
/// this lifts forum threads .668 → .684 (`dev-0548`, `dev-0550`,
/// `dev-0579`: F1 ≤ .04 → .49–.75); every value from .01 to .03 gives the
/// same pages, the even half unchanged and the odd one +.0025; from .035
/// a thread whose gold is its opening post alone (`dev-4316`) is lost, and
/// from .1 a scrapinghub article to its comments (ACCURACY.md).
const THREAD_SHARE: f64 = 0.025;
/// On a page whose weak furniture marks were not trusted
/// ([`TRUSTED_SHARE`]), the marks of comment threads are also not trusted
/// when the thread without them is worth more than the chain chosen and the
/// best chain with the weak marks trusted is worth less than this share of
/// the thread with them: the forum's furniture (a pop-up's help text, a
/// sign-in box) was left as the page's best text only because the posts are
/// named as comments. Invision and Reddit threads whose weak marks (the
/// posts lie outside `<main>`) took the thread's worth away: on wcxb_dev
/// forum threads .703 → .718 (`dev-0544` .04 → .79, `dev-0547` .05 → .44,
/// `dev-0562` .09 → .61), no page of the other datasets moves. From .025 to
/// .1 the first two gain; from .15 to any share (the test left out), the
/// third too: on these datasets the test that the thread outweighs the
/// chain chosen does the work, this share guards an article whose weak
/// marks misled (the chain with them is worth under [`TRUSTED_SHARE`] of
/// the one chosen) from a comment thread longer than it. Without the test
/// that the thread outweighs the chain chosen, articles whose weak marks
/// misled lose their text to their comments (daniel_dev `fakty.interia.pl`
/// .84 → .05, scrapinghub `432362af…` 1.0 → .36, readability_tests
/// `bug-1255978` .88 → .28, and five more; ACCURACY.md).
const WEAK_THREAD_SHARE: f64 = 0.15;
/// A landing page (a service's or a product's: a hero line, a strip of
/// customers' logos, an illustration, then the next pitch) puts its short
/// sections apart with pictures: lines without text whose markup (an
/// `<img>` with its `srcset` and inline style, the wrappers of an
/// `<svg>`) costs more than a section's few sentences are worth, so the
/// chain stops at the first picture. When the article reading holds
/// fewer than this many paragraphs ([`is_paragraph`]), the page is read
/// again with the markup of its unlinked pictures free ([`picture`]): a
/// picture laid out between two sections joins them. An
/// article has more paragraphs, and its pictures lead to what follows it
/// (a linked thumbnail is a teaser, and still costs). The page is read
/// again only when the chain would reach further down past a picture
/// ([`joins_past_pictures`]). On wcxb_dev service pages .786 → .792 (even
/// half .742 → .748, odd .824 → .831), listings .632 → .637, no page of
/// the other datasets moves; at 10 a scrapinghub article loses (.9500 →
/// .9496; ACCURACY.md).
const PICTURE_PARAGRAPHS: usize = 8;
/// A picture line has at least this many markup bytes: a smaller one costs
/// little (13 characters at [`CODE_COST`]) and is not read.
const PICTURE_MIN_CODE: u32 = 100;
/// A line of at least this many text characters that opens with a JSON
/// object (`{"`, `[{"`, escaped or not) and holds a key (`":`) every
/// [`DATA_KEY_SPAN`] characters or more often is data a script reads (a
/// widget's state in a hidden `<div>`), not text: its text is worth
/// nothing and it stays out of the output, as strong furniture. Amazon's
/// headphones category (`dev-0655`) serves its grid's state so, 32,951
/// characters with a key every 34: the article reading was that line alone
/// (F1 .19 → .50 with the product grid read instead). Prose has no keys;
/// a JSON example in documentation is short and opens with `{ "` (two
/// wcxb_dev pages' examples, 45 and 100 characters). 200, 500 and 1,000
/// move the same page, no other; the line's markup is read only on lines
/// this long.
const DATA_LINE: u32 = 1000;
/// A data line ([`DATA_LINE`]) holds a JSON key at least every this many
/// text characters.
const DATA_KEY_SPAN: usize = 100;
/// The chain is made of AdDANAg's regions, runs of lines whose text
/// outweighs their markup byte for byte (formula (1)); a line whose text
/// pays for its markup only at [`CODE_COST`] lies outside every region,
/// and though the chain keeps such lines between its regions, it loses
/// them at its ends: a product's list of features in `<li>`s of 120
/// bytes of classes each (Thomann's key features, `dev-2985` .90 → .93),
/// an article's opening paragraphs under heavy wrappers (`dev-4433` .69 →
/// 1.00, `dev-0136` .64 → .98), a shopper's favourite products under
/// her profile's header (`dev-4207` .00 → .96). The chosen span is grown over the
/// lines just outside it, up to this many lines above it (and
/// [`EDGE_REACH_BELOW`] below it), never into another region nor past
/// trusted furniture, to the line where the value of the lines walked
/// over ([`value`], under the reading's costs and trust) is largest, when
/// that value is over [`EDGE_VALUE`]. On wcxb_dev .8396 → .8411 (even
/// half .8396 → .8401, odd .8395 → .8421), readability_tests .9739 →
/// .9759, daniel_dev .8872 → .8873, scrapinghub unchanged (ACCURACY.md).
/// 30, 60 and 100 lines give the same wcxb_dev score; 10 less.
const EDGE_REACH_ABOVE: usize = 60;
/// How many lines below the chosen span it may grow ([`EDGE_REACH_ABOVE`]):
/// 30 and 60 give the same wcxb_dev score, 60 loses daniel_dev .0003.
const EDGE_REACH_BELOW: usize = 30;
/// The value, in characters of text net of the markup and links they
/// pay for, the lines an end of the span grows over must add
/// ([`EDGE_REACH_ABOVE`]): a heading, a date or a caption (a few dozen) is
/// not worth the risk of the block above or below. At 0, growing upwards
/// alone (10 lines) gives readability_tests a block the test page hides
/// (`visibility-hidden` .99 → .62; .9739 → .9713) and scrapinghub
/// .9511 → .9504, growing downwards alone (30 lines) loses daniel_dev
/// .8872 → .8856 (news articles joined to their next block); from 100 to
/// 300 wcxb_dev is at .8408–.8411.
const EDGE_VALUE: f64 = 150.0;
/// Fixed-point denominator of the code column's scale.
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
    /// The buffers of [`grid`].
    opens: Opens,
    copies: Copies,
    /// The lines that are pictures ([`picture`]), on a page read again
    /// with their markup free ([`PICTURE_PARAGRAPHS`]).
    pictures: Vec<usize>,
    /// The collapsed panels among the chosen lines ([`collapsed_panels`]),
    /// as ranges of lines of the chosen span.
    panels: Vec<Range<usize>>,
    /// The marks [`Nested::mark`] raised, each line's with the mark it
    /// had: a page read again ([`PICTURE_PARAGRAPHS`]) has them set back
    /// (`parts` as [`fill_parts`] made them) in place of its parts filled
    /// again.
    raised: Vec<(usize, usize)>,
}

/// Chooses the main-content lines and appends their text to `sink`.
/// `buffers` are reused from page to page; `title` is the page's.
pub(super) fn extract(
    scratch: &mut Scratch,
    buffers: &mut Buffers,
    html: &str,
    title: &str,
    sink: &mut TextSink,
) -> Option<Selection> {
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
    } = buffers;
    fill_parts(parts, lines, html.as_bytes());
    let code = CODE_COST * f64::from(scale) / f64::from(one);
    let costs = Costs {
        code,
        declared_code: code,
        link: LINK_COST,
    };
    raised.clear();
    let mut nested = Nested {
        html: html.as_bytes(),
        lines,
        looked: None,
        raised,
    };
    let mut best = Reading::best(parts, regions, costs, &mut nested);
    // A page of short sections put apart by pictures: read again with its
    // pictures' markup free (see [`PICTURE_PARAGRAPHS`]).
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
                p.code = 0.0;
                p.declared_code = 0.0;
            }
        }
        nested.looked = None;
        best = Reading::best(parts, regions, costs, &mut nested);
        few = best
            .as_ref()
            .is_some_and(|b| few_paragraphs(lines, parts, b));
    }
    let article_text = best
        .as_ref()
        .map_or(0.0, |article| article.text(lines, parts));
    let Some(article) = best.filter(|_| article_text > 0.0) else {
        // No positive region with text: a page of a few words under its
        // markup, given whole but for its furniture. A shell (a page a
        // script fills: every line with text is furniture, its menus,
        // footer and hidden skip links) so gives nothing. Leaving out
        // only the strong furniture gave the hidden links and the
        // sidebars of such shells, which hold no main content (wcxb_dev:
        // AliExpress's product pages, `dev-4720`–`dev-4722`, a Garmin
        // listing, `dev-4829`, a clinic's page, `dev-4868`, F1 0 → 1, and
        // `dev-1310` .91 → .92; no other page of the shared datasets moves).
        let furniture = lines.iter().map(|l| (l, l.furniture.is_some()));
        append_runs(html, furniture, sink);
        drop_repeated_copies(sink.written_mut(), copies);
        return None;
    };
    // A page with a grid of cards is read as a listing with the grid's
    // markup free (see "Grids of cards" below), and one with linked
    // teasers with their anchor text for text (see "Linked teasers").
    // Both only on a page whose article reading has no paragraph
    // ([`GRID_PARAGRAPH`]).
    let mut has_grid = false;
    // On a page whose article reading has a paragraph, the last line of a
    // grid of cards right after it: the listing the paragraph introduces
    // (see "A grid under its introduction").
    let mut introduced = None;
    // Whether `listing_parts` holds the listing reading's parts.
    let mut own_parts = false;
    // Whether the article reading is one post of a thread of alike posts
    // and `listing_parts` the thread's (see "A thread of alike posts").
    let mut thread = false;
    // Whether the article reading is a shop's prose under its grid of
    // priced cards and `listing_parts` the grid's (see [`PROSE_GRID_SHARE`]).
    let mut prose_grid = false;
    // A listing reading gives at most the page's text: when the article
    // reading gives its share of that, the listing cannot win and is not
    // read, unless the article reading is furniture (see
    // [`furniture_read`]).
    let short = article_text < LISTING_SHARE * page_text as f64;
    let furniture = matches!(article.trust, Trust::None);
    // An article reading that pays most of its text back in markup and
    // links (see [`PAID_SHARE`]).
    let paid = article.chain.value < PAID_SHARE * article_text;
    let listing_costs = Costs {
        link: LISTING_LINK_COST,
        declared_code: LISTING_DECLARED_CODE_SHARE * costs.code,
        ..costs
    };
    // A landing page whose article reading is a few of its sections (see
    // [`LANDING_REGIONS`]): read as a listing when the page's text leaves
    // room for [`LANDING_TEXT`] times the article reading's and a first
    // chain at the listing's costs gives that much.
    let landing = article.chain.hi - article.chain.lo >= LANDING_REGIONS - 1
        && page_text as f64 > LANDING_TEXT * article_text
        && few
        && best_chain(parts, regions, listing_costs, article.trust)
            .and_then(|chain| Reading::of(chain, article.trust, regions))
            .is_some_and(|quick| quick.text(lines, parts) > LANDING_TEXT * article_text);
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
    } else if article_text < PROSE_GRID_SHARE * page_text as f64
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
        // [`PROSE_GRID_SHARE`]).
        prose_grid = true;
        own_parts = true;
        Reading::best(listing_parts, regions, listing_costs, &mut nested)
    } else {
        None
    };
    let share = if has_grid { GRID_SHARE } else { LISTING_SHARE };
    let listing_parts = if own_parts {
        &listing_parts[..]
    } else {
        &parts[..]
    };
    // Beside a grid, the article reading is weighed by its value, not its
    // text (see [`GRID_SHARE`]).
    let article_worth = if has_grid {
        article.chain.value
    } else {
        article_text
    };
    let listing_text = listing
        .as_ref()
        .map_or(0.0, |listing| listing.text(lines, listing_parts));
    let article_lines = article.lines;
    let (reading, parts, introduced, reading_costs, product) = match listing {
        Some(listing)
            if (short || furniture)
                && (article_worth < share * listing_text
                    || (furniture && furniture_read(lines, listing_parts, &article, &listing))
                    || short_lines(lines, listing_parts, &listing, article_worth))
                || (paid
                    && !has_grid
                    && listing.chain.value > PAID_LISTING_WORTH * article.chain.value)
                || (landing
                    && listing_text > LANDING_TEXT * article_text
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
            )
        }
        // A shop's prose under its grid of priced cards: the listing
        // reading, the grid's markup free.
        // (Its products are the content: none is cut as another's.)
        Some(listing) if prose_grid => (listing, listing_parts, None, listing_costs, Product::None),
        // A thread of alike posts: the listing reading, the posts' markup
        // free, holds the article reading's post and others.
        Some(listing)
            if thread
                && listing.lines.0 <= article.lines.0
                && listing.lines.1 >= article.lines.1 =>
        {
            (listing, listing_parts, None, listing_costs, Product::None)
        }
        _ => (article, &parts[..], introduced, costs, Product::First),
    };
    let Chain { lo, hi, .. } = reading.chain;
    let (block, last) = reading.lines;
    let (block, last) = edges(parts, regions, &reading, reading_costs, (block, last));
    let (block, last) = match introduced {
        Some(grid_last) => (block, grid_last),
        None if few => other_products(html.as_bytes(), lines, opens, (block, last), product),
        None => (block, last),
    };
    let first = (block.saturating_sub(HEADLINE_REACH)..block)
        .rev()
        .find(|&i| {
            lines
                .get(i)
                .is_some_and(|l| matches!(l.heading, 1 | 2) && l.content > 0)
        })
        .unwrap_or(block);
    let first = past_repeated_title(html, title, lines, parts, (first, last), &reading, sink);
    let chosen = lines.get(first..=last)?.iter();
    collapsed_panels(html.as_bytes(), lines, parts, (first, last), panels);
    let marks = parts
        .get(first..=last)?
        .iter()
        .enumerate()
        .map(|(i, p)| reading.marked(p) && !panels.iter().any(|r| r.contains(&i)));
    append_runs(html, chosen.zip(marks), sink);
    drop_repeated_copies(sink.written_mut(), copies);
    Some(Selection {
        regions: (lo, hi),
        lines: (first, last),
    })
}

// ---------------------------------------------------------------------------
// Other products below a product.
//
// A shop's product page puts other products under its own: "variations of
// this style", "more from this brand", "customers also viewed", each a
// carousel of tiles holding a name, a price and perhaps a badge or a
// rating. A tile pays for its layout at the article's costs (its name is
// a line of text), so the chain runs on through them, and the listing
// reading of a page whose article reading is short reads them all, and
// the footer under them. The golds stop at the product.
//
// On a page that declares itself a product page ([`declares_product`]),
// whose article reading holds fewer than [`PICTURE_PARAGRAPHS`]
// paragraphs (a product's description is a few; a buying guide declared
// a product has more, `dev-0010`, .94 → .90 without this test), the
// chosen span is cut before the nearest grid of priced tiles below
// the product: a run of [`GRID_MIN_CARDS`] or more blocks opened by the
// same tag and class ([`grid`]), each of [`GRID_CARD_LINES`] lines or
// more, holding a price ([`price_at`]) and at most [`PRODUCT_CARD_TEXT`]
// characters. The product is the article reading's span when the
// listing reading was taken, if it holds a price (the product's own: an
// introduction or a category's text rarely does), else the chosen span's
// first line. Grids above the product are left (a collection declared a
// product loses its grid, `dev-4805` .46 → .34, and no page gains).
//
// Why declared: a buying guide or a price list is a grid of priced cards
// too, and its content. On every page, the same cut gains no more
// products and loses 28 pages by over .01 (wcxb_dev .8430 → .8332,
// scrapinghub .9511 → .9470: `dev-4130` .97 → .04, `dev-0226` .98 → .10,
// a collection `dev-4035` 1.00 → .01). A page's JSON-LD `"@type":
// "Product"` or `og:type` `product` says what its main content is, as
// `<main>` and `<article>` say where it lies (wcxb_dev: 82 of 119
// products, 23 of 117 collections, 3 of 99 listings, 9 of 793 articles,
// 8 of 165 services; scrapinghub 2 of 181, daniel_dev and
// readability_tests none). The product's own price is needed beside the
// listing reading: without it two collections declared products lose
// their grid to the text under it (`dev-4736` .62 → .01, `dev-0658` .64 →
// .40).
//
// On wcxb_dev seven pages gain and one loses: Thomann's guitar above its
// variations (`dev-2947` .33 → .78), Zalando's jacket above three
// carousels and the footer (`dev-0625` .12 → .47), iFixit's parts above
// their kits (`dev-0621` .53 → .66, `dev-2981` .57 → .73, `dev-3023` .57 →
// .74), `dev-4024` (.82 → .96), a house for sale above similar homes
// (`dev-1572`, listing, .41 → .84); a product whose gold keeps its
// comparison table of kits loses (`dev-3022` .66 → .64). Products .6425 → .6541 (even half
// .6012 → .6185, odd .6874 → .6927), listings .6707 → .6749; no page of
// scrapinghub, daniel_dev or readability_tests moves.
//
// Cheapest tests first: the paragraphs (already counted), four prices in
// the chosen span (a byte search over it: wcxb_dev 639 pages of 1,497,
// scrapinghub 115 of 181, daniel_dev 638 of 779, readability_tests 68 of
// 130), then the declaration (wcxb_dev 113, scrapinghub 14, daniel_dev 5,
// readability_tests 3), then the grids (one search over the lines below
// the product, and one more for each nearer grid: wcxb_dev 28 pages,
// elsewhere none). Instructions (callgrind,
// `examples/count_instructions.rs`): wcxb_dev 3,146M → 3,173M (+0.9 %),
// scrapinghub +0.5 %, readability_tests +0.6 %, daniel_dev +0.2 %; without
// the paragraphs' test every page with a chosen span was searched for
// prices, 302 of wcxb_dev's for the declaration (+1.8 %, scrapinghub
// +1.3 %, readability_tests +1.7 %). Declarations sought otherwise cost
// more: two substring searches over
// the page (`"Product"` and the Open Graph tag) 84M, one for what the
// spellings end with (`roduct"`) 44M, the JSON-LD scripts found by
// `ld+json` 86M; a byte search is several times as fast as a substring
// search over a whole page.
// ---------------------------------------------------------------------------

/// A tile of another product holds at most this many characters of text
/// (weighed as [`weighed`]: a name, a price, a badge, a rating). Blocks
/// of 300 to 500 give the same pages: at 200 some shops' tiles are too
/// long to be found (`dev-0589`, .61 → .28), at 1,000 a buying guide's
/// cards are (`dev-0010`, .90 → .65), and a product's cut at its own grid
/// of variations is lost (`dev-0625`, .47 → .12).
const PRODUCT_CARD_TEXT: u32 = 400;

/// Where the product lies in the chosen span (see "Other products below a
/// product").
enum Product {
    /// The article reading was taken: at its first line.
    First,
    /// The listing reading was taken: in the article reading's lines.
    Lines((usize, usize)),
    /// A thread of posts was read: not a product.
    None,
}

/// Whether the page declares itself a product page: a JSON-LD
/// `"@type": "Product"` or an Open Graph `og:type` of `product`.
fn declares_product(html: &[u8]) -> bool {
    // The Open Graph tags are in the head; JSON-LD may be anywhere, and
    // is sought at each `@` (a byte search, several times as fast as a
    // substring search over the page).
    let head = memchr::memmem::find(html, b"</head>")
        .and_then(|end| html.get(..end))
        .unwrap_or(html);
    memchr::memmem::find(head, b"og:type\" content=\"product").is_some()
        || memchr::memchr_iter(b'@', html).any(|at| {
            let at = html.get(at..).unwrap_or_default();
            at.starts_with(b"@type\":\"Product\"") || at.starts_with(b"@type\": \"Product\"")
        })
}

/// Whether `lines` hold at least `least` prices ([`price_at`]).
fn has_prices(html: &[u8], lines: &[Line], least: usize) -> bool {
    let (Some(first), Some(last)) = (lines.first(), lines.last()) else {
        return false;
    };
    prices_in(html, first.start as usize, last.end as usize)
        .nth(least.saturating_sub(1))
        .is_some()
}

/// The offsets in `html` of the prices ([`price_at`]) in `html[from..to]`:
/// one byte search for the last byte of a currency sign (`$`, and the
/// final bytes of `€` and `£`), each hit checked.
fn prices_in(html: &[u8], from: usize, to: usize) -> impl Iterator<Item = usize> + '_ {
    let bytes = html.get(from..to.max(from)).unwrap_or_default();
    memchr::memchr3_iter(b'$', 0xAC, 0xA3, bytes)
        .map(move |at| at + from)
        .filter(|&at| price_at(html, at))
}

/// The chosen span `(block, last)` cut before the nearest grid of other
/// products' tiles below the `product` (see "Other products below a
/// product").
fn other_products(
    html: &[u8],
    lines: &[Line],
    opens: &mut Opens,
    (block, last): (usize, usize),
    product: Product,
) -> (usize, usize) {
    let span = (block, last);
    let below = match product {
        Product::None => return span,
        Product::First => block,
        Product::Lines((_, product_last)) => product_last,
    };
    if below >= last
        || !has_prices(
            html,
            lines.get(block..=last).unwrap_or_default(),
            GRID_MIN_CARDS,
        )
        || !declares_product(html)
    {
        return span;
    }
    if let Product::Lines((first, product_last)) = product {
        if !has_prices(html, lines.get(first..=product_last).unwrap_or_default(), 1) {
            return span;
        }
    }
    // The nearest grid: the best one below the product, then the best one
    // above that, until there is none.
    let mut end = last;
    while let Some((grid_first, _)) = lines.get(below + 1..=end).and_then(|window| {
        grid(
            html,
            window,
            opens,
            0..window.len(),
            Prices::EachCard(PRODUCT_CARD_TEXT),
        )
    }) {
        end = below + grid_first;
    }
    (block, end)
}

/// The chosen span grown at each end over the lines next to it that lie
/// outside every region ([`EDGE_REACH_ABOVE`]): `(block, last)` are its
/// first and last lines, `reading` and `costs` those it was chosen under.
fn edges(
    parts: &[Parts],
    regions: &[Region],
    reading: &Reading,
    costs: Costs,
    (block, last): (usize, usize),
) -> (usize, usize) {
    let keeps = reading.trust.keeps();
    // The line the running value of the lines walked over is best at, and
    // that value; `None` while it is under `EDGE_VALUE`. The walk stops
    // at trusted furniture.
    let grow = |walk: &mut dyn Iterator<Item = usize>| {
        let (mut sum, mut best) = (0.0, None);
        for i in walk {
            let Some(p) = parts.get(i).filter(|p| !reading.marked(p)) else {
                break;
            };
            sum += value(p, costs, &keeps);
            if sum > best.map_or(EDGE_VALUE, |(_, v)| v) {
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
    let from = above.max(block.saturating_sub(EDGE_REACH_ABOVE));
    let to = below.min(last + 1 + EDGE_REACH_BELOW);
    let first = grow(&mut (from..block).rev()).unwrap_or(block);
    let last = grow(&mut (last + 1..to)).unwrap_or(last);
    (first, last)
}

/// What markup and anchor text cost against non-link text.
#[derive(Clone, Copy)]
struct Costs {
    /// Per markup byte.
    code: f64,
    /// Per markup byte inside `<main>` or `<article>`.
    declared_code: f64,
    /// Per anchor-text character on a line of links only.
    link: f64,
}

/// One reading of the page: the best chain of regions, and which furniture
/// marks were trusted in choosing it.
struct Reading {
    chain: Chain,
    trust: Trust,
    /// The chain's lines.
    lines: (usize, usize),
}

impl Reading {
    /// The best chain under `costs`, after deciding which furniture marks to
    /// trust: weak marks that take away most of the page's best text
    /// misled (then the furniture nested in them is looked for, and judged
    /// alike); so did strong ones that leave no text of worth (forums whose
    /// posts are marked as comments), unless the page has no text outside
    /// its furniture at all: a shell whose content a script loads, where
    /// the text left is the footer's and every mark is trusted. `None`
    /// without regions.
    fn best(
        parts: &mut [Parts],
        regions: &[Region],
        costs: Costs,
        nested: &mut Nested,
    ) -> Option<Reading> {
        let [all, mut strong] = best_chains(parts, regions, costs, [Trust::All, Trust::Strong])?;
        let trusted = |chain: &Chain, strong: &Chain| chain.value >= TRUSTED_SHARE * strong.value;
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
        // positive region" in [`extract`]).
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
                    posts if chain.value < THREAD_SHARE * posts.value => (posts, lifted),
                    _ if matches!(trust, Trust::Strong | Trust::Nested) => {
                        match best_chain(parts, regions, costs, Trust::AllButComments)? {
                            posts
                                if all.value < WEAK_THREAD_SHARE * posts.value
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

    /// The reading of `chain` under `trust`: its span, from its first
    /// region's first line to its last region's last.
    fn of(chain: Chain, trust: Trust, regions: &[Region]) -> Option<Reading> {
        let span = (regions.get(chain.lo)?.first, regions.get(chain.hi)?.last);
        Some(Reading {
            chain,
            trust,
            lines: span,
        })
    }

    /// Whether a line with `parts` is furniture whose mark this reading
    /// trusts.
    fn marked(&self, parts: &Parts) -> bool {
        self.trust.keeps().get(parts.mark) == Some(&0.0)
    }

    /// The lines this reading gives (headline aside): those of its span
    /// but its furniture.
    fn given<'l>(
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
    fn text(&self, lines: &[Line], parts: &[Parts]) -> f64 {
        let text: u64 = self.given(lines, parts).map(|l| u64::from(l.content)).sum();
        text as f64
    }

    /// The anchor-text characters of the text given.
    fn anchors(&self, lines: &[Line], parts: &[Parts]) -> f64 {
        let anchors: u64 = self.given(lines, parts).map(|l| u64::from(l.link)).sum();
        anchors as f64
    }
}

/// Whether the text a landing page's listing reading gives beyond its
/// article reading is under [`LANDING_ADDED_LINKS`] anchor text: the
/// sections of the pitch, not the menu of links above a short list. Each
/// reading comes with the parts it was read on and its text.
fn adds_prose(
    lines: &[Line],
    (listing, listing_parts, listing_text): (&Reading, &[Parts], f64),
    (article, parts, article_text): (&Reading, &[Parts], f64),
) -> bool {
    let added_anchors = listing.anchors(lines, listing_parts) - article.anchors(lines, parts);
    added_anchors < LANDING_ADDED_LINKS * (listing_text - article_text)
}

/// Furniture nested in weak furniture ([`nested_marks`]), set in the
/// lines' [`Parts::mark`] when a reading does not trust a page's weak marks:
/// only in the weak furniture of the chain chosen without them (the
/// misleading mark is there; walking all of a page's weak furniture cost 3.5 %
/// of the extraction time on scrapinghub, PERF.md §5).
struct Nested<'a> {
    html: &'a [u8],
    lines: &'a [Line],
    /// The lines looked at so far (a page is read up to twice), and
    /// whether any of them has a nested mark.
    looked: Option<(RangeInclusive<usize>, bool)>,
    /// Each mark raised, with the line's mark before.
    raised: &'a mut Vec<(usize, usize)>,
}

impl Nested<'_> {
    /// Sets the nested marks of the weak furniture among the lines `span`
    /// in `parts`; whether any line has one.
    fn mark(&mut self, parts: &mut [Parts], span: RangeInclusive<usize>) -> bool {
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

// ---------------------------------------------------------------------------
// Collapsed panels.
//
// A product's or a service's page folds part of its text away: the rest of
// a description behind "Read more", the answers of an accordion, the
// panels of tabs. The browser shows them on a click; the HTML hides them
// (`hidden`, `display: none`, `visibility: hidden`), so they are hidden
// furniture, left out of the text although they sit among the chosen
// lines. The golds keep them (wcxb_dev: Amazon's book description,
// `dev-0613` F1 .39 → .83; the accordions of Uber's, a university's and a
// pet insurer's service pages, `dev-0242` .57 → .92, `dev-0374` .67 →
// .95, `dev-4913` .75 → .97; Newegg's specifications, `dev-0627` .75 →
// .83). A hidden line alone is not a panel: a paragraph a page hides on
// purpose (Readability's `hidden-nodes`), a tooltip, a heading's other
// wording. Nor is a run that repeats one of its lines word for word: a
// template's unused sections, hidden with their placeholder text (an
// insurance report's landing page, `dev-0285`, .40 → .29 without this
// check), or a widget's copies. Only the chosen span is looked at: hidden
// text elsewhere (a modal dialog, an off-canvas menu) is no part of the
// content the chain found.
// ---------------------------------------------------------------------------

/// A run of hidden lines among the chosen ones holds at least this many
/// text characters to be a collapsed panel: a description or an answer of
/// a few sentences. From 150 to 300 the same pages move on wcxb_dev
/// (.8366–.8367).
const PANEL_TEXT: u64 = 200;

/// A collapsed panel holds at least this many lines with text: Readability's
/// test of hidden paragraphs (`hidden-nodes`, one `<p>` each) loses its
/// hidden text at 1 (F1 1.00 → .51); a panel holds a heading and its
/// text, paragraphs or a list.
const PANEL_LINES: usize = 2;

/// At most this share of a collapsed panel's text is anchor text: a hidden
/// menu or list of links is furniture still.
const PANEL_LINKS: f64 = 0.2;

/// How many of a run's lines with text are looked at for one that repeats
/// an earlier one: a placeholder repeats within its first lines, and a
/// long hidden run (a mega-menu's) is not compared line by line whole.
const PANEL_COMPARED: usize = 64;

/// Sets `panels` to the collapsed panels among the lines `first..=last`
/// (ranges of their indices in that span): a run of hidden lines (weak
/// marks nested in none stronger; lines without text go with them) of at least [`PANEL_TEXT`] characters on
/// [`PANEL_LINES`] lines, under [`PANEL_LINKS`] of them anchor text, none
/// of its first [`PANEL_COMPARED`] lines with text the same markup and
/// text as an earlier one.
fn collapsed_panels(
    html: &[u8],
    lines: &[Line],
    parts: &[Parts],
    (first, last): (usize, usize),
    panels: &mut Vec<Range<usize>>,
) {
    panels.clear();
    let (Some(lines), Some(parts)) = (lines.get(first..=last), parts.get(first..=last)) else {
        return;
    };
    let hidden = |i: usize| {
        lines
            .get(i)
            .is_some_and(|l| l.furniture == Some(Cue::Hidden))
            && parts.get(i).is_some_and(|p| p.mark == 1)
    };
    let mut i = 0;
    while i < lines.len() {
        let Some(start) = lines
            .get(i..)
            .and_then(|rest| rest.iter().position(|l| l.furniture == Some(Cue::Hidden)))
        else {
            break;
        };
        i += start;
        if !hidden(i) {
            i += 1;
            continue;
        }
        let (mut text, mut links, mut with_text) = (0u64, 0u64, 0usize);
        let mut j = i;
        while let Some(line) = lines.get(j).filter(|l| l.content == 0 || hidden(j)) {
            text += u64::from(line.content);
            links += u64::from(line.link);
            with_text += usize::from(line.content > 0);
            j += 1;
        }
        let repeats = || {
            let texts = lines
                .get(i..j)
                .unwrap_or_default()
                .iter()
                .filter(|l| l.content > 0);
            let bytes = |l: &Line| {
                html.get(l.start as usize..l.end as usize)
                    .unwrap_or_default()
            };
            texts
                .clone()
                .enumerate()
                .take(PANEL_COMPARED)
                .any(|(k, a)| {
                    texts
                        .clone()
                        .take(k)
                        .any(|b| b.content == a.content && bytes(a) == bytes(b))
                })
        };
        if text >= PANEL_TEXT
            && with_text >= PANEL_LINES
            && links as f64 <= PANEL_LINKS * text as f64
            && !repeats()
        {
            panels.push(i..j);
        }
        i = j;
    }
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

/// The first of the chosen lines `first..=last` after a headline that
/// opens their text and repeats `title`, else `first`. The title is given
/// apart (and first in text and WET output), so such a headline is left
/// out, as Readability does. `sink` is used to read the headline and left
/// empty.
fn past_repeated_title(
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
    sink.append_html(
        html,
        heading.start as usize,
        heading.end as usize,
        ADDANAG_PLUS.rules,
    );
    let repeated = repeats(title, sink.written());
    sink.clear();
    if repeated {
        i + 1
    } else {
        first
    }
}

/// Headlines and titles longer than this many words are not compared:
/// each word is looked for among the other's, and a page can put its whole
/// text in its title and an unclosed `<h1>`.
const MAX_HEADLINE_WORDS: usize = 64;

/// Whether `heading` repeats `title`: more than 3/4 of it (by the length
/// of its words) is words of the title, Readability's `textSimilarity`.
/// False for texts of more than [`MAX_HEADLINE_WORDS`] words.
fn repeats(title: &str, heading: &str) -> bool {
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
    let too_long = |text| words(text).nth(MAX_HEADLINE_WORDS).is_some();
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

// ---- Repeated copies (product pages, forum threads) ----
//
// A product page serves some of its blocks once per screen size (the
// details for phones, then for desktops), and widgets repeat their data
// (a variant picker's labels, a thread's post toolbar with the post); the
// line profile sees each copy as text of worth, and the gold standards
// have it once. After the choice of lines, a run of paragraphs that
// repeats, paragraph for paragraph, a run given earlier and apart from it
// is left out.

/// A repeated run is a copy when it has at least this many paragraphs, not
/// all the same (one paragraph repeated is a list's entries, a refrain):
/// two lines in the same order are already a block, not a coincidence.
/// 3 gives the same figures on the article sets and forum threads .002
/// lower (simulated on main's output at 400 characters).
const COPY_MIN_PARAGRAPHS: usize = 2;
/// ... and at least this many characters: short runs repeat as content too
/// (a list of plans with the same features, lines of a paragraph split by
/// `<br>`, the numbers of a code listing). Up to 250 the Readability tests
/// lose `replace-brs` (.9705 → .9680); from 500 scrapinghub falls below
/// where it was without the rule (.9489 against .9491). Between, wcxb_dev
/// gives .8138 at 300, .8138 at 350, .8137 at 400 (forum threads .7015,
/// .7010, .6997; scrapinghub .9502, .9500, .9497): 350 is the middle of
/// the safe band.
const COPY_MIN_CHARS: usize = 350;
/// A run given again right after itself is a copy when every one of its
/// lines is shorter than this many characters and the run holds at least
/// [`SHORT_COPY_MIN_CHARS`]: a widget's block of short lines (a carousel's
/// slides cloned for its loop, a marquee of testimonials served twice, a
/// product's feature tiles or tab panel given once per screen size) that
/// the gold standards have once. An article served twice in a row, whose
/// gold has it twice (daniel_dev's argumenti.ru pages, the Readability
/// test `missing-paragraphs`), repeats paragraphs: lines of 368 to 887
/// characters. 200 is a paragraph's length elsewhere ([`GRID_PARAGRAPH`]);
/// on wcxb_dev 150 gives +.0007, 200 +.0011, 250 and 300 +.0011–.0012, and
/// no page of the other datasets moves at any of them (ACCURACY.md).
const SHORT_COPY_LINE: usize = 200;
/// ... and a run given again in a row is a copy only with at least this
/// many characters: two short lines repeated (a label and its value, a
/// price under two names) are a list's entries. 100 and 150 move the same
/// pages but three (wcxb_dev +.0011, +.0009), 200 and 350 drop six of the
/// gains (+.0007, +.0006).
const SHORT_COPY_MIN_CHARS: usize = 100;
/// How many earlier occurrences of a paragraph are compared with its run
/// (bounds the work on pages of one line repeated many times).
const COPY_CANDIDATES: usize = 8;

/// Leaves out of `text` (paragraphs separated by `\n`) every run of at
/// least [`COPY_MIN_PARAGRAPHS`] paragraphs, not all the same, of at least
/// [`COPY_MIN_CHARS`] characters, that repeats a run given earlier, unless
/// the copy follows its original directly: a block given twice in a row
/// (kept whole) is as often a sequence of like items (scrapinghub's meal
/// plan) or an article served twice whose gold has it twice (daniel_dev's
/// argumenti.ru pages) as a copy the gold has once (wcxb_dev `dev-0219`);
/// a responsive copy or a quoted post sits apart from its original.
/// Dropping copies in a row too gives wcxb_dev +.0015 but daniel_dev
/// −.0007 and the Readability tests −.0015 (`missing-paragraphs`); a copy
/// in a row is left out only when it is a block of short lines
/// ([`SHORT_COPY_LINE`], [`SHORT_COPY_MIN_CHARS`]).
fn drop_repeated_copies(text: &mut String, buffers: &mut Copies) {
    // Cheap exit: a copy and its original need twice the minimum.
    if text.len() < 2 * SHORT_COPY_MIN_CHARS.min(COPY_MIN_CHARS) {
        return;
    }
    let Copies {
        paragraphs,
        table,
        prev,
        dropped,
    } = buffers;
    let bytes = text.as_bytes();
    paragraphs.clear();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes) {
        paragraphs.push((start, end));
        start = end + 1;
    }
    paragraphs.push((start, bytes.len()));
    let n = paragraphs.len();
    if n < 2 * COPY_MIN_PARAGRAPHS {
        return;
    }
    let line = |i: usize| {
        paragraphs
            .get(i)
            .and_then(|&(a, b)| bytes.get(a..b))
            .unwrap_or_default()
    };
    // The previous paragraph with the same text, for each: the last one
    // before it with the same text, found by a quick key of its length and
    // ends (most pages have no repeat and stop here).
    let slots = (2 * n).next_power_of_two();
    let mask = slots - 1;
    table.clear();
    table.resize(slots, (0, usize::MAX));
    prev.clear();
    prev.resize(n, usize::MAX);
    let mut any_repeat = false;
    for (i, slot_prev) in prev.iter_mut().enumerate() {
        let text = line(i);
        let hash = paragraph_key(text);
        // Open addressing: the table has twice the paragraphs' slots, so
        // it always has an empty one. Texts with the same key but not the
        // same text take slots of their own.
        let mut at = (hash >> 32) as usize & mask;
        while let Some(slot) = table.get_mut(at) {
            if slot.1 == usize::MAX {
                *slot = (hash, i);
                break;
            }
            if slot.0 == hash && line(slot.1) == text {
                *slot_prev = slot.1;
                any_repeat = true;
                slot.1 = i;
                break;
            }
            at = (at + 1) & mask;
        }
    }
    if !any_repeat {
        return;
    }
    let same = |a: usize, b: usize| a < n && b < n && line(a) == line(b);
    dropped.clear();
    dropped.resize(n, false);
    let mut any = false;
    let mut i = 0;
    while i < n {
        // The longest run from `i` repeating one that starts at an earlier
        // occurrence of line `i` and ends before `i`.
        let (mut len, mut adjacent) = (0, false);
        let mut p = prev.get(i).copied().unwrap_or(usize::MAX);
        for _ in 0..COPY_CANDIDATES {
            if p == usize::MAX {
                break;
            }
            let k = (0..n - i)
                .take_while(|&k| p + k < i && same(p + k, i + k))
                .count();
            if k > len {
                (len, adjacent) = (k, p + k == i);
            }
            p = prev.get(p).copied().unwrap_or(usize::MAX);
        }
        let run = || (i..i + len).map(line);
        // Apart from its original: a run of the length of a block of
        // paragraphs; in a row: a block of short lines (see
        // [`SHORT_COPY_LINE`]).
        let copy = len >= COPY_MIN_PARAGRAPHS
            && run().any(|l| l != line(i))
            && if adjacent {
                run().all(|l| chars(l) < SHORT_COPY_LINE)
                    && run().map(chars).sum::<usize>() >= SHORT_COPY_MIN_CHARS
            } else {
                run().map(chars).sum::<usize>() >= COPY_MIN_CHARS
            };
        if copy {
            dropped.get_mut(i..i + len).unwrap_or_default().fill(true);
            any = true;
            i += len;
        } else if adjacent && len >= COPY_MIN_PARAGRAPHS {
            // A block given again in a row is kept whole (its tail is no
            // copy of the original's tail apart from it).
            i += len;
        } else {
            i += 1;
        }
    }
    if !any {
        return;
    }
    let mut kept = String::with_capacity(text.len());
    let mut first = true;
    for (&(a, b), _) in paragraphs.iter().zip(dropped.iter()).filter(|(_, d)| !**d) {
        if !first {
            kept.push('\n');
        }
        first = false;
        kept.push_str(text.get(a..b).unwrap_or_default());
    }
    *text = kept;
}

/// A quick key of a paragraph for [`drop_repeated_copies`]'s table: its
/// length and its first and last eight bytes, mixed (two paragraphs with
/// the same text have the same key; the texts are compared on a match).
/// Hashing every byte of the page's text cost more than the rest of the
/// search.
fn paragraph_key(text: &[u8]) -> u64 {
    let word = |bytes: &[u8]| {
        let mut word = [0u8; 8];
        let n = bytes.len().min(8);
        if let (Some(to), Some(from)) = (word.get_mut(..n), bytes.get(..n)) {
            to.copy_from_slice(from);
        }
        u64::from_le_bytes(word)
    };
    let first = word(text);
    let last = word(text.get(text.len().saturating_sub(8)..).unwrap_or_default());
    let key =
        (first ^ last.rotate_left(29) ^ (text.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(0xff51_afd7_ed55_8ccd);
    key ^ (key >> 29)
}

/// The characters of `text`, UTF-8: its bytes but continuation bytes.
fn chars(text: &[u8]) -> usize {
    text.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// The buffers of [`drop_repeated_copies`], reused from page to page.
#[derive(Default)]
struct Copies {
    /// Each paragraph's byte range in the text.
    paragraphs: Vec<(usize, usize)>,
    /// Open-addressing table of paragraph hashes: the hash and the last
    /// paragraph with it (`usize::MAX`: an empty slot).
    table: Vec<(u64, usize)>,
    /// For each paragraph, the previous one with the same text
    /// (`usize::MAX`: none).
    prev: Vec<usize>,
    /// Whether each paragraph is left out.
    dropped: Vec<bool>,
}

/// The code column's scale, in `1 / SCALE_ONE`, for a page of `text`
/// characters and `code` markup bytes: 1 unless it has more than
/// [`MAX_CODE_PER_CHAR`] markup bytes per text character.
fn code_scale(text: u64, code: u64) -> u32 {
    let scale = (MAX_CODE_PER_CHAR * SCALE_ONE * text)
        .checked_div(code)
        .unwrap_or(SCALE_ONE);
    scale.clamp(1, SCALE_ONE) as u32
}

/// The parts of a line's value that do not depend on the costs, worked out
/// once per page: a page is valued under two costs and up to three trusts.
#[derive(Clone, Copy, Debug, Default)]
struct Parts {
    /// Non-link text characters.
    text: f64,
    /// Markup bytes outside `<main>` and `<article>`; none for a hidden
    /// element inside a paragraph, whose markup a browser does not lay out
    /// (hidden containers keep theirs: free, a menu or dialog hidden
    /// between two regions would join them).
    code: f64,
    /// Markup bytes inside `<main>` or `<article>`, the same way.
    declared_code: f64,
    /// Anchor-text characters times the square of the link density.
    links: f64,
    /// The furniture mark ([`Trust::keeps`]): 0 none, 1 weak (or hidden),
    /// 2 weak with weak furniture nested in it, 3 strong or with strong
    /// furniture nested in it (nested marks set only by [`Nested::mark`]),
    /// 4 a comment thread.
    mark: usize,
}

/// Fills `parts` with the [`Parts`] of `lines`, data lines
/// ([`DATA_LINE`]) made strong furniture without text.
fn fill_parts(parts: &mut Vec<Parts>, lines: &[Line], html: &[u8]) {
    parts.clear();
    // Two passes: the first without a branch (the compiler keeps it tight),
    // the second over the few lines long enough for data, on the pages
    // that have one (122 of wcxb_dev's 1,497).
    let mut longest = 0;
    parts.extend(lines.iter().map(|line| {
        longest = longest.max(line.content);
        Parts::of(line)
    }));
    if longest < DATA_LINE {
        return;
    }
    for (p, line) in parts.iter_mut().zip(lines) {
        if line.content >= DATA_LINE && data(html, line) {
            p.text = 0.0;
            p.mark = 3;
        }
    }
}

/// Whether `line` is JSON data ([`DATA_LINE`]): its text opens with an
/// object and holds a key every [`DATA_KEY_SPAN`] characters.
fn data(html: &[u8], line: &Line) -> bool {
    let bytes = html
        .get(line.start as usize..line.end as usize)
        .unwrap_or_default();
    // The first text byte: past the tags and the white space.
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        if b == b'<' {
            let tag = bytes.get(at..).unwrap_or_default();
            at += memchr::memchr(b'>', tag).map_or(tag.len(), |end| end + 1);
        } else if b.is_ascii_whitespace() {
            at += 1;
        } else {
            break;
        }
    }
    let text = bytes.get(at..).unwrap_or_default();
    let object = [&b"{\""[..], b"[{\"", b"{&quot;", b"[{&quot;"]
        .iter()
        .any(|start| text.starts_with(start));
    if !object {
        return false;
    }
    let keys = memchr::memmem::find_iter(text, b"\":").count()
        + memchr::memmem::find_iter(text, b"&quot;:").count();
    keys.saturating_mul(DATA_KEY_SPAN) >= line.content as usize
}

/// Whether `line` is a picture: a line without text, with
/// [`PICTURE_MIN_CODE`] markup bytes or more, whose markup opens an
/// image (`<img`, `<svg`, `<picture`) and no link (`<a `, `</a>`: a linked
/// thumbnail is a teaser's). Its tags are read in order and the reading
/// stops at a link, a script or a style (not a picture: scripts are not
/// read through).
fn picture(html: &[u8], line: &Line) -> bool {
    if line.content > 0 || line.code < PICTURE_MIN_CODE {
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

impl Parts {
    /// Whether the line holds text, linked or not.
    fn has_text(&self) -> bool {
        self.text > 0.0 || self.links > 0.0
    }

    fn of(line: &Line) -> Parts {
        let link = f64::from(line.link);
        let density = link / f64::from(line.content.max(1));
        let code = if line.furniture == Some(Cue::Hidden) && line.inline {
            0.0
        } else {
            f64::from(line.code)
        };
        let declared = line.in_main || line.in_article;
        Parts {
            text: f64::from(line.content.saturating_sub(line.link)),
            code: if declared { 0.0 } else { code },
            declared_code: if declared { code } else { 0.0 },
            links: link * density * density * if declared { DECLARED_LINK_SHARE } else { 1.0 },
            mark: match line.furniture {
                None => 0,
                Some(Cue::Weak | Cue::Hidden) => 1,
                Some(Cue::Strong) => 3,
                Some(Cue::Comments) => 4,
            },
        }
    }
}

/// Which furniture marks a valuation trusts.
#[derive(Clone, Copy)]
enum Trust {
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
    fn keeps(self) -> [f64; 5] {
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
    fn but_comments(self) -> Option<Trust> {
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
fn value(parts: &Parts, costs: Costs, keeps: &[f64; 5]) -> f64 {
    let kept = keeps.get(parts.mark).copied().unwrap_or(1.0);
    parts.text * kept
        - costs.code * parts.code
        - costs.declared_code * parts.declared_code
        - costs.link * parts.links
}

/// A run of consecutive regions (inclusive indices) and its value.
#[derive(Clone, Copy)]
struct Chain {
    lo: usize,
    hi: usize,
    value: f64,
}

/// The run of consecutive regions with the largest total value of their
/// lines and the lines between them (the first on ties); `None` without
/// regions.
fn best_chain(parts: &[Parts], regions: &[Region], costs: Costs, trust: Trust) -> Option<Chain> {
    best_chains(parts, regions, costs, [trust]).map(|[chain]| chain)
}

/// [`best_chain`] under each of `trusts`, in one walk over the lines: the
/// sums of the trusts are independent, so the processor adds them side by
/// side (each is a chain of dependent additions, in the lines' order).
fn best_chains<const K: usize>(
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

// ---------------------------------------------------------------------------
// Grids of cards.
//
// A listing or collection page (a shop's category, a site's archive of
// stories) is a run of cards: each a linked title, a teaser or a price,
// wrapped in several times its text in layout markup. Outside `<main>` and
// `<article>` that markup outweighs the cards' text, so neither reading
// finds the grid (REI's category pages: the article reading keeps the
// buying guide under it, the listing reading a fragment). The cards give
// themselves away by repeating: the line that opens a card opens every
// card, with the same tag and class, and the cards are alike in length. A
// run of such blocks that each hold text of their own besides anchor text
// (a teaser, a price: what a menu's entries do not have) is a grid, and
// the listing reading takes its markup for the cards' own, as inside
// `<main>`. Only pages whose article reading has no paragraph are looked
// at: an article's teasers are grids of cards too.
// ---------------------------------------------------------------------------

/// An article reading whose text holds a line of this many characters of
/// non-link text (those outside ASCII counted twice: an ideogram is a
/// word) has a paragraph: the page is an article, and the cards on it are
/// teasers of other pages. A teaser or a card's description is shorter.
/// At 200 the short news articles of daniel_dev beside teaser grids keep
/// their article (their longest lines: 218–708); the category pages'
/// article readings (a buying guide's bullets, an intro sentence) have
/// none longer than 165.
const GRID_PARAGRAPH: u32 = 200;
/// A card whose text is all anchors (a linked title and teaser) is a
/// card when it has two lines of text or more, of this many characters
/// each on average (non-ASCII counted twice); and a grid whose lines of
/// text are this long has its anchor text for content, not for links
/// (titles and teasers, not a list of short links). Menus and lists of
/// headlines have shorter lines (daniel_dev's `finance.qq.com` boxes of
/// headlines: 29–34). On wcxb_dev's even half 30 and 40 move the same
/// pages (listings .593 → .641); the odd half gains more at 30 (`dev-2961`,
/// `dev-4495`), but 30 is at the length of the qq.com headlines.
const GRID_LINKED_LINE: u32 = 40;
/// A grid has at least this many cards.
const GRID_MIN_CARDS: usize = 4;
/// Each card of a grid holds at least this many characters of non-link
/// text (a teaser, a price, a date): the entries of a menu hold none.
const GRID_CARD_TEXT: u32 = 10;
/// Each card of a grid spans at least this many lines (a title, a teaser,
/// a price): a paragraph or a menu entry is a line.
const GRID_CARD_LINES: usize = 3;
/// The cards of a grid are alike: each spans at most this many times the
/// lines of the one before it, and at least its share. Without it the
/// blocks between repeats of a common tag (`<div>`, `<tr>`) made grids of
/// whole pages.
const GRID_SPREAD: usize = 2;
/// A page with a grid is read as a listing when the article reading is
/// worth less than this share of the listing reading's text (with the
/// grid's markup free). On wcxb_dev .2 and .22 move the same pages on the
/// even half (collections .532 → .600); from .25 daniel_dev's short
/// articles beside a grid of teasers are lost to the teasers (`kake.com`,
/// .53).
///
/// The article reading is weighed by its value (its text less the markup
/// and links it paid for), not its text: a reading that pays much for the
/// layout around its text is a fragment of the listing (a card, the
/// bullets of a buying guide under the grid, a block of footer), while a
/// short article's paragraphs cost little (`kake.com`: value 534 of 540
/// characters). On wcxb_dev five pages gain (REI's backpacking packs
/// `dev-2952` .36 → .87, Deloitte's services `dev-0709` .41 → .94, two
/// forum threads and a product), none loses, and no page of the other
/// datasets moves; with the value, .25 and .3 also give `dev-4419` and
/// `dev-4021` (.57, .02 → .88, .78) but lose `kake.com` (.90 → .37).
const GRID_SHARE: f64 = 0.2;

/// An article reading worth less than this share of its text (its text
/// less the markup and links it paid for) is a block of links and layout,
/// not prose: one stretch of a page of teasers (a news front page, a
/// blog's index, a topic page) or a link-rich list. The page is then read
/// as a listing too, and the listing reading is taken when it is worth
/// [`PAID_LISTING_WORTH`] times the article reading's value. An article's
/// paragraphs pay little (most article readings keep over 90 % of their
/// text as value), so few pages are read twice for it (wcxb_dev 58,
/// daniel_dev 7, readability_tests 2, scrapinghub 1 besides those read
/// for [`LISTING_SHARE`]). At .35 to .45 the same pages move (wcxb_dev
/// +.0010 to +.0011), at .3 and .5 +.0008; no page of another dataset
/// moves.
const PAID_SHARE: f64 = 0.4;
/// The listing reading is taken beside a paid-for article reading
/// ([`PAID_SHARE`]) when its value is this many times the article
/// reading's, on a page without a grid of cards (there the grid's markup
/// is free in the listing reading, which so gains value without being
/// more right, and [`GRID_SHARE`] already weighs the article reading by
/// its value: The Verge's and a TV station's grids, `dev-2971` .97 →
/// .78, `dev-0260` .96 → .86, and readability_tests' `nytimes-5` were
/// lost). The link-heavy block the article reading found is then a part
/// of a listing worth several times more at the listing's link cost.
/// Gains on wcxb_dev: CableTV's news listing (`dev-0083` .22 → .67), The
/// Verge's front page (`dev-2969` .43 → .76), the GitHub blog
/// (`dev-2902` .25 → .46), a TV station's topic page (`dev-1795` .72 →
/// .88), a ResetEra thread (`dev-0514` .55 → .76) and Class Central's
/// list of free certificates (`dev-0215`, article, .76 → .95); an eBay
/// product (`dev-2888` .47 → .38) and a forum thread (`dev-0521` .89 →
/// .86) lose. At 2 more pages move for the same gain (+.0011), at 4 and
/// 5 `dev-0514`, `dev-1795` and `dev-0215` go back in turn (+.0009,
/// +.0007).
const PAID_LISTING_WORTH: f64 = 3.0;
/// A landing page (a service's, a product's, an agency's: short sections
/// of a pitch, each a heading, a sentence or two and a button, with
/// cards of features, prices and testimonials between) gives the article
/// reading a chain of many small regions with few paragraphs
/// ([`PICTURE_PARAGRAPHS`]): some of its sections, cut off where a row of
/// linked cards or buttons, or the layout of a block inside `<main>`,
/// costs more than the next section pays (Loom's and Webflow's hero
/// sections were left out). When the article reading's chain has at least
/// this many regions and fewer than [`PICTURE_PARAGRAPHS`] paragraphs, the
/// page is read as a listing too (its links at a tenth of the cost, its
/// declared layout free), and the listing reading is taken when it gives
/// [`LANDING_TEXT`] times the article reading's text: the rest of the
/// pitch. A news article's reading is one region or a few (its paragraphs
/// run on), and one of many regions has many paragraphs; at 4 regions
/// news articles lose their text to the related links under them
/// (readability_tests .9705 → .9688, `cnn`, `yahoo`), at 6 fewer service
/// pages gain (.8174; wcxb_dev .8382, scrapinghub unchanged). To keep it
/// cheap, the page is read again only when its text leaves room for that
/// much more and a first chain at the listing's costs (the article reading's marks trusted, no grid
/// of cards looked for) gives it: 241 of wcxb_dev's 1,497 pages pay that
/// one chain, about 40 the whole listing reading.
///
/// On wcxb_dev service pages .8037 → .8198 (Loom `dev-2845` .08 → .61,
/// `dev-2851` .45 → .84, `dev-2841` .56 → .92, Webflow `dev-0695` .60 →
/// .94, Talkspace `dev-4866` .63 → .93), forum threads .7229 → .7283,
/// products .6368 → .6391; collections .6277 → .6240 and listings .6784
/// → .6707 lose where the listing reading adds the menu above a short
/// list (`dev-0648` .91 → .43, `dev-1572` .84 → .41). wcxb_dev .8367 →
/// .8384 (halves .8370/.8365 → .8385/.8382), readability_tests .9705 →
/// .9731 (Wikipedia pages' lists), daniel_dev .8867 → .8874, scrapinghub
/// .9501 → .9499. Reading the listing on every page instead lifts
/// services to .8279 but drops wcxb_dev to .8312 and daniel_dev to .8392.
/// The collections it lost are kept by [`LANDING_ADDED_LINKS`].
const LANDING_REGIONS: usize = 5;
/// The anchor-text share under which the text a landing page's listing
/// reading adds to its article reading is the pitch's sections
/// ([`adds_prose`]): above it, the listing reading adds a menu of links
/// above a short list (collections, `dev-0648` .43 → .90, `dev-2925` .51
/// → .89), a news page's related links (readability_tests `cnn` .87 →
/// .97, scrapinghub `d605bdef…` .75 → .97). wcxb_dev .8393 → .8396,
/// collections .6240 → .6333, services .8262 → .8235 (`dev-2851` .84 →
/// .45), readability_tests .9731 → .9739, scrapinghub .9499 → .9511; from
/// .5 to .7 wcxb_dev is at .8395–.8396.
const LANDING_ADDED_LINKS: f64 = 0.6;
/// The share of the article reading's text the listing reading gives on
/// a landing page ([`LANDING_REGIONS`]) for it to be taken. At 1.5
/// wcxb_dev gains .0015 (services .8193); at 1.2 as much as at 1.3, but a
/// scrapinghub article takes its list of related links (.9501 → .9488).
const LANDING_TEXT: f64 = 1.3;

// ---------------------------------------------------------------------------
// A listing of short lines.
//
// A catalogue, a shop's collection, a course list or a tutorial index
// whose article reading is a paragraph among its entries (an intro, a
// product's description, one long teaser) gives the article reading when
// that paragraph holds [`LISTING_SHARE`] of the listing's text. Its
// entries are short: names, prices, dates, labels, most of them linked;
// the lists beside a short news article (related stories, a box of
// headlines) are headlines of a sentence, 40 to 200 characters. So the
// listing reading is also taken when it holds several times the article
// reading and its lines are mostly short and partly linked
// ([`short_lines`]).

/// A line of the listing reading under this many text characters is
/// short (an entry's name, price or label); a headline is longer.
/// Chosen with the shares below; not varied.
const SHORT_LINE: u32 = 40;
/// The listing reading is taken when the article reading is worth less
/// than this share of its text (its value beside a grid, its text
/// elsewhere, as for [`LISTING_SHARE`] and [`GRID_SHARE`]), and its lines
/// are short ([`SHORT_LINES_SHARE`]) and linked ([`SHORT_LISTING_LINKS`]).
/// Over 2.9 to 3.15 times (.34 to .32) the same pages move; at 1 / 2.5 a
/// daniel_dev article beside a box of short headlines is lost
/// (`finance.qq.com_445b…`, .94 → .55: 2.8 times); at 1 / 3.5 four of
/// the nine pages gained go back (`dev-4636`, `dev-4760`, `dev-4291`,
/// `dev-0622`; wcxb_dev .8345 → .8339).
const SHORT_LISTING_SHARE: f64 = 1.0 / 3.0;
/// At least this share of the listing reading's lines with text are
/// [`SHORT_LINE`]s. Under it daniel_dev articles whose listing reading
/// holds their site's menus of short links are lost (`iatronet.gr`, 61–67
/// % short lines: one at .65, .95 → .42, three at .6); at .72 a
/// documentation index (`dev-4020`, 71 %) and a collection (`dev-4291`)
/// stay articles (wcxb_dev .8340).
const SHORT_LINES_SHARE: f64 = 0.7;
/// Anchor text holds at least this share of the listing reading's text:
/// a listing's entries link to their pages. Without it IKEA's and a
/// furniture shop's product pages (`dev-3019`, `dev-3021`, 1 % anchor
/// text: the specifications under the description) were read as
/// listings (.34 → .08, .12 → .06); .05 to .15 move the same pages.
const SHORT_LISTING_LINKS: f64 = 0.1;

/// Whether `listing`, the listing reading, is a listing of short lines
/// beside which the article reading, worth `article_worth`, is a
/// fragment (see "A listing of short lines").
fn short_lines(lines: &[Line], parts: &[Parts], listing: &Reading, article_worth: f64) -> bool {
    let (mut with_text, mut short, mut text, mut link) = (0u32, 0u32, 0u64, 0u64);
    for line in listing.given(lines, parts).filter(|l| l.content > 0) {
        with_text += 1;
        short += u32::from(line.content < SHORT_LINE);
        text += u64::from(line.content);
        link += u64::from(line.link);
    }
    let text = text as f64;
    article_worth < SHORT_LISTING_SHARE * text
        && f64::from(short) >= SHORT_LINES_SHARE * f64::from(with_text)
        && link as f64 >= SHORT_LISTING_LINKS * text
}

// ---------------------------------------------------------------------------
// Linked teasers.
//
// A card is often one link: `<a>` around the card's title and teaser (a
// story's summary, a course's description), so every line of the card is
// anchor text, and under any link cost the listing of such cards is worth
// less than a line of plain text beside it (BBC News' front page, Amazon's
// best sellers, a Wikipedia category: the article reading kept a cookie
// notice or a fragment). What tells a teaser from a menu entry is its
// length: a menu's anchors are a word or two, a card's a sentence.
// ---------------------------------------------------------------------------

/// A line whose anchors hold this many characters of text each on average
/// (a line that starts inside an anchor opened above it, as a card's teaser
/// under a linked title does, counts as one anchor) is a linked teaser: in
/// the listing reading its anchor text counts as text, not as links. Menus
/// and tag lists have shorter anchors. Only pages whose article reading has
/// no paragraph ([`GRID_PARAGRAPH`]) are read so: beside an article, the
/// linked teasers are other stories (without that check, already at 80
/// characters, seven of daniel_dev's `argumenti.ru` and `nversia.ru`
/// articles lose their text to them, F1 .90–.97 → .12–.24). On
/// wcxb_dev's even half 40, 45 and 50 give the same (listings .646 → .666);
/// from 55 the Wikipedia category page `dev-3010` and the job board
/// `dev-4354` are lost again, and at 40 a scrapinghub article
/// (`e372e42c…`, .98 → .21) goes to its linked teasers.
const TEASER_ANCHOR: u32 = 50;

/// Counts the anchor text of the linked teasers ([`TEASER_ANCHOR`]) of
/// `lines` as text in `listing_parts`, which holds the listing reading's
/// parts if `filled`, else is first filled from `parts`; false, and
/// `listing_parts` untouched, when the page has no linked teaser.
fn linked_teasers(
    html: &str,
    lines: &[Line],
    parts: &[Parts],
    listing_parts: &mut Vec<Parts>,
    mut filled: bool,
) -> bool {
    let mut any = false;
    for (i, l) in lines.iter().enumerate() {
        if l.link < TEASER_ANCHOR {
            continue;
        }
        let line = html
            .as_bytes()
            .get(l.start as usize..l.end as usize)
            .unwrap_or_default();
        if l.link < TEASER_ANCHOR.saturating_mul(anchors(line).max(1)) {
            continue;
        }
        if !filled {
            listing_parts.clear();
            listing_parts.extend_from_slice(parts);
            filled = true;
        }
        if let Some(p) = listing_parts.get_mut(i) {
            p.text = f64::from(l.content);
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

/// Sets `grid_parts` to the parts of the lines with the page's grid of
/// cards ([`grid`], `opens` its buffers) made the cards' own: their markup
/// counted as declared content's and the weak marks on them lifted (a grid
/// outside the page's `<main>`). False, `grid_parts` untouched, when the
/// page has no grid. Read only on pages whose article reading has no
/// paragraph ([`GRID_PARAGRAPH`]).
///
/// A shop's product grid is one run among several there (its filter
/// lists, a carousel of picks, the menus), and its cards' text is mostly
/// short linked names, so another run held more text and was taken for
/// the grid. Here a run whose cards hold a price each ([`price_at`]: as
/// many prices as cards) is preferred to any run without: REI's hiking
/// boots (`dev-2951`, .52 → .63) and `dev-0639` (.01 → .23) gain, no
/// other page of the four datasets moves (wcxb_dev .8416 → .8418, halves
/// .8403 / .8429 → .8406 / .8430, collections .6417 → .6444). The prices
/// are counted only on these pages (one byte search over the page).
///
/// **Priced cards.** A shop's card may hold nothing but its linked name and
/// its price (`Roc Loc 5 LED Light`, `$34.95`), or link every line (name,
/// maker, item number, price): under [`GRID_CARD_TEXT`] of text besides its
/// links, and its lines shorter than a linked teaser's, it was no card, and
/// the run taken for the grid was a footer's columns or none. A block that
/// holds a price is a card too, and in a grid of priced cards the anchor
/// text counts as text ([`make_cards`]): the linked names are the listing,
/// not links away from it. Menus and footers rarely hold a price a column.
/// On wcxb_dev a projector shop's grid under its pricing-policy pop-up
/// (`dev-4264`, .01 → .86), Ridge's wallets (`dev-0635`, .29 → .63),
/// Giro's lights under a newsletter dialog (`dev-4410`, .02 → .88, with
/// [`furniture_read`]), Amazon's best-selling books (`dev-2922`, .67 →
/// .70) and Bombas' socks (`dev-0639`, .23 → .27) gain; REI's backpacking
/// packs (`dev-2952`, .87 → .84), Zappos' sneakers (`dev-3051`, .59 →
/// .57) and an Amazon product (`dev-3058`, .18 → .16) lose a little (their
/// listing reading reaches further along the priced run). Collections
/// .6444 → .6623 (even half .6546 → .6705, odd .6348 → .6545), products
/// .6425 → .6423, wcxb_dev .8418 → .8432 (halves .8406 / .8430 → .8418 /
/// .8446); no page of the other datasets moves.
fn card_grid(
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
// A thread of alike posts.
//
// A question-and-answer thread (Stack Exchange's sites) puts each post in
// the same block: the same tag and class around the post's text, then its
// votes, its author's card, its share and edit links and its comments,
// several hundred bytes of markup and links per post. Each post is a
// region, and the markup between two posts costs more than a short post
// pays, so the article reading keeps one post (the longest answer), its
// text under [`LISTING_SHARE`] of the page's. The posts give
// themselves away as cards do ([`grid`]): the tag that opens the article
// reading's post opens each of the others. When the article reading lies
// inside a grid of blocks opened by the tag that opens its first line,
// and that grid holds [`THREAD_PARAGRAPHS`] paragraphs more than the
// article reading (unmarked lines of [`GRID_PARAGRAPH`] characters: the
// other posts), the listing reading is made with the grid's markup free
// ([`make_cards`]) and taken when it holds the article reading: the whole
// thread. A short news article beside a grid of teasers is not read so:
// its first line does not open the teasers' blocks, and the teasers are
// no paragraphs.
//
// Only the tag opening the article reading's first line is sought (a
// window of 12 lines above it moves the same pages; the whole page's
// grid, as [`card_grid`] seeks it, also gave NPR's science listing, a
// grid of teasers holding its lead story, `dev-3011` .77 → .76). The
// search is gated, cheapest test first, so that it costs nothing
// measurable (it was tried before without gates at 2–4 % of daniel_dev's
// speed per core): only pages whose article reading is short and has a
// paragraph, without a grid under it ([`introduced_grid`]), are looked at
// (daniel_dev 122 of 779 pages, wcxb_dev 50, scrapinghub 9,
// readability_tests 1); the article reading's first line must open a tag
// with a class; [`THREAD_PARAGRAPHS`] unmarked paragraphs must lie outside
// the article reading (a pass over the lines' counts); the class must be
// named [`GRID_MIN_CARDS`] times in the page (one substring search).
// Only daniel_dev 1 and wcxb_dev 4 pages get past them to [`grid`].
//
// On wcxb_dev two Stack Exchange threads gain (`dev-0566` .26 → .86,
// `dev-0565` .15 → .32: its gold holds only the first three answers),
// forum threads .7282 → .7351, wcxb_dev .8396 → .8401 (halves .8396 /
// .8395 → .8399 / .8403); no other page of any dataset moves.
// ---------------------------------------------------------------------------

/// An article reading that is one post of a thread is read as a listing
/// with the thread's markup free when the grid of posts holds this many
/// paragraphs ([`is_paragraph`]) more than the article reading. 1 moves
/// the same pages, 3 loses `dev-0565`.
const THREAD_PARAGRAPHS: usize = 2;

/// Sets `grid_parts` to the parts of the lines with the thread of posts
/// the article reading is one of made the cards' own ([`make_cards`]);
/// false, `grid_parts` untouched, when the page is no such thread (see "A
/// thread of alike posts"). `opens` are [`grid`]'s buffers. Kept out of
/// [`extract`], which most pages run without it.
#[inline(never)]
fn thread_grid(
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
        .take(THREAD_PARAGRAPHS)
        .count();
    // and names the class as often as a grid has cards.
    if outside < THREAD_PARAGRAPHS
        || memchr::memmem::find_iter(html, class)
            .nth(GRID_MIN_CARDS - 1)
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
    if all < own + THREAD_PARAGRAPHS {
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
    let linked = priced || text >= GRID_LINKED_LINE * text_lines;
    grid_parts.clear();
    grid_parts.extend_from_slice(parts);
    let chosen = grid_parts.get_mut(first..=last).unwrap_or_default();
    for (p, l) in chosen.iter_mut().zip(grid_lines) {
        p.declared_code += p.code;
        p.code = 0.0;
        if linked {
            p.text = f64::from(l.content);
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
// [`PROSE_GRID_SHARE`] of the page's text and a grid of priced cards
// ([`grid`], a price per card) starts above it, ends before its end and
// holds at least its text, the page is read as a listing with the grid's
// markup free and its linked names for text ([`make_cards`]), and that
// reading is taken. A product's description lies above the grid of other
// products for sale, and a news article's teasers hold no price: neither
// is read so. The same shape catches a newsletter dialog read under a
// shop's front page of priced offers.
//
// On wcxb_dev four pages gain and one loses: a fitness shop's front page
// under its newsletter dialog (`dev-4351`, .05 → .65), a chess shop's
// pieces above their FAQ (`dev-4139`, .61 → 1.00), a running shop's
// trail shoes (`dev-4461`, .73 → .97), Gymshark's shirts above their
// brand prose (`dev-0633`, .02 → .24: the listing reading keeps the
// prose, which the gold leaves out); IKEA's bookcases (`dev-2926`, .73 →
// .60: its gold keeps the introduction above the grid, not the prose
// under it). Collections .6623 → .6703 (even half .6705 → .6811, odd
// .6545 → .6600), listings .6707 → .6745 (odd .6350 → .6430), wcxb_dev
// .8432 → .8441 (halves .8418 / .8446 → .8426 / .8456); no page of the
// other datasets moves. The grid is sought on pages with a price above
// the article reading per [`PROSE_GRID_CARD_TEXT`] characters of its text
// (daniel_dev 1 of 779, scrapinghub 1, readability_tests none, wcxb_dev
// 16; with [`GRID_MIN_CARDS`] prices alone daniel_dev 6, scrapinghub 6,
// readability_tests 4, wcxb_dev 31, which cost 2–5 % of readability_tests'
// speed per core), after a byte search over that part of the page on
// those whose article reading is under [`PROSE_GRID_SHARE`] of their text
// and has at least its text above it (daniel_dev 65, scrapinghub 11,
// readability_tests 5, wcxb_dev 107; on every page under the share,
// daniel_dev 318 and wcxb_dev 164, that search cost +0.4–0.6 % of the
// instructions on scrapinghub, daniel_dev and readability_tests).
// ---------------------------------------------------------------------------

/// An article reading under this share of the page's text, below a grid
/// of priced cards ([`grid_above_prose`]), is a shop's prose under its
/// product grid: the page is read as a listing with the grid's markup
/// free ([`make_cards`]), and that reading is taken. On wcxb_dev .4 and
/// .45 move the same pages, .35 loses `dev-4461`, from .5 a scrapinghub
/// article (`5fbc7ccb…`, .97 → .94) and a collection (`dev-4376`, .61 →
/// .53) lose.
const PROSE_GRID_SHARE: f64 = 0.4;

/// The grid above a shop's prose holds at most this many lines with text
/// per price: a product card is a name, a few labels and a price. A mega
/// menu whose columns each end with an offer ("Save $50 …") is a grid of
/// priced blocks of twenty links each (Terminix's coupons, `dev-0338`, .72
/// → .56 without this bound). 6 to 16 move the same pages.
const PROSE_GRID_LINES: usize = 8;

/// The grid above a shop's prose holds at least the prose's text in cards
/// of a name, a few labels and a price, 40 to 80 characters a price on
/// the pages it fixes: it is sought only when a price lies above the
/// article reading for each this many characters of the article
/// reading's text (and [`GRID_MIN_CARDS`] at least). The pages it fixes
/// have 2 to 4 times that many; the news articles, blog posts and recipes
/// of the other datasets with a few prices above their text (a shop's
/// teaser, a sidebar's offer) have fewer, and the grid search, as long
/// as a reading of the page, is not made on them.
const PROSE_GRID_CARD_TEXT: f64 = 100.0;

/// Whether the article reading (of `article_text` characters) lies under a
/// grid of priced cards ([`grid`]) that starts above it and ends before its
/// end, holds at least its text and at most [`PROSE_GRID_LINES`] lines with
/// text per price; if so, `grid_parts` is set to the grid's cards
/// ([`make_cards`]). The grid is sought (`opens` its buffers) only when
/// the text above the article reading is at least its own, and enough
/// prices lie there ([`PROSE_GRID_CARD_TEXT`]: a byte search over the
/// lines with text above the article reading).
fn grid_above_prose(
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
    // Truncation intended: a price per whole `PROSE_GRID_CARD_TEXT`.
    let needed = GRID_MIN_CARDS.max((article_text / PROSE_GRID_CARD_TEXT) as usize);
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
    if (text as f64) < article_text || text_lines > PROSE_GRID_LINES * prices {
        return false;
    }
    make_cards(lines, parts, grid_parts, (first, last), true);
    true
}

// ---------------------------------------------------------------------------
// A grid under its introduction.
//
// A shop's category page or a catalogue often opens with a paragraph or
// two about what it lists, then the grid of cards (White Flower Farm's
// indoor pots, a sharpening-stone shop's categories, MIT's certificate
// programmes). The paragraph makes it an article, so the grid is not
// sought there, and the article reading keeps the paragraph alone: the
// cards' layout markup outweighs their text. When the introduction is
// under [`LISTING_SHARE`] of the page's text and a grid of cards starts
// within [`INTRO_GRID_REACH`] lines after it, the grid is given with it,
// if it is one: no furniture inside, at least as much text as the
// introduction (the listing is the page's content, the paragraph its
// preface), and at least [`INTRO_GRID_CODE`] markup bytes per character
// of text (a card wraps its title and price in layout). A short news
// article's "more stories" and comments are grids too: they are furniture
// (comments, sidebars), lists of headlines with little markup, boxes of
// links shorter than the article, or further down the page. Without the
// furniture check eleven of daniel_dev's short articles (`news.163.com`,
// `wprost.pl`, …) are given with the comments or teasers under them (F1
// .87–.97 → .11–.40); without the text check a box of links under a
// `winnipegfreepress.com` article (.91 → .73) and a `ria.ru` one (.84 →
// .62). On wcxb_dev four listings gain (`dev-4112`, `dev-4122`, `dev-0216`,
// `dev-2903`: F1 .39, .40, .12, .14 → .92, .85, .95, .45), no page of any
// dataset moves otherwise.
// ---------------------------------------------------------------------------

/// A grid of cards is given with the introduction above it when it starts
/// within this many lines after the introduction's last line (a sort bar
/// or a menu may lie between). On wcxb_dev 20 to 75 give three of the
/// four pages, 100 and 125 the fourth (MIT's programmes `dev-0216`, under
/// a menu: .12 → .95); 150 loses a listing to a grid further down
/// (`dev-4355`, .68 → .17), from 200 short daniel_dev articles their text
/// to a grid of teasers (`wspolczesna.pl`, .91 → .30).
const INTRO_GRID_REACH: usize = 100;
/// A grid under an introduction carries at least this many markup bytes
/// per character of text, the layout of cards (those given: 6–9). Lists
/// of linked headlines under a short news article have less: at 2.5 five
/// of daniel_dev's articles are given with them (`argumenti.ru`,
/// `informpskov.ru`: .90–.97 → .12–.25), at 2 twenty; 3.5 gives the same
/// pages as 3, 4 loses `dev-0216`.
const INTRO_GRID_CODE: u32 = 3;
/// The grid is looked for in this many lines after the introduction, and
/// a grid that runs to their end is none (it is not known whole): a grid
/// search over a whole page costs a tenth of daniel_dev's extraction time,
/// whose short articles sit over long pages, when it is run for every
/// short article. 600 and 3,000 give the same pages (the grids given span
/// 90–300 lines).
const INTRO_GRID_WINDOW: usize = 1000;

/// The last line of a grid of cards ([`grid`], `opens` its buffers) that
/// starts within [`INTRO_GRID_REACH`] lines after `intro_last`, holds no
/// furniture, at least the introduction's `intro_text` and
/// [`INTRO_GRID_CODE`] markup bytes per character of its text; `None` if
/// the page has none.
fn introduced_grid(
    html: &str,
    lines: &[Line],
    (intro_last, intro_text): (usize, f64),
    opens: &mut Opens,
) -> Option<usize> {
    // Only the lines of the window are read, and only the groups of tags
    // that open a line within the reach are sorted.
    let after = intro_last + 1;
    let rest = lines.get(after..)?;
    let end = rest.len().min(INTRO_GRID_WINDOW);
    let (first, last) = grid(
        html.as_bytes(),
        rest.get(..end)?,
        opens,
        0..INTRO_GRID_REACH + 1,
        Prices::Ignored,
    )?;
    if first > INTRO_GRID_REACH || (last + 1 >= end && end < rest.len()) {
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
    (text as f64 >= intro_text && code >= u64::from(INTRO_GRID_CODE) * text).then_some(last)
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
/// more around it (a forum thread with its header), and is not taken. On
/// wcxb_dev 16 pages have an article reading that trusts no mark; three
/// gain (Ars Technica's front page `dev-2968` .09 → .81, a kitchen shop's
/// collection `dev-4021` .02 → .78, `dev-2973` .05 → .25), none loses;
/// without the test that the readings lie apart two forum threads lose
/// (`dev-1658` .77 → .75, `dev-0545` .86 → .85).
///
/// Readings whose spans overlap lie apart too when the listing reading
/// gives none of the article reading's text: the lines they share are
/// furniture the listing reading trusts (Giro's lights, `dev-4410`, .02 →
/// .88: the listing reading's last region is the first two lines of the
/// newsletter dialog the article reading read, left out as the strong
/// furniture they are). A forum thread with its header gives the article
/// reading's text and is still not taken.
fn furniture_read(
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

/// Whether the chain of `reading` would reach further down with its
/// pictures' markup free ([`picture`]): walking from the chain over the
/// regions after it, with the lines between, while the chain's value plus
/// theirs stays positive, past a picture they come to be worth more than
/// nothing. Only then is the page read again (a second reading of every
/// page with few paragraphs and a picture cost 6 % of the time per page on
/// scrapinghub). Above the chain, the pictures are an article's lead photo
/// with its caption and byline (daniel_dev `polskatimes.pl`,
/// `kurierlubelski.pl`, `timeslive.co.za`: −.03 each when walked).
fn joins_past_pictures(
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
                sum += costs.code * p.code + costs.declared_code * p.declared_code;
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

/// Whether the text of `reading` holds fewer than [`PICTURE_PARAGRAPHS`]
/// paragraphs ([`is_paragraph`]); the lines are read up to the last
/// paragraph needed (an article's span runs to thousands of lines).
fn few_paragraphs(lines: &[Line], parts: &[Parts], reading: &Reading) -> bool {
    reading
        .given(lines, parts)
        .filter(|l| is_paragraph(l))
        .take(PICTURE_PARAGRAPHS)
        .count()
        < PICTURE_PARAGRAPHS
}

/// Whether the text of `reading` has a paragraph ([`is_paragraph`]).
fn has_paragraph(lines: &[Line], parts: &[Parts], reading: &Reading) -> bool {
    reading.given(lines, parts).any(is_paragraph)
}

/// Whether `line` is a paragraph: at least [`GRID_PARAGRAPH`] characters
/// of non-link text, those outside ASCII counted twice.
fn is_paragraph(line: &Line) -> bool {
    line.content.saturating_sub(line.link) + line.non_ascii >= GRID_PARAGRAPH
}

/// The first and last line of the page's grid of cards, if it has one:
/// of the runs of at least [`GRID_MIN_CARDS`] blocks opened by lines with
/// the same tag and class ([`shape`]), each with [`GRID_CARD_TEXT`]
/// characters of non-link text over [`GRID_CARD_LINES`] lines or more and
/// alike in length ([`GRID_SPREAD`]), the one with the most non-link text
/// (on ties, the first of the lowest [`shape`]); with
/// [`Prices::Preferred`], a run with a price per card ([`price_at`])
/// before any run without, with [`Prices::EachCard`] only blocks holding a
/// price are cards. Only tags and classes that open one of the lines
/// `heads` are read (all of them when `heads` are all the lines).
fn grid(
    html: &[u8],
    lines: &[Line],
    buffers: &mut Opens,
    heads: Range<usize>,
    prices: Prices,
) -> Option<(usize, usize)> {
    let priced = !matches!(prices, Prices::Ignored);
    let Opens {
        opens,
        groups,
        sums,
        shapes,
        in_order,
        slots,
        slot_of,
        counted,
        prices: price_sums,
        priced: found_priced,
    } = buffers;
    let tag = |i: usize| {
        let line = lines.get(i)?;
        opening_tag(html.get(line.start as usize..line.end as usize)?)
    };
    // The lines that open with a tag, grouped by a quick hash of its name
    // and class; the groups of enough lines for a grid in the order of
    // their shape.
    in_order.clear();
    if heads.start > 0 || heads.end < lines.len() {
        // Only the shapes that open one of the lines `heads`, in an
        // open-addressing set (a binary search over them took a quarter of
        // the search on daniel_dev's short articles, its branches not
        // foreseen).
        let size = (2 * heads.len()).next_power_of_two().max(16);
        let bits = size.trailing_zeros();
        let slot = |shape: u64| fibonacci_slot(shape, bits);
        shapes.clear();
        shapes.resize(size, None);
        for shape in heads.filter_map(|i| Some(quick_shape(tag(i)?))) {
            let mut at = slot(shape);
            while let Some(entry) = shapes.get_mut(at) {
                match entry {
                    Some(other) if *other != shape => at = (at + 1) & (size - 1),
                    Some(_) => break,
                    None => {
                        *entry = Some(shape);
                        break;
                    }
                }
            }
        }
        let head = |shape: &u64| {
            let mut at = slot(*shape);
            while let Some(&Some(other)) = shapes.get(at) {
                if other == *shape {
                    return true;
                }
                at = (at + 1) & (size - 1);
            }
            false
        };
        in_order.extend((0..lines.len()).filter_map(|i| {
            let shape = quick_shape(tag(i)?);
            head(&shape).then_some((shape, i))
        }));
    } else {
        in_order.extend((0..lines.len()).filter_map(|i| Some((quick_shape(tag(i)?), i))));
    }
    // `opens`: the lines of the groups of at least [`GRID_MIN_CARDS`],
    // ordered by quick hash, then line (as sorting them all would, but
    // counted into place: sorting every line cost half the search).
    group_by_hash(in_order, slots, slot_of, counted, opens);
    groups.clear();
    let mut from = 0;
    for same in opens.chunk_by(|a, b| a.0 == b.0) {
        let to = from + same.len();
        if let Some(tag) = same.first().and_then(|&(_, i)| tag(i)) {
            groups.push((shape(tag), from, to));
        }
        from = to;
    }
    groups.sort_unstable();
    // A block's non-link text, text (weighed), and lines with text, from
    // their sums over the lines before each line.
    sums.clear();
    sums.push((0, 0, 0));
    let mut sum = (0u32, 0u32, 0u32);
    for l in lines {
        sum = (
            sum.0.wrapping_add(l.content.saturating_sub(l.link)),
            sum.1.wrapping_add(weighed(l)),
            sum.2.wrapping_add(u32::from(l.content > 0)),
        );
        sums.push(sum);
    }
    // The prices ([`price_at`]) on the lines before each line, when priced
    // runs are preferred: one search over the page, each price counted on
    // its line.
    price_sums.clear();
    if priced {
        price_sums.resize(lines.len() + 1, 0);
        let from = lines.first().map_or(0, |l| l.start as usize);
        let to = lines.last().map_or(0, |l| l.end as usize);
        let mut line = 0;
        for at in prices_in(html, from, to) {
            while lines.get(line).is_some_and(|l| l.end as usize <= at) {
                line += 1;
            }
            if let Some(count) = price_sums.get_mut(line + 1) {
                *count += 1;
            }
        }
        let mut sum = 0u32;
        for count in price_sums.iter_mut() {
            sum = sum.wrapping_add(*count);
            *count = sum;
        }
    }
    let price_sums = &price_sums[..];
    let text = |from: usize, to: usize| -> (u32, u32, u32) {
        match (sums.get(from), sums.get(to)) {
            (Some(a), Some(b)) if from < to => (
                b.0.wrapping_sub(a.0),
                b.1.wrapping_sub(a.1),
                b.2.wrapping_sub(a.2),
            ),
            _ => (0, 0, 0),
        }
    };
    // The best grid so far: whether it is priced (a price per card, when
    // `priced`) and its text, first and last line, and whether each of
    // its cards holds a price.
    let mut best: Option<((bool, u32), usize, usize, bool)> = None;
    for &(_, from, to) in groups.iter() {
        let same = opens.get(from..to).unwrap_or_default();
        // The run of cards being read: its first line, cards, text and
        // cards without a price.
        let mut run: Option<(usize, usize, u32, usize)> = None;
        let mut close = |run: &mut Option<(usize, usize, u32, usize)>, last: usize| {
            if let Some((first, cards, sum, unpriced)) = run.take() {
                let priced = match (price_sums.get(first), price_sums.get(last + 1)) {
                    (Some(a), Some(b)) => b.wrapping_sub(*a) as usize >= cards,
                    _ => false,
                };
                let key = (priced, sum);
                if cards >= GRID_MIN_CARDS && best.is_none_or(|(b, ..)| key > b) {
                    best = Some((key, first, last, unpriced == 0));
                }
            }
        };
        let mut previous: Option<usize> = None;
        for (k, &(_, at)) in same.iter().enumerate() {
            // A block runs to the next repeat; the last one is as long as
            // the one before it.
            let end = match same.get(k + 1) {
                Some(&(_, next)) => next,
                None => (at + previous.unwrap_or(0)).min(lines.len()),
            };
            let len = end - at;
            let (own, all, text_lines) = text(at, end);
            let linked = text_lines >= 2 && all >= GRID_LINKED_LINE * text_lines;
            // A block with a price (prices are counted only when they are
            // looked at) is a product's card even when its name is linked
            // and its price is its only other text (see "Priced cards" at
            // [`card_grid`]); with [`Prices::EachCard`] it is no card when
            // its text is over the tile's bound.
            let priced = matches!(
                (price_sums.get(at), price_sums.get(end)),
                (Some(a), Some(b)) if b > a
            );
            let card = len >= GRID_CARD_LINES
                && (own >= GRID_CARD_TEXT || linked || priced)
                && match prices {
                    Prices::EachCard(most) => all <= most,
                    _ => true,
                };
            let alike = previous.is_none_or(|p| len <= GRID_SPREAD * p && p <= GRID_SPREAD * len);
            if !card || !alike {
                close(&mut run, at.saturating_sub(1));
            }
            previous = Some(len);
            if card {
                let unpriced = usize::from(!priced);
                run = Some(match run {
                    Some((first, cards, sum, none)) => {
                        (first, cards + 1, sum + all, none + unpriced)
                    }
                    None => (at, 1, all, unpriced),
                });
            }
        }
        let last = same
            .last()
            .map_or(0, |&(_, at)| (at + previous.unwrap_or(0)).min(lines.len()));
        close(&mut run, last.saturating_sub(1));
    }
    // With `Prices::EachCard`, a run with a card without a price is none.
    if matches!(prices, Prices::EachCard(_)) && best.is_some_and(|(.., each)| !each) {
        best = None;
    }
    *found_priced = best.is_some_and(|((priced, _), ..)| priced);
    best.map(|(_, first, last, _)| (first, last))
}

/// The buffers of [`grid`], reused from page to page.
#[derive(Default)]
struct Opens {
    /// The lines that open with a tag of a group large enough for a grid
    /// ([`group_by_hash`]): [`quick_shape`] and line.
    opens: Vec<(u64, usize)>,
    /// The groups of `opens` with the same tag and class: [`shape`] and
    /// range in `opens`.
    groups: Vec<(u64, usize, usize)>,
    /// For each line, the non-link text, text (weighed) and lines with
    /// text of the lines before it.
    sums: Vec<(u32, u32, u32)>,
    /// The [`quick_shape`]s of the lines a grid may start at: an
    /// open-addressing set, at most half full.
    shapes: Vec<Option<u64>>,
    /// The lines that open with a tag, in order: [`quick_shape`] and line.
    in_order: Vec<(u64, usize)>,
    /// Open-addressing table of the quick shapes ([`group_by_hash`]): the
    /// shape, its lines, and where its group goes in `opens` (`u32::MAX`:
    /// a group too small).
    slots: Vec<(u64, u32, u32)>,
    /// Each line of `in_order`'s slot in `slots`.
    slot_of: Vec<u32>,
    /// The slots of the groups large enough: their shape and slot.
    counted: Vec<(u64, u32)>,
    /// For each line, the prices ([`price_at`]) on the lines before it, when
    /// priced runs are preferred.
    prices: Vec<u32>,
    /// Whether the grid last found holds a price per card.
    priced: bool,
}

/// How [`grid`] weighs the prices ([`price_at`]) in its cards.
#[derive(Clone, Copy)]
enum Prices {
    /// Not at all.
    Ignored,
    /// A run with a price per card comes before any run without.
    Preferred,
    /// A block of at most this much text (weighed) is a card also when
    /// its only text of its own is a price, a larger one is none, and the
    /// best run is a grid only if each of its cards holds a price: a
    /// shop's product tiles (see [`PRODUCT_CARD_TEXT`]).
    EachCard(u32),
}

/// Whether the byte at `at` of `html` ends a currency sign (`$`, `€`,
/// `£`) followed by a digit, a space between allowed (`$170.00`, `€ 49`):
/// a price. A product card holds one; a menu, a filter list or a teaser
/// rarely does.
fn price_at(html: &[u8], at: usize) -> bool {
    let sign = match html.get(at) {
        Some(b'$') => true,
        // `€` is E2 82 AC, `£` C2 A3 in UTF-8.
        Some(0xAC) => at >= 2 && html.get(at - 2..at) == Some(&[0xE2, 0x82][..]),
        Some(0xA3) => at >= 1 && html.get(at - 1) == Some(&0xC2),
        _ => false,
    };
    let next = match html.get(at + 1) {
        Some(b' ') => html.get(at + 2),
        next => next,
    };
    sign && next.is_some_and(u8::is_ascii_digit)
}

/// Sets `grouped` to the entries of `in_order` (a hash and a line, lines
/// ascending) whose hash at least [`GRID_MIN_CARDS`] of them share,
/// ordered by hash, then line: what sorting `in_order` and keeping its
/// runs of [`GRID_MIN_CARDS`] or more gives, in linear time (a counting
/// sort over an open-addressing table of the hashes).
fn group_by_hash(
    in_order: &[(u64, usize)],
    slots: &mut Vec<(u64, u32, u32)>,
    slot_of: &mut Vec<u32>,
    counted: &mut Vec<(u64, u32)>,
    grouped: &mut Vec<(u64, usize)>,
) {
    grouped.clear();
    let size = (2 * in_order.len()).next_power_of_two().max(16);
    let bits = size.trailing_zeros();
    slots.clear();
    slots.resize(size, (0, 0, 0));
    slot_of.clear();
    for &(hash, _) in in_order {
        // The table is at most half full, so a free slot is always found.
        let mut at = fibonacci_slot(hash, bits);
        loop {
            let Some(slot) = slots.get_mut(at) else {
                return;
            };
            if slot.1 == 0 {
                *slot = (hash, 1, 0);
                break;
            }
            if slot.0 == hash {
                slot.1 += 1;
                break;
            }
            at = (at + 1) & (size - 1);
        }
        slot_of.push(at as u32);
    }
    counted.clear();
    counted.extend(
        slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.1 as usize >= GRID_MIN_CARDS)
            .map(|(at, s)| (s.0, at as u32)),
    );
    counted.sort_unstable();
    // Each large group's first place in `grouped`; the others none.
    let mut next = 0u32;
    for &(_, at) in counted.iter() {
        if let Some(slot) = slots.get_mut(at as usize) {
            slot.2 = next;
            next += slot.1;
        }
    }
    for slot in slots.iter_mut() {
        if (slot.1 as usize) < GRID_MIN_CARDS {
            slot.2 = u32::MAX;
        }
    }
    grouped.resize(next as usize, (0, 0));
    for (&entry, &at) in in_order.iter().zip(slot_of.iter()) {
        if let Some(slot) = slots.get_mut(at as usize).filter(|s| s.2 != u32::MAX) {
            if let Some(place) = grouped.get_mut(slot.2 as usize) {
                *place = entry;
            }
            slot.2 += 1;
        }
    }
}

/// The home slot of `hash` in an open-addressing table of `2^bits` slots
/// (`bits` ≥ 1): Fibonacci hashing, the top bits of its product with
/// 2^64 / φ, so every bit of the hash reaches the slot.
fn fibonacci_slot(hash: u64, bits: u32) -> usize {
    (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
}

/// The tag name and `class` a line opens with; `None` for a line that
/// opens with text or a closing tag. Inlined: [`grid`] calls it on every
/// line, and once [`thread_grid`] called it too the compiler left it out
/// of line (daniel_dev +0.2 % of the extraction's instructions).
#[inline(always)]
fn opening_tag(line: &[u8]) -> Option<(&[u8], Option<&[u8]>)> {
    let start = line.iter().position(|b| !b.is_ascii_whitespace())?;
    let tag = line.get(start..)?;
    if tag.first() != Some(&b'<') || !tag.get(1).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    // Past the `<`; the tag ends at the first `>` (or the line's end).
    let rest = tag.get(1..)?;
    let name_end = rest
        .iter()
        .position(|&b| b.is_ascii_whitespace() || b == b'/' || b == b'>')
        .unwrap_or(rest.len());
    // The first `class="` inside the tag, found by its `=`: the `=`s and
    // the tag's end in one search, and the value's end (its `"` or the
    // tag's) in another.
    let mut class = None;
    for at in memchr::memchr2_iter(b'=', b'>', rest) {
        if rest.get(at) != Some(&b'=') {
            break;
        }
        if at >= 5 && rest.get(at - 5..at) == Some(b"class") && rest.get(at + 1) == Some(&b'"') {
            let value = rest.get(at + 2..).unwrap_or_default();
            class = value.get(..memchr::memchr2(b'"', b'>', value).unwrap_or(value.len()));
            break;
        }
    }
    Some((rest.get(..name_end)?, class))
}

/// A hash of a tag's name and class ([`opening_tag`]), which orders the
/// groups of [`grid`]: FNV-1a over the name, then a space, then the class.
fn shape((name, class): (&[u8], Option<&[u8]>)) -> u64 {
    let hash = fnv(FNV_START, name);
    class.map_or(hash, |class| fnv(hash ^ u64::from(b' '), class))
}

/// Another hash of a tag's name and class, quicker on long classes
/// (FNV-1a takes a multiplication per byte, one after the other): the
/// lines of a page are grouped by it, and only the groups large enough for
/// a grid are hashed by [`shape`].
fn quick_shape((name, class): (&[u8], Option<&[u8]>)) -> u64 {
    let hash = fnv(FNV_START, name);
    class.map_or(hash, |class| {
        xxhash_rust::xxh3::xxh3_64_with_seed(class, hash ^ u64::from(b' '))
    })
}

/// A line's text characters, those outside ASCII counted twice (an
/// ideogram is a word).
fn weighed(line: &Line) -> u32 {
    line.content + line.non_ascii
}

/// FNV-1a's offset basis.
const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over `bytes`, from `hash`.
fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use crate::{Algorithm, Extractor};

    fn extract(algorithm: Algorithm, html: &str) -> String {
        Extractor::new(algorithm)
            .extract(html.as_bytes(), Some("utf-8"))
            .text
            .to_string()
    }

    fn paragraphs(word: &str, n: usize) -> String {
        let sentence = format!("{word} is a word in a sentence of this article. ");
        (0..n)
            .map(|_| format!("<p>{}</p>\n", sentence.repeat(3)))
            .collect()
    }

    #[test]
    fn a_link_list_heavier_than_the_article_is_not_chosen() {
        let links: String = (0..60)
            .map(|i| {
                format!("<li><a href=\"/t/{i}\">Related story number {i} about another topic</a> posted by a reader</li>\n")
            })
            .collect();
        let html = format!(
            "<html><body><article>{}</article>\n{}<ul>{links}</ul></body></html>",
            paragraphs("Alpha", 3),
            "<div class=\"ad\"></div>\n".repeat(25)
        );
        // The list has more characters: AdDANAg's heaviest region.
        let addanag = extract(Algorithm::Addanag, &html);
        assert!(
            addanag.contains("Related story") && !addanag.contains("Alpha"),
            "{addanag}"
        );
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.contains("Alpha is a word"), "{plus}");
        assert!(!plus.contains("Related story"), "{plus}");
    }

    #[test]
    fn link_lists_inside_the_article_are_part_of_it() {
        let changes: String = (0..8)
            .map(|i| {
                format!(
                    "<li>Fixed <a href=\"/b/{i}\">bug {i} in the parser of the reader</a></li>\n"
                )
            })
            .collect();
        let html = format!(
            "<body><article>{}<ul>{changes}</ul>\n{}</article></body>",
            paragraphs("Alpha", 3),
            paragraphs("Omega", 2)
        );
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.contains("Alpha is a word"), "{plus}");
        assert!(plus.contains("\nFixed bug 7 in the parser"), "{plus}");
        assert!(
            plus.ends_with("Omega is a word in a sentence of this article."),
            "{plus}"
        );
        // Outside the article the same list costs what a menu costs.
        let html = html
            .replace("<article>", "<div>")
            .replace("</article>", "</div>");
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.contains("Alpha") && !plus.contains("Omega"), "{plus}");
    }

    #[test]
    fn hidden_inline_markup_costs_nothing() {
        // Wikipedia's formulas: hidden MathML beside the image shown.
        let mathml = "<mrow class=\"mjx-mrow\"><mi></mi></mrow>".repeat(40);
        let formulas: String = (0..3)
            .map(|i| {
                format!(
                    "<p>The value of <span style=\"display: none;\"><math>{mathml}x</math></span>\
                     <img src=\"/f/{i}.svg\"> is small in case {i}.</p>\n"
                )
            })
            .collect();
        let html = format!(
            "<body>{}{formulas}{}</body>",
            paragraphs("Alpha", 10),
            paragraphs("Omega", 2)
        );
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.contains("The value of is small in case 2."), "{plus}");
        assert!(plus.contains("Alpha") && plus.contains("Omega"), "{plus}");
        // Shown, the same markup is layout the text after it must pay for.
        let shown = html.replace(" style=\"display: none;\"", "");
        let plus = extract(Algorithm::AddanagPlus, &shown);
        assert!(plus.contains("Alpha") && !plus.contains("Omega"), "{plus}");
    }

    #[test]
    fn a_headline_that_repeats_the_title_is_left_out() {
        let page = |title: &str, headline: &str| {
            format!(
                "<html><head><title>{title}</title></head><body>\
                 <h1>{headline}</h1>{}</body></html>",
                paragraphs("Alpha", 3)
            )
        };
        let repeated = page("Été à Paris | Le Journal", "ÉTÉ À PARIS");
        let plus = extract(Algorithm::AddanagPlus, &repeated);
        assert!(plus.starts_with("Alpha is a word"), "{plus}");
        // Lines of markup only before it leave it the text's opening.
        let long = "Un été à Paris, sur les quais de la Seine et dans les jardins de la ville";
        let after_markup = page(long, long).replace("<h1>", "<div class=\"k\"></div><h1>");
        let plus = extract(Algorithm::AddanagPlus, &after_markup);
        assert!(plus.starts_with("Alpha is a word"), "{plus}");
        let other = page("Le Journal", "Été à Paris");
        let plus = extract(Algorithm::AddanagPlus, &other);
        assert!(plus.starts_with("Été à Paris\nAlpha is a word"), "{plus}");
    }

    #[test]
    fn a_heading_repeats_a_title_by_the_length_of_its_words() {
        use super::{repeats, MAX_HEADLINE_WORDS};
        assert!(repeats(
            "Student Dies After Diet Pills - News",
            "Student dies after diet pills"
        ));
        assert!(!repeats("News", "Student dies after diet pills"));
        // "Pills" is 5 of the 29 bytes of the joined heading: 83 % repeated.
        assert!(repeats(
            "Student Dies After Diet",
            "Student dies after diet pills"
        ));
        assert!(!repeats("Student Dies", "Student dies after diet pills"));
        assert!(!repeats("", "Anything") && !repeats("Anything", ""));
        // Whole pages in a title and an unclosed `<h1>` are not compared
        // word by word (quadratic).
        let page = "word ".repeat(MAX_HEADLINE_WORDS + 1);
        assert!(!repeats(&page, &page));
        let short = "word ".repeat(MAX_HEADLINE_WORDS);
        assert!(repeats(&short, &short));
    }

    #[test]
    fn a_listing_is_given_whole() {
        let authors: String = (0..6)
            .map(|a| format!("<a href=\"/a/{a}\">Author Number{a}</a>, "))
            .collect();
        let items: String = (0..40)
            .map(|i| {
                format!(
                    "<dt>[{i}]</dt><dd><div class=\"title\">Title: a study of item {i}, of its history and of its uses</div>\n\
                     <div class=\"authors\">{authors}</div></dd>\n"
                )
            })
            .collect();
        let menu: String = (0..30)
            .map(|i| format!("<li><a href=\"/m/{i}\">Menu entry {i}</a></li>\n"))
            .collect();
        // Link lists come in with the listing; the menu stays out as `<nav>`.
        let html = format!(
            "<body><p>The newest studies of this field, a page of them.</p>\n\
             <dl>{items}</dl><nav><ul>{menu}</ul></nav></body>"
        );
        // Read as an article, the page is its one sentence.
        let addanag = extract(Algorithm::Addanag, &html);
        assert!(!addanag.contains("Author Number1"), "{addanag}");
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(
            plus.contains("item 0, of its history and of its uses\n"),
            "{plus}"
        );
        assert!(
            plus.contains("item 38, of its history and of its uses\nAuthor Number0, Author"),
            "{plus}"
        );
        assert!(!plus.contains("Menu entry"), "{plus}");
    }

    #[test]
    fn a_far_section_is_joined_when_its_text_pays_for_the_gap() {
        let filler = "<div class=\"spacer\"></div>\n".repeat(30);
        let html = format!(
            "<body>{}{filler}{}</body>",
            paragraphs("First", 4),
            paragraphs("Second", 3)
        );
        // 30 lines apart: beyond Algorithm 1's default gap.
        let addanag = extract(Algorithm::Addanag, &html);
        assert!(!addanag.contains("Second"), "{addanag}");
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.contains("First") && plus.contains("Second"), "{plus}");
    }

    #[test]
    fn a_section_behind_a_link_menu_is_not_joined() {
        let menu: String = (0..40)
            .map(|i| format!("<li><a href=\"/m/{i}\">Menu entry {i}</a></li>\n"))
            .collect();
        let html = format!(
            "<body>{}<ul>{menu}</ul>{}</body>",
            paragraphs("Main", 6),
            paragraphs("Teaser", 1)
        );
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.contains("Main") && !plus.contains("Teaser"), "{plus}");
    }

    #[test]
    fn a_comment_thread_heavier_than_the_article_is_left_out() {
        let comments: String = (0..12)
            .map(|i| format!("<div class=\"comment-body\"><p>Reader {i} thinks this sentence of the thread is longer than most sentences of the article.</p></div>\n"))
            .collect();
        let html = format!(
            "<body><article>{}</article>\n<div id=\"comments\">{comments}</div></body>",
            paragraphs("Story", 3)
        );
        let addanag = extract(Algorithm::Addanag, &html);
        assert!(addanag.contains("Reader 5"), "{addanag}");
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.contains("Story is a word"), "{plus}");
        assert!(!plus.contains("Reader"), "{plus}");
    }

    #[test]
    fn misleading_furniture_names_do_not_hide_the_article() {
        let html = format!(
            "<body><div class=\"nav\"><a href=\"/\">Home</a></div>\n\
             <div class=\"page and-w-sidebar\">{}</div></body>",
            paragraphs("Hidden", 4)
        );
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.contains("Hidden is a word"), "{plus}");
        assert!(!plus.contains("Home"), "{plus}");
    }

    #[test]
    fn furniture_inside_a_misleading_weak_mark_stays_out() {
        // The article sits in a share plugin's container, so its weak mark
        // is not trusted; the furniture inside it still tells itself apart.
        let related: String = (0..4)
            .map(|i| format!("<p>Related story {i} is a story of another day on this site.</p>\n"))
            .collect();
        let comments: String = (0..20)
            .map(|i| {
                format!(
                    "<li><h2>Reader {i}</h2><p>{}</p></li>\n",
                    "Comment words of a reader. ".repeat(8)
                )
            })
            .collect();
        let html = format!(
            "<body><div id=\"share-btns_containerParent\">{}\
             <div class=\"related-list\">{related}</div>\n<ul class=\"comment-list\">{comments}</ul>\n{}</div></body>",
            paragraphs("Alpha", 6),
            paragraphs("Omega", 2)
        );
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.contains("Alpha") && plus.contains("Omega"), "{plus}");
        assert!(
            !plus.contains("Related") && !plus.contains("Reader"),
            "{plus}"
        );
        // Without the nested marks the container's mark is all there is:
        // dropped, it lets the comments in.
        let unnamed = html
            .replace("related-list", "list")
            .replace("comment-list", "list");
        let plus = extract(Algorithm::AddanagPlus, &unnamed);
        assert!(plus.contains("Alpha") && plus.contains("Reader"), "{plus}");
        // A gallery's captions (`legends`) are strong furniture: left out
        // even where they outweigh the article.
        let captions = comments
            .replace("Reader", "Picture")
            .replace("Comment", "Caption");
        let html = format!(
            "<body><div class=\"box\">{}<ul class=\"legends\">{captions}{captions}</ul>{}</div></body>",
            paragraphs("Alpha", 2),
            paragraphs("Omega", 2)
        );
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.contains("Alpha") && plus.contains("Omega"), "{plus}");
        assert!(!plus.contains("Caption"), "{plus}");
        // Nested marks that would take the article away are not trusted
        // either.
        let html = format!(
            "<body><div class=\"toc-chapters\"><section class=\"toc-para\">{}</section></div>\
             <div class=\"box\"><a href=\"/\">Home</a></div></body>",
            paragraphs("Alpha", 4)
        );
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.contains("Alpha is a word"), "{plus}");
    }

    #[test]
    fn a_page_without_regions_gives_its_text() {
        let html = "<html><body><nav><a href=/>Home</a></nav>\n\
                    <a href=\"javascript:\"><div class=\"box\"><p>abc</p><p>def</p></div></a></body></html>";
        assert_eq!(extract(Algorithm::Addanag, html), "");
        assert_eq!(extract(Algorithm::AddanagPlus, html), "abc\ndef");
        // The one region lies on markup between the headings.
        let img = "<img class=\"lazyload inited loaded\" data-src=\"https://example.com/a.jpg\" alt=\"a.jpg\"/>";
        let html = format!(
            "<body>\n<article>\n<h2>Test Case 1</h2>\n{img}\n<h2>Test Case 2</h2>\n{img}\n</article></body>"
        );
        assert_eq!(extract(Algorithm::Addanag, &html), "");
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert_eq!(plus, "Test Case 1\nTest Case 2");
    }

    #[test]
    fn hidden_text_stays_out_and_sentences_stay_whole() {
        let html = format!(
            "<body>{}<p hidden>Secret text that a browser never shows to its readers.</p>\n\
             <p>If a matrix <span style=\"display: none\"><math><mi>A</mi></math></span>\
             <img alt=\"\" src=\"a.png\">is square, it has a determinant.</p>{}</body>",
            paragraphs("Alpha", 2),
            paragraphs("Omega", 2)
        );
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.contains("Alpha") && plus.contains("Omega"), "{plus}");
        assert!(!plus.contains("Secret"), "{plus}");
        assert!(
            plus.contains("\nIf a matrix is square, it has a determinant.\n"),
            "{plus}"
        );
    }

    #[test]
    fn the_headline_is_kept() {
        let html = format!(
            "<body><div class=\"nav\"><a href=\"/\">Home</a></div>\
             <div class=\"article-header article-header--large\">\
             <h1 class=\"article-header__headline headline--serif\">Big News</h1></div>\n\
             <div class=\"byline\"><span class=\"author-name-with-long-class\">X</span></div>\n{}</body>",
            paragraphs("Body", 3)
        );
        let addanag = extract(Algorithm::Addanag, &html);
        assert!(!addanag.contains("Big News"), "{addanag}");
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(plus.starts_with("Big News\n"), "{plus}");
    }

    #[test]
    fn a_run_of_paragraphs_given_again_apart_is_left_out() {
        let drop_repeated_copies =
            |text: &mut String| super::drop_repeated_copies(text, &mut Default::default());
        let para = |w: &str| {
            format!("{w} is a word in a sentence of this block, long enough to count as one.")
        };
        let block = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"]
            .map(para)
            .join("\n");
        let mut text = format!("{block}\nBetween the copies.\n{block}\nAfter.");
        drop_repeated_copies(&mut text);
        assert_eq!(text, format!("{block}\nBetween the copies.\nAfter."));
        // Given twice in a row, a block of short lines is given once ...
        let mut text = format!("{block}\n{block}\nAfter.");
        drop_repeated_copies(&mut text);
        assert_eq!(text, format!("{block}\nAfter."));
        // ... and a block of paragraphs twice (an article served twice).
        let long = |w: &str| para(w).repeat(3);
        let paragraphs = ["Alpha", "Beta"].map(long).join("\n");
        let twice = format!("{paragraphs}\n{paragraphs}\nAfter.");
        let mut text = twice.clone();
        drop_repeated_copies(&mut text);
        assert_eq!(text, twice);
        // Short runs and one paragraph repeated are content too.
        let short = ["Size", "Colour", "Between"].join("\n");
        let short = [short.as_str(); 4].join("\n");
        let mut text = short.clone();
        drop_repeated_copies(&mut text);
        assert_eq!(text, short);
        let refrain = para("Alpha").repeat(3);
        let refrain = [refrain.as_str(); 3].join("\n");
        let same = format!("{refrain}\nBetween.\n{refrain}");
        let mut text = same.clone();
        drop_repeated_copies(&mut text);
        assert_eq!(text, same);
    }

    #[test]
    fn text_under_bloated_markup_is_still_found() {
        let class = "text-base leading-7 text-gray-700 md:text-lg lg:leading-8 ".repeat(4);
        let wrappers =
            format!("<div class=\"{class}\"><div class=\"{class}\"></div></div>\n").repeat(20);
        let body: String = (0..5)
            .map(|i| format!("<p class=\"{class}\">Paragraph {i} says something about the topic of this page.</p>\n"))
            .collect();
        let html = format!("<body>{wrappers}{body}{wrappers}</body>");
        // Every line has more markup than text: no positive region for AdDANAg.
        assert_eq!(extract(Algorithm::Addanag, &html), "");
        let plus = extract(Algorithm::AddanagPlus, &html);
        assert!(
            plus.starts_with("Paragraph 0") && plus.ends_with("topic of this page."),
            "{plus}"
        );
    }

    #[test]
    fn a_grid_is_a_run_of_alike_cards_with_text_of_their_own() {
        use super::{grid, Prices};
        use crate::density::{Cleaning, LinkRule, Rules, Scratch};
        let grid_of = |html: &str| {
            let mut scratch = Scratch::default();
            let rules = Rules {
                links: LinkRule::Normalise,
                cleaning: Cleaning::Furniture,
            };
            scratch.scan(html.as_bytes(), rules);
            let text = |(first, last): (usize, usize)| {
                let (a, b) = (scratch.lines[first].start, scratch.lines[last].end);
                html[a as usize..b as usize].to_string()
            };
            let lines = &scratch.lines;
            grid(
                html.as_bytes(),
                lines,
                &mut Default::default(),
                0..lines.len(),
                Prices::Preferred,
            )
            .map(text)
        };
        let card = |i: usize| {
            format!(
                "<li class=\"card\">\n<div class=\"img\"><img src=\"/{i}.jpg\"></div>\n\
                 <a class=\"title\" href=\"/p/{i}\">Tent number {i}</a>\n\
                 <div class=\"price\">${i}9.00, 4.5 stars</div>\n</li>\n"
            )
        };
        let menu: String = (0..12)
            .map(|i| format!("<li class=\"menu\"><a href=\"/m/{i}\">Menu entry {i}</a></li>\n"))
            .collect();
        let cards: String = (1..7).map(card).collect();
        // The last card is taken to be as long as the one before it.
        let html = format!(
            "<body><ul>{menu}</ul><ul>{cards}</ul>\n{}<p>Footer text</p></body>",
            "<div class=\"x\"></div>\n".repeat(4)
        );
        let found = grid_of(&html).expect("a grid");
        assert!(
            found.contains("Tent number 1<") && found.contains("$69.00"),
            "{found}"
        );
        assert!(
            !found.contains("Menu") && !found.contains("Footer"),
            "{found}"
        );
        // Three cards are no grid; nor are cards without text of their own
        // but a price (`$1`) when prices are not looked at, nor with
        // neither text nor price; a linked name and a price are a card
        // when prices are ("Priced cards" at `card_grid`).
        let three: String = (1..4).map(card).collect();
        assert_eq!(grid_of(&format!("<body><ul>{three}</ul></body>")), None);
        let bare = cards.replace("9.00, 4.5 stars", "");
        assert!(grid_of(&format!("<body><ul>{bare}</ul></body>")).is_some());
        let unpriced = cards.replace("9.00, 4.5 stars", "").replace('$', "");
        assert_eq!(grid_of(&format!("<body><ul>{unpriced}</ul></body>")), None);
        // Nor blocks of a common tag unlike in length.
        let unlike: String = (1..7)
            .map(|i| {
                format!(
                    "{}{}",
                    card(i),
                    "<div class=\"x\"></div>\n".repeat(i % 2 * 12)
                )
            })
            .collect();
        assert_eq!(
            grid_of(&format!("<body><ul>{unlike}</ul></body>").replace("class=\"card\"", "")),
            None
        );
    }
}
