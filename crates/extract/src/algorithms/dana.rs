//! DANA — Mohammadzadeh, Gottron, Schweiggert, Nakhaeizadeh: "A fast and
//! accurate approach for main content extraction based on character encoding"
//! (DEXA 2011), §IV, formula (1) and Algorithm 1.
//!
//! Above the axis, `T1_i`: the non-ASCII characters of line `i`; below,
//! `T2_i`: its ASCII characters, text and markup. Deviations, and why:
//! - characters, not bytes: a UTF-8 lead byte counts one character, so a CJK
//!   character (3 bytes) weighs as much as an Arabic one (2 bytes);
//! - pages in single-byte legacy encodings (windows-1251, ISO-8859-6, …) are
//!   decoded to UTF-8 first, so Cyrillic or Arabic text counts as non-ASCII
//!   whatever its original encoding;
//! - whitespace does not count (line wrapping would otherwise change the
//!   result), and lines are the virtual lines of [`crate::density::scan`].
//!
//! As the paper says, DANA is meant for non-Latin scripts: on a Latin-script
//! page there is no non-ASCII text to find and it extracts little or nothing.

use super::{Choice, LineDensity};
use crate::density::{Line, LinkRule, Rules};

pub(super) const DANA: LineDensity = LineDensity {
    rules: Rules::papers(LinkRule::Keep),
    columns,
    choice: Choice::Algorithm1,
};

fn columns(line: &Line) -> (u32, u32) {
    let ascii_text = line.content.saturating_sub(line.non_ascii);
    (line.non_ascii, ascii_text.saturating_add(line.code))
}
