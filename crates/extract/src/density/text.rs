//! Text out: the readable text of a byte range of the page.
//!
//! The papers feed the chosen lines to "a parser"; crawlsift walks them with the
//! same tag recogniser as the counting pass: markup removed, dropped elements
//! (scripts, styles, comments, …) skipped, entities decoded with the full
//! HTML5 table (`html-escape`), whitespace collapsed, block-level boundaries
//! turned into newlines and table cells into spaces, so the output reads as
//! paragraphs.

use super::kernel::{self, Baseline, BlockCounter, Isa, TextCounter, Vector, V128};
use super::markdown::Markdown;
use super::scan::{LinkRule, Rules};
use super::tags::{self, Markup, TagClass};
use memchr::memchr;

/// Window of text classified at once by [`space_masks`].
const WINDOW: usize = 64;

/// The masks of up to a window of text (`chunk`, at most [`WINDOW`]
/// bytes): bit `i` of the first set when byte `i` may be or start
/// whitespace ([`may_be_space`]), of the second when it is `' '`. Read 16
/// bytes at a time; a short last lane is built in a register
/// ([`super::padded16`]), as most runs of text are short.
#[inline]
fn space_masks(chunk: &[u8]) -> (u64, u64) {
    chunk
        .chunks(16)
        .enumerate()
        .fold((0, 0), |(may, space), (lane, bytes)| {
            let (m, s) = lane_masks(&super::padded16(bytes, 0));
            (may | m << (16 * lane), space | s << (16 * lane))
        })
}

/// The masks of [`space_masks`] for one 16-byte lane: ASCII whitespace
/// and the lead bytes of the other spaces [`may_be_space`] names.
#[inline]
fn lane_masks(lane: &[u8; 16]) -> (u64, u64) {
    let v = V128::load(Baseline, lane);
    let space = v.eq(b' ');
    let ascii = space | v.in_range(b'\t', 5);
    let lead = v.eq(0xC2) | v.in_range(0xE1, 3);
    (u64::from((ascii | lead).mask()), u64::from(space.mask()))
}

/// [`lane_masks`] one byte at a time: the definition.
#[cfg(test)]
fn lane_masks_scalar(lane: &[u8; 16]) -> (u64, u64) {
    lane.iter()
        .enumerate()
        .fold((0, 0), |(may, space), (i, &b)| {
            (
                may | u64::from(may_be_space(b)) << i,
                space | u64::from(b == b' ') << i,
            )
        })
}

/// What separates the next word from the text written so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Pending {
    Nothing,
    Space,
    Newline,
}

/// Collects collapsed text into a `String`, reusing an entity buffer; and,
/// when given a [`Markdown`] renderer, the Markdown of the same ranges.
pub struct TextSink<'a> {
    out: &'a mut String,
    entities: &'a mut String,
    pending: Pending,
    /// The unclosed elements of the page written from ([`tags::Unclosed`]).
    unclosed: tags::Unclosed,
    markdown: Option<&'a mut Markdown>,
}

impl<'a> TextSink<'a> {
    /// A sink appending to `out` (cleared first).
    pub fn new(out: &'a mut String, entities: &'a mut String) -> Self {
        out.clear();
        TextSink {
            out,
            entities,
            pending: Pending::Nothing,
            unclosed: tags::Unclosed::default(),
            markdown: None,
        }
    }

    /// A sink appending to `out`, and its Markdown to `markdown` (both
    /// cleared first).
    pub fn with_markdown(
        out: &'a mut String,
        entities: &'a mut String,
        markdown: Option<&'a mut Markdown>,
    ) -> Self {
        let mut sink = TextSink::new(out, entities);
        if let Some(markdown) = markdown {
            markdown.clear();
            sink.markdown = Some(markdown);
        }
        sink
    }

    /// The text written so far and the Markdown renderer, if any.
    pub fn written_and_markdown(&mut self) -> (&mut String, Option<&mut Markdown>) {
        (self.out, self.markdown.as_deref_mut())
    }

    /// Appends the text of `html[start..end]` read with the counting pass's
    /// `rules` (Filter 1 leaves anchor text out), with the kernels this CPU
    /// runs best ([`kernel::dispatch`]).
    pub fn append_html(&mut self, html: &str, start: usize, end: usize, rules: Rules) {
        /// The walk as a task for [`kernel::dispatch`].
        struct Append<'s, 'a, 'h> {
            sink: &'s mut TextSink<'a>,
            html: &'h str,
            start: usize,
            end: usize,
            rules: Rules,
        }
        impl kernel::Task for Append<'_, '_, '_> {
            type Output = ();
            #[inline(always)]
            fn run<I: Isa>(self, isa: I) {
                let Append {
                    sink,
                    html,
                    start,
                    end,
                    rules,
                } = self;
                if sink.markdown.is_some() {
                    sink.append_html_with::<I, true>(html, start, end, rules, isa);
                } else {
                    sink.append_html_with::<I, false>(html, start, end, rules, isa);
                }
            }
        }
        kernel::dispatch(Append {
            sink: self,
            html,
            start,
            end,
            rules,
        });
    }

    /// [`Self::append_html`] with `isa`'s kernels; with `MARKDOWN`, each
    /// text run (entities decoded once) and each tag are given to the
    /// Markdown renderer too. The text-only walk is compiled without it.
    #[inline(always)]
    fn append_html_with<I: Isa, const MARKDOWN: bool>(
        &mut self,
        html: &str,
        start: usize,
        end: usize,
        rules: Rules,
        isa: I,
    ) {
        let bytes = html.as_bytes();
        let end = end.min(bytes.len());
        let drop_links = rules.links == LinkRule::DropLinks;
        let mut pos = start;
        let mut in_link = false;
        let mut unclosed = *self.unclosed.for_page(bytes);
        while pos < end {
            // The next `<` found as the counting pass finds it: the
            // kernel's block masks, 64 bytes a step from `pos`.
            let next = BlockCounter(isa).text_run(bytes, pos).end.min(end);
            if !in_link {
                self.append_run::<MARKDOWN>(html.get(pos..next).unwrap_or_default());
            }
            if next >= end {
                break;
            }
            let Some(tag) = tags::parse_in(bytes, next, rules.cleaning, isa, &mut unclosed) else {
                if !in_link {
                    self.append_run::<MARKDOWN>("<");
                }
                pos = next + 1;
                continue;
            };
            if MARKDOWN {
                let anchor = matches!(
                    tag.markup,
                    Markup::Element {
                        class: TagClass::Anchor,
                        ..
                    }
                );
                if !in_link || anchor {
                    if let Some(markdown) = self.markdown.as_deref_mut() {
                        markdown.markup(html, next, &tag);
                    }
                }
            }
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
        self.unclosed = unclosed;
    }

    /// The text written so far.
    pub fn written(&self) -> &str {
        self.out
    }

    /// The text written so far, to be edited in place (paragraphs left
    /// out after the choice of lines).
    pub fn written_mut(&mut self) -> &mut String {
        self.out
    }

    /// Forgets everything written so far.
    pub fn clear(&mut self) {
        self.out.clear();
        self.pending = Pending::Nothing;
        if let Some(markdown) = self.markdown.as_deref_mut() {
            markdown.clear();
        }
    }

    /// Starts a new paragraph (if anything was written).
    pub fn paragraph(&mut self) {
        self.separate(Pending::Newline);
        if let Some(markdown) = self.markdown.as_deref_mut() {
            markdown.paragraph();
        }
    }

    /// Separates the next word from the text written so far by at least a
    /// space.
    pub fn space(&mut self) {
        self.separate(Pending::Space);
        if let Some(markdown) = self.markdown.as_deref_mut() {
            markdown.space();
        }
    }

    /// Appends text with character references, collapsing whitespace.
    pub fn append_text(&mut self, text: &str) {
        self.append_run::<false>(text);
    }

    /// [`Self::append_text`]; with `MARKDOWN`, the decoded text is given to
    /// the Markdown renderer too.
    #[inline(always)]
    fn append_run<const MARKDOWN: bool>(&mut self, text: &str) {
        if memchr(b'&', text.as_bytes()).is_some() {
            self.entities.clear();
            html_escape::decode_html_entities_to_string(text, self.entities);
            let decoded = std::mem::take(self.entities);
            self.append_decoded::<MARKDOWN>(&decoded);
            *self.entities = decoded;
        } else {
            self.append_decoded::<MARKDOWN>(text);
        }
    }

    /// Writes decoded text to the plain text (and to the Markdown). The
    /// words of the plain text are the Markdown's words: when the Markdown
    /// takes words, they are given to it as they are written, so the text
    /// is split at whitespace once for both renderings.
    #[inline(always)]
    fn append_decoded<const MARKDOWN: bool>(&mut self, text: &str) {
        if MARKDOWN {
            match self.markdown.as_deref().map(Markdown::takes_words) {
                Some(true) => return self.append_plain::<true>(text),
                Some(false) => {
                    self.append_plain::<false>(text);
                    if let Some(markdown) = self.markdown.as_deref_mut() {
                        markdown.text(text);
                    }
                    return;
                }
                None => {}
            }
        }
        self.append_plain::<false>(text);
    }

    /// Writes the words of `text`, whitespace runs collapsed, in spans of
    /// words separated by single spaces. The text is classified 64 bytes at
    /// a time ([`space_masks`]); only the bytes that may be whitespace are
    /// looked at, and of those not a single `' '` between two bytes that
    /// cannot be: it stays inside the span written at once, so collapsed
    /// text costs no branch per word. With `WORDS`, each span and each
    /// separation is given to the Markdown renderer too. Only characters whose UTF-8 lead byte
    /// a Unicode space has (U+0085, U+00A0, U+1680, U+2000–U+205F, U+3000:
    /// `C2`, `E1`, `E2`, `E3`) are decoded, so Cyrillic, Greek or most CJK
    /// text never is.
    fn append_plain<const WORDS: bool>(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut word_start = 0;
        for (index, chunk) in bytes.chunks(WINDOW).enumerate() {
            let base = index * WINDOW;
            let (may, space) = space_masks(chunk);
            // A `' '` with no possible whitespace on either side, known
            // within the window (its first and last byte are looked at).
            let inner = !(1 | 1 << (chunk.len() - 1));
            let single = space & !(may << 1) & !(may >> 1) & inner;
            let mut candidates = may & !single;
            while candidates != 0 {
                let pos = base + candidates.trailing_zeros() as usize;
                candidates &= candidates - 1;
                if pos < word_start {
                    continue; // inside whitespace already read
                }
                let (is_space, width) = match bytes.get(pos) {
                    // Between two words: stays in the span.
                    Some(b' ')
                        if pos > word_start
                            && bytes.get(pos + 1).is_some_and(|&n| !may_be_space(n)) =>
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
                if is_space {
                    self.word::<WORDS>(text.get(word_start..pos).unwrap_or_default());
                    self.separate(Pending::Space);
                    if WORDS {
                        if let Some(markdown) = self.markdown.as_deref_mut() {
                            markdown.space();
                        }
                    }
                    word_start = pos + width;
                    // Spaces after a multi-byte space follow a byte that
                    // cannot be whitespace, so they may not be candidates.
                    while bytes.get(word_start) == Some(&b' ') {
                        word_start += 1;
                    }
                }
            }
        }
        self.word::<WORDS>(text.get(word_start..).unwrap_or_default());
    }

    /// Writes a span of words; with `WORDS`, to the Markdown too.
    fn word<const WORDS: bool>(&mut self, word: &str) {
        if word.is_empty() {
            return;
        }
        if !self.out.is_empty() {
            match self.pending {
                Pending::Nothing => {}
                Pending::Space => self.out.push(' '),
                Pending::Newline => {
                    self.out.push('\n');
                    if let Some(markdown) = self.markdown.as_deref_mut() {
                        markdown.mark();
                    }
                }
            }
        }
        self.pending = Pending::Nothing;
        self.out.push_str(word);
        if WORDS {
            if let Some(markdown) = self.markdown.as_deref_mut() {
                markdown.words(word);
            }
        }
    }

    fn separate(&mut self, sep: Pending) {
        self.pending = self.pending.max(sep);
    }
}

/// Whether `b` is, or may start, a whitespace character: ASCII whitespace
/// (with vertical tab) and the UTF-8 lead bytes of the Unicode spaces.
fn may_be_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ' | 0xC2 | 0xE1..=0xE3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn space_masks_equal_scalar(chunk in proptest::collection::vec(any::<u8>(), 0..=WINDOW)) {
            let byte_at_a_time = chunk.iter().enumerate().fold((0, 0), |(may, space), (i, &b)| {
                (may | u64::from(may_be_space(b)) << i, space | u64::from(b == b' ') << i)
            });
            prop_assert_eq!(space_masks(&chunk), byte_at_a_time);
            for lane in chunk.chunks_exact(16) {
                let lane: &[u8; 16] = bytemuck::from_bytes(lane);
                prop_assert_eq!(lane_masks(lane), lane_masks_scalar(lane));
            }
        }

        #[test]
        fn collapses_as_a_byte_loop_would(text in "([a-z]{1,5}|[ \t\n\u{a0}\u{85}\u{3000}\u{2003}\u{feff}é中]){0,120}") {
            let (mut out, mut buf) = (String::new(), String::new());
            TextSink::new(&mut out, &mut buf).append_plain::<false>(&text);
            let words: Vec<&str> = text.split(char::is_whitespace).filter(|w| !w.is_empty()).collect();
            prop_assert_eq!(out, words.join(" "));
        }
    }

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
