//! DANAg — Mohammadzadeh et al., the language-independent generalisation of
//! DANA (as described in "The impact of source code normalization on main
//! content extraction", §3): above the axis, `T_i`, the content characters of
//! line `i` (text outside markup); below, `S_i`, its code characters
//! (markup). Smoothing, regions and Algorithm 1 as in DANA.
//!
//! Scripts, styles and comments count as nothing, and lines are normalised
//! (the paper's two pre-processing steps); see [`crate::density::scan`].

use super::{Choice, LineDensity};
use crate::density::{Line, LinkRule, Rules};

pub(super) const DANAG: LineDensity = LineDensity {
    rules: Rules::papers(LinkRule::Keep),
    columns,
    choice: Choice::Algorithm1,
};

/// Content above the axis, code below: shared by DANAg, AdDANAg and the
/// Filter variants, which differ only in how links are counted.
pub(super) fn columns(line: &Line) -> (u32, u32) {
    (line.content, line.code)
}
