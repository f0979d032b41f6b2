//! What addanag-plus is set up with: its counting rules, and every tuned
//! constant in one [`Params`]. What each rule does and why is told where
//! the code reads it; how the values were chosen, in ACCURACY.md.

use crate::density::{Cleaning, LinkRule, Rules};

/// How addanag-plus's counting pass counts (AdDANAg's link normalisation,
/// Filter 3, with the page furniture marked), and how the text of the
/// chosen lines is written.
pub(crate) const RULES: Rules = Rules {
    links: LinkRule::Normalise,
    cleaning: Cleaning::Furniture,
};

/// The tuned constants of addanag-plus. The code reads them from the
/// `const` [`PARAMS`], so the compiler folds them as it would literals.
pub(crate) struct Params {
    // The value of a line (`readings`).
    /// Cost of one markup byte (after Filter 3) against one character of non-link text.
    pub(crate) code_cost: f64,
    /// Cost of one anchor-text character, times the square of its line's link density.
    pub(crate) link_cost: f64,
    /// Share of the link cost a line pays inside `<main>` or `<article>`.
    pub(crate) declared_link_share: f64,
    /// Markup bytes per text character above which the code column is scaled down to it.
    pub(crate) max_code_per_char: u64,

    // The listing reading (`listing`).
    /// Link cost of the listing reading.
    pub(crate) listing_link_cost: f64,
    /// Share of the markup cost the listing reading charges inside `<main>` or `<article>`.
    pub(crate) listing_declared_code_share: f64,
    /// Listing taken when the article reading gives under this share of its text.
    pub(crate) listing_share: f64,
    /// An article reading worth under this share of its text is read as a listing too.
    pub(crate) paid_share: f64,
    /// Beside a paid-for article reading, a listing worth this many times more is taken.
    pub(crate) paid_listing_worth: f64,
    /// Least regions in an article reading's chain for a landing page.
    pub(crate) landing_regions: usize,
    /// Most share of anchor text in what a landing page's listing reading adds.
    pub(crate) landing_added_links: f64,
    /// A landing page's listing is taken when it gives this many times the article's text.
    pub(crate) landing_text: f64,
    /// Text characters under which a line of the listing reading is short.
    pub(crate) short_line: u32,
    /// A listing of short lines is taken when the article is worth under this share of it.
    pub(crate) short_listing_share: f64,
    /// Least share of short lines among a listing of short lines' lines with text.
    pub(crate) short_lines_share: f64,
    /// Least share of anchor text in a listing of short lines.
    pub(crate) short_listing_links: f64,

    // The trust in furniture marks (`furniture`).
    /// Weak marks are trusted when the chain with them keeps this share of the one without.
    pub(crate) trusted_share: f64,
    /// Comment marks are lifted when the chain with them keeps under this share of the thread.
    pub(crate) thread_share: f64,
    /// The same with weak marks not trusted, weighing the chain with them trusted.
    pub(crate) weak_thread_share: f64,

    // Lines (`parts`, `pictures`).
    /// Least non-link text characters (non-ASCII counted twice) of a paragraph.
    pub(crate) grid_paragraph: u32,
    /// Least text characters of a line that is checked for JSON data.
    pub(crate) data_line: u32,
    /// A data line holds a JSON key at least every this many text characters.
    pub(crate) data_key_span: usize,
    /// A reading with fewer paragraphs is a page of short sections (pictures, products).
    pub(crate) picture_paragraphs: usize,
    /// Least markup bytes of a picture line.
    pub(crate) picture_min_code: u32,

    // The chosen span (`edges`, mod.rs).
    /// How many lines above the chosen span it may grow over.
    pub(crate) edge_reach_above: usize,
    /// How many lines below the chosen span it may grow over.
    pub(crate) edge_reach_below: usize,
    /// Least value the lines an end of the chosen span grows over must add.
    pub(crate) edge_value: f64,
    /// How many lines above the chosen block a headline is looked for.
    pub(crate) headline_reach: usize,
    /// Most fields (inputs but hidden ones and buttons, selects) of a reply form the span ends at.
    pub(crate) reply_form_fields: usize,
    /// How many of the page's `<h1>` lines are compared with the title for its headline.
    pub(crate) story_headlines: usize,
    /// Least text characters of the headline a story is read under.
    pub(crate) story_headline_chars: u32,
    /// Most lines between that headline and the first region of its story.
    pub(crate) story_reach: usize,
    /// The story under its headline wins when worth this share of the best chain.
    pub(crate) story_share: f64,

    // Grids of cards (`grids`, `cards`).
    /// Least average line length of an all-linked card, or of a grid whose links are content.
    pub(crate) grid_linked_line: u32,
    /// Least cards of a grid.
    pub(crate) grid_min_cards: usize,
    /// Least non-link text characters of a card.
    pub(crate) grid_card_text: u32,
    /// Least lines of a card.
    pub(crate) grid_card_lines: usize,
    /// Most ratio between the lines of a card and those of the card before it.
    pub(crate) grid_spread: usize,
    /// With a grid, the listing is taken when the article is worth under this share of it.
    pub(crate) grid_share: f64,
    /// Least average characters per anchor of a linked teaser's line.
    pub(crate) teaser_anchor: u32,
    /// Least paragraphs a thread of posts holds besides the article reading.
    pub(crate) thread_paragraphs: usize,
    /// Most share of the page's text in an article reading that is a shop's prose.
    pub(crate) prose_grid_share: f64,
    /// Most lines with text per price in the grid above a shop's prose.
    pub(crate) prose_grid_lines: usize,
    /// Article characters per price needed above it before that grid is sought.
    pub(crate) prose_grid_card_text: f64,
    /// Most lines between an introduction and the grid of cards given with it.
    pub(crate) intro_grid_reach: usize,
    /// Least markup bytes per text character of a grid under an introduction.
    pub(crate) intro_grid_code: u32,
    /// Lines after an introduction in which its grid is sought.
    pub(crate) intro_grid_window: usize,

    // Other products (`products`).
    /// Most text characters (non-ASCII counted twice) of another product's tile.
    pub(crate) product_card_text: u32,
    /// Most grids sought, each nearer the product, for the nearest grid of
    /// other products: each search reads the lines below the product, so
    /// a page of many stacked grids would cost a search per grid.
    pub(crate) product_grid_rounds: usize,

    // Collapsed panels (`panels`).
    /// Least text characters of a collapsed panel.
    pub(crate) panel_text: u64,
    /// Least lines with text of a collapsed panel.
    pub(crate) panel_lines: usize,
    /// Most share of anchor text in a collapsed panel.
    pub(crate) panel_links: f64,
    /// How many of a hidden run's lines with text are checked for a repeat.
    pub(crate) panel_compared: usize,

    // The headline (`headline`).
    /// Headlines and titles of more words than this are not compared.
    pub(crate) max_headline_words: usize,

    // Repeated copies (`copies`).
    /// Least paragraphs of a repeated copy.
    pub(crate) copy_min_paragraphs: usize,
    /// Least characters of a repeated copy apart from its original.
    pub(crate) copy_min_chars: usize,
    /// Characters every line of a copy right after its original stays under.
    pub(crate) short_copy_line: usize,
    /// Least characters of a copy right after its original.
    pub(crate) short_copy_min_chars: usize,
    /// How many earlier occurrences of a paragraph are compared with its run.
    pub(crate) copy_candidates: usize,
}

/// The values addanag-plus runs with.
pub(crate) const PARAMS: Params = Params {
    code_cost: 0.13,
    link_cost: 2.5,
    declared_link_share: 0.3,
    max_code_per_char: 4,

    listing_link_cost: 0.2,
    listing_declared_code_share: 0.0,
    listing_share: 0.15,
    paid_share: 0.4,
    paid_listing_worth: 3.0,
    landing_regions: 5,
    landing_added_links: 0.6,
    landing_text: 1.3,
    short_line: 40,
    short_listing_share: 1.0 / 3.0,
    short_lines_share: 0.7,
    short_listing_links: 0.1,

    trusted_share: 0.25,
    thread_share: 0.025,
    weak_thread_share: 0.15,

    grid_paragraph: 200,
    data_line: 1000,
    data_key_span: 100,
    picture_paragraphs: 8,
    picture_min_code: 100,

    edge_reach_above: 60,
    edge_reach_below: 30,
    edge_value: 150.0,
    headline_reach: 10,
    reply_form_fields: 10,
    story_headlines: 4,
    story_headline_chars: 15,
    story_reach: 30,
    story_share: 0.3,

    grid_linked_line: 40,
    grid_min_cards: 4,
    grid_card_text: 10,
    grid_card_lines: 3,
    grid_spread: 2,
    grid_share: 0.2,
    teaser_anchor: 50,
    thread_paragraphs: 2,
    prose_grid_share: 0.4,
    prose_grid_lines: 8,
    prose_grid_card_text: 100.0,
    intro_grid_reach: 100,
    intro_grid_code: 3,
    intro_grid_window: 1000,

    product_card_text: 400,
    product_grid_rounds: 8,

    panel_text: 200,
    panel_lines: 2,
    panel_links: 0.2,
    panel_compared: 64,

    max_headline_words: 64,

    copy_min_paragraphs: 2,
    copy_min_chars: 350,
    short_copy_line: 200,
    short_copy_min_chars: 100,
    copy_candidates: 8,
};
