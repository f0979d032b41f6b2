//! The baselines of the papers' comparisons (Gottron 2008 §2 and §4,
//! Mohammadzadeh et al. 2011/2012 §2), each reduced to what needs no DOM:
//! the page as tokens or as the core's virtual lines.

pub(super) mod bte;
pub(super) mod cetr;
pub(super) mod density;
pub(super) mod dsc;
pub(super) mod plain;
