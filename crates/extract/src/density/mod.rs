//! The shared line-density core of the DANA family.
//!
//! One page goes through four steps, all on buffers owned by a reusable
//! [`Scratch`] (no allocation per line, no copy of the page, no DOM):
//! 1. [`scan`]: one pass over the bytes splitting the page into virtual lines
//!    and counting content, non-ASCII and code characters per line, with the
//!    vectorised [`kernel`];
//! 2. each algorithm maps a line's counts to its two columns (above / below
//!    the axis of the papers' plots);
//! 3. [`regions`]: the three-line smoothing, the positive regions and
//!    Algorithm 1 with its `gap`;
//! 4. [`text`]: the text of the chosen lines.

pub mod cleaning;
pub mod kernel;
pub mod landmarks;
pub mod markdown;
mod names;
pub mod nested;
pub mod regions;
pub mod scan;
pub mod tags;
pub mod text;

pub use regions::Region;
pub use scan::{Line, LinkRule, Rules, ScanSummary, TagCounts};

/// What is removed before counting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Cleaning {
    /// The papers' pre-processing: scripts, styles, comments and the other
    /// non-text elements ([`tags::TagClass::Skip`]).
    #[default]
    Papers,
    /// Also marks the page furniture: `<nav>`, `<aside>`, `<footer>`,
    /// elements named as furniture by `class`/`id`/`role`, and hidden
    /// elements (`hidden`, `style="display: none"`) of any kind. `<noscript>` is
    /// read as markup (forum software serves the whole page text there)
    /// unless it holds escaped markup; so is `<math>` (MathML formulas are
    /// part of the text).
    Furniture,
}

/// A byte-class table: `true` for each of `bytes`, built in `const`
/// context. The scalar definitions the SIMD byte classifiers are tested
/// against (and run on targets other than x86_64) look bytes up in these.
#[cfg(test)]
const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
}

/// The first `N` bytes of `bytes` in an array, `pad` past their end: how the
/// block-at-a-time classifiers read the short tail of their input.
#[inline]
fn padded<const N: usize>(bytes: &[u8], pad: u8) -> [u8; N] {
    let mut array = [pad; N];
    array.iter_mut().zip(bytes).for_each(|(a, &b)| *a = b);
    array
}

/// [`padded`] for 16-byte windows, built in a register. The windows of
/// names, class words and the last lane of a text run are read this way,
/// mostly from a short slice: a copy into a stack array is a
/// `memcpy` call, and the 16-byte load of the array after it stalls on the
/// store (no forwarding from narrower stores), which cost more than the
/// lookup the window is for. Two overlapping loads of 8 (or 4) bytes, the
/// first and the last of the slice, hold every byte of it.
#[inline]
fn padded16(bytes: &[u8], pad: u8) -> [u8; 16] {
    if let Some(window) = bytes.first_chunk::<16>() {
        return *window;
    }
    let len = bytes.len();
    let value: u128 = match (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        (Some(&first), Some(&last)) => {
            u128::from(u64::from_le_bytes(first))
                | u128::from(u64::from_le_bytes(last)) << (8 * (len - 8))
        }
        _ => match (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
            (Some(&first), Some(&last)) => {
                u128::from(u32::from_le_bytes(first))
                    | u128::from(u32::from_le_bytes(last)) << (8 * (len - 4))
            }
            _ => bytes
                .iter()
                .enumerate()
                .fold(0, |value, (i, &b)| value | u128::from(b) << (8 * i)),
        },
    };
    // `len` < 16 here, so the shift stays below 128.
    let pads = u128::from_le_bytes([pad; 16]) & (!0u128 << (8 * len));
    (value | pads).to_le_bytes()
}

/// Per-page buffers, reused from page to page by one worker.
#[derive(Debug, Default)]
pub struct Scratch {
    /// The page's virtual lines and their counts, from [`Scratch::scan`].
    pub lines: Vec<Line>,
    /// The furniture cues of the page's container tags ([`cleaning::CueMemo`]).
    cues: cleaning::CueMemo,
    /// The positive regions of the density profile, from [`Scratch::profile`].
    pub regions: Vec<Region>,
    /// Where the tags the metadata reads are, from [`Scratch::scan`].
    pub landmarks: landmarks::Landmarks,
}

/// How an algorithm reads a line: its above-axis and below-axis counts.
pub type Columns = fn(&Line) -> (u32, u32);

/// The lines a density profile chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// Indices (inclusive) into the page's positive regions (in order) of the chosen ones.
    pub regions: (usize, usize),
    /// Indices (inclusive) into the page's virtual lines of the first and last
    /// chosen line.
    pub lines: (usize, usize),
}

impl Scratch {
    /// The bytes its buffers hold on the heap.
    pub fn heap_bytes(&self) -> usize {
        crate::heap_bytes(&self.lines)
            + self.cues.heap_bytes()
            + crate::heap_bytes(&self.regions)
            + self.landmarks.heap_bytes()
    }

    /// Step 1: splits `html` into counted lines, with the kernels this
    /// CPU runs best ([`kernel::dispatch`]).
    pub fn scan(&mut self, html: &[u8], rules: Rules) -> ScanSummary {
        /// The pass as a task for [`kernel::dispatch`].
        struct Scan<'a> {
            html: &'a [u8],
            rules: Rules,
            lines: &'a mut Vec<Line>,
            cues: &'a mut cleaning::CueMemo,
            landmarks: &'a mut landmarks::Landmarks,
        }
        impl kernel::Task for Scan<'_> {
            type Output = ScanSummary;
            #[inline(always)]
            fn run<I: kernel::Isa>(self, isa: I) -> ScanSummary {
                scan::scan(
                    self.html,
                    self.rules,
                    &kernel::BlockCounter(isa),
                    self.lines,
                    self.cues,
                    self.landmarks,
                )
            }
        }
        kernel::dispatch(Scan {
            html,
            rules,
            lines: &mut self.lines,
            cues: &mut self.cues,
            landmarks: &mut self.landmarks,
        })
    }

    /// Steps 2–3: smooths the columns, finds the regions and chooses the
    /// main-content regions with Algorithm 1.
    pub fn select(&mut self, columns: Columns, gap: usize) -> Option<Selection> {
        self.profile(columns);
        let (lo, hi) = regions::select(&self.regions, gap)?;
        let first = self.regions.get(lo)?.first;
        let last = self.regions.get(hi)?.last;
        Some(Selection {
            regions: (lo, hi),
            lines: (first, last),
        })
    }

    /// Step 2 and the first half of step 3: smooths the columns into the
    /// density profile and finds its positive regions, weighted by the
    /// above-axis counts, into [`Scratch::regions`].
    pub fn profile(&mut self, columns: impl Fn(&Line) -> (u32, u32)) {
        let lines = &self.lines;
        let d = lines.iter().map(|l| {
            let (above, below) = columns(l);
            i64::from(above) - i64::from(below)
        });
        let above = |i: usize| lines.get(i).map_or(0, |l| u64::from(columns(l).0));
        regions::positive_regions(regions::smoothed(d), above, &mut self.regions);
    }

    /// Step 4: appends the text of the chosen regions, a paragraph break
    /// between regions.
    pub fn text_of(
        &self,
        html: &str,
        selection: Selection,
        rules: Rules,
        sink: &mut text::TextSink,
    ) {
        let (lo, hi) = selection.regions;
        for region in self.regions.get(lo..=hi).unwrap_or_default() {
            let (Some(first), Some(last)) =
                (self.lines.get(region.first), self.lines.get(region.last))
            else {
                continue;
            };
            sink.paragraph();
            sink.append_html(html, first.start as usize, last.end as usize, rules);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn padded16_equals_padded(bytes in proptest::collection::vec(any::<u8>(), 0..20), pad in any::<u8>()) {
            prop_assert_eq!(padded16(&bytes, pad), padded::<16>(&bytes, pad));
        }
    }
}
