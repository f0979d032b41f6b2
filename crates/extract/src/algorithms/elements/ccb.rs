//! Content code blurring — Gottron, "Content Code Blurring: A New Approach to
//! Content Extraction" (DEXA 2008 workshops), §3.
//!
//! §3.1: the page becomes a *content code vector* (CCV), one entry per
//! element, 1 for content and 0 for code. CCB and ACCB use characters (text
//! characters are content, tag characters code), TCCB tokens (a word is one
//! content element, a tag one code element). ACCB (§3.3) builds the vector
//! without anchor tags: their characters are neither content nor code.
//! §3.2: each entry is replaced by a Gaussian-weighted average of its
//! neighbourhood (±`range` elements), repeatedly, "until the values start to
//! settle"; the result is the content code ratio (CCR). §3.3/§4.1: an
//! element is content when its CCR is above t = 0.75; a word is extracted
//! whole when any of its characters is. Ranges (§4.1): 40 for CCB and ACCB,
//! 25 for TCCB.
//!
//! Where the paper is silent, and deviations:
//! - the kernel is a Gaussian truncated at ±`range` with σ = `range` / 3
//!   (the kernel then holds 99.7 % of the Gaussian's mass), normalised;
//! - page ends are mirrored, so blurring keeps the vector's mass and every
//!   value stays a weighted average of the input, in [0, 1];
//! - "settled" means no value moved by more than [`SETTLED`] in the last
//!   pass; at most [`MAX_PASSES`] passes are made (a pass is O(n · range)).
//!   Real pages settle after 15–25 passes, i.e. one Gaussian of σ ≈ 65
//!   characters (CCB) or ≈ 35 tokens (TCCB);
//! - characters are counted as in the line-density core: whitespace is
//!   neither content nor code (indentation would otherwise read as
//!   content), a UTF-8 sequence counts once, an entity counts its source
//!   characters; scripts, styles and comments are no elements at all (the
//!   pre-processing the later papers describe).

use super::{self as elements, Scratch, Token, TokenKind};
use crate::budget::{Budget, PageTimeout};
use crate::density::text::TextSink;

/// The CCR above which an element is content (§4.1).
pub const THRESHOLD: f32 = 0.75;
/// Blurring range for the character-based vectors (§4.1).
pub const CHARACTER_RANGE: usize = 40;
/// Blurring range for the token-based vector (§4.1).
pub const TOKEN_RANGE: usize = 25;
/// Values have settled when no pass moves any of them by this much.
pub const SETTLED: f32 = 0.01;
/// A bound on the passes, for vectors that settle slowly.
pub const MAX_PASSES: usize = 64;

/// How the content code vector is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Vector {
    /// CCB: one entry per character.
    Characters,
    /// ACCB: one entry per character, anchor tags left out.
    CharactersWithoutAnchors,
    /// TCCB: one entry per token.
    Tokens,
}

/// Buffers for the vector and the blurring passes.
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    /// The CCV, then the CCR.
    values: Vec<f32>,
    /// `offsets[i]..offsets[i + 1]`: token `i`'s entries in `values`.
    offsets: Vec<usize>,
    blur: Blur,
}

impl Buffers {
    /// The bytes its buffers hold on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        crate::heap_bytes(&self.values) + crate::heap_bytes(&self.offsets) + self.blur.heap_bytes()
    }
}

/// The kernel and the work buffers of [`Blur::until_settled`].
#[derive(Debug, Default)]
pub(crate) struct Blur {
    kernel: Vec<f32>,
    padded: Vec<f32>,
    next: Vec<f32>,
}

/// Runs CCB, ACCB or TCCB on the tokens in `scratch`; returns the number
/// of text runs written, or `Err` when `budget` runs out.
pub(crate) fn extract(
    scratch: &mut Scratch,
    html: &str,
    vector: Vector,
    sink: &mut TextSink,
    budget: &mut Budget,
) -> Result<usize, PageTimeout> {
    let Buffers {
        values,
        offsets,
        blur,
    } = &mut scratch.ccb;
    let tokens = &scratch.tokens;
    build(html, tokens, vector, values, offsets);
    let range = match vector {
        Vector::Tokens => TOKEN_RANGE,
        _ => CHARACTER_RANGE,
    };
    blur.until_settled(values, range, budget)?;
    let values = &*values;
    Ok(elements::write_words(
        html,
        tokens,
        |i, _| {
            let span = offsets.get(i).zip(offsets.get(i + 1));
            span.and_then(|(&a, &b)| values.get(a..b))
                .is_some_and(|v| v.iter().any(|&x| x > THRESHOLD))
        },
        sink,
    ))
}

/// Builds the CCV of `tokens` into `values`, with each token's entries in
/// `offsets` (both cleared first).
fn build(
    html: &str,
    tokens: &[Token],
    vector: Vector,
    values: &mut Vec<f32>,
    offsets: &mut Vec<usize>,
) {
    values.clear();
    offsets.clear();
    offsets.push(0);
    for token in tokens {
        let value = if token.is_word() { 1.0 } else { 0.0 };
        let len = match (vector, token.kind) {
            (Vector::Tokens, _) => 1,
            (Vector::CharactersWithoutAnchors, TokenKind::Anchor) => 0,
            _ => elements::chars(html, token),
        };
        values.resize(values.len() + len, value);
        offsets.push(values.len());
    }
}

impl Blur {
    /// The bytes its buffers hold on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        crate::heap_bytes(&self.kernel)
            + crate::heap_bytes(&self.padded)
            + crate::heap_bytes(&self.next)
    }

    /// §3.2: blurs `values` with a Gaussian of the given range until they
    /// settle; returns the number of passes made, or `Err` when `budget`
    /// runs out (checked before each pass).
    pub fn until_settled(
        &mut self,
        values: &mut Vec<f32>,
        range: usize,
        budget: &mut Budget,
    ) -> Result<usize, PageTimeout> {
        if values.is_empty() {
            return Ok(0);
        }
        gaussian_kernel(range, &mut self.kernel);
        for pass in 1..=MAX_PASSES {
            budget.check()?;
            self.once(values);
            let change = values
                .iter()
                .zip(&self.next)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f32::max);
            std::mem::swap(values, &mut self.next);
            if change < SETTLED {
                return Ok(pass);
            }
        }
        Ok(MAX_PASSES)
    }

    /// One pass with a kernel of the given range, in place.
    pub fn blur(&mut self, values: &mut Vec<f32>, range: usize) {
        gaussian_kernel(range, &mut self.kernel);
        self.once(values);
        std::mem::swap(values, &mut self.next);
    }

    /// One convolution of `values` with the kernel into `self.next`, ends
    /// mirrored. Tap-major loops over shifted slices, so it vectorises.
    fn once(&mut self, values: &[f32]) {
        let n = values.len();
        self.next.clear();
        if n == 0 {
            // Nothing to blur, and the mirroring below divides by `n`.
            return;
        }
        let r = self.kernel.len().saturating_sub(1);
        self.padded.clear();
        let mirrored = |j: usize| {
            // `j` indexes the padded vector: position j - r of the input,
            // reflected into 0..n (half-sample symmetric, period 2n).
            let m = (j + 2 * n * (r / n + 1) - r) % (2 * n);
            values.get(if m < n { m } else { 2 * n - 1 - m })
        };
        self.padded.extend((0..r).filter_map(mirrored));
        self.padded.extend_from_slice(values);
        self.padded.extend((n + r..n + 2 * r).filter_map(mirrored));

        let centre = self.padded.get(r..r + n).unwrap_or_default();
        let w0 = self.kernel.first().copied().unwrap_or(1.0);
        self.next.extend(centre.iter().map(|&v| v * w0));
        for (k, &w) in self.kernel.iter().enumerate().skip(1) {
            let left = self.padded.get(r - k..r - k + n).unwrap_or_default();
            let right = self.padded.get(r + k..r + k + n).unwrap_or_default();
            for ((out, &a), &b) in self.next.iter_mut().zip(left).zip(right) {
                *out += w * (a + b);
            }
        }
    }
}

/// The half kernel `w_0..=w_range` of a Gaussian with σ = range / 3,
/// normalised so that the whole kernel sums to 1.
fn gaussian_kernel(range: usize, kernel: &mut Vec<f32>) {
    let sigma = (range as f64 / 3.0).max(f64::MIN_POSITIVE);
    let weight = |k: usize| (-((k * k) as f64) / (2.0 * sigma * sigma)).exp();
    let total = 1.0 + 2.0 * (1..=range).map(weight).sum::<f64>();
    kernel.clear();
    kernel.extend((0..=range).map(|k| (weight(k) / total) as f32));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::elements::{tests::run, tokenize, Kind};

    fn vector(html: &str, vector: Vector) -> Vec<f32> {
        let (mut tokens, mut values, mut offsets) = (Vec::new(), Vec::new(), Vec::new());
        tokenize(html, &mut tokens);
        build(html, &tokens, vector, &mut values, &mut offsets);
        values
    }

    #[test]
    fn vectors_count_characters_or_tokens() {
        let html = r#"<p class="x">a <a href="/">bb</a></p>"#;
        // Whitespace is neither content nor code, in tags as in text.
        let ones = |v: &[f32]| v.iter().filter(|&&x| x == 1.0).count();
        let chars = vector(html, Vector::Characters);
        assert_eq!((chars.len(), ones(&chars)), (12 + 1 + 11 + 2 + 4 + 4, 3));
        let without_anchors = vector(html, Vector::CharactersWithoutAnchors);
        assert_eq!(
            (without_anchors.len(), ones(&without_anchors)),
            (12 + 3 + 4, 3)
        );
        // TCCB: a tag is one code element however long it is.
        assert_eq!(vector(html, Vector::Tokens), [0.0, 1.0, 0.0, 1.0, 0.0, 0.0]);
    }

    #[test]
    fn one_pass_spreads_an_impulse_as_a_gaussian() {
        let mut values = vec![0.0; 201];
        if let Some(v) = values.get_mut(100) {
            *v = 1.0;
        }
        Blur::default().blur(&mut values, CHARACTER_RANGE);
        let sigma = CHARACTER_RANGE as f32 / 3.0;
        let peak = 1.0 / (sigma * (2.0 * std::f32::consts::PI).sqrt());
        for k in 0..=CHARACTER_RANGE {
            let (left, right) = (values[100 - k], values[100 + k]);
            assert!((left - right).abs() < 1e-7);
            let expected = peak * (-((k * k) as f32) / (2.0 * sigma * sigma)).exp();
            assert!(
                (right - expected).abs() < 0.01 * peak,
                "{k}: {right} vs {expected}"
            );
        }
        assert_eq!(values[100 - CHARACTER_RANGE - 1], 0.0);
    }

    #[test]
    fn blurring_keeps_mass_and_bounds_and_settles() {
        // Pseudo-random 0/1 vectors, one shorter than the kernel.
        for len in [7, 500, 3000] {
            let mut values: Vec<f32> = (0..len)
                .map(|i: u32| f32::from(u8::from(i.wrapping_mul(2_654_435_761) >> 29 < 5)))
                .collect();
            let mass: f32 = values.iter().sum();
            let passes = Blur::default()
                .until_settled(&mut values, CHARACTER_RANGE, &mut Budget::unlimited())
                .expect("no limit");
            assert!((1..MAX_PASSES).contains(&passes), "{len}: {passes} passes");
            let after: f32 = values.iter().sum();
            assert!(
                (after - mass).abs() <= 1e-4 * mass,
                "{len}: {mass} -> {after}"
            );
            assert!(values.iter().all(|&v| (0.0..=1.0 + 1e-6).contains(&v)));
        }
    }

    /// A plain paragraph, then one where every few words are a link with a
    /// long address: more tag characters than text.
    fn wiki_page() -> String {
        let plain = "Plain words of an article paragraph without any markup in it, \
                     long enough to stay bright after blurring. "
            .repeat(4);
        let linked = r#"See <a href="https://en.example.org/wiki/Some_Long_Article_Title">linked words</a> and "#
            .repeat(12);
        format!("<ul><li><a href=/>Home</a></li></ul><p>{plain}</p><p>{linked}</p>")
    }

    #[test]
    fn accb_keeps_the_link_rich_paragraph_that_ccb_drops() {
        let html = wiki_page();
        let ccb = run(Kind::Ccb, &html);
        let accb = run(Kind::Accb, &html);
        assert!(ccb.contains("stay bright after blurring."), "{ccb}");
        assert!(!ccb.contains("linked"), "{ccb}");
        assert!(accb.contains("stay bright after blurring."), "{accb}");
        assert_eq!(accb.matches("linked words").count(), 12, "{accb}");
    }

    #[test]
    fn tccb_is_not_swayed_by_one_long_tag() {
        let words = "word ".repeat(30);
        let style = "color: red; ".repeat(30);
        let html = format!(r#"<p>{words}<span style="{style}">middle</span> {words}</p>"#);
        assert!(run(Kind::Tccb, &html).contains("word middle word"));
        assert!(!run(Kind::Ccb, &html).contains("middle"));
    }
}
