//! Repeated copies among the chosen lines (product pages, forum threads).
//!
//! A product page serves some of its blocks once per screen size (the
//! details for phones, then for desktops), and widgets repeat their data
//! (a variant picker's labels, a thread's post toolbar with the post); the
//! line profile sees each copy as text of worth, and the gold standards
//! have it once. After the choice of lines, a run of paragraphs that
//! repeats, paragraph for paragraph, a run given earlier and apart from it
//! is left out.
//!
//! A copy has at least [`Params::copy_min_paragraphs`] paragraphs, not all
//! the same (one paragraph repeated is a list's entries, a refrain): two
//! lines in the same order are already a block, not a coincidence. It has
//! at least [`Params::copy_min_chars`] characters: short runs repeat as
//! content too (a list of plans with the same features, lines of a
//! paragraph split by `<br>`, the numbers of a code listing).
//!
//! A run given again right after itself is a copy only when it is a
//! widget's block of short lines (a carousel's slides cloned for its loop,
//! a marquee of testimonials served twice, a product's feature tiles or
//! tab panel given once per screen size): every line under
//! [`Params::short_copy_line`] characters (a paragraph's length, as
//! [`Params::grid_paragraph`]), at least [`Params::short_copy_min_chars`]
//! in all (two short lines repeated, a label and its value or a price
//! under two names, are a list's entries). An article served twice in a
//! row, whose gold has it twice, repeats paragraphs.

use super::params::PARAMS;
use crate::budget::{Budget, PageTimeout};
use crate::density::markdown::Markdown;

#[cfg(doc)]
use super::params::Params;

/// Leaves out of `text` (paragraphs separated by `\n`) every run of at
/// least [`Params::copy_min_paragraphs`] paragraphs, not all the same, of
/// at least [`Params::copy_min_chars`] characters, that repeats a run
/// given earlier, unless the copy follows its original directly: a block
/// given twice in a row (kept whole) is as often a sequence of like items
/// or an article served twice whose gold has it twice as a copy the gold
/// has once; a responsive copy or a quoted post sits apart from its
/// original. A copy in a row is left out only when it is a block of short
/// lines ([`Params::short_copy_line`], [`Params::short_copy_min_chars`]).
/// At most [`Params::copy_candidates`] earlier occurrences of a paragraph
/// are compared with its run, which bounds the work on pages of one line
/// repeated many times. `markdown`, the Markdown of the same text, loses
/// the Markdown of the paragraphs left out. `Err` when `budget` runs out (checked every
/// [`BUDGET_STRIDE`] paragraphs).
pub(super) fn drop_repeated_copies(
    text: &mut String,
    buffers: &mut Copies,
    markdown: Option<&mut Markdown>,
    budget: &mut Budget,
) -> Result<(), PageTimeout> {
    // Cheap exit: a copy and its original need twice the minimum.
    if text.len() < 2 * PARAMS.short_copy_min_chars.min(PARAMS.copy_min_chars) {
        return Ok(());
    }
    let Copies {
        paragraphs,
        table,
        prev,
        dropped,
    } = buffers;
    let bytes = text.as_bytes();
    // Offsets and indices are kept in `u32` (a text is at most a page, and
    // a page at most 4 GiB): the buffers are read at random.
    if bytes.len() >= NONE as usize {
        return Ok(());
    }
    paragraphs.clear();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', bytes) {
        paragraphs.push((start as u32, end as u32));
        start = end + 1;
    }
    paragraphs.push((start as u32, bytes.len() as u32));
    let n = paragraphs.len();
    if n < 2 * PARAMS.copy_min_paragraphs {
        return Ok(());
    }
    let line = |i: usize| {
        paragraphs
            .get(i)
            .and_then(|&(a, b)| bytes.get(a as usize..b as usize))
            .unwrap_or_default()
    };
    // The previous paragraph with the same text, for each: the last one
    // before it with the same text, found by a quick key of its length and
    // ends (most pages have no repeat and stop here).
    let slots = (2 * n).next_power_of_two();
    let mask = slots - 1;
    table.clear();
    table.resize(slots, (0, NONE));
    prev.clear();
    prev.resize(n, NONE);
    let mut any_repeat = false;
    for (i, slot_prev) in prev.iter_mut().enumerate() {
        let text = line(i);
        let hash = paragraph_key(text);
        // Open addressing: the table has twice the paragraphs' slots, so
        // it always has an empty one. Texts with the same key but not the
        // same text take slots of their own; the slot holds the key's low
        // half, its high half chose the slot.
        let (check, i) = (hash as u32, i as u32);
        let mut at = (hash >> 32) as usize & mask;
        while let Some(slot) = table.get_mut(at) {
            if slot.1 == NONE {
                *slot = (check, i);
                break;
            }
            if slot.0 == check && line(slot.1 as usize) == text {
                *slot_prev = slot.1;
                any_repeat = true;
                slot.1 = i;
                break;
            }
            at = (at + 1) & mask;
        }
    }
    if !any_repeat {
        return Ok(());
    }
    budget.check()?;
    let same = |a: usize, b: usize| a < n && b < n && line(a) == line(b);
    // The paragraph before `p` with its text.
    let earlier = |p: usize| match prev.get(p) {
        Some(&q) if q != NONE => q as usize,
        _ => usize::MAX,
    };
    dropped.clear();
    dropped.resize(n, false);
    let mut any = false;
    let mut i = 0;
    let mut steps = 0usize;
    while i < n {
        steps += 1;
        if steps.is_multiple_of(BUDGET_STRIDE) {
            budget.check()?;
        }
        // The longest run from `i` repeating one that starts at an earlier
        // occurrence of line `i` and ends before `i`.
        let (mut len, mut adjacent) = (0, false);
        let mut p = earlier(i);
        for _ in 0..PARAMS.copy_candidates {
            if p == usize::MAX {
                break;
            }
            let k = (0..n - i)
                .take_while(|&k| p + k < i && same(p + k, i + k))
                .count();
            if k > len {
                (len, adjacent) = (k, p + k == i);
            }
            p = earlier(p);
        }
        let run = || (i..i + len).map(line);
        // Apart from its original: a run of the length of a block of
        // paragraphs; in a row: a block of short lines (see
        // [`Params::short_copy_line`]).
        let copy = len >= PARAMS.copy_min_paragraphs
            && run().any(|l| l != line(i))
            && if adjacent {
                run().all(|l| chars(l) < PARAMS.short_copy_line)
                    && run().map(chars).sum::<usize>() >= PARAMS.short_copy_min_chars
            } else {
                run().map(chars).sum::<usize>() >= PARAMS.copy_min_chars
            };
        if copy {
            dropped.get_mut(i..i + len).unwrap_or_default().fill(true);
            any = true;
            i += len;
        } else if adjacent && len >= PARAMS.copy_min_paragraphs {
            // A block given again in a row is kept whole (its tail is no
            // copy of the original's tail apart from it).
            i += len;
        } else {
            i += 1;
        }
    }
    if !any {
        return Ok(());
    }
    let mut kept = String::with_capacity(text.len());
    let mut first = true;
    for (&(a, b), _) in paragraphs.iter().zip(dropped.iter()).filter(|(_, d)| !**d) {
        if !first {
            kept.push('\n');
        }
        first = false;
        kept.push_str(text.get(a as usize..b as usize).unwrap_or_default());
    }
    *text = kept;
    if let Some(markdown) = markdown {
        markdown.keep_paragraphs(dropped);
    }
    Ok(())
}

/// No paragraph, in [`Copies`]'s tables.
const NONE: u32 = u32::MAX;

/// How many paragraphs the search for copies compares between two checks
/// of the page's budget.
const BUDGET_STRIDE: usize = 1024;

/// The key of a paragraph for [`drop_repeated_copies`]'s table: a hash
/// of all its bytes (two paragraphs with the same text have the same key;
/// the texts are compared on a match). A key of a few of its bytes would
/// give the many paragraphs of a page that differ only inside (numbered
/// lines, a template's rows) one key, and the search over them a
/// comparison with each other: quadratic in the paragraphs.
fn paragraph_key(text: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(text)
}

/// The characters of `text`, UTF-8: its bytes but continuation bytes.
fn chars(text: &[u8]) -> usize {
    text.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

impl Copies {
    /// The bytes its buffers hold on the heap.
    pub(super) fn heap_bytes(&self) -> usize {
        use crate::heap_bytes as bytes;
        bytes(&self.paragraphs) + bytes(&self.table) + bytes(&self.prev) + bytes(&self.dropped)
    }
}

/// The buffers of [`drop_repeated_copies`], reused from page to page.
#[derive(Default)]
pub(super) struct Copies {
    /// Each paragraph's byte range in the text.
    paragraphs: Vec<(u32, u32)>,
    /// Open-addressing table of paragraph keys: the key's low half and the
    /// last paragraph with it ([`NONE`]: an empty slot).
    table: Vec<(u32, u32)>,
    /// For each paragraph, the previous one with the same text ([`NONE`]).
    prev: Vec<u32>,
    /// Whether each paragraph is left out.
    dropped: Vec<bool>,
}
