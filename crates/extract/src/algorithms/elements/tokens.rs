//! The token walk the element-sequence algorithms share, and writing the
//! chosen elements as text.
//!
//! A *token* is a tag (recognised by [`tags::parse`]; dropped elements such
//! as scripts, styles and comments give no token) or a word: a run of text
//! bytes between ASCII whitespace. A word made only of `&nbsp;` is no word
//! (the core counts it as whitespace too).

use crate::density::kernel::{self, is_content_byte, Isa};
use crate::density::scan::MAX_PAGE;
use crate::density::tags::{self, Markup, TagClass};
use crate::density::text::TextSink;
use crate::density::{Cleaning, LinkRule, Rules};
use memchr::memchr;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    Word,
    Tag,
    /// An `<a>` or `</a>` tag (ACCB leaves these out of its vector).
    Anchor,
}

/// One token: its byte range in the page (offsets in `u32`, as the
/// counting pass's lines: 12 bytes a token, and a page of tags has one
/// every few bytes) and its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub start: u32,
    pub end: u32,
    pub kind: TokenKind,
}

impl Token {
    pub fn is_word(&self) -> bool {
        self.kind == TokenKind::Word
    }
}

/// Splits `html` into tokens (into `out`, cleared first); returns the byte
/// range of the first `<title>`'s text. Tags are read with the kernels this
/// CPU runs best ([`kernel::dispatch`]).
pub(crate) fn tokenize(html: &str, out: &mut Vec<Token>) -> Option<(usize, usize)> {
    /// [`tokenize_with`] as a task for [`kernel::dispatch`].
    struct Tokenize<'h, 'o> {
        html: &'h str,
        out: &'o mut Vec<Token>,
    }
    impl kernel::Task for Tokenize<'_, '_> {
        type Output = Option<(usize, usize)>;
        #[inline(always)]
        fn run<I: Isa>(self, isa: I) -> Self::Output {
            tokenize_with(self.html, self.out, isa)
        }
    }
    kernel::dispatch(Tokenize { html, out })
}

/// [`tokenize`] with `isa`'s kernels.
#[inline(always)]
fn tokenize_with<I: Isa>(html: &str, out: &mut Vec<Token>, isa: I) -> Option<(usize, usize)> {
    out.clear();
    // Bytes past `MAX_PAGE` are ignored, as by the counting pass.
    let bytes = html.as_bytes();
    let bytes = bytes.get(..bytes.len().min(MAX_PAGE)).unwrap_or_default();
    let mut title = None;
    let (mut pos, mut search) = (0, 0);
    let mut unclosed = tags::Unclosed::new(bytes);
    loop {
        let lt = bytes
            .get(search..)
            .and_then(|b| memchr(b'<', b))
            .map_or(bytes.len(), |i| search + i);
        if lt >= bytes.len() {
            push_words(bytes, pos, bytes.len(), out);
            return title;
        }
        // A `<` that starts no markup is text, part of the run.
        let Some(tag) = tags::parse_in(bytes, lt, Cleaning::Papers, isa, &mut unclosed) else {
            search = lt + 1;
            continue;
        };
        push_words(bytes, pos, lt, out);
        match tag.markup {
            Markup::Dropped { title: t } => title = title.or(t),
            Markup::Element { class, .. } => {
                let kind = if class == TagClass::Anchor {
                    TokenKind::Anchor
                } else {
                    TokenKind::Tag
                };
                out.push(Token {
                    start: lt as u32,
                    end: tag.end as u32,
                    kind,
                });
            }
        }
        pos = tag.end;
        search = tag.end;
    }
}

fn push_words(html: &[u8], start: usize, end: usize, out: &mut Vec<Token>) {
    let Some(run) = html.get(start..end) else {
        return;
    };
    let mut push = |s: usize, e: usize| {
        if !run.get(s..e).is_some_and(is_blank_entities) {
            out.push(Token {
                start: (start + s) as u32,
                end: (start + e) as u32,
                kind: TokenKind::Word,
            });
        }
    };
    let mut word_start = None;
    for (i, b) in run.iter().enumerate() {
        match (b.is_ascii_whitespace(), word_start) {
            (true, Some(s)) => {
                push(s, i);
                word_start = None;
            }
            (false, None) => word_start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = word_start {
        push(s, run.len());
    }
}

/// Whether a word is only non-breaking spaces written as entities.
fn is_blank_entities(mut word: &[u8]) -> bool {
    const NBSP: [&[u8]; 3] = [b"&nbsp;", b"&#160;", b"&#xa0;"];
    while !word.is_empty() {
        let Some(n) = NBSP.iter().find(|n| {
            word.get(..n.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(n))
        }) else {
            return false;
        };
        word = word.get(n.len()..).unwrap_or_default();
    }
    true
}

/// Characters of a byte range that count: non-whitespace characters (a
/// UTF-8 sequence counts once), as in the line-density core.
pub(crate) fn chars(html: &str, token: &Token) -> usize {
    html.as_bytes()
        .get(token.start as usize..token.end as usize)
        .map_or(0, |b| b.iter().filter(|&&b| is_content_byte(b)).count())
}

/// Writes the chosen words: each maximal run of chosen words (with the tags
/// between them, for block breaks) goes through `sink`, runs separated by a
/// paragraph break. Unchosen tags do not break a run. Returns the run count.
pub(crate) fn write_words(
    html: &str,
    tokens: &[Token],
    mut chosen: impl FnMut(usize, &Token) -> bool,
    sink: &mut TextSink,
) -> usize {
    let mut runs = Runs::default();
    for (i, token) in tokens.iter().enumerate() {
        if token.is_word() {
            if chosen(i, token) {
                runs.extend(token.start as usize, token.end as usize);
            } else {
                runs.close(html, sink);
            }
        }
    }
    runs.close(html, sink);
    runs.count
}

/// Writes the chosen virtual lines, consecutive ones as one run.
pub(crate) fn write_lines(
    html: &str,
    lines: &[crate::density::Line],
    chosen: &[bool],
    sink: &mut TextSink,
) -> usize {
    let mut runs = Runs::default();
    for (line, &keep) in lines.iter().zip(chosen) {
        if keep {
            runs.extend(line.start as usize, line.end as usize);
        } else {
            runs.close(html, sink);
        }
    }
    runs.close(html, sink);
    runs.count
}

/// The byte range being collected and how many were written.
#[derive(Default)]
struct Runs {
    open: Option<(usize, usize)>,
    count: usize,
}

impl Runs {
    fn extend(&mut self, start: usize, end: usize) {
        self.open = Some(self.open.map_or((start, end), |(s, _)| (s, end)));
    }

    fn close(&mut self, html: &str, sink: &mut TextSink) {
        if let Some((start, end)) = self.open.take() {
            sink.paragraph();
            sink.append_html(html, start, end, Rules::papers(LinkRule::Keep));
            self.count += 1;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::algorithms::elements::{Kind, Scratch};

    /// Runs `kind` on `html`; returns the text.
    pub fn run(kind: Kind, html: &str) -> String {
        let (mut title, mut text, mut entities) = (String::new(), String::new(), String::new());
        let mut budget = crate::budget::Budget::unlimited();
        Scratch::default()
            .extract(
                kind,
                html,
                &mut title,
                &mut text,
                &mut entities,
                &mut budget,
            )
            .expect("no limit");
        text
    }

    fn kinds(html: &str) -> Vec<(TokenKind, &str)> {
        let mut tokens = Vec::new();
        tokenize(html, &mut tokens);
        tokens
            .iter()
            .map(|t| {
                (
                    t.kind,
                    html.get(t.start as usize..t.end as usize)
                        .unwrap_or_default(),
                )
            })
            .collect()
    }

    #[test]
    fn tokens_are_tags_and_words_without_dropped_markup() {
        use TokenKind::*;
        let html = "<title>T</title><p class=x>Hello  big\nworld <a href=y>1 < 2</a><script>s t</script>&nbsp;&NBSP; x&nbsp;</p>";
        assert_eq!(
            kinds(html),
            vec![
                (Tag, "<p class=x>"),
                (Word, "Hello"),
                (Word, "big"),
                (Word, "world"),
                (Anchor, "<a href=y>"),
                (Word, "1"),
                (Word, "<"),
                (Word, "2"),
                (Anchor, "</a>"),
                (Word, "x&nbsp;"),
                (Tag, "</p>"),
            ]
        );
        assert_eq!(tokenize(html, &mut Vec::new()), Some((7, 8)));
    }

    #[test]
    fn chosen_words_are_written_as_runs_with_block_breaks() {
        let html = "<p>one two</p><p>three</p><div>four five</div>";
        let mut tokens = Vec::new();
        tokenize(html, &mut tokens);
        let (mut out, mut entities) = (String::new(), String::new());
        let mut sink = TextSink::new(&mut out, &mut entities);
        let runs = write_words(
            html,
            &tokens,
            |_, t| html.get(t.start as usize..t.end as usize) != Some("four"),
            &mut sink,
        );
        assert_eq!(runs, 2);
        assert_eq!(out, "one two\nthree\nfive");
    }

    /// The first pages under 15 KB gzipped of every shared dataset,
    /// gunzipped (small ones: the debug build blurs slowly).
    fn real_pages(per_dataset: usize) -> Vec<(String, Vec<u8>)> {
        use std::io::Read;
        let root = crate::test_shared::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets")
            .display()
            .to_string();
        let mut pages = Vec::new();
        for dataset in ["scrapinghub", "wcxb_dev", "daniel_dev", "readability_tests"] {
            let dir = format!("{root}/{dataset}/html");
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{dir}: {e}"))
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.metadata().is_ok_and(|m| m.len() < 15_000))
                .collect();
            files.sort();
            for path in files.into_iter().take(per_dataset) {
                let mut raw = Vec::new();
                flate2::read::MultiGzDecoder::new(std::fs::File::open(&path).unwrap())
                    .read_to_end(&mut raw)
                    .unwrap();
                pages.push((path.display().to_string(), raw));
            }
        }
        pages
    }

    #[test]
    fn every_element_algorithm_runs_on_real_pages() {
        use crate::{Algorithm, Extractor};
        let content = |s: &str| s.chars().filter(|c| !c.is_whitespace()).count();
        let pages = real_pages(1);
        assert_eq!(pages.len(), 4);
        let mut plain = Extractor::new(Algorithm::Plain);
        for algorithm in Algorithm::ALL {
            if !matches!(algorithm.family(), crate::algorithms::Family::Elements(_)) {
                continue;
            }
            let mut extractor = Extractor::new(*algorithm);
            let mut nonempty = 0;
            for (path, raw) in &pages {
                let all = content(plain.extract(raw, None).text);
                let page = extractor.extract(raw, None);
                assert!(!page.title.is_empty(), "{algorithm} {path}: no title");
                // The extract is part of the page's text.
                let got = content(page.text);
                assert!(got <= all, "{algorithm} {path}: {got} > {all}");
                nonempty += usize::from(got > 0);
            }
            assert!(nonempty >= 3, "{algorithm}: {nonempty} of 4 pages");
        }
    }
}
