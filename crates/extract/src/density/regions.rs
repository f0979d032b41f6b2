//! Smoothing, positive regions and the region choice of the DANA papers.
//!
//! Mohammadzadeh et al., DANA (DEXA 2011) §IV-B, shared by DANAg/AdDANAg:
//! 1. formula (1): `diff_i = d_{i-1} + d_i + d_{i+1}` with `d_i = T1_i - T2_i`
//!    (above-axis minus below-axis count; a missing neighbour counts 0);
//! 2. the regions are the maximal runs of lines with `diff_i > 0`, each
//!    weighted by its number of characters (the sum of `T1` over its lines);
//! 3. Algorithm 1: start from the heaviest region `r_m` and add neighbours to
//!    the left, then to the right, while the distance between consecutive
//!    regions (lines strictly between them) is `<= gap`.

/// A run of consecutive lines with positive smoothed density.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// First line (index into the line array).
    pub first: usize,
    /// Last line, inclusive.
    pub last: usize,
    /// Characters in the region: the sum of the above-axis counts.
    pub weight: u64,
}

/// Formula (1): three-line smoothing of `d` into `diff` (cleared first).
pub fn smooth(d: &[i64], diff: &mut Vec<i64>) {
    diff.clear();
    diff.extend(smoothed(d.iter().copied()));
}

/// Formula (1) as the lines come: the smoothed `diff_i` of each `d_i`,
/// with no buffer per line.
pub fn smoothed(d: impl Iterator<Item = i64>) -> impl Iterator<Item = i64> {
    let mut prev = 0;
    let mut d = d.peekable();
    std::iter::from_fn(move || {
        let cur = d.next()?;
        let next = d.peek().copied().unwrap_or(0);
        let diff = prev + cur + next;
        prev = cur;
        Some(diff)
    })
}

/// The maximal runs of `diff > 0`, into `regions` (cleared first);
/// `above(i)` is line `i`'s above-axis count.
pub fn positive_regions(
    diff: impl IntoIterator<Item = i64>,
    above: impl Fn(usize) -> u64,
    regions: &mut Vec<Region>,
) {
    regions.clear();
    let mut open: Option<Region> = None;
    for (i, v) in diff.into_iter().enumerate() {
        match (&mut open, v > 0) {
            (Some(r), true) => {
                r.last = i;
                r.weight += above(i);
            }
            (None, true) => {
                open = Some(Region {
                    first: i,
                    last: i,
                    weight: above(i),
                })
            }
            (Some(r), false) => {
                regions.push(*r);
                open = None;
            }
            (None, false) => {}
        }
    }
    regions.extend(open);
}

/// Algorithm 1: the indices `(lo, hi)` (inclusive) of the regions that make
/// up the main content: the heaviest region (the first one on ties) and its
/// neighbours chained within `gap` lines. `None` when there is no region.
pub fn select(regions: &[Region], gap: usize) -> Option<(usize, usize)> {
    let (m, _) = regions
        .iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| a.weight.cmp(&b.weight).then(j.cmp(i)))?;
    let distance = |a: &Region, b: &Region| b.first.saturating_sub(a.last + 1);
    let pairs = |i: usize| Some((regions.get(i)?, regions.get(i + 1)?));
    let mut lo = m;
    while lo > 0 && pairs(lo - 1).is_some_and(|(a, b)| distance(a, b) <= gap) {
        lo -= 1;
    }
    let mut hi = m;
    while pairs(hi).is_some_and(|(a, b)| distance(a, b) <= gap) {
        hi += 1;
    }
    Some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoothing_is_formula_1() {
        let mut diff = Vec::new();
        smooth(&[5, -1, -10, 4, 4], &mut diff);
        assert_eq!(diff, vec![4, -6, -7, -2, 8]);
        smooth(&[3], &mut diff);
        assert_eq!(diff, vec![3]);
        smooth(&[], &mut diff);
        assert!(diff.is_empty());
    }

    #[test]
    fn regions_are_maximal_positive_runs_weighted_by_characters() {
        let diff = [1, 2, -1, 0, 3, 3, 3, -2, 7];
        let above = [10, 20, 0, 0, 1, 1, 1, 0, 5];
        let mut regions = Vec::new();
        positive_regions(diff.iter().copied(), |i| above[i], &mut regions);
        let r = |first, last, weight| Region {
            first,
            last,
            weight,
        };
        assert_eq!(regions, vec![r(0, 1, 30), r(4, 6, 3), r(8, 8, 5)]);
    }

    #[test]
    fn algorithm_1_chains_neighbours_within_gap() {
        let r = |first, last, weight| Region {
            first,
            last,
            weight,
        };
        // Distances: 0-1: 5 lines, 1-2: 2, 2-3: 30, 3-4: 1.
        let regions = [
            r(0, 9, 50),
            r(15, 20, 10),
            r(23, 40, 900),
            r(71, 80, 60),
            r(82, 90, 5),
        ];
        assert_eq!(select(&regions, 20), Some((0, 2)));
        assert_eq!(select(&regions, 4), Some((1, 2)));
        assert_eq!(select(&regions, 1), Some((2, 2)));
        assert_eq!(select(&regions, 30), Some((0, 4)));
        assert_eq!(select(&[], 20), None);
    }
}
