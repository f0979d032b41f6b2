//! DSC, Document Slope Curves — Pinto et al., "QuASM: a system for question
//! answering using semi-structured data" (JCDL 2002), as summarised by
//! Gottron (2008, §2) and Mohammadzadeh et al. (2012, §2.2): plot the
//! cumulative tag count against the token position (the slope curve) and
//! take the long, low-sloping stretches as text; a window over the curve
//! lets several separate stretches be found, unlike BTE.
//!
//! The papers here give no parameters; crawlsift's choices, kept simple:
//! - the slope at token `i` is the share of tags among the [`WINDOW`] tokens
//!   centred on it (fewer at the page ends), from prefix sums: O(n);
//! - a word is on a low slope when that share is at most [`MAX_SLOPE`]
//!   (at most 2 tags per 5 tokens: running text with links passes, a menu
//!   of `<li><a>…</a></li>` at 4 tags per word does not);
//! - consecutive low-slope words form a stretch, and stretches of at least
//!   [`MIN_WORDS`] words ("long") are the main content.

use crate::algorithms::elements::{self, Scratch};
use crate::density::text::TextSink;

/// Tokens in the window the slope is measured over.
pub const WINDOW: usize = 20;
/// The largest share of tags in the window for a word to be text.
pub const MAX_SLOPE: f32 = 0.4;
/// The fewest words a low-slope stretch needs to be kept.
pub const MIN_WORDS: usize = 10;

/// Writes the long low-slope stretches; returns the number of runs.
pub(in crate::algorithms) fn extract(
    scratch: &mut Scratch,
    html: &str,
    sink: &mut TextSink,
) -> usize {
    let Scratch {
        tokens,
        counts,
        chosen,
        ..
    } = scratch;
    // counts[i] = tags among tokens 0..i.
    counts.clear();
    counts.push(0);
    let mut tags = 0;
    counts.extend(tokens.iter().map(|t| {
        tags += u32::from(!t.is_word());
        tags
    }));
    let n = tokens.len();
    let low = |i: usize| {
        let (a, b) = (i.saturating_sub(WINDOW / 2), (i + WINDOW / 2).min(n));
        let in_window = counts.get(b).zip(counts.get(a)).map_or(0, |(b, a)| b - a);
        in_window as f32 <= MAX_SLOPE * (b - a) as f32
    };
    chosen.clear();
    chosen.resize(n, false);
    // Mark stretches of consecutive low-slope words with at least MIN_WORDS.
    let (mut first, mut words) = (0, 0);
    for i in 0..=n {
        match tokens.get(i) {
            Some(t) if !t.is_word() => continue,
            Some(_) if low(i) => {
                if words == 0 {
                    first = i;
                }
                words += 1;
                continue;
            }
            _ => {}
        }
        if words >= MIN_WORDS {
            chosen
                .get_mut(first..i)
                .into_iter()
                .flatten()
                .for_each(|c| *c = true);
        }
        words = 0;
    }
    let chosen = &*chosen;
    elements::write_words(html, tokens, |i, _| chosen.get(i) == Some(&true), sink)
}

#[cfg(test)]
mod tests {
    use crate::algorithms::elements::{tests::run, Kind};

    #[test]
    fn keeps_every_long_low_slope_stretch_and_drops_menus() {
        let menu = "<ul><li><a>Home</a></li><li><a>News</a></li><li><a>Sport</a></li></ul>";
        let para = |w: &str| format!("<p>{}</p>", [w; 14].join(" "));
        let short = "<div><span>short</span> <b>line</b></div>";
        let html = format!(
            "{menu}{}{menu}{menu}{}{short}{menu}",
            para("alpha"),
            para("beta")
        );
        let text = run(Kind::Dsc, &html);
        // Both paragraphs, though separated: DSC is not limited to one window.
        assert_eq!(
            text,
            format!("{}\n{}", ["alpha"; 14].join(" "), ["beta"; 14].join(" "))
        );
    }
}
