//! Zero-copy access to a WARC header block.

use std::borrow::Cow;

/// The header lines of one record (between the version line and the blank
/// line), looked up by name on demand: records have a dozen headers and
/// callers read a handful, so no map is built.
#[derive(Debug, Clone, Copy)]
pub struct Headers<'a> {
    raw: &'a [u8],
}

impl<'a> Headers<'a> {
    /// Headers over `raw`, a record's header lines (CRLF or bare LF).
    pub fn new(raw: &'a [u8]) -> Self {
        Headers { raw }
    }

    /// `(name, value)` byte pairs, values trimmed; lines without `:` are skipped.
    pub fn iter(&self) -> impl Iterator<Item = (&'a [u8], &'a [u8])> + 'a {
        self.raw.split(|&b| b == b'\n').filter_map(|line| {
            let colon = memchr::memchr(b':', line)?;
            let (name, value) = (line.get(..colon)?, line.get(colon + 1..)?);
            Some((name.trim_ascii(), value.trim_ascii()))
        })
    }

    /// The raw value of the first header called `name` (case-insensitive).
    pub fn get_raw(&self, name: &str) -> Option<&'a [u8]> {
        self.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name.as_bytes()))
            .map(|(_, v)| v)
    }

    /// The value of header `name`, invalid UTF-8 replaced.
    pub fn get(&self, name: &str) -> Option<Cow<'a, str>> {
        self.get_raw(name).map(String::from_utf8_lossy)
    }

    /// `WARC-Type`, e.g. `response`.
    pub fn warc_type(&self) -> Option<Cow<'a, str>> {
        self.get("WARC-Type")
    }

    /// `WARC-Target-URI` without the `<…>` some writers put around it.
    pub fn target_uri(&self) -> Option<Cow<'a, str>> {
        let raw = self.get_raw("WARC-Target-URI")?;
        let raw = raw
            .strip_prefix(b"<")
            .and_then(|r| r.strip_suffix(b">"))
            .unwrap_or(raw);
        Some(String::from_utf8_lossy(raw))
    }

    /// `WARC-Record-ID`, e.g. `<urn:uuid:…>`.
    pub fn record_id(&self) -> Option<Cow<'a, str>> {
        self.get("WARC-Record-ID")
    }

    /// `WARC-Date`, e.g. `2024-01-31T12:00:00Z`.
    pub fn date(&self) -> Option<Cow<'a, str>> {
        self.get("WARC-Date")
    }

    /// `Content-Type` of the block, e.g. `application/http; msgtype=response`.
    pub fn content_type(&self) -> Option<Cow<'a, str>> {
        self.get("Content-Type")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_is_case_insensitive_and_handles_lf_and_crlf() {
        let h = Headers::new(b"WARC-Type: response\r\ncontent-length:12\nWARC-Target-URI: <http://a b/>\r\nbroken line\r\n");
        assert_eq!(h.warc_type().as_deref(), Some("response"));
        assert_eq!(h.get("Content-Length").as_deref(), Some("12"));
        assert_eq!(h.target_uri().as_deref(), Some("http://a b/"));
        assert_eq!(h.get("missing"), None);
        assert_eq!(h.iter().count(), 3);
    }
}
