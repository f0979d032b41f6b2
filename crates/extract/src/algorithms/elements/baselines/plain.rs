//! Plain — the "no extraction" baseline of Gottron (2008, §4.2) and of the
//! DANA papers: all the text of the page, through the same text-out as
//! every algorithm, so any algorithm should beat it.

use crate::density::text::TextSink;
use crate::density::{LinkRule, Rules};

/// Writes all text of `html`; returns the number of runs (one).
pub(in crate::algorithms) fn extract(html: &str, sink: &mut TextSink) -> usize {
    sink.append_html(html, 0, html.len(), Rules::papers(LinkRule::Keep));
    1
}

#[cfg(test)]
mod tests {
    use crate::algorithms::elements::{tests::run, Kind};

    #[test]
    fn returns_all_text_but_no_title_or_scripts() {
        let html = "<html><head><title>T</title><script>x()</script></head><body>\
                    <ul><li><a href=/>Home</a></li></ul><p>Body &amp; text</p><div>Footer</div>";
        assert_eq!(run(Kind::Plain, html), "Home\nBody & text\nFooter");
    }
}
