//! Grids of cards: runs of alike blocks opened by the same tag and class,
//! and the prices in them.
//!
//! A listing or collection page (a shop's category, a site's archive of
//! stories) is a run of cards: each a linked title, a teaser or a price,
//! wrapped in several times its text in layout markup. The cards give
//! themselves away by repeating: the line that opens a card opens every
//! card, with the same tag and class, and the cards are alike in length
//! ([`Params::grid_spread`]; else the blocks between repeats of a common
//! tag, `<div>` or `<tr>`, would make grids of whole pages). A card holds
//! text of its own besides anchor text ([`Params::grid_card_text`]: a
//! teaser, a price, a date), which the entries of a menu do not, over
//! several lines ([`Params::grid_card_lines`]: a paragraph or a menu entry
//! is one line). A card whose text is all anchors (a linked title and
//! teaser) is a card when its lines of text are long
//! ([`Params::grid_linked_line`]): menus and lists of headlines have
//! shorter ones.
//!
//! **Priced cards.** A shop's card may hold nothing but its linked name and
//! its price (`Roc Loc 5 LED Light`, `$34.95`), or link every line (name,
//! maker, item number, price): it has no text of its own and its lines are
//! shorter than a linked teaser's. A block that holds a price
//! ([`price_at`]) is a card too. And a shop's product grid is one run
//! among several (its filter lists, a carousel of picks, the menus) whose
//! cards' text is mostly short linked names, so another run may hold more
//! text: where asked ([`Prices::Preferred`]), a run whose cards hold a
//! price each is preferred to any run without. Menus and footers rarely
//! hold a price a column.

use super::params::PARAMS;
use super::parts::weighed;
use crate::density::Line;
use std::ops::Range;

#[cfg(doc)]
use super::params::Params;

/// The offsets in `html` of the prices ([`price_at`]) in `html[from..to]`:
/// one byte search for the last byte of a currency sign (`$`, and the
/// final bytes of `€` and `£`), each hit checked.
pub(super) fn prices_in(html: &[u8], from: usize, to: usize) -> impl Iterator<Item = usize> + '_ {
    let bytes = html.get(from..to.max(from)).unwrap_or_default();
    memchr::memchr3_iter(b'$', 0xAC, 0xA3, bytes)
        .map(move |at| at + from)
        .filter(|&at| price_at(html, at))
}

/// The first and last line of the page's grid of cards, if it has one:
/// of the runs of at least [`Params::grid_min_cards`] blocks opened by
/// lines with the same tag and class ([`shape`]), each with
/// [`Params::grid_card_text`] characters of non-link text over
/// [`Params::grid_card_lines`] lines or more and alike in length
/// ([`Params::grid_spread`]), the one with the most non-link text (on
/// ties, the first of the lowest [`shape`]); with
/// [`Prices::Preferred`], a run with a price per card ([`price_at`])
/// before any run without, with [`Prices::EachCard`] only blocks holding a
/// price are cards. Only tags and classes that open one of the lines
/// `heads` are read (all of them when `heads` are all the lines).
pub(super) fn grid(
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
        // open-addressing set (a binary search over them is slow: its
        // branches are not foreseen).
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
    // `opens`: the lines of the groups of at least `grid_min_cards`,
    // ordered by quick hash, then line (as sorting them all would, but
    // counted into place: sorting every line would be slow).
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
                if cards >= PARAMS.grid_min_cards && best.is_none_or(|(b, ..)| key > b) {
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
            let linked = text_lines >= 2 && all >= PARAMS.grid_linked_line * text_lines;
            // A block with a price (prices are counted only when they are
            // looked at) is a product's card even when its name is linked
            // and its price is its only other text ("Priced cards" in the
            // module's doc); with [`Prices::EachCard`] it is no card when
            // its text is over the tile's bound.
            let priced = matches!(
                (price_sums.get(at), price_sums.get(end)),
                (Some(a), Some(b)) if b > a
            );
            let card = len >= PARAMS.grid_card_lines
                && (own >= PARAMS.grid_card_text || linked || priced)
                && match prices {
                    Prices::EachCard(most) => all <= most,
                    _ => true,
                };
            let alike = previous
                .is_none_or(|p| len <= PARAMS.grid_spread * p && p <= PARAMS.grid_spread * len);
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
pub(super) struct Opens {
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
    pub(super) prices: Vec<u32>,
    /// Whether the grid last found holds a price per card.
    pub(super) priced: bool,
}

impl Opens {
    /// The bytes its buffers hold on the heap.
    pub(super) fn heap_bytes(&self) -> usize {
        use crate::heap_bytes as bytes;
        bytes(&self.opens)
            + bytes(&self.groups)
            + bytes(&self.sums)
            + bytes(&self.shapes)
            + bytes(&self.in_order)
            + bytes(&self.slots)
            + bytes(&self.slot_of)
            + bytes(&self.counted)
            + bytes(&self.prices)
    }
}

/// How [`grid`] weighs the prices ([`price_at`]) in its cards.
#[derive(Clone, Copy)]
pub(super) enum Prices {
    /// Not at all.
    Ignored,
    /// A run with a price per card comes before any run without.
    Preferred,
    /// A block of at most this much text (weighed) is a card also when
    /// its only text of its own is a price, a larger one is none, and the
    /// best run is a grid only if each of its cards holds a price: a
    /// shop's product tiles (see [`Params::product_card_text`]).
    EachCard(u32),
}

/// Whether the byte at `at` of `html` ends a currency sign (`$`, `€`,
/// `£`) followed by a digit, a space between allowed (`$170.00`, `€ 49`):
/// a price. A product card holds one; a menu, a filter list or a teaser
/// rarely does.
pub(super) fn price_at(html: &[u8], at: usize) -> bool {
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
/// ascending) whose hash at least [`Params::grid_min_cards`] of them
/// share, ordered by hash, then line: what sorting `in_order` and keeping
/// its runs of [`Params::grid_min_cards`] or more gives, in linear time (a
/// counting sort over an open-addressing table of the hashes).
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
            .filter(|(_, s)| s.1 as usize >= PARAMS.grid_min_cards)
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
        if (slot.1 as usize) < PARAMS.grid_min_cards {
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
/// line, and with a second caller
/// ([`thread_grid`](super::cards::thread_grid)) the compiler would leave it
/// out of line.
#[inline(always)]
pub(super) fn opening_tag(line: &[u8]) -> Option<(&[u8], Option<&[u8]>)> {
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

/// FNV-1a's offset basis.
const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over `bytes`, from `hash`.
fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}
