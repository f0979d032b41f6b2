//! AdDANAg — Mohammadzadeh, Gottron, Schweiggert, Heyer: "The impact of
//! source code normalization on main content extraction" (2012), §3: DANAg
//! after hyperlink normalisation. The attribute part of every `<a …>`
//! opening tag is replaced by `LT - 5` placeholder characters, LT being the
//! length of the anchor text, so link-rich main content (Wikipedia) is not
//! read as code.
//!
//! Done as a counting rule ([`LinkRule::Normalise`]), not by rewriting the
//! page. Deviation: LT counts non-whitespace characters, like every content
//! count in crawlsift.

use super::{danag, Choice, LineDensity};
use crate::density::{LinkRule, Rules};

pub(super) const ADDANAG: LineDensity = LineDensity {
    rules: Rules::papers(LinkRule::Normalise),
    columns: danag::columns,
    choice: Choice::Algorithm1,
};
