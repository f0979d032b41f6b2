//! Finding the encoding of a page and decoding it to UTF-8.
