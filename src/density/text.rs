//! Text out: the readable text of a byte range of the page.
//!
//! The papers feed the chosen lines to "a parser"; dana walks them with the
//! same tag recogniser as the counting pass: markup removed, dropped elements
//! (scripts, styles, comments, …) skipped, entities decoded with the full
//! HTML5 table (`html-escape`), whitespace collapsed, block-level boundaries
//! turned into newlines and table cells into spaces, so the output reads as
//! paragraphs.

use super::scan::{LinkRule, Rules};
use super::tags::{self, Markup, TagClass};
use memchr::memchr;

/// Bytes that are, or may start, a whitespace character: ASCII whitespace
/// (with vertical tab) and the UTF-8 lead bytes of the Unicode spaces.
static MAY_BE_SPACE: [bool; 256] = super::byte_set(&[
    b'\t', b'\n', 0x0B, 0x0C, b'\r', b' ', 0xC2, 0xE1, 0xE2, 0xE3,
]);

/// What separates the next word from the text written so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Pending {
    Nothing,
    Space,
    Newline,
}

/// Collects collapsed text into a `String`, reusing an entity buffer.
pub struct TextSink<'a> {
    out: &'a mut String,
    entities: &'a mut String,
    pending: Pending,
}

impl<'a> TextSink<'a> {
    /// A sink appending to `out` (cleared first).
    pub fn new(out: &'a mut String, entities: &'a mut String) -> Self {
        out.clear();
        TextSink {
            out,
            entities,
            pending: Pending::Nothing,
        }
    }

    /// Appends the text of `html[start..end]` read with the counting pass's
    /// `rules` (Filter 1 leaves anchor text out).
    pub fn append_html(&mut self, html: &str, start: usize, end: usize, rules: Rules) {
        let bytes = html.as_bytes();
        let end = end.min(bytes.len());
        let drop_links = rules.links == LinkRule::DropLinks;
        let mut pos = start;
        let mut in_link = false;
        while pos < end {
            let next = bytes
                .get(pos..end)
                .and_then(|b| memchr(b'<', b))
                .map_or(end, |i| pos + i);
            if !in_link {
                self.append_text(html.get(pos..next).unwrap_or_default());
            }
            if next >= end {
                break;
            }
            let Some(tag) = tags::parse(bytes, next, rules.cleaning) else {
                if !in_link {
                    self.append_text("<");
                }
                pos = next + 1;
                continue;
            };
            if let Markup::Element { class, closing, .. } = tag.markup {
                match class {
                    TagClass::Block(_) => self.separate(Pending::Newline),
                    TagClass::Cell => self.separate(Pending::Space),
                    TagClass::Anchor if drop_links => in_link = !closing,
                    _ => {}
                }
            }
            pos = tag.end;
        }
    }

    /// Starts a new paragraph (if anything was written).
    pub fn paragraph(&mut self) {
        self.separate(Pending::Newline);
    }

    /// Appends text with character references, collapsing whitespace.
    pub fn append_text(&mut self, text: &str) {
        if text.contains('&') {
            self.entities.clear();
            html_escape::decode_html_entities_to_string(text, self.entities);
            let decoded = std::mem::take(self.entities);
            self.append_plain(&decoded);
            *self.entities = decoded;
        } else {
            self.append_plain(text);
        }
    }

    /// Writes the words of `text`, whitespace runs collapsed, in spans of
    /// words separated by single spaces. Word bytes are skipped with a table
    /// lookup; only characters whose UTF-8 lead byte a Unicode space has
    /// (U+0085, U+00A0, U+1680, U+2000–U+205F, U+3000: `C2`, `E1`, `E2`,
    /// `E3`) are decoded, so Cyrillic, Greek or most CJK text never is.
    fn append_plain(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut word_start = 0;
        let mut pos = 0;
        while let Some(skip) = bytes
            .get(pos..)
            .and_then(|rest| rest.iter().position(|&b| MAY_BE_SPACE[usize::from(b)]))
        {
            pos += skip;
            let (space, width) = match bytes.get(pos) {
                // A single space between two words stays inside the span
                // written at once: whitespace already collapsed costs nothing.
                Some(b' ')
                    if pos > word_start
                        && bytes
                            .get(pos + 1)
                            .is_some_and(|&n| !MAY_BE_SPACE[usize::from(n)]) =>
                {
                    (false, 1)
                }
                Some(&b) if b.is_ascii() => (true, 1),
                _ => {
                    let c = text
                        .get(pos..)
                        .and_then(|t| t.chars().next())
                        .unwrap_or(' ');
                    (c.is_whitespace(), c.len_utf8())
                }
            };
            if space {
                self.word(text.get(word_start..pos).unwrap_or_default());
                self.separate(Pending::Space);
                word_start = pos + width;
            }
            pos += width;
        }
        self.word(text.get(word_start..).unwrap_or_default());
    }

    fn word(&mut self, word: &str) {
        if word.is_empty() {
            return;
        }
        if !self.out.is_empty() {
            match self.pending {
                Pending::Nothing => {}
                Pending::Space => self.out.push(' '),
                Pending::Newline => self.out.push('\n'),
            }
        }
        self.pending = Pending::Nothing;
        self.out.push_str(word);
    }

    fn separate(&mut self, sep: Pending) {
        self.pending = self.pending.max(sep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(html: &str, drop_links: bool) -> String {
        let links = if drop_links {
            LinkRule::DropLinks
        } else {
            LinkRule::Keep
        };
        let (mut out, mut buf) = (String::new(), String::new());
        TextSink::new(&mut out, &mut buf).append_html(html, 0, html.len(), Rules::papers(links));
        out
    }

    #[test]
    fn blocks_become_lines_and_whitespace_collapses() {
        let html = "<div>\n  <h1>Title</h1><p>One <b>bold</b>\n word.</p><p>Two</p><br>x</div>";
        assert_eq!(text(html, false), "Title\nOne bold word.\nTwo\nx");
    }

    #[test]
    fn decodes_named_and_numeric_entities() {
        let html =
            "<p>caf&eacute; &amp; &#20013;&#x6587; &lt;tag&gt; &hellip;&nbsp;end &bogus;</p>";
        assert_eq!(text(html, false), "café & 中文 <tag> … end &bogus;");
    }

    #[test]
    fn skips_scripts_and_comments_and_cells_are_spaces() {
        let html = "<table><tr><td>a</td><td>b</td></tr></table><script>x<y</script><!--c-->d";
        assert_eq!(text(html, false), "a b\nd");
    }

    #[test]
    fn filter_1_drops_anchor_text() {
        let html = r#"<p>Read <a href="/x">this link</a> now</p>"#;
        assert_eq!(text(html, false), "Read this link now");
        assert_eq!(text(html, true), "Read now");
    }

    #[test]
    fn unicode_spaces_separate_words() {
        let html = "<p>a\u{a0}b\u{3000}c\u{2003}\u{2003}d\u{85}e\u{b}f 中文\u{feff}x</p>";
        assert_eq!(text(html, false), "a b c d e f 中文\u{feff}x");
    }

    #[test]
    fn lone_lt_is_kept() {
        assert_eq!(text("<p>1 < 2</p>", false), "1 < 2");
    }
}
