//! What kind of page a page is ([`PageType`], WCXB's seven) and how far its
//! extraction can be trusted (`confidence`, the expected word-level F1),
//! both from cues the default algorithm has already computed ([`Cues`]):
//! how much of the page's text the chosen lines hold and how linked it is,
//! which reading of the page was taken (article, listing, thread of posts,
//! grid of cards), its lines' shape, furniture, the page's declared types
//! (`og:type`, JSON-LD `@type` in the head), its URL's path, some of the
//! tags the counting pass met (`TagCounts`) and words of
//! the text given.
//!
//! Two small linear models over those cues, fitted on the even-indexed
//! pages of the shared `wcxb_dev` set (confidence: of every shared set) by
//! `benches/page_type/fit.py` and written to `model.rs`: a multinomial
//! logistic regression for the type, a least-squares fit of the F1 for the
//! confidence. ACCURACY.md §11 gives their scores on the other half.

mod model;

use crate::density::landmarks::Landmarks;
use crate::density::tags::Block;
use crate::density::{Line, TagCounts};
use memchr::memmem::Finder;
use std::sync::LazyLock;

/// WCXB's seven page types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PageType {
    /// A news story, blog post or essay.
    Article,
    /// A discussion thread or question and answers.
    Forum,
    /// A single product's page.
    Product,
    /// Search results, a category or tag page, an index of posts.
    Listing,
    /// A shop's collection or a gallery of items.
    Collection,
    /// Software documentation, reference, a guide.
    Documentation,
    /// A business's service, landing or about page.
    Service,
}

impl PageType {
    /// Every type, in the models' order.
    pub const ALL: [PageType; 7] = [
        PageType::Article,
        PageType::Forum,
        PageType::Product,
        PageType::Listing,
        PageType::Collection,
        PageType::Documentation,
        PageType::Service,
    ];

    /// Its lowercase name, as WCXB labels it (`article`, `forum`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Forum => "forum",
            PageType::Product => "product",
            PageType::Listing => "listing",
            PageType::Collection => "collection",
            PageType::Documentation => "documentation",
            PageType::Service => "service",
        }
    }
}

impl std::fmt::Display for PageType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How many numbers [`Cues::vector`] gives.
pub const CUES: usize = 70;

/// The cues of one page's extraction that the models read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cues {
    /// The page's text characters (every line's).
    pub page_text: u32,
    /// Of those, anchor text.
    pub page_links: u32,
    /// The page's markup bytes.
    pub page_code: u64,
    /// Lines with text in the page.
    pub page_lines: u32,
    /// Of those, lines marked as a comment thread.
    pub comment_lines: u32,
    /// Of those, lines marked as other furniture.
    pub furniture_lines: u32,
    /// Text characters of the lines given.
    pub text: u32,
    /// Of those, anchor text.
    pub links: u32,
    /// Lines given with text.
    pub lines: u32,
    /// Of those, lines of ≥ 200 characters (paragraphs).
    pub paragraphs: u32,
    /// Of those, lines under 40 characters.
    pub short_lines: u32,
    /// Of those, headings.
    pub headings: u32,
    /// Of those, lines inside `<main>` or `<article>`.
    pub declared: u32,
    /// Which reading was taken: 0 the article reading, 1 the listing
    /// reading, 2 a thread of posts, 3 a shop's grid over its prose, 4 no
    /// reading (the page's text whole).
    pub reading: u8,
    /// The article reading has no paragraph and the page a grid of cards.
    pub grid: bool,
    /// The article reading's text is a small share of the page's.
    pub short: bool,
    /// The article reading pays most of its text back in markup and links.
    pub paid: bool,
    /// The article reading holds few paragraphs.
    pub few: bool,
    /// The article reading's value over its text (how much of it was paid
    /// back in markup and links), in [-1, 1].
    pub worth: f32,
    /// The chain's regions.
    pub regions: u32,
    /// Declared types: bits of [`Declared`].
    pub declared_types: u16,
    /// URL path cues: bits of [`UrlShape`]; 0 without a URL.
    pub url: u16,
    /// Path segments of the URL.
    pub url_depth: u8,
    /// Title cues: bits of [`TitleWords`].
    pub title: u16,
    /// Prices in the text given: a currency sign (`$`, `£`, `€`) before a
    /// digit.
    pub prices: u32,
    /// Some of the page's tags, as the counting pass met them.
    pub tags: TagCounts,
    /// Lines with text in the page that open with a heading: `<h1>`,
    /// `<h2>`, `<h3>` to `<h6>`.
    pub page_headings: [u32; 3],
    /// Words of the text given ([`Words`]), in its first [`WORDS_SAMPLE`]
    /// bytes.
    pub words: Words,
}

/// How much of the text given the [`Words`] are counted in.
pub const WORDS_SAMPLE: usize = 2048;

/// Words in the first [`WORDS_SAMPLE`] bytes of the text given, found as
/// written (a pronoun between spaces, or capitalised for the first word of
/// a sentence): how a business addresses its reader, calls to act, a shop's
/// words, dates.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Words {
    /// The bytes read.
    pub bytes: u32,
    /// `we`, `our`.
    pub we: u32,
    /// `you`, `your`.
    pub you: u32,
    /// `my`, `I'm`.
    pub me: u32,
    /// Calls to act: `contact`, `quote`, `book now`, `schedule`, `enroll`,
    /// `get started`, `sign up`.
    pub calls: u32,
    /// A shop's words: `cart`, `review`, `stock`, `shipping`.
    pub shop: u32,
    /// `ago` (`3 days ago`).
    pub dates: u32,
}

/// The kinds of [`Words`].
#[derive(Clone, Copy)]
enum Word {
    We,
    You,
    Me,
    Call,
    Shop,
    Date,
}

/// The words [`Cues::count_words`] counts, as they are written (the search
/// is exact, one vectorised search per word: a pronoun between spaces, or
/// capitalised for the first word of a sentence).
const WORD_NEEDLES: &[(&str, Word)] = &[
    (" we ", Word::We),
    ("We ", Word::We),
    (" our ", Word::We),
    ("Our ", Word::We),
    (" you", Word::You),
    ("You", Word::You),
    (" my ", Word::Me),
    ("My ", Word::Me),
    ("I'm ", Word::Me),
    ("ontact", Word::Call),
    (" quote", Word::Call),
    ("ook now", Word::Call),
    ("chedule", Word::Call),
    ("nroll", Word::Call),
    ("et started", Word::Call),
    ("ign up", Word::Call),
    (" cart", Word::Shop),
    ("eview", Word::Shop),
    (" stock", Word::Shop),
    ("hipping", Word::Shop),
    (" ago", Word::Date),
];

/// A searcher per word of [`WORD_NEEDLES`].
static WORD_FINDERS: LazyLock<Vec<(Finder<'static>, Word)>> = LazyLock::new(|| {
    WORD_NEEDLES
        .iter()
        .map(|&(needle, kind)| (Finder::new(needle.as_bytes()).into_owned(), kind))
        .collect()
});

/// Declared types, from `og:type` and JSON-LD `@type` in the page's head.
#[derive(Clone, Copy, Debug)]
pub struct Declared;

impl Declared {
    /// `Article`, `NewsArticle`, `BlogPosting`, `og:type` `article`.
    pub const ARTICLE: u16 = 1;
    /// `Product`, `og:type` `product`.
    pub const PRODUCT: u16 = 2;
    /// `DiscussionForumPosting`, `QAPage`, `Question`.
    pub const FORUM: u16 = 4;
    /// `CollectionPage`, `ItemList`, `SearchResultsPage`.
    pub const COLLECTION: u16 = 8;
    /// `TechArticle`, `APIReference`, `SoftwareSourceCode`.
    pub const DOCUMENTATION: u16 = 16;
    /// `Service`, `LocalBusiness`, `Organization`, `ProfessionalService`.
    pub const SERVICE: u16 = 32;
    /// `WebPage`, `WebSite` only, `og:type` `website`.
    pub const WEBSITE: u16 = 64;
    /// `FAQPage`, `HowTo`.
    pub const FAQ: u16 = 128;
    /// A `BreadcrumbList`.
    pub const BREADCRUMBS: u16 = 256;
    /// A publication date (`article:published_time`, `datePublished`).
    pub const PUBLISHED: u16 = 512;
}

/// URL path cues: words in the URL's path (ASCII case-insensitive).
#[derive(Clone, Copy, Debug)]
pub struct UrlShape;

impl UrlShape {
    /// `forum`, `thread`, `topic`, `community`, `discussion`, `questions`, `/t/`.
    pub const FORUM: u16 = 1;
    /// `product`, `/p/`, `/dp/`, `item`, `shop/`.
    pub const PRODUCT: u16 = 2;
    /// `doc`, `api`, `reference`, `guide`, `manual`, `learn`, `tutorial`, `wiki`.
    pub const DOCUMENTATION: u16 = 4;
    /// `category`, `categories`, `tag`, `collection`, `search`, `/c/`, `archive`, `list`.
    pub const LISTING: u16 = 8;
    /// `blog`, `news`, `article`, `post`, `story`, a year `/20..`.
    pub const ARTICLE: u16 = 16;
    /// `service`, `solution`, `about`, `contact`, `pricing`, `company`.
    pub const SERVICE: u16 = 32;
    /// A query string.
    pub const QUERY: u16 = 64;
    /// Ends with `.html`, `.htm`, `.php`, `.aspx`.
    pub const FILE: u16 = 128;
    /// The site's root page.
    pub const ROOT: u16 = 256;
    /// A path ending in a long slug (≥ 4 words joined by `-`).
    pub const SLUG: u16 = 512;
    /// A host named for documentation (`docs.`, `developer`, `wiki`, `learn.`).
    pub const DOCS_HOST: u16 = 1024;
    /// A host named for a forum (`forum`, `community.`, `discuss`, `answers.`); no cue
    /// names a site.
    pub const FORUM_HOST: u16 = 2048;
    /// A host named for a shop (`shop`, `store`).
    pub const SHOP_HOST: u16 = 4096;
}

/// Words in the page's title (ASCII case-insensitive), one bit per kind.
#[derive(Clone, Copy, Debug)]
pub struct TitleWords;

impl TitleWords {
    /// `documentation`, `docs`, `api`, `reference`, `guide`, `manual`, `tutorial`.
    pub const DOCUMENTATION: u16 = 1;
    /// `forum`, `thread`, `community`, `discussion`, `question`, `help`.
    pub const FORUM: u16 = 2;
    /// `shop`, `buy`, `price`, `sale`, `store`, `$`, `£`, `€`.
    pub const PRODUCT: u16 = 4;
    /// `services`, `company`, `contact`, `about`, `pricing`, `hire`, `agency`.
    pub const SERVICE: u16 = 8;
    /// `news`, `archive`, `category`, `results`, `collection`, `courses`, `page 2`.
    pub const LISTING: u16 = 16;
    /// Title separators `|` or ` - `: a site name beside the page's.
    pub const SITE_NAME: u16 = 32;
    /// Six words or more.
    pub const LONG: u16 = 64;
    /// What a business offers: `service`, `repair`, `lessons`, `course`,
    /// `training`, `certification`, `program`, `plans`, `packages`,
    /// `consulting`, `solutions`, `staffing`, `tuition`, `insurance`, …
    pub const OFFER: u16 = 128;
}

impl Cues {
    /// The page-wide counts over `lines`; `comments` and `furniture` tell
    /// a line's mark.
    pub(crate) fn count_page(&mut self, lines: &[Line], mark: impl Fn(usize) -> u8) {
        for (i, line) in lines.iter().enumerate() {
            self.page_text = self.page_text.saturating_add(line.content);
            self.page_links = self.page_links.saturating_add(line.link);
            self.page_code += u64::from(line.code);
            if line.content > 0 {
                self.page_lines += 1;
                if let Some(n) = self
                    .page_headings
                    .get_mut(usize::from(line.heading.min(3)).wrapping_sub(1))
                {
                    *n += 1;
                }
                match mark(i) {
                    0 => {}
                    4 => self.comment_lines += 1,
                    _ => self.furniture_lines += 1,
                }
            }
        }
    }

    /// Counts one line given.
    pub(crate) fn count_given(&mut self, line: &Line) {
        if line.content == 0 {
            return;
        }
        self.text = self.text.saturating_add(line.content);
        self.links = self.links.saturating_add(line.link);
        self.lines += 1;
        self.paragraphs += u32::from(line.content >= 200);
        self.short_lines += u32::from(line.content < 40);
        self.headings += u32::from(line.heading > 0);
        self.declared += u32::from(line.in_main || line.in_article);
    }

    /// The declared types of the page `html` ([`Declared`]): read in the
    /// `<meta>` tags and JSON-LD scripts of its head (up to its `</head>` or
    /// `<body>`, at most 256 KB in) where the counting pass noted them
    /// ([`Landmarks`]), so no byte of the page is searched twice.
    pub(crate) fn read_declared(&mut self, html: &[u8], landmarks: &Landmarks) {
        let head_end = landmarks
            .head_end
            .map_or(html.len(), |end| end as usize)
            .min(html.len())
            .min(1 << 18);
        let in_head = |&&(start, _): &&(u32, u32)| (start as usize) < head_end;
        let mut bits = 0;
        let mut og_type = false;
        for &(start, end) in landmarks.meta.iter().take_while(in_head) {
            let tag = html.get(start as usize..end as usize).unwrap_or_default();
            if !og_type && memchr::memmem::find(tag, b"og:type").is_some() {
                og_type = true;
                if contains(tag, b"article") {
                    bits |= Declared::ARTICLE;
                } else if contains(tag, b"product") {
                    bits |= Declared::PRODUCT;
                } else if contains(tag, b"website") {
                    bits |= Declared::WEBSITE;
                }
            }
            if memchr::memmem::find(tag, b"ublished").is_some() {
                bits |= Declared::PUBLISHED;
            }
        }
        for &(start, end) in landmarks.json_ld.iter().take_while(in_head) {
            let script = html.get(start as usize..end as usize).unwrap_or_default();
            if memchr::memmem::find(script, b"ublished").is_some() {
                bits |= Declared::PUBLISHED;
            }
            bits |= json_ld_types(script);
        }
        self.declared_types = bits;
    }

    /// The URL cues of `url` ([`UrlShape`]).
    pub(crate) fn read_url(&mut self, url: &str) {
        let lower = url.to_ascii_lowercase();
        let rest = lower.split_once("://").map_or(lower.as_str(), |(_, r)| r);
        let (path, query) = match rest.split_once('?') {
            Some((path, _)) => (path, true),
            None => (rest, false),
        };
        let path = path.split('#').next().unwrap_or_default();
        let (host, path) = path.split_once('/').unwrap_or((path, ""));
        let mut bits = 0;
        let host_has = |words: &[&str]| words.iter().any(|w| host.contains(w));
        if host_has(&["docs.", "developer", "wiki", "learn."]) {
            bits |= UrlShape::DOCS_HOST;
        }
        if host_has(&["forum", "community.", "discuss", "answers."]) {
            bits |= UrlShape::FORUM_HOST;
        }
        if host_has(&["shop", "store"]) {
            bits |= UrlShape::SHOP_HOST;
        }
        let has = |words: &[&str]| words.iter().any(|w| path.contains(w));
        if has(&[
            "forum",
            "thread",
            "topic",
            "community",
            "discussion",
            "questions",
            "t/",
        ]) {
            bits |= UrlShape::FORUM;
        }
        if has(&["product", "p/", "dp/", "item", "shop/"]) {
            bits |= UrlShape::PRODUCT;
        }
        if has(&[
            "doc",
            "api",
            "reference",
            "guide",
            "manual",
            "learn",
            "tutorial",
            "wiki",
        ]) {
            bits |= UrlShape::DOCUMENTATION;
        }
        if has(&[
            "categor",
            "tag/",
            "tags/",
            "collection",
            "search",
            "c/",
            "archive",
            "list",
        ]) {
            bits |= UrlShape::LISTING;
        }
        if has(&["blog", "news", "article", "post", "story", "/20"]) && !path.is_empty() {
            bits |= UrlShape::ARTICLE;
        }
        if has(&[
            "service", "solution", "about", "contact", "pricing", "company",
        ]) {
            bits |= UrlShape::SERVICE;
        }
        if query {
            bits |= UrlShape::QUERY;
        }
        if [".html", ".htm", ".php", ".aspx", ".asp"]
            .iter()
            .any(|e| path.ends_with(e))
        {
            bits |= UrlShape::FILE;
        }
        let segments = path.split('/').filter(|s| !s.is_empty());
        if path.trim_matches('/').is_empty() {
            bits |= UrlShape::ROOT;
        }
        if segments
            .clone()
            .next_back()
            .is_some_and(|s| s.split('-').count() >= 4)
        {
            bits |= UrlShape::SLUG;
        }
        self.url_depth = segments.count().min(255) as u8;
        self.url = bits;
    }

    /// Counts the prices in the text given, `text`.
    pub(crate) fn count_prices(&mut self, text: &str) {
        let bytes = text.as_bytes();
        // `£` and `€` end in 0xA3 and 0xAC in UTF-8.
        self.prices = memchr::memchr3_iter(b'$', 0xA3, 0xAC, bytes)
            .filter(|&at| {
                let sign = match bytes.get(at) {
                    Some(b'$') => true,
                    Some(0xA3) => at >= 1 && bytes.get(at - 1) == Some(&0xC2),
                    _ => at >= 2 && bytes.get(at - 2..at) == Some(&[0xE2, 0x82][..]),
                };
                sign && bytes.get(at + 1).is_some_and(|b| b.is_ascii_digit())
            })
            .count()
            .min(u32::MAX as usize) as u32;
    }

    /// Counts the [`Words`] in the first [`WORDS_SAMPLE`] bytes of the text
    /// given, `text`: one vectorised search per word ([`WORD_NEEDLES`]).
    pub(crate) fn count_words(&mut self, text: &str) {
        let sample = text
            .as_bytes()
            .get(..text.len().min(WORDS_SAMPLE))
            .unwrap_or_default();
        let mut words = Words {
            bytes: sample.len() as u32,
            ..Words::default()
        };
        for (finder, kind) in WORD_FINDERS.iter() {
            let n = finder.find_iter(sample).count() as u32;
            match kind {
                Word::We => words.we += n,
                Word::You => words.you += n,
                Word::Me => words.me += n,
                Word::Call => words.calls += n,
                Word::Shop => words.shop += n,
                Word::Date => words.dates += n,
            }
        }
        self.words = words;
    }

    /// The title cues of `title` ([`TitleWords`]).
    pub(crate) fn read_title(&mut self, title: &str) {
        let lower = title.to_lowercase();
        let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
        let mut bits = 0;
        if has(&[
            "documentation",
            "docs",
            "api",
            "reference",
            "guide",
            "manual",
            "tutorial",
        ]) {
            bits |= TitleWords::DOCUMENTATION;
        }
        if has(&[
            "forum",
            "thread",
            "community",
            "discussion",
            "question",
            "help",
        ]) {
            bits |= TitleWords::FORUM;
        }
        if has(&["shop", "buy", "price", "sale", "store", "$", "£", "€"]) {
            bits |= TitleWords::PRODUCT;
        }
        if has(&[
            "services", "company", "contact", "about", "pricing", "hire", "agency",
        ]) {
            bits |= TitleWords::SERVICE;
        }
        if has(&[
            "news",
            "archive",
            "category",
            "results",
            "collection",
            "courses",
            "page 2",
        ]) {
            bits |= TitleWords::LISTING;
        }
        if has(&["|", " - ", " – ", " — "]) {
            bits |= TitleWords::SITE_NAME;
        }
        if lower.split_whitespace().count() >= 6 {
            bits |= TitleWords::LONG;
        }
        if has(&[
            "service",
            "repair",
            "lesson",
            "course",
            "training",
            "certifica",
            "program",
            "plans",
            "packages",
            "consult",
            "solutions",
            "staffing",
            "recruit",
            "tuition",
            "insurance",
            "attorney",
            "lawyer",
            "clinic",
            "software",
        ]) {
            bits |= TitleWords::OFFER;
        }
        self.title = bits;
    }

    /// The numbers the models read, in `model.rs`'s order.
    pub fn vector(&self) -> [f32; CUES] {
        let ratio = |a: u32, b: u32| if b == 0 { 0.0 } else { a as f32 / b as f32 };
        let ln = |x: f64| (1.0 + x).ln() as f32;
        let bit = |bits: u16, b: u16| f32::from(u8::from(bits & b != 0));
        let flag = |b: bool| f32::from(u8::from(b));
        // Words per 100 words of the sample (about 6 bytes a word).
        let per_word = |n: u32| 600.0 * n as f32 / (60.0 + self.words.bytes as f32);
        [
            ln(f64::from(self.page_text)),
            ratio(self.text, self.page_text),
            ratio(self.page_links, self.page_text),
            ratio(self.links, self.text),
            ln(f64::from(self.lines)),
            ln(f64::from(self.paragraphs)),
            ln(f64::from(ratio(self.text, self.lines))),
            ratio(self.headings, self.lines),
            ratio(self.short_lines, self.lines),
            ratio(self.declared, self.lines),
            ratio(self.comment_lines, self.page_lines),
            ratio(self.furniture_lines, self.page_lines),
            ln(self.page_code as f64 / (1.0 + f64::from(self.page_text))),
            flag(self.reading == 1),
            flag(self.reading == 2),
            flag(self.reading == 3),
            flag(self.reading == 4),
            flag(self.grid),
            flag(self.short),
            flag(self.paid),
            flag(self.few),
            self.worth,
            ln(f64::from(self.regions)),
            bit(self.declared_types, Declared::ARTICLE),
            bit(self.declared_types, Declared::PRODUCT),
            bit(self.declared_types, Declared::FORUM),
            bit(self.declared_types, Declared::COLLECTION),
            bit(self.declared_types, Declared::DOCUMENTATION | Declared::FAQ),
            bit(self.declared_types, Declared::SERVICE),
            bit(self.url, UrlShape::FORUM),
            bit(self.url, UrlShape::PRODUCT),
            bit(self.url, UrlShape::DOCUMENTATION),
            bit(self.url, UrlShape::LISTING),
            bit(self.url, UrlShape::ARTICLE),
            bit(self.url, UrlShape::SERVICE),
            bit(self.url, UrlShape::QUERY),
            bit(self.url, UrlShape::ROOT),
            bit(self.url, UrlShape::SLUG),
            bit(self.url, UrlShape::DOCS_HOST),
            bit(self.url, UrlShape::FORUM_HOST),
            bit(self.url, UrlShape::SHOP_HOST),
            bit(self.title, TitleWords::DOCUMENTATION),
            bit(self.title, TitleWords::FORUM),
            bit(self.title, TitleWords::PRODUCT),
            bit(self.title, TitleWords::SERVICE),
            bit(self.title, TitleWords::LISTING),
            bit(self.title, TitleWords::SITE_NAME | TitleWords::LONG),
            bit(self.declared_types, Declared::PUBLISHED),
            bit(self.declared_types, Declared::WEBSITE),
            ln(f64::from(self.prices)),
            ratio(self.prices, self.lines),
            ln(f64::from(self.tags.blocks(Block::Form))),
            ln(f64::from(self.tags.items)),
            ln(f64::from(self.tags.blocks(Block::Section))),
            ln(f64::from(self.tags.blocks(Block::Article))),
            ln(f64::from(self.tags.blocks(Block::Table))),
            ln(f64::from(self.tags.pre + self.tags.code)),
            ln(f64::from(self.tags.times)),
            ln(f64::from(self.tags.inputs)),
            ln(f64::from(self.tags.images)),
            ln(f64::from(self.words.dates)),
            ln(f64::from(self.page_headings[0])),
            ln(f64::from(self.page_headings[1])),
            ln(f64::from(self.page_headings[2])),
            bit(self.title, TitleWords::OFFER),
            ln(f64::from(self.words.calls)),
            ln(f64::from(self.words.shop)),
            per_word(self.words.we),
            per_word(self.words.you),
            per_word(self.words.me),
        ]
    }

    /// The page's type and the model's probability of each type (in
    /// [`PageType::ALL`]'s order).
    pub fn page_type(&self) -> (PageType, [f32; 7]) {
        let x = self.vector();
        let mut scores = [0f32; 7];
        for (k, score) in scores.iter_mut().enumerate() {
            let w = &model::TYPE_WEIGHTS[k];
            *score = model::TYPE_BIAS[k]
                + x.iter()
                    .zip(w)
                    .zip(model::MEAN.iter().zip(&model::SCALE))
                    .map(|((&v, &w), (&m, &s))| w * (v - m) / s)
                    .sum::<f32>();
        }
        let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0.0;
        for s in &mut scores {
            *s = (*s - top).exp();
            sum += *s;
        }
        for s in &mut scores {
            *s /= sum;
        }
        let best = (0..7)
            .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
            .unwrap_or(0);
        (PageType::ALL[best], scores)
    }

    /// The expected word-level F1 of the extraction, in [0, 1], given the
    /// type probabilities `types` ([`Cues::page_type`]).
    pub fn confidence(&self, types: &[f32; 7]) -> f32 {
        let x = self.vector();
        let linear = model::F1_BIAS
            + x.iter()
                .zip(&model::F1_WEIGHTS)
                .zip(model::MEAN.iter().zip(&model::SCALE))
                .map(|((&v, &w), (&m, &s))| w * (v - m) / s)
                .sum::<f32>()
            + types
                .iter()
                .zip(&model::F1_TYPE_WEIGHTS)
                .map(|(p, w)| p * w)
                .sum::<f32>();
        linear.clamp(0.0, 1.0)
    }
}

/// The [`Declared`] bits of the `@type`s a JSON-LD script names.
fn json_ld_types(script: &[u8]) -> u16 {
    let mut bits = 0;
    for at in memchr::memmem::find_iter(script, b"@type") {
        let value = script
            .get(at + 5..(at + 60).min(script.len()))
            .unwrap_or_default();
        let value = value
            .iter()
            .position(|&b| b.is_ascii_alphabetic())
            .and_then(|start| value.get(start..))
            .unwrap_or_default();
        let end = value
            .iter()
            .position(|&b| !b.is_ascii_alphanumeric())
            .unwrap_or(value.len());
        bits |= match value.get(..end).unwrap_or_default() {
            b"Article"
            | b"NewsArticle"
            | b"BlogPosting"
            | b"ReportageNewsArticle"
            | b"OpinionNewsArticle"
            | b"ScholarlyArticle" => Declared::ARTICLE,
            b"Product" | b"ProductGroup" | b"Offer" | b"AggregateOffer" => Declared::PRODUCT,
            b"DiscussionForumPosting" | b"QAPage" | b"Question" | b"Answer" | b"Comment" => {
                Declared::FORUM
            }
            b"CollectionPage" | b"ItemList" | b"SearchResultsPage" | b"OfferCatalog" => {
                Declared::COLLECTION
            }
            b"TechArticle" | b"APIReference" | b"SoftwareSourceCode" | b"SoftwareApplication" => {
                Declared::DOCUMENTATION
            }
            b"Service"
            | b"LocalBusiness"
            | b"ProfessionalService"
            | b"Organization"
            | b"Corporation"
            | b"ContactPage"
            | b"AboutPage" => Declared::SERVICE,
            b"WebPage" | b"WebSite" => Declared::WEBSITE,
            b"FAQPage" | b"HowTo" => Declared::FAQ,
            b"BreadcrumbList" => Declared::BREADCRUMBS,
            _ => 0,
        };
    }
    bits
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_words_in_the_first_bytes_of_the_text_only() {
        let text = "We repair treadmills. Our team comes to you\nYou can book now or \
            contact us for a quote; my shop, I'm told, has 3 in stock and ships \
            (2 days ago). Answer: nowhere";
        let mut cues = Cues::default();
        cues.count_words(text);
        let w = cues.words;
        assert_eq!(w.bytes as usize, text.len());
        assert_eq!((w.we, w.you, w.me), (2, 2, 2));
        assert_eq!((w.calls, w.shop, w.dates), (3, 1, 1));
        let long = format!("{}{}", "x".repeat(WORDS_SAMPLE), " we ");
        cues.count_words(&long);
        assert_eq!(
            (cues.words.we, cues.words.bytes as usize),
            (0, WORDS_SAMPLE)
        );
    }

    /// The declared types come from the head's `<meta>` tags and JSON-LD
    /// scripts as the landmarks give them: an `@type` in another script, or
    /// anything after the head, is not read.
    #[test]
    fn declared_types_are_read_in_the_heads_meta_tags_and_json_ld() {
        let declared = |html: &str| {
            let mut landmarks = Landmarks::default();
            crate::density::landmarks::collect(html.as_bytes(), &mut landmarks);
            let mut cues = Cues::default();
            cues.read_declared(html.as_bytes(), &landmarks);
            cues.declared_types
        };
        let head =
            |inside: &str| format!("<html><head>{inside}</head><body><p>x</p></body></html>");
        assert_eq!(
            declared(&head(r#"<meta content="article" property="og:type">"#)),
            Declared::ARTICLE
        );
        assert_eq!(
            declared(&head(
                r#"<script type="application/ld+json">{"@type": "Product", "datePublished": "2024"}</script>"#
            )),
            Declared::PRODUCT | Declared::PUBLISHED
        );
        assert_eq!(
            declared(&head(
                r#"<script>var x = {"@type": "Product"}; // published</script>"#
            )),
            0
        );
        let after_head = r#"<html><head></head><body><meta property="og:type" content="product">
            <script type="application/ld+json">{"@type": "NewsArticle"}</script></body></html>"#;
        assert_eq!(declared(after_head), 0);
    }
}
