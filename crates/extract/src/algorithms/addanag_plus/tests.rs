//! Tests of addanag-plus on small pages, and of its parts.

use crate::{Algorithm, Extractor};

fn extract(algorithm: Algorithm, html: &str) -> String {
    Extractor::new(algorithm)
        .extract(html.as_bytes(), Some("utf-8"))
        .text
        .to_string()
}

fn paragraphs(word: &str, n: usize) -> String {
    let sentence = format!("{word} is a word in a sentence of this article. ");
    (0..n)
        .map(|_| format!("<p>{}</p>\n", sentence.repeat(3)))
        .collect()
}

#[test]
fn a_link_list_heavier_than_the_article_is_not_chosen() {
    let links: String = (0..60)
        .map(|i| {
            format!("<li><a href=\"/t/{i}\">Related story number {i} about another topic</a> posted by a reader</li>\n")
        })
        .collect();
    let html = format!(
        "<html><body><article>{}</article>\n{}<ul>{links}</ul></body></html>",
        paragraphs("Alpha", 3),
        "<div class=\"ad\"></div>\n".repeat(25)
    );
    // The list has more characters: AdDANAg's heaviest region.
    let addanag = extract(Algorithm::Addanag, &html);
    assert!(
        addanag.contains("Related story") && !addanag.contains("Alpha"),
        "{addanag}"
    );
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.contains("Alpha is a word"), "{plus}");
    assert!(!plus.contains("Related story"), "{plus}");
}

#[test]
fn link_lists_inside_the_article_are_part_of_it() {
    let changes: String = (0..8)
        .map(|i| {
            format!("<li>Fixed <a href=\"/b/{i}\">bug {i} in the parser of the reader</a></li>\n")
        })
        .collect();
    let html = format!(
        "<body><article>{}<ul>{changes}</ul>\n{}</article></body>",
        paragraphs("Alpha", 3),
        paragraphs("Omega", 2)
    );
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.contains("Alpha is a word"), "{plus}");
    assert!(plus.contains("\nFixed bug 7 in the parser"), "{plus}");
    assert!(
        plus.ends_with("Omega is a word in a sentence of this article."),
        "{plus}"
    );
    // Outside the article the same list costs what a menu costs.
    let html = html
        .replace("<article>", "<div>")
        .replace("</article>", "</div>");
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.contains("Alpha") && !plus.contains("Omega"), "{plus}");
}

#[test]
fn hidden_inline_markup_costs_nothing() {
    // Wikipedia's formulas: hidden MathML beside the image shown.
    let mathml = "<mrow class=\"mjx-mrow\"><mi></mi></mrow>".repeat(40);
    let formulas: String = (0..3)
        .map(|i| {
            format!(
                "<p>The value of <span style=\"display: none;\"><math>{mathml}x</math></span>\
                 <img src=\"/f/{i}.svg\"> is small in case {i}.</p>\n"
            )
        })
        .collect();
    let html = format!(
        "<body>{}{formulas}{}</body>",
        paragraphs("Alpha", 10),
        paragraphs("Omega", 2)
    );
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.contains("The value of is small in case 2."), "{plus}");
    assert!(plus.contains("Alpha") && plus.contains("Omega"), "{plus}");
    // Shown, the same markup is layout the text after it must pay for.
    let shown = html.replace(" style=\"display: none;\"", "");
    let plus = extract(Algorithm::AddanagPlus, &shown);
    assert!(plus.contains("Alpha") && !plus.contains("Omega"), "{plus}");
}

#[test]
fn a_headline_that_repeats_the_title_is_left_out() {
    let page = |title: &str, headline: &str| {
        format!(
            "<html><head><title>{title}</title></head><body>\
             <h1>{headline}</h1>{}</body></html>",
            paragraphs("Alpha", 3)
        )
    };
    let repeated = page("Été à Paris | Le Journal", "ÉTÉ À PARIS");
    let plus = extract(Algorithm::AddanagPlus, &repeated);
    assert!(plus.starts_with("Alpha is a word"), "{plus}");
    // Lines of markup only before it leave it the text's opening.
    let long = "Un été à Paris, sur les quais de la Seine et dans les jardins de la ville";
    let after_markup = page(long, long).replace("<h1>", "<div class=\"k\"></div><h1>");
    let plus = extract(Algorithm::AddanagPlus, &after_markup);
    assert!(plus.starts_with("Alpha is a word"), "{plus}");
    let other = page("Le Journal", "Été à Paris");
    let plus = extract(Algorithm::AddanagPlus, &other);
    assert!(plus.starts_with("Été à Paris\nAlpha is a word"), "{plus}");
}

#[test]
fn a_heading_repeats_a_title_by_the_length_of_its_words() {
    use super::headline::repeats;
    use super::params::PARAMS;
    assert!(repeats(
        "Student Dies After Diet Pills - News",
        "Student dies after diet pills"
    ));
    assert!(!repeats("News", "Student dies after diet pills"));
    // "Pills" is 5 of the 29 bytes of the joined heading: 83 % repeated.
    assert!(repeats(
        "Student Dies After Diet",
        "Student dies after diet pills"
    ));
    assert!(!repeats("Student Dies", "Student dies after diet pills"));
    assert!(!repeats("", "Anything") && !repeats("Anything", ""));
    // Whole pages in a title and an unclosed `<h1>` are not compared
    // word by word (quadratic).
    let page = "word ".repeat(PARAMS.max_headline_words + 1);
    assert!(!repeats(&page, &page));
    let short = "word ".repeat(PARAMS.max_headline_words);
    assert!(repeats(&short, &short));
}

#[test]
fn a_listing_is_given_whole() {
    let authors: String = (0..6)
        .map(|a| format!("<a href=\"/a/{a}\">Author Number{a}</a>, "))
        .collect();
    let items: String = (0..40)
        .map(|i| {
            format!(
                "<dt>[{i}]</dt><dd><div class=\"title\">Title: a study of item {i}, of its history and of its uses</div>\n\
                 <div class=\"authors\">{authors}</div></dd>\n"
            )
        })
        .collect();
    let menu: String = (0..30)
        .map(|i| format!("<li><a href=\"/m/{i}\">Menu entry {i}</a></li>\n"))
        .collect();
    // Link lists come in with the listing; the menu stays out as `<nav>`.
    let html = format!(
        "<body><p>The newest studies of this field, a page of them.</p>\n\
         <dl>{items}</dl><nav><ul>{menu}</ul></nav></body>"
    );
    // Read as an article, the page is its one sentence.
    let addanag = extract(Algorithm::Addanag, &html);
    assert!(!addanag.contains("Author Number1"), "{addanag}");
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(
        plus.contains("item 0, of its history and of its uses\n"),
        "{plus}"
    );
    assert!(
        plus.contains("item 38, of its history and of its uses\nAuthor Number0, Author"),
        "{plus}"
    );
    assert!(!plus.contains("Menu entry"), "{plus}");
}

#[test]
fn a_far_section_is_joined_when_its_text_pays_for_the_gap() {
    let filler = "<div class=\"spacer\"></div>\n".repeat(30);
    let html = format!(
        "<body>{}{filler}{}</body>",
        paragraphs("First", 4),
        paragraphs("Second", 3)
    );
    // 30 lines apart: beyond Algorithm 1's default gap.
    let addanag = extract(Algorithm::Addanag, &html);
    assert!(!addanag.contains("Second"), "{addanag}");
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.contains("First") && plus.contains("Second"), "{plus}");
}

#[test]
fn a_section_behind_a_link_menu_is_not_joined() {
    let menu: String = (0..40)
        .map(|i| format!("<li><a href=\"/m/{i}\">Menu entry {i}</a></li>\n"))
        .collect();
    let html = format!(
        "<body>{}<ul>{menu}</ul>{}</body>",
        paragraphs("Main", 6),
        paragraphs("Teaser", 1)
    );
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.contains("Main") && !plus.contains("Teaser"), "{plus}");
}

#[test]
fn a_comment_thread_heavier_than_the_article_is_left_out() {
    let comments: String = (0..12)
        .map(|i| format!("<div class=\"comment-body\"><p>Reader {i} thinks this sentence of the thread is longer than most sentences of the article.</p></div>\n"))
        .collect();
    let html = format!(
        "<body><article>{}</article>\n<div id=\"comments\">{comments}</div></body>",
        paragraphs("Story", 3)
    );
    let addanag = extract(Algorithm::Addanag, &html);
    assert!(addanag.contains("Reader 5"), "{addanag}");
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.contains("Story is a word"), "{plus}");
    assert!(!plus.contains("Reader"), "{plus}");
}

#[test]
fn misleading_furniture_names_do_not_hide_the_article() {
    let html = format!(
        "<body><div class=\"nav\"><a href=\"/\">Home</a></div>\n\
         <div class=\"page and-w-sidebar\">{}</div></body>",
        paragraphs("Hidden", 4)
    );
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.contains("Hidden is a word"), "{plus}");
    assert!(!plus.contains("Home"), "{plus}");
}

#[test]
fn furniture_inside_a_misleading_weak_mark_stays_out() {
    // The article sits in a share plugin's container, so its weak mark
    // is not trusted; the furniture inside it still tells itself apart.
    let related: String = (0..4)
        .map(|i| format!("<p>Related story {i} is a story of another day on this site.</p>\n"))
        .collect();
    let comments: String = (0..20)
        .map(|i| {
            format!(
                "<li><h2>Reader {i}</h2><p>{}</p></li>\n",
                "Comment words of a reader. ".repeat(8)
            )
        })
        .collect();
    let html = format!(
        "<body><div id=\"share-btns_containerParent\">{}\
         <div class=\"related-list\">{related}</div>\n<ul class=\"comment-list\">{comments}</ul>\n{}</div></body>",
        paragraphs("Alpha", 6),
        paragraphs("Omega", 2)
    );
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.contains("Alpha") && plus.contains("Omega"), "{plus}");
    assert!(
        !plus.contains("Related") && !plus.contains("Reader"),
        "{plus}"
    );
    // Without the nested marks the container's mark is all there is:
    // dropped, it lets the comments in.
    let unnamed = html
        .replace("related-list", "list")
        .replace("comment-list", "list");
    let plus = extract(Algorithm::AddanagPlus, &unnamed);
    assert!(plus.contains("Alpha") && plus.contains("Reader"), "{plus}");
    // A gallery's captions (`legends`) are strong furniture: left out
    // even where they outweigh the article.
    let captions = comments
        .replace("Reader", "Picture")
        .replace("Comment", "Caption");
    let html = format!(
        "<body><div class=\"box\">{}<ul class=\"legends\">{captions}{captions}</ul>{}</div></body>",
        paragraphs("Alpha", 2),
        paragraphs("Omega", 2)
    );
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.contains("Alpha") && plus.contains("Omega"), "{plus}");
    assert!(!plus.contains("Caption"), "{plus}");
    // Nested marks that would take the article away are not trusted
    // either.
    let html = format!(
        "<body><div class=\"toc-chapters\"><section class=\"toc-para\">{}</section></div>\
         <div class=\"box\"><a href=\"/\">Home</a></div></body>",
        paragraphs("Alpha", 4)
    );
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.contains("Alpha is a word"), "{plus}");
}

#[test]
fn a_page_without_regions_gives_its_text() {
    let html = "<html><body><nav><a href=/>Home</a></nav>\n\
                <a href=\"javascript:\"><div class=\"box\"><p>abc</p><p>def</p></div></a></body></html>";
    assert_eq!(extract(Algorithm::Addanag, html), "");
    assert_eq!(extract(Algorithm::AddanagPlus, html), "abc\ndef");
    // The one region lies on markup between the headings.
    let img = "<img class=\"lazyload inited loaded\" data-src=\"https://example.com/a.jpg\" alt=\"a.jpg\"/>";
    let html = format!(
        "<body>\n<article>\n<h2>Test Case 1</h2>\n{img}\n<h2>Test Case 2</h2>\n{img}\n</article></body>"
    );
    assert_eq!(extract(Algorithm::Addanag, &html), "");
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert_eq!(plus, "Test Case 1\nTest Case 2");
}

#[test]
fn hidden_text_stays_out_and_sentences_stay_whole() {
    let html = format!(
        "<body>{}<p hidden>Secret text that a browser never shows to its readers.</p>\n\
         <p>If a matrix <span style=\"display: none\"><math><mi>A</mi></math></span>\
         <img alt=\"\" src=\"a.png\">is square, it has a determinant.</p>{}</body>",
        paragraphs("Alpha", 2),
        paragraphs("Omega", 2)
    );
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.contains("Alpha") && plus.contains("Omega"), "{plus}");
    assert!(!plus.contains("Secret"), "{plus}");
    assert!(
        plus.contains("\nIf a matrix is square, it has a determinant.\n"),
        "{plus}"
    );
}

#[test]
fn the_headline_is_kept() {
    let html = format!(
        "<body><div class=\"nav\"><a href=\"/\">Home</a></div>\
         <div class=\"article-header article-header--large\">\
         <h1 class=\"article-header__headline headline--serif\">Big News</h1></div>\n\
         <div class=\"byline\"><span class=\"author-name-with-long-class\">X</span></div>\n{}</body>",
        paragraphs("Body", 3)
    );
    let addanag = extract(Algorithm::Addanag, &html);
    assert!(!addanag.contains("Big News"), "{addanag}");
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(plus.starts_with("Big News\n"), "{plus}");
}

#[test]
fn a_run_of_paragraphs_given_again_apart_is_left_out() {
    let drop_repeated_copies = |text: &mut String| {
        let mut budget = crate::budget::Budget::unlimited();
        super::copies::drop_repeated_copies(text, &mut Default::default(), None, &mut budget)
            .expect("no limit");
    };
    let para = |w: &str| {
        format!("{w} is a word in a sentence of this block, long enough to count as one.")
    };
    let block = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"]
        .map(para)
        .join("\n");
    let mut text = format!("{block}\nBetween the copies.\n{block}\nAfter.");
    drop_repeated_copies(&mut text);
    assert_eq!(text, format!("{block}\nBetween the copies.\nAfter."));
    // Given twice in a row, a block of short lines is given once ...
    let mut text = format!("{block}\n{block}\nAfter.");
    drop_repeated_copies(&mut text);
    assert_eq!(text, format!("{block}\nAfter."));
    // ... and a block of paragraphs twice (an article served twice).
    let long = |w: &str| para(w).repeat(3);
    let paragraphs = ["Alpha", "Beta"].map(long).join("\n");
    let twice = format!("{paragraphs}\n{paragraphs}\nAfter.");
    let mut text = twice.clone();
    drop_repeated_copies(&mut text);
    assert_eq!(text, twice);
    // Short runs and one paragraph repeated are content too.
    let short = ["Size", "Colour", "Between"].join("\n");
    let short = [short.as_str(); 4].join("\n");
    let mut text = short.clone();
    drop_repeated_copies(&mut text);
    assert_eq!(text, short);
    let refrain = para("Alpha").repeat(3);
    let refrain = [refrain.as_str(); 3].join("\n");
    let same = format!("{refrain}\nBetween.\n{refrain}");
    let mut text = same.clone();
    drop_repeated_copies(&mut text);
    assert_eq!(text, same);
}

#[test]
fn text_under_bloated_markup_is_still_found() {
    let class = "text-base leading-7 text-gray-700 md:text-lg lg:leading-8 ".repeat(4);
    let wrappers =
        format!("<div class=\"{class}\"><div class=\"{class}\"></div></div>\n").repeat(20);
    let body: String = (0..5)
        .map(|i| format!("<p class=\"{class}\">Paragraph {i} says something about the topic of this page.</p>\n"))
        .collect();
    let html = format!("<body>{wrappers}{body}{wrappers}</body>");
    // Every line has more markup than text: no positive region for AdDANAg.
    assert_eq!(extract(Algorithm::Addanag, &html), "");
    let plus = extract(Algorithm::AddanagPlus, &html);
    assert!(
        plus.starts_with("Paragraph 0") && plus.ends_with("topic of this page."),
        "{plus}"
    );
}

#[test]
fn a_grid_is_a_run_of_alike_cards_with_text_of_their_own() {
    use super::grids::{grid, Prices};
    use crate::density::{Cleaning, LinkRule, Rules, Scratch};
    let grid_of = |html: &str| {
        let mut scratch = Scratch::default();
        let rules = Rules {
            links: LinkRule::Normalise,
            cleaning: Cleaning::Furniture,
        };
        scratch.scan(html.as_bytes(), rules);
        let text = |(first, last): (usize, usize)| {
            let (a, b) = (scratch.lines[first].start, scratch.lines[last].end);
            html[a as usize..b as usize].to_string()
        };
        let lines = &scratch.lines;
        grid(
            html.as_bytes(),
            lines,
            &mut Default::default(),
            0..lines.len(),
            Prices::Preferred,
        )
        .map(text)
    };
    let card = |i: usize| {
        format!(
            "<li class=\"card\">\n<div class=\"img\"><img src=\"/{i}.jpg\"></div>\n\
             <a class=\"title\" href=\"/p/{i}\">Tent number {i}</a>\n\
             <div class=\"price\">${i}9.00, 4.5 stars</div>\n</li>\n"
        )
    };
    let menu: String = (0..12)
        .map(|i| format!("<li class=\"menu\"><a href=\"/m/{i}\">Menu entry {i}</a></li>\n"))
        .collect();
    let cards: String = (1..7).map(card).collect();
    // The last card is taken to be as long as the one before it.
    let html = format!(
        "<body><ul>{menu}</ul><ul>{cards}</ul>\n{}<p>Footer text</p></body>",
        "<div class=\"x\"></div>\n".repeat(4)
    );
    let found = grid_of(&html).expect("a grid");
    assert!(
        found.contains("Tent number 1<") && found.contains("$69.00"),
        "{found}"
    );
    assert!(
        !found.contains("Menu") && !found.contains("Footer"),
        "{found}"
    );
    // Three cards are no grid; nor are cards without text of their own
    // but a price (`$1`) when prices are not looked at, nor with
    // neither text nor price; a linked name and a price are a card
    // when prices are ("Priced cards" in `grids`).
    let three: String = (1..4).map(card).collect();
    assert_eq!(grid_of(&format!("<body><ul>{three}</ul></body>")), None);
    let bare = cards.replace("9.00, 4.5 stars", "");
    assert!(grid_of(&format!("<body><ul>{bare}</ul></body>")).is_some());
    let unpriced = cards.replace("9.00, 4.5 stars", "").replace('$', "");
    assert_eq!(grid_of(&format!("<body><ul>{unpriced}</ul></body>")), None);
    // Nor blocks of a common tag unlike in length.
    let unlike: String = (1..7)
        .map(|i| {
            format!(
                "{}{}",
                card(i),
                "<div class=\"x\"></div>\n".repeat(i % 2 * 12)
            )
        })
        .collect();
    assert_eq!(
        grid_of(&format!("<body><ul>{unlike}</ul></body>").replace("class=\"card\"", "")),
        None
    );
}
