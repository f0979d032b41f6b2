//! CETR, content extraction via tag ratios — Weninger and Hsu, "Text
//! extraction from the web via text-to-tag ratio" (TIR 2008), as summarised
//! by Mohammadzadeh et al. (2012, §2.2): per-line text-to-tag ratios,
//! smoothed, clustered by k-means into content and non-content lines.
//!
//! crawlsift's choices where the summary is silent:
//! - lines are the core's virtual lines ([`crate::density::scan`]), so the
//!   source's line wrapping does not matter;
//! - the ratio of a line is its content characters over its tags (over 1
//!   when it has none);
//! - smoothing is one pass of the Gaussian of [`crate::algorithms::elements::ccb`]
//!   with σ = 1 (range 3);
//! - each line is a point (smoothed ratio `r_i`, derivative `|mean(r_i..=r_{i+3}) - r_i|`),
//!   so a line where the ratio jumps counts as content too;
//! - Lloyd's k-means with k = [`CLUSTERS`] = 3, centroids started evenly
//!   from the origin to the largest values (deterministic); the cluster whose
//!   centroid is nearest the origin is boilerplate, the others are content
//!   (k = 3 rather than 2 so that a few lines with huge ratios do not take
//!   the content cluster alone).

use crate::algorithms::elements::{self, tokenize, Scratch};
use crate::budget::{Budget, PageTimeout};
use crate::density::text::TextSink;

/// Number of k-means clusters.
pub const CLUSTERS: usize = 3;
/// Gaussian range of the smoothing (σ = range / 3 = 1).
pub const SMOOTHING_RANGE: usize = 3;
/// Lines ahead averaged for the derivative.
pub const AHEAD: usize = 3;
/// A bound on k-means iterations.
const MAX_ROUNDS: usize = 100;

/// Writes the content lines; returns the number of runs.
pub(in crate::algorithms) fn extract(
    scratch: &mut Scratch,
    html: &str,
    sink: &mut TextSink,
    budget: &mut Budget,
) -> Result<usize, PageTimeout> {
    let Scratch {
        tokens,
        lines,
        smooth,
        counts,
        ratios,
        gradients,
        clusters,
        chosen,
        ..
    } = scratch;
    let lines = &lines.lines;
    // Tags per line: tokens and lines are both in page order.
    tokenize(html, tokens);
    counts.clear();
    counts.resize(lines.len(), 0);
    let mut line = 0;
    for tag in tokens.iter().filter(|t| !t.is_word()) {
        while lines.get(line).is_some_and(|l| l.end <= tag.start) {
            line += 1;
        }
        if let (Some(l), Some(c)) = (lines.get(line), counts.get_mut(line)) {
            if l.start <= tag.start {
                *c += 1;
            }
        }
    }
    ratios.clear();
    ratios.extend(
        lines
            .iter()
            .zip(counts.iter())
            .map(|(l, &tags)| l.content as f32 / tags.max(1) as f32),
    );
    smooth.blur(ratios, SMOOTHING_RANGE);
    gradients.clear();
    gradients.extend((0..ratios.len()).map(|i| {
        let ahead = ratios
            .get(i..(i + AHEAD + 1).min(ratios.len()))
            .unwrap_or_default();
        let mean = ahead.iter().sum::<f32>() / ahead.len().max(1) as f32;
        (mean - ratios.get(i).copied().unwrap_or(0.0)).abs()
    }));
    let boilerplate = k_means(ratios, gradients, clusters, budget)?;
    chosen.clear();
    chosen.extend(clusters.iter().map(|&c| usize::from(c) != boilerplate));
    Ok(elements::write_lines(html, lines, chosen, sink))
}

/// Clusters the points `(xs[i], ys[i])` into `assigned`; returns the
/// cluster nearest the origin.
fn k_means(
    xs: &[f32],
    ys: &[f32],
    assigned: &mut Vec<u8>,
    budget: &mut Budget,
) -> Result<usize, PageTimeout> {
    let max = |v: &[f32]| v.iter().copied().fold(0.0, f32::max);
    let (max_x, max_y) = (max(xs), max(ys));
    let mut centroids = [(0.0f32, 0.0f32); CLUSTERS];
    for (j, c) in centroids.iter_mut().enumerate() {
        let f = j as f32 / (CLUSTERS - 1) as f32;
        *c = (f * max_x, f * max_y);
    }
    let nearest = |centroids: &[(f32, f32); CLUSTERS], x: f32, y: f32| {
        let distance = |&(cx, cy): &(f32, f32)| (x - cx).powi(2) + (y - cy).powi(2);
        (0..CLUSTERS)
            .min_by(|&a, &b| {
                let (da, db) = (
                    centroids.get(a).map(distance),
                    centroids.get(b).map(distance),
                );
                da.partial_cmp(&db).unwrap_or(std::cmp::Ordering::Equal)
            })
            .unwrap_or(0) as u8
    };
    assigned.clear();
    assigned.resize(xs.len(), u8::MAX);
    for _ in 0..MAX_ROUNDS {
        budget.check()?;
        let mut changed = false;
        for ((a, &x), &y) in assigned.iter_mut().zip(xs).zip(ys) {
            let c = nearest(&centroids, x, y);
            changed |= *a != c;
            *a = c;
        }
        if !changed {
            break;
        }
        let mut sums = [(0.0f32, 0.0f32, 0usize); CLUSTERS];
        for ((&a, &x), &y) in assigned.iter().zip(xs).zip(ys) {
            if let Some(s) = sums.get_mut(usize::from(a)) {
                *s = (s.0 + x, s.1 + y, s.2 + 1);
            }
        }
        for (c, &(sx, sy, n)) in centroids.iter_mut().zip(&sums) {
            if n > 0 {
                *c = (sx / n as f32, sy / n as f32);
            }
        }
    }
    Ok(usize::from(nearest(&centroids, 0.0, 0.0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::elements::{tests::run, Kind};

    #[test]
    fn k_means_separates_low_from_high_points() {
        let xs = [0.5, 1.0, 0.0, 40.0, 42.0, 0.7, 100.0];
        let ys = [0.0, 0.5, 0.0, 5.0, 3.0, 0.1, 60.0];
        let mut assigned = Vec::new();
        let boilerplate =
            k_means(&xs, &ys, &mut assigned, &mut Budget::unlimited()).expect("no limit");
        let content: Vec<bool> = assigned
            .iter()
            .map(|&c| usize::from(c) != boilerplate)
            .collect();
        assert_eq!(content, [false, false, false, true, true, false, true]);
    }

    #[test]
    fn text_heavy_lines_and_their_neighbours_are_content() {
        let menu = "<div><a href=/a>A</a> <a href=/b>B</a></div>".repeat(12);
        let para = "<p>A long paragraph of running text with no markup inside it at all, \
                    as articles are written, to give this line a high ratio.</p>";
        let html = format!("{menu}{para}{para}{menu}");
        let text = run(Kind::Cetr, &html);
        assert_eq!(text.matches("A long paragraph").count(), 2, "{text}");
        // Of the 24 link lines only the paragraphs' neighbours, which smoothing
        // and the derivative lift, are content.
        let links = text.lines().filter(|l| *l == "A B").count();
        assert!((1..=6).contains(&links), "{text}");
    }
}
