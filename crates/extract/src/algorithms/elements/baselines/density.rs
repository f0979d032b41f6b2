//! Density — Moreno, Deschacht, Moens, "Language independent content
//! extraction from web pages" (DIR 2009), as summarised by Mohammadzadeh et
//! al. (2011 §II, 2012 §2.2): text separated from the tags into an array of
//! lines, and the region of that array with the highest density is the main
//! content.
//!
//! crawlsift's reading, kept simple (the summaries give no formula):
//! - the lines are the core's virtual lines; a line's text density is its
//!   share of content characters, `content / (content + code)`;
//! - a line is dense when that share is at least [`MIN_DENSITY`] (more
//!   text than markup);
//! - dense lines form one region while at most [`MAX_GAP`] other lines
//!   separate them, and the region with the most content characters is
//!   the main content; its dense lines are written. A gap of 5 rather than
//!   2 lines scored better on all three shared datasets in a quick check.

use crate::algorithms::elements::{self, Scratch};
use crate::density::text::TextSink;

/// The smallest share of content characters for a dense line.
pub const MIN_DENSITY: f32 = 0.5;
/// The most non-dense lines a region may bridge.
pub const MAX_GAP: usize = 5;

/// Writes the densest region's dense lines; returns the number of runs.
pub(in crate::algorithms) fn extract(
    scratch: &mut Scratch,
    html: &str,
    sink: &mut TextSink,
) -> usize {
    let Scratch { lines, chosen, .. } = scratch;
    let lines = &lines.lines;
    chosen.clear();
    chosen.extend(lines.iter().map(|l| {
        let total = l.content + l.code;
        total > 0 && l.content as f32 >= MIN_DENSITY * total as f32
    }));
    // The heaviest region: (first, last, content).
    let mut best: Option<(usize, usize, u64)> = None;
    let mut open: Option<(usize, usize, u64)> = None;
    for (i, (line, &dense)) in lines.iter().zip(chosen.iter()).enumerate() {
        if !dense {
            continue;
        }
        let content = u64::from(line.content);
        open = match open {
            Some((first, last, sum)) if i - last <= MAX_GAP + 1 => Some((first, i, sum + content)),
            _ => Some((i, i, content)),
        };
        if open.map(|o| o.2) > best.map(|b| b.2) {
            best = open;
        }
    }
    let (first, last) = best.map_or((1, 0), |(f, l, _)| (f, l));
    for (i, c) in chosen.iter_mut().enumerate() {
        *c &= (first..=last).contains(&i);
    }
    elements::write_lines(html, lines, chosen, sink)
}

#[cfg(test)]
mod tests {
    use crate::algorithms::elements::{tests::run, Kind};

    #[test]
    fn picks_the_region_with_most_dense_text() {
        let menu = "<ul><li><a href=/x>Home</a></li><li><a href=/y>About</a></li></ul>";
        let html = format!(
            "{menu}<p>Short dense aside.</p>{menu}{menu}\
             <p>First paragraph of the article, long enough.</p><div><a href=/z>x</a></div>\
             <p>Second paragraph, after one link line.</p>{menu}"
        );
        assert_eq!(
            run(Kind::Density, &html),
            "First paragraph of the article, long enough.\nSecond paragraph, after one link line."
        );
    }
}
