//! Other products below a product.
//!
//! A shop's product page puts other products under its own: "variations of
//! this style", "more from this brand", "customers also viewed", each a
//! carousel of tiles holding a name, a price and perhaps a badge or a
//! rating. A tile pays for its layout at the article's costs (its name is
//! a line of text), so the chain runs on through them, and the listing
//! reading of a page whose article reading is short reads them all, and
//! the footer under them. The golds stop at the product.
//!
//! On a page that declares itself a product page ([`declares_product`]),
//! whose article reading holds fewer than [`Params::picture_paragraphs`]
//! paragraphs (a product's description is a few; a buying guide declared
//! a product has more), the chosen span is cut before the nearest grid of
//! priced tiles below the product: a run of [`Params::grid_min_cards`] or
//! more blocks opened by the same tag and class ([`grid`]), each of
//! [`Params::grid_card_lines`] lines or more, holding a price and at most
//! [`Params::product_card_text`] characters (weighed: a name, a price, a
//! badge, a rating; a buying guide's cards hold more). The product is the
//! article reading's span when the listing reading was taken, if it holds
//! a price (the product's own: an introduction or a category's text rarely
//! does, and a collection declared a product keeps its grid), else the
//! chosen span's first line. Grids above the product are left.
//!
//! Why declared: a buying guide or a price list is a grid of priced cards
//! too, and its content. A page's JSON-LD `"@type": "Product"` or
//! `og:type` `product` says what its main content is, as `<main>` and
//! `<article>` say where it lies.
//!
//! Cheapest tests first: the paragraphs (already counted), prices in the
//! chosen span (a byte search over it), then the declaration, then the
//! grids (one search over the lines below the product, and one more for
//! each nearer grid, at most [`Params::product_grid_rounds`] in all: each
//! search reads all the lines below the product).

use super::grids::{grid, prices_in, Opens, Prices};
use super::params::PARAMS;
use crate::density::Line;

#[cfg(doc)]
use super::params::Params;

/// Where the product lies in the chosen span (see the module's doc).
pub(super) enum Product {
    /// The article reading was taken: at its first line.
    First,
    /// The listing reading was taken: in the article reading's lines.
    Lines((usize, usize)),
    /// A thread of posts or a shop's grid was read: no product to cut
    /// after.
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

/// Whether `lines` hold at least `least` prices
/// ([`price_at`](super::grids::price_at)).
fn has_prices(html: &[u8], lines: &[Line], least: usize) -> bool {
    let (Some(first), Some(last)) = (lines.first(), lines.last()) else {
        return false;
    };
    prices_in(html, first.start as usize, last.end as usize)
        .nth(least.saturating_sub(1))
        .is_some()
}

/// The chosen span `(block, last)` cut before the nearest grid of other
/// products' tiles below the `product` (see the module's doc).
pub(super) fn other_products(
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
            PARAMS.grid_min_cards,
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
    // above that, until there is none (or [`Params::product_grid_rounds`]
    // were sought: the nearest found so far is taken).
    let mut end = last;
    for _ in 0..PARAMS.product_grid_rounds {
        let Some((grid_first, _)) = lines.get(below + 1..=end).and_then(|window| {
            grid(
                html,
                window,
                opens,
                0..window.len(),
                Prices::EachCard(PARAMS.product_card_text),
            )
        }) else {
            break;
        };
        end = below + grid_first;
    }
    (block, end)
}
