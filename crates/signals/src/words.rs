//! Word and character classes shared by the rule sets.
//!
//! The published filters (datatrove's `GopherQualityFilter`,
//! `GopherRepetitionFilter`, `C4QualityFilter`, `FineWebQualityFilter`)
//! count words as spaCy's English tokenizer splits them (datatrove's
//! `split_into_words`, punctuation tokens included). crawlsift splits at the
//! Unicode word boundaries of UAX #29 (`unicode-segmentation`), keeps every
//! non-space segment as a token (so punctuation marks count as words, as in
//! spaCy), and adds the two spaCy rules that change counts on English text:
//! a run of full stops (`...`) is one token, and the clitics `n't`, `'s`,
//! `'m`, `'d`, `'re`, `'ve`, `'ll` are split off their word (`don't` → `do`
//! `n't`); a joint UAX #29 breaks and spaCy keeps is glued back (`GLP-1`,
//! `5–10`, `and/or`, the final stop of `U.S.`, `e.g.`, `J.`; see
//! `Words::glue`). Scripts written without spaces follow UAX #29: every Han
//! ideograph and every kana is a word of its own (datatrove segments Chinese
//! with jieba and Japanese with SudachiPy, which give words of one to three
//! characters); Thai, Lao, Khmer and Burmese runs stay whole, as UAX #29 has
//! no dictionary.
//!
//! Character classes come from the Unicode tables of `regex-syntax`, so
//! they follow the Unicode version of that crate; Python's `str.isalpha`
//! (general category L) and `str.isspace` are matched by `is_alpha` and
//! `is_py_space`.

use crate::stop_words;
use regex_syntax::hir::{Class, HirKind};
use std::sync::OnceLock;
use unicode_segmentation::UnicodeSegmentation;

mod ascii;
mod chars;
mod hashes;
mod segment;
mod simple;
mod splitlines;
mod tokens;

pub(crate) use ascii::*;
pub(crate) use chars::*;
pub(crate) use hashes::*;
#[cfg(test)]
pub(crate) use segment::words;
pub(crate) use segment::*;
pub(crate) use simple::*;
pub(crate) use splitlines::*;
pub(crate) use tokens::*;
#[cfg(test)]
mod tests;
