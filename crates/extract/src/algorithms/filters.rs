//! DANAg with the pre-processing Filters 1 and 2 of Mohammadzadeh et al.
//! (WEBIST 2014), so that paper's comparison can be rerun (Filter 3 is
//! AdDANAg):
//! - Filter 1 removes hyperlinks with their anchor text: links count as
//!   nothing and their text is left out of the output;
//! - Filter 2 removes all attributes of anchor tags: `<a …>` counts as `<a>`.

use super::{danag, Choice, LineDensity};
use crate::density::{LinkRule, Rules};

pub(super) const FILTER_1: LineDensity = LineDensity {
    rules: Rules::papers(LinkRule::DropLinks),
    columns: danag::columns,
    choice: Choice::Algorithm1,
};

pub(super) const FILTER_2: LineDensity = LineDensity {
    rules: Rules::papers(LinkRule::DropAttributes),
    columns: danag::columns,
    choice: Choice::Algorithm1,
};
