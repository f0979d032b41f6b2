//! Pages of one markup shape at any size, for the scaling benchmark
//! (`benches/scaling.rs`) and the shape tests of the extract crate: the
//! shapes that would make a super-linear step show (many tiny lines, one
//! huge line, deep nesting, grids of priced cards, link lists, numbered
//! paragraphs alike at both ends, elements never closed).

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
}

impl Shape {
    /// Every shape, in the order tables list them.
    pub const ALL: [Shape; 7] = [
        Shape::TinyLines,
        Shape::OneLine,
        Shape::Nested,
        Shape::Cards,
        Shape::Links,
        Shape::Numbered,
        Shape::Unclosed,
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
        }
        page.push_str("\n</body></html>\n");
        page
    }
}
