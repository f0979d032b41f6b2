use super::*;
use crate::density::scan::{LinkRule, Rules};
use crate::density::text::TextSink;
use crate::density::Cleaning;
use proptest::prelude::*;

/// The Markdown and the text of the whole of `html`, read as AdDANAg+
/// reads it (furniture marked, `<math>` read as markup) or as the
/// papers do.
fn render_with(html: &str, options: MarkdownOptions, furniture: bool) -> (String, String) {
    let rules = Rules {
        cleaning: if furniture {
            Cleaning::Furniture
        } else {
            Cleaning::Papers
        },
        ..Rules::papers(LinkRule::Keep)
    };
    let (mut text, mut entities) = (String::new(), String::new());
    let mut markdown = Markdown::new(options);
    markdown.set_base(Some("https://example.com/dir/page.html"));
    let mut sink = TextSink::with_markdown(&mut text, &mut entities, Some(&mut markdown));
    sink.paragraph();
    sink.append_html(html, 0, html.len(), rules);
    markdown.finish();
    (markdown.written().to_owned(), text)
}

fn md(html: &str) -> String {
    render_with(html, MarkdownOptions::default(), true).0
}

#[test]
fn headings_and_paragraphs() {
    assert_eq!(
        md("<h1>Title</h1><p>One <b>bold</b>\n word.</p><h3>Sub</h3><div>Two</div>"),
        "# Title\n\nOne bold word.\n\n### Sub\n\nTwo"
    );
    // Blocks inside a heading stay on its line; `<br>` breaks a paragraph.
    assert_eq!(
        md("<h2><span>A</span><div>B</div></h2><p>x<br>y<br><br>z</p>"),
        "## A B\n\nx  \ny\n\nz"
    );
}

#[test]
fn nested_lists() {
    let html = "<ul><li>a<ul><li>b</li><li>c<ol start=3><li>d</li><li>e</li></ol></li></ul></li><li><p>f</p><p>g</p></li></ul><p>after</p>";
    assert_eq!(
        md(html),
        "- a\n  - b\n  - c\n    3. d\n    4. e\n- f\n\n  g\n\nafter"
    );
    // A range that starts inside a list: items without their list.
    assert_eq!(md("<li>x</li><li>y</li></ul><p>z</p>"), "- x\n- y\n\nz");
    // Unclosed items close at the next one.
    assert_eq!(md("<ol><li>one<li>two</ol>"), "1. one\n2. two");
}

#[test]
fn blockquotes() {
    assert_eq!(
        md("<p>a</p><blockquote><p>q1</p><p>q2</p><blockquote>deep</blockquote></blockquote><p>b</p>"),
        "a\n\n> q1\n>\n> q2\n>\n> > deep\n\nb"
    );
}

#[test]
fn data_tables_are_gfm() {
    let html = "<table><caption>Cap</caption><tr><th>A</th><th>B|C</th></tr>\
        <tr><td>1</td><td>x<br>y</td></tr><tr><td colspan=2>wide</td></tr><tr><td>short</td></tr></table>";
    assert_eq!(
        md(html),
        "Cap\n\n| A | B\\|C |\n| --- | --- |\n| 1 | x<br>y |\n| wide |  |\n| short |  |"
    );
    // No `<th>`: the first row is the header.
    assert_eq!(
        md("<p>p</p><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table><p>q</p>"),
        "p\n\n| a | b |\n| --- | --- |\n| c | d |\n\nq"
    );
}

#[test]
fn blocks_in_cells_of_data_tables() {
    assert_eq!(
        md("<table><tr><th><h3>Name</h3></th><th><p>Uses</p></th></tr><tr><td>a</td><td><ul><li>x</li><li>y</li></ul></td></tr></table>"),
        "| Name | Uses |\n| --- | --- |\n| a | - x<br>- y |"
    );
}

#[test]
fn layout_tables_are_blocks() {
    // One column.
    assert_eq!(
        md("<table><tr><td>a</td></tr><tr><td>b</td></tr></table>"),
        "a\n\nb"
    );
    // Code blocks in cells, and nested tables.
    assert_eq!(
        md("<table><tr><td><pre>a\n b</pre></td><td>x</td></tr></table>"),
        "```\na\n b\n```\n\nx"
    );
    assert_eq!(
        md("<table><tr><td><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table></td><td>side</td></tr></table>"),
        "| a | b |\n| --- | --- |\n| c | d |\n\nside"
    );
}

#[test]
fn tables_inside_lists_keep_their_indent() {
    assert_eq!(
        md("<ul><li><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table></li></ul>"),
        "- | a | b |\n  | --- | --- |\n  | c | d |"
    );
}

#[test]
fn pre_keeps_every_space() {
    let html = "<pre class=\"language-python\">\ndef f(x):\n\tif x &lt; 1:\n\n        return <b>x</b>\n</pre><p>after</p>";
    assert_eq!(
        md(html),
        "```python\ndef f(x):\n\tif x < 1:\n\n        return x\n```\n\nafter"
    );
    // The language from the inner `<code>`; a fence longer than the backticks inside.
    assert_eq!(
        md("<pre><code class=\"lang-rust\">let s = \"````\";</code></pre>"),
        "`````rust\nlet s = \"````\";\n`````"
    );
    // Lines as blocks (a highlighter's `<div>` per line).
    assert_eq!(
        md("<pre class=highlight-js><div>a()</div>\n<div>  b()</div></pre>"),
        "```js\na()\n  b()\n```"
    );
    // Unterminated: closed at the end of the range.
    assert_eq!(md("<pre>x  y\n z"), "```\nx  y\n z\n```");
}

#[test]
fn inline_code_in_backticks() {
    assert_eq!(md("<p>Call <code>f(*a)</code> now</p>"), "Call `f(*a)` now");
    assert_eq!(
        md("<p>A <code>`tick`</code> and <code>a``b</code></p>"),
        "A `` `tick` `` and ```a``b```"
    );
}

#[test]
fn math_as_latex() {
    let mathml = "<p>So <math><semantics><mi>a</mi><mo>&lt;</mo><mi>b</mi>\
        <annotation encoding=\"application/x-tex\">a_1 &lt; a_2</annotation></semantics></math> holds.</p>";
    assert_eq!(md(mathml), "So $a_1 < a_2$ holds.");
    // The papers' cleaning drops MathML from the text; its TeX stays.
    let (markdown, text) = render_with(mathml, MarkdownOptions::default(), false);
    assert_eq!(markdown, "So $a_1 < a_2$ holds.");
    assert_eq!(text, "So holds.");
    assert_eq!(
        md("<math display=\"block\" alttext=\"\\sum_i x_i\"><mi>x</mi></math>"),
        "$$\\sum_i x_i$$"
    );
    // MathJax.
    assert_eq!(
        md("<p>Let <script type=\"math/tex\">x^2</script> and</p><script type=\"math/tex; mode=display\">\\int f</script>"),
        "Let $x^2$ and\n\n$$\\int f$$"
    );
    // KaTeX: its HTML copy is left out.
    let katex = "<p>Area <span class=\"katex\"><span class=\"katex-mathml\"><math><semantics><mrow><mi>π</mi><msup><mi>r</mi><mn>2</mn></msup></mrow>\
        <annotation encoding=\"application/x-tex\">\\pi r^2</annotation></semantics></math></span>\
        <span class=\"katex-html\" aria-hidden=\"true\"><span class=\"base\"><span class=\"mord\">πr</span></span></span></span>.</p>";
    assert_eq!(md(katex), "Area $\\pi r^2$.");
    // MediaWiki's picture of a formula, beside its hidden MathML.
    assert_eq!(
        md("<p>Let <img class=\"mwe-math-fallback-image-inline\" alt=\"{\\displaystyle a_{ij}}\"> be</p>"),
        "Let $a_{ij}$ be"
    );
    // MathML without TeX: its text.
    assert_eq!(
        md("<p><math><mi>x</mi><mo>+</mo><mn>1</mn></math></p>"),
        "x+1"
    );
    // Broken MathML: closed at the end.
    assert_eq!(md("<p>a <math alttext=\"y\"><mi>y"), "a $y$");
}

#[test]
fn escapes_only_what_would_render() {
    assert_eq!(md("<p># not a heading</p>"), "\\# not a heading");
    assert_eq!(md("<p>#hashtag and C#</p>"), "#hashtag and C#");
    assert_eq!(
        md("<p>- dash</p><p>1. one</p><p>2014. year</p>"),
        "\\- dash\n\n1\\. one\n\n2014\\. year"
    );
    assert_eq!(md("<p>&gt; quote</p>"), "\\> quote");
    assert_eq!(
        md("<p>a*b* _c_ snake_case [x] `y` &lt;div&gt; 1 &lt; 2 AT&amp;T &amp;amp; $5 US$</p>"),
        "a\\*b\\* \\_c\\_ snake_case \\[x] \\`y\\` \\<div> 1 < 2 AT&T \\&amp; \\$5 US\\$"
    );
    assert_eq!(md("<p>C:\\dir\\ and \\*</p>"), "C:\\dir\\\\ and \\\\\\*");
    assert_eq!(md("<p>a<br>---</p>"), "a  \n\\---");
    assert_eq!(md("<h2>Issue ##</h2>"), "## Issue \\##");
}

#[test]
fn links_and_images_when_asked() {
    let html = "<p>See <a href=\"../x(1).html\">the <b>docs</b></a> and <a href=\"javascript:go()\">this</a> <img alt=\"a cat\" src=c.png>.</p>";
    assert_eq!(md(html), "See the docs and this .");
    let options = MarkdownOptions {
        links: true,
        images: true,
    };
    assert_eq!(
        render_with(html, options, true).0,
        "See [the docs](https://example.com/x%281%29.html) and this a cat ."
    );
    let brackets = "<p><a href=\"https://a.org/\">[1] ref</a></p>";
    assert_eq!(
        render_with(brackets, options, true).0,
        "[\\[1\\] ref](https://a.org/)"
    );
}

#[test]
fn text_paragraphs_map_to_markdown() {
    let html = "<h2>T</h2><p>one</p><ul><li>two</li></ul><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>";
    let (mut text, mut entities) = (String::new(), String::new());
    let mut markdown = Markdown::new(MarkdownOptions::default());
    let mut sink = TextSink::with_markdown(&mut text, &mut entities, Some(&mut markdown));
    sink.append_html(html, 0, html.len(), Rules::papers(LinkRule::Keep));
    assert_eq!(text, "T\none\ntwo\na b\nc d");
    // Dropping the text's second and fourth paragraphs drops their Markdown.
    markdown.keep_paragraphs(&[false, true, false, false, true]);
    markdown.finish();
    assert_eq!(
        markdown.written(),
        "## T\n\n- two\n\n| a | b |\n| --- | --- |"
    );
}

/// Well-formed CommonMark is not checked here; that the renderer stays
/// within its bounds and writes UTF-8 on any input is.
fn assert_bounded(html: &str) {
    let (markdown, text) = render_with(
        html,
        MarkdownOptions {
            links: true,
            images: true,
        },
        true,
    );
    assert!(
        markdown.len() <= 8 * html.len() + 64,
        "{} from {}",
        markdown.len(),
        html.len()
    );
    let _ = text;
}

#[test]
fn hostile_tables_stay_linear() {
    let wide = format!("<table><tr>{}</tr></table>", "<td>x".repeat(10_000));
    assert_bounded(&wide);
    assert!(md(&wide).starts_with("| x | x |"));
    let spans = format!(
        "<table>{}</table>",
        "<tr><td colspan=100000>a<td rowspan=9>b".repeat(2_000)
    );
    assert_bounded(&spans);
    let nested = "<table><tr><td>".repeat(500) + "deep";
    assert_bounded(&nested);
    let tables = "<p>p</p><table><tr><td>a<td>b<tr><td>c<td>d</table>".repeat(2_000);
    assert_bounded(&tables);
    let lists = "<ul><li>".repeat(5_000) + "deep";
    assert_bounded(&lists);
    assert_bounded(&"<pre>".repeat(1_000));
    assert_bounded(&"<math><annotation encoding=tex>".repeat(1_000));
}

proptest! {
    /// A span of words is escaped as its words would be one by one (the
    /// walk gives the renderer the plain text's spans).
    #[test]
    fn a_span_escapes_as_its_words(
        words in proptest::collection::vec("[a-z0-9#*_`|<>&;.)\\\\$~\\[\\]=+-]{1,6}", 1..6),
        line_start: bool,
        heading: bool,
        in_link: bool,
    ) {
        let mut one_by_one = String::new();
        for (i, word) in words.iter().enumerate() {
            if i > 0 {
                one_by_one.push(' ');
            }
            escape::escape_into(&mut one_by_one, word, line_start && i == 0, heading, in_link);
        }
        let mut at_once = String::new();
        escape::escape_into(&mut at_once, &words.join(" "), line_start, heading, in_link);
        prop_assert_eq!(at_once, one_by_one);
    }

    #[test]
    fn never_panics_and_text_is_unchanged(html in "(<(/?)(p|h2|ul|ol|li|table|tr|td|th|pre|code|blockquote|br|math|a href=x|span class=katex-html|script type=math/tex)( colspan=3)?>|[a-z#*_`|<>&; \n\t-]{1,6}){0,40}") {
        let (markdown, text) = render_with(&html, MarkdownOptions { links: true, images: true }, true);
        // The text is what it is without Markdown.
        let (mut plain, mut entities) = (String::new(), String::new());
        let mut sink = TextSink::new(&mut plain, &mut entities);
        sink.paragraph();
        sink.append_html(&html, 0, html.len(), Rules { cleaning: Cleaning::Furniture, ..Rules::papers(LinkRule::Keep) });
        prop_assert_eq!(text, plain);
        prop_assert!(markdown.len() <= 16 * html.len() + 64);
    }
}
