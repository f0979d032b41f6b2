//! The shared line-density core.
