//! Math: MathJax scripts, MathML's TeX annotation or `alttext`, KaTeX and
//! formula pictures, written as `$…$` or `$$…$$` and never escaped.

use super::*;
use std::sync::LazyLock;

impl Markdown {
    /// A comment, doctype or dropped element at `html[at..end]`: MathJax's
    /// `<script type="math/tex">`, a `<math>` dropped whole, the TeX
    /// annotation inside `<math>`.
    pub(super) fn dropped(&mut self, html: &str, at: usize, end: usize) {
        if self.hide.is_some() || self.code.is_some() {
            return;
        }
        let bytes = html.as_bytes();
        let whole = bytes.get(at..end).unwrap_or_default();
        let name_len = whole
            .iter()
            .skip(1)
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-')
            .count();
        let name = whole.get(1..1 + name_len).unwrap_or_default();
        let Some(open_end) = memchr(b'>', whole).map(|i| i + 1) else {
            return;
        };
        let open = html.get(at..at + open_end).unwrap_or_default();
        // The content: up to the last `</` of the element.
        let content = || {
            let inner = whole.get(open_end..)?;
            let close = memrchr(b'<', inner).filter(|&i| inner.get(i + 1) == Some(&b'/'))?;
            html.get(at + open_end..at + open_end + close)
        };
        if name.eq_ignore_ascii_case(b"annotation") {
            if self.math.is_some() && attr(open, b"encoding").is_some_and(is_tex) {
                if let Some(tex) = content() {
                    self.tex.clear();
                    decode_into(&mut self.tex, tex);
                }
            }
        } else if name.eq_ignore_ascii_case(b"script") {
            let Some(kind) = attr(open, b"type") else {
                return;
            };
            if !kind.to_ascii_lowercase().starts_with("math/tex") {
                return;
            }
            let display = kind.contains("display");
            if let Some(tex) = content() {
                self.math_out(tex, display);
            }
        } else if name.eq_ignore_ascii_case(b"math") && self.math.is_none() {
            let display = attr(open, b"display").is_some_and(|d| d.contains("block"));
            let mut tex = std::mem::take(&mut self.tex);
            tex.clear();
            if let Some(alt) = attr(open, b"alttext") {
                decode_into(&mut tex, alt);
            }
            if let Some(i) = memmem::find(whole, b"<annotation") {
                let from = at + i;
                let rest = whole.get(i..).unwrap_or_default();
                let open_len = memchr(b'>', rest).map_or(0, |j| j + 1);
                let open = html.get(from..from + open_len).unwrap_or_default();
                if attr(open, b"encoding").is_some_and(is_tex) {
                    let inner = rest.get(open_len..).unwrap_or_default();
                    if let Some(close) = memmem::find(inner, b"</annotation") {
                        let start = from + open_len;
                        tex.clear();
                        decode_into(&mut tex, html.get(start..start + close).unwrap_or_default());
                    }
                }
            }
            self.math_out(&tex, display);
            self.tex = tex;
        }
    }

    pub(super) fn math_out(&mut self, tex: &str, display: bool) {
        let tex = tex.trim();
        if tex.is_empty() {
            return;
        }
        if display {
            self.sep(Sep::Blank);
        }
        self.begin();
        let fence = if display { "$$" } else { "$" };
        self.out.push_str(fence);
        let mut first = true;
        for piece in tex.split_whitespace() {
            if !first {
                self.out.push(' ');
            }
            first = false;
            self.out.push_str(piece);
        }
        self.out.push_str(fence);
        self.line_empty = false;
        self.line_start = false;
        if display {
            self.sep(Sep::Blank);
        }
    }

    pub(super) fn emit_math(&mut self) {
        let Some(display) = self.math.take() else {
            return;
        };
        let tex = std::mem::take(&mut self.tex);
        if tex.trim().is_empty() {
            let text = std::mem::take(&mut self.math_text);
            self.text(&text);
            self.math_text = text;
        } else {
            self.math_out(&tex, display);
        }
        self.tex = tex;
    }
}

/// A formula's picture whose `alt` is its TeX (MediaWiki's fallback
/// images beside hidden MathML, WordPress's `latex` images): whether it is
/// displayed, and the raw `alt`.
pub(super) fn math_image(raw: &str) -> Option<(bool, &str)> {
    let class = attr(raw, b"class")?;
    let display = class.split_ascii_whitespace().find_map(|w| match w {
        "mwe-math-fallback-image-display" => Some(true),
        "mwe-math-fallback-image-inline" | "latex" => Some(false),
        _ => None,
    })?;
    Some((display, attr(raw, b"alt")?))
}

/// Whether an attribute `encoding` names TeX.
pub(super) fn is_tex(encoding: &str) -> bool {
    encoding.to_ascii_lowercase().contains("tex")
}

/// Whether an element's classes name a rendered copy of a formula whose
/// TeX is given beside it (KaTeX's HTML, MathJax 2's output and preview).
pub(super) fn hides(raw: &str) -> bool {
    // Built once: this is asked of every `<span>` and `<div>` with
    // attributes in the main text.
    static KATEX: LazyLock<memmem::Finder<'static>> =
        LazyLock::new(|| memmem::Finder::new(b"katex-html"));
    static MATHJAX: LazyLock<memmem::Finder<'static>> =
        LazyLock::new(|| memmem::Finder::new(b"MathJax"));
    let bytes = raw.as_bytes();
    if KATEX.find(bytes).is_none() && MATHJAX.find(bytes).is_none() {
        return false;
    }
    attr(raw, b"class").is_some_and(|class| {
        class.split_ascii_whitespace().any(|w| {
            matches!(
                w,
                "katex-html" | "MathJax" | "MathJax_Display" | "MathJax_Preview" | "MathJax_SVG"
            )
        })
    })
}
