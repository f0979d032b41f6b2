//! A small tag walker for the metadata: the tags of a bounded stretch of
//! the page with their attributes, comments and the contents of scripts and
//! styles skipped. It reads only what metadata needs (names and attribute
//! values), so it is kept apart from the density core's tag recogniser,
//! which classifies tags for the line profile and never reads attributes.
//!
//! Every step moves forward: a walk is linear in the stretch it reads.

use memchr::{memchr, memchr3, memmem};

/// One start or end tag.
#[derive(Clone, Copy, Debug)]
pub struct Tag<'a> {
    /// The tag name as written (compare with `eq_ignore_ascii_case`).
    pub name: &'a str,
    /// `</name>`.
    pub closing: bool,
    /// The attribute text, between the name and `>`.
    pub attributes: &'a str,
    /// Where the tag starts (its `<`).
    pub start: usize,
    /// Just past its `>`.
    pub end: usize,
}

impl<'a> Tag<'a> {
    /// The start tag `html[start..end]` (from its `<` to just past its
    /// `>`, as the counting pass found it), its attributes read within
    /// those bounds only; `None` when it is no start tag.
    pub fn at(html: &'a str, start: usize, end: usize) -> Option<Tag<'a>> {
        let bytes = html.as_bytes();
        let name_start = start + 1;
        let name_len = bytes
            .get(name_start..end)?
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b':' | b'_'))
            .count();
        let attributes_start = name_start + name_len;
        let attributes_end = if bytes.get(end - 1) == Some(&b'>') {
            end - 1
        } else {
            end
        };
        (name_len > 0).then(|| Tag {
            name: html.get(name_start..attributes_start).unwrap_or_default(),
            closing: false,
            attributes: html
                .get(attributes_start..attributes_end.max(attributes_start))
                .unwrap_or_default(),
            start,
            end,
        })
    }

    /// Whether the tag is named `name` (ASCII lowercase).
    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }

    /// The `(name, raw value)` pairs of the tag's attributes, in order.
    pub fn attributes(&self) -> impl Iterator<Item = (&'a str, &'a str)> {
        Attributes(self.attributes)
    }

    /// The raw value of the first attribute named `name` (ASCII
    /// lowercase), entities not decoded; `Some("")` for a bare attribute.
    pub fn attribute(&self, name: &str) -> Option<&'a str> {
        Attributes(self.attributes)
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    }
}

/// The `name=value` pairs of a tag's attribute text.
struct Attributes<'a>(&'a str);

impl<'a> Iterator for Attributes<'a> {
    type Item = (&'a str, &'a str);
    fn next(&mut self) -> Option<Self::Item> {
        // Byte by byte: every byte looked for is ASCII, so every cut is
        // at a character boundary.
        let bytes = self.0.as_bytes();
        let start = bytes
            .iter()
            .position(|&b| !(b.is_ascii_whitespace() || b == b'/'))?;
        let text = &bytes[start..];
        let name_end = text
            .iter()
            .position(|&b| b.is_ascii_whitespace() || b == b'=' || b == b'/')
            .unwrap_or(text.len())
            .max(1)
            .min(text.len());
        let name_end = start + name_end;
        let name = self.0.get(start..name_end).unwrap_or_default();
        let mut at = name_end;
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        if bytes.get(at) != Some(&b'=') {
            self.0 = self.0.get(at..).unwrap_or_default();
            return Some((name, ""));
        }
        at += 1;
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        let (value, after) = match bytes.get(at) {
            Some(&quote @ (b'"' | b'\'')) => match memchr(quote, &bytes[at + 1..]) {
                Some(end) => (at + 1..at + 1 + end, at + 1 + end + 1),
                None => (at + 1..bytes.len(), bytes.len()),
            },
            _ => {
                let end = bytes[at..]
                    .iter()
                    .position(u8::is_ascii_whitespace)
                    .map_or(bytes.len(), |end| at + end);
                (at..end, end)
            }
        };
        let value = self.0.get(value).unwrap_or_default();
        self.0 = self.0.get(after..).unwrap_or_default();
        Some((name, value))
    }
}

/// The tags of `html[from..limit]`, in order. A tag that starts before
/// `limit` may end after it; a comment or script not closed before `limit`
/// ends the walk.
pub struct Walk<'a> {
    html: &'a str,
    pos: usize,
    limit: usize,
}

impl<'a> Walk<'a> {
    /// A walk over `html[from..limit]` (`limit` clamped to the page).
    pub fn new(html: &'a str, from: usize, limit: usize) -> Self {
        Walk {
            html,
            pos: from,
            limit: limit.min(html.len()),
        }
    }

    /// Where the walk is: the next tag is looked for from here.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Skips to the end tag `</name` (for a script's or style's content);
    /// ends the walk when it is not there before the limit.
    pub fn skip_content(&mut self, name: &str) {
        let bytes = &self.html.as_bytes()[..self.limit];
        let mut at = self.pos;
        while let Some(found) = memmem::find(&bytes[at.min(bytes.len())..], b"</") {
            let start = at + found;
            let after = &bytes[start + 2..];
            if after.len() >= name.len()
                && after[..name.len()].eq_ignore_ascii_case(name.as_bytes())
            {
                self.pos = start;
                return;
            }
            at = start + 2;
        }
        self.pos = self.limit;
    }
}

impl<'a> Iterator for Walk<'a> {
    type Item = Tag<'a>;
    fn next(&mut self) -> Option<Tag<'a>> {
        let bytes = self.html.as_bytes();
        loop {
            if self.pos >= self.limit {
                return None;
            }
            let start = self.pos + memchr(b'<', &bytes[self.pos..self.limit])?;
            let rest = &bytes[start + 1..];
            match rest.first() {
                Some(b'!') => {
                    self.pos = if rest.starts_with(b"!--") {
                        match memmem::find(
                            bytes.get(start + 4..self.limit).unwrap_or_default(),
                            b"-->",
                        ) {
                            Some(end) => start + 4 + end + 3,
                            None => self.limit,
                        }
                    } else {
                        match memchr(b'>', &bytes[start..self.limit]) {
                            Some(end) => start + end + 1,
                            None => self.limit,
                        }
                    };
                    continue;
                }
                Some(b'/') | Some(b'a'..=b'z') | Some(b'A'..=b'Z') => {}
                _ => {
                    self.pos = start + 1;
                    continue;
                }
            }
            let closing = rest.first() == Some(&b'/');
            let name_start = start + 1 + usize::from(closing);
            let name_len = bytes[name_start..]
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b':' | b'_'))
                .count();
            if name_len == 0 {
                self.pos = start + 1;
                continue;
            }
            let attributes_start = name_start + name_len;
            let Some(end) = tag_end(bytes, attributes_start) else {
                self.pos = self.limit;
                return None;
            };
            self.pos = end;
            return Some(Tag {
                name: self
                    .html
                    .get(name_start..attributes_start)
                    .unwrap_or_default(),
                closing,
                attributes: self.html.get(attributes_start..end - 1).unwrap_or_default(),
                start,
                end,
            });
        }
    }
}

/// Just past the `>` that ends the tag whose attributes start at `from`,
/// over quoted values; `None` when the page ends first.
fn tag_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        let found = at + memchr3(b'>', b'"', b'\'', &bytes[at..])?;
        match bytes[found] {
            b'>' => return Some(found + 1),
            quote => {
                // Only a quote that opens a value (after `=`) is one: a
                // stray quote elsewhere is kept as a character.
                let opens = bytes[from..found]
                    .iter()
                    .rev()
                    .find(|b| !b.is_ascii_whitespace())
                    == Some(&b'=');
                at = if opens {
                    found + 1 + memchr(quote, &bytes[found + 1..])? + 1
                } else {
                    found + 1
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Walk;

    #[test]
    fn tags_and_attributes() {
        let html = r#"<!-- <meta name=x> --><META NAME="author" content='Ann "A" Lee'><link rel=canonical href=https://a.example/x/><p data-x="a>b" class=c>t</p>"#;
        let tags: Vec<_> = Walk::new(html, 0, html.len()).collect();
        assert_eq!(tags.len(), 4);
        assert!(tags[0].is("meta"));
        assert_eq!(tags[0].attribute("name"), Some("author"));
        assert_eq!(tags[0].attribute("content"), Some("Ann \"A\" Lee"));
        assert_eq!(tags[1].attribute("href"), Some("https://a.example/x/"));
        assert_eq!(tags[2].attribute("data-x"), Some("a>b"));
        assert_eq!(tags[2].attribute("class"), Some("c"));
        assert!(tags[3].closing && tags[3].is("p"));
    }

    #[test]
    fn unclosed_quote_or_comment_ends_the_walk() {
        let html = r#"<meta content="never closed><p>text"#;
        assert_eq!(Walk::new(html, 0, html.len()).count(), 0);
        let html = "<p><!-- open";
        assert_eq!(Walk::new(html, 0, html.len()).count(), 1);
    }
}
