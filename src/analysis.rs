//! What a run computes from each extracted text besides its language, and
//! which pages it drops: the options both the pipeline (which computes) and
//! the resume records (which compare runs) read.

/// The analysis of each extracted text ([`crate::signals`]): the language
/// always; the rest when asked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SignalOptions {
    /// Leave the language out (`--no-lang`): the identifier does not run
    /// (about 4–5 % of the CPU of a plain extraction, PERF.md §11), `lang` is
    /// null and `lang_score` 0 on every page.
    pub no_lang: bool,
    /// Write `signals`, `filters` and `exact_key` (`--signals`).
    pub signals: bool,
    /// Write `minhash` (`--minhash`).
    pub minhash: bool,
    /// Drop pages that fail any of these rule sets (`--filter`), counted as
    /// skipped under `filter:<rule set>:<rule>`.
    pub filter: Vec<crate::signals::RuleSet>,
}
