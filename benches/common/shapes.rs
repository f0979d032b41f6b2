//! Pages of one markup shape at any size, for the scaling benchmark
//! (`benches/scaling.rs`) and the shape tests of the extract crate: the
//! shapes that would make a super-linear step show (many tiny lines, one
//! huge line, deep nesting, grids of priced cards, link lists, numbered
//! paragraphs alike at both ends, elements never closed) and the hostile
//! structures the Markdown rendering meets (tables of 10,000 columns,
//! spans past any sense, tables in tables, endless tables, `<pre>`, `<code>`
//! and `<math>` never closed, lists nested without end).

use std::fmt::Write;

/// A markup shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `<p>x</p>` lines.
    TinyLines,
    /// One paragraph of words, bold words and links, without a newline or
    /// a block tag: one line of the whole page.
    OneLine,
    /// `<div>` inside `<div>`, the text at the bottom.
    Nested,
    /// A grid of product cards, each with a linked name, a price and a
    /// description.
    Cards,
    /// A list of links.
    Links,
    /// Short paragraphs that differ only in a number inside.
    Numbered,
    /// Paragraphs with elements that are never closed (`<svg>`, `<button>`).
    Unclosed,
    /// A table whose rows have 10,000 cells each.
    WideTable,
    /// A table of rows and cells opened and closed at random, with
    /// `colspan` and `rowspan` from 0 to far past any sense.
    SpanChaos,
    /// Tables inside table cells, the text at the bottom.
    NestedTables,
    /// One table of two columns and as many rows as fit (100,000 at 4 MB).
    LongTable,
    /// A `<pre>` never closed: the rest of the page is code.
    OpenPre,
    /// MathML cut short: `<math>` never closed, annotations without an
    /// end, `alttext` without a quote's end.
    BrokenMath,
    /// Paragraphs with an inline `<code>` that is never closed.
    OpenCode,
    /// `<li>` inside `<li>` without end, some lists never closed.
    DeepLists,
}

impl Shape {
    /// Every shape, in the order tables list them.
    pub const ALL: [Shape; 15] = [
        Shape::TinyLines,
        Shape::OneLine,
        Shape::Nested,
        Shape::Cards,
        Shape::Links,
        Shape::Numbered,
        Shape::Unclosed,
        Shape::WideTable,
        Shape::SpanChaos,
        Shape::NestedTables,
        Shape::LongTable,
        Shape::OpenPre,
        Shape::BrokenMath,
        Shape::OpenCode,
        Shape::DeepLists,
    ];

    /// The shape's name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Shape::TinyLines => "tiny-lines",
            Shape::OneLine => "one-line",
            Shape::Nested => "nested",
            Shape::Cards => "cards",
            Shape::Links => "links",
            Shape::Numbered => "numbered",
            Shape::Unclosed => "unclosed",
            Shape::WideTable => "wide-table",
            Shape::SpanChaos => "span-chaos",
            Shape::NestedTables => "nested-tables",
            Shape::LongTable => "long-table",
            Shape::OpenPre => "open-pre",
            Shape::BrokenMath => "broken-math",
            Shape::OpenCode => "open-code",
            Shape::DeepLists => "deep-lists",
        }
    }

    /// A page of this shape of about `bytes` bytes (a few more), titled
    /// `Shape`.
    pub fn page(self, bytes: usize) -> String {
        let mut page = String::with_capacity(bytes + 256);
        page.push_str("<!DOCTYPE html><html><head><title>Shape</title></head><body>\n");
        let body = bytes.saturating_sub(page.len() + 16);
        let start = page.len();
        let more = |page: &String| page.len() - start < body;
        let mut i = 0usize;
        match self {
            Shape::TinyLines => {
                while more(&page) {
                    page.push_str("<p>x</p>\n");
                }
            }
            Shape::OneLine => {
                page.push_str("<p>");
                while more(&page) {
                    let _ = write!(
                        page,
                        "word{i} of the line, <b>bold</b> and <a href=\"/l/{i}\">a link</a>; "
                    );
                    i += 1;
                }
                page.push_str("</p>");
            }
            Shape::Nested => {
                let depth = body / 11;
                page.push_str(&"<div>".repeat(depth));
                page.push_str("deep text");
                page.push_str(&"</div>".repeat(depth));
            }
            Shape::Cards => {
                page.push_str("<div class=\"grid\">\n");
                while more(&page) {
                    let _ = write!(
                        page,
                        "<div class=\"card\"><a href=\"/p/{i}\"><img src=\"/i/{i}.jpg\" alt=\"\"></a>\n\
                         <h3 class=\"name\"><a href=\"/p/{i}\">Product number {i}</a></h3>\n\
                         <span class=\"price\">${}.99</span>\n\
                         <p class=\"desc\">A short description of item {i}.</p>\n</div>\n",
                        i % 100
                    );
                    i += 1;
                }
                page.push_str("</div>\n");
            }
            Shape::Links => {
                page.push_str("<ul>\n");
                while more(&page) {
                    let _ = writeln!(page, "<li><a href=\"/page/{i}\">Link number {i}</a></li>");
                    i += 1;
                }
                page.push_str("</ul>\n");
            }
            Shape::Numbered => {
                while more(&page) {
                    let _ = writeln!(
                        page,
                        "<p>This is line number {i} of a long page with short paragraphs.</p>"
                    );
                    i += 1;
                }
            }
            Shape::Unclosed => {
                while more(&page) {
                    let _ = writeln!(
                        page,
                        "<p>Text {i} <svg> more words here <button> and some more</p>"
                    );
                    i += 1;
                }
            }
            Shape::WideTable => {
                page.push_str("<table>\n");
                while more(&page) {
                    page.push_str("<tr>");
                    for c in 0..10_000 {
                        let _ = write!(page, "<td>c{c}</td>");
                    }
                    page.push_str("</tr>\n");
                }
                page.push_str("</table>\n");
            }
            Shape::SpanChaos => {
                page.push_str("<table>\n");
                // A fixed sequence that looks random: the same page each run.
                let mut x = 0x2545_f491_u32;
                while more(&page) {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    let span = [0, 1, 2, 3, 999, 1000, 1001, 65_535, u32::MAX][x as usize % 9];
                    let piece = match x / 9 % 8 {
                        0 => "<tr>".to_string(),
                        1 => "</tr>".to_string(),
                        2 => format!("<td colspan=\"{span}\">cell {i}"),
                        3 => format!("<th rowspan={span} colspan={}>head {i}</th>", x % 7),
                        4 => format!("<td rowspan=\"{span}\">r{i}</td>"),
                        5 => "</td></td>".to_string(),
                        6 => "<caption>caption".to_string(),
                        _ => "</table><table>".to_string(),
                    };
                    page.push_str(&piece);
                    i += 1;
                }
                page.push_str("</table>\n");
            }
            Shape::NestedTables => {
                let depth = body / 40;
                page.push_str(&"<table><tr><td>a</td><td>".repeat(depth));
                page.push_str("deep cell");
                page.push_str(&"</td></tr></table>".repeat(depth));
            }
            Shape::LongTable => {
                page.push_str("<table>\n<tr><th>Name</th><th>Value</th></tr>\n");
                while more(&page) {
                    let _ = writeln!(page, "<tr><td>row {i}</td><td>{}</td></tr>", i % 97);
                    i += 1;
                }
                page.push_str("</table>\n");
            }
            Shape::OpenPre => {
                page.push_str("<p>The code:</p>\n<pre class=\"language-rust\">");
                while more(&page) {
                    let _ = writeln!(
                        page,
                        "fn f{i}() {{\n\tlet x = {i}; // ```` `{i}` &amp; *{i}*\n}}"
                    );
                    i += 1;
                }
            }
            Shape::BrokenMath => {
                while more(&page) {
                    let _ = write!(
                        page,
                        "<p>Formula {i}: <math display=\"block\" alttext=\"x_{i}\"><mi>x</mi>\
                         <semantics><annotation encoding=\"application/x-tex\">\\frac{{{i}}}\
                         <mo>+</mo></p>\n<math alttext=\"y<p>Text {i} after</p>\n"
                    );
                    i += 1;
                }
            }
            Shape::OpenCode => {
                while more(&page) {
                    let _ = writeln!(
                        page,
                        "<p>Call <code>run({i}) with `ticks` and more words</p>"
                    );
                    i += 1;
                }
            }
            Shape::DeepLists => {
                while more(&page) {
                    let kind = if i.is_multiple_of(3) { "ol" } else { "ul" };
                    let _ = write!(page, "<{kind}><li>item {i}");
                    if i % 5 == 4 {
                        page.push_str(&format!("</li></{kind}>").repeat(2));
                    }
                    page.push('\n');
                    i += 1;
                }
            }
        }
        page.push_str("\n</body></html>\n");
        page
    }
}
