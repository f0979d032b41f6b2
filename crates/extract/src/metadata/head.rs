//! The head: `<meta>` (OpenGraph and `article:*`, `name=author|date|…`,
//! Dublin Core, `itemprop`) and `<link rel=canonical>`, the tags the
//! counting pass noted ([`Landmarks::meta`]) before the head's end
//! (`</head>`, `<body>`, at most [`super::MetadataSettings::head_limit`]
//! bytes in): only those tags' attributes are read.

use super::tags::Tag;
use super::{Candidates, Field, MetadataSettings};
use crate::density::landmarks::Landmarks;

/// The `<meta>` keys (`property`, `name`, `itemprop` or `http-equiv`,
/// ASCII lowercase) read, the field each gives and its rank: a lower rank
/// wins over a higher one from any source (JSON-LD's main thing is 10,
/// [`super::json_ld`]); the first of equal ranks wins.
const META: &[(&str, Field, u8)] = &[
    ("author", Field::Author, 15),
    ("article:author", Field::Author, 16),
    ("og:article:author", Field::Author, 16),
    ("parsely-author", Field::Author, 17),
    ("sailthru.author", Field::Author, 17),
    ("dc.creator", Field::Author, 18),
    ("dcterms.creator", Field::Author, 18),
    ("citation_author", Field::Author, 18),
    ("byl", Field::Author, 19),
    ("article:published_time", Field::DatePublished, 12),
    ("og:article:published_time", Field::DatePublished, 12),
    ("og:published_time", Field::DatePublished, 13),
    ("datepublished", Field::DatePublished, 13),
    ("article:published", Field::DatePublished, 13),
    ("article.published", Field::DatePublished, 14),
    ("parsely-pub-date", Field::DatePublished, 14),
    ("pubdate", Field::DatePublished, 14),
    ("publishdate", Field::DatePublished, 14),
    ("publish_date", Field::DatePublished, 14),
    ("publish-date", Field::DatePublished, 14),
    ("publication_date", Field::DatePublished, 14),
    ("published-date", Field::DatePublished, 14),
    ("date", Field::DatePublished, 15),
    ("published", Field::DatePublished, 15),
    ("sailthru.date", Field::DatePublished, 15),
    ("citation_publication_date", Field::DatePublished, 15),
    ("citation_date", Field::DatePublished, 16),
    ("dc.date.issued", Field::DatePublished, 16),
    ("dcterms.issued", Field::DatePublished, 16),
    ("dc.date", Field::DatePublished, 17),
    ("ms.date", Field::DatePublished, 17),
    ("dcterms.date", Field::DatePublished, 17),
    ("dc.date.created", Field::DatePublished, 17),
    ("dcterms.created", Field::DatePublished, 17),
    ("article:modified_time", Field::DateModified, 12),
    ("og:updated_time", Field::DateModified, 13),
    ("datemodified", Field::DateModified, 13),
    ("article.updated", Field::DateModified, 14),
    ("last-modified", Field::DateModified, 15),
    ("modified-date", Field::DateModified, 15),
    ("updated", Field::DateModified, 15),
    ("dc.date.modified", Field::DateModified, 16),
    ("dcterms.modified", Field::DateModified, 16),
    ("og:site_name", Field::SiteName, 10),
    ("application-name", Field::SiteName, 30),
    ("apple-mobile-web-app-title", Field::SiteName, 31),
    ("og:description", Field::Description, 10),
    ("description", Field::Description, 12),
    ("twitter:description", Field::Description, 14),
    ("dc.description", Field::Description, 15),
    ("dcterms.description", Field::Description, 15),
    ("og:url", Field::CanonicalUrl, 12),
];

/// The rank of `<link rel=canonical>`.
const RANK_CANONICAL: u8 = 10;

/// Where the head of `html` ends (where the body starts): at the end the
/// counting pass noted, at most [`MetadataSettings::head_limit`] bytes in;
/// a page with neither `</head>` nor `<body>` is all head up to there.
pub fn end(html: &str, landmarks: &Landmarks, settings: &MetadataSettings) -> usize {
    landmarks
        .head_end
        .map_or(html.len(), |end| end as usize)
        .min(settings.head_limit)
        .min(html.len())
}

/// Reads the `<meta>` and `<link>` tags of the head, which ends at
/// `head_end`.
pub fn read(html: &str, landmarks: &Landmarks, head_end: usize, candidates: &mut Candidates) {
    for &(start, end) in &landmarks.meta {
        let (start, end) = (start as usize, end as usize);
        if start >= head_end {
            break;
        }
        let Some(tag) = Tag::at(html, start, end) else {
            continue;
        };
        if tag.is("meta") {
            meta(&tag, candidates);
        } else if tag.is("link") {
            link(&tag, candidates);
        }
    }
}

/// The rank of Slack's unfurl pair `twitter:label1` = `Written by`,
/// `twitter:data1` = the author.
const RANK_TWITTER_LABEL: u8 = 19;

/// A `<meta>` tag: its key looked up in [`META`], its `content` offered.
pub fn meta(tag: &Tag<'_>, candidates: &mut Candidates) {
    // One pass over the attributes: the keys in the order they are looked
    // up (`property`, `name`, `itemprop`, `http-equiv`) and `content`.
    let mut keys: [Option<&str>; 4] = [None; 4];
    let mut content = None;
    for (name, value) in tag.attributes() {
        let slot = match name.len() {
            7 if name.eq_ignore_ascii_case("content") => {
                content.get_or_insert(value);
                continue;
            }
            8 if name.eq_ignore_ascii_case("property") => 0,
            4 if name.eq_ignore_ascii_case("name") => 1,
            8 if name.eq_ignore_ascii_case("itemprop") => 2,
            10 if name.eq_ignore_ascii_case("http-equiv") => 3,
            _ => continue,
        };
        keys[slot].get_or_insert(value);
    }
    let Some(content) = content else {
        return;
    };
    if let Some(name) = keys[1] {
        if name.eq_ignore_ascii_case("twitter:label1") {
            candidates.written_by_label = content.trim().eq_ignore_ascii_case("written by")
                || content.trim().eq_ignore_ascii_case("author");
            return;
        }
        if name.eq_ignore_ascii_case("twitter:data1") {
            if candidates.written_by_label {
                candidates.offer(Field::Author, RANK_TWITTER_LABEL, content);
            }
            return;
        }
    }
    for name in keys.into_iter().flatten() {
        let name = name.trim();
        if let Some(&(key, field, rank)) =
            META.iter().find(|(k, _, _)| k.eq_ignore_ascii_case(name))
        {
            // Citation metadata names authors `Last, First`.
            let flipped = (key == "citation_author")
                .then(|| content.split_once(", "))
                .flatten()
                .filter(|(_, first)| !first.contains(','))
                .map(|(last, first)| format!("{first} {last}"));
            candidates.offer(field, rank, flipped.as_deref().unwrap_or(content));
            return;
        }
    }
}

/// A `<link>` tag: `rel=canonical`.
fn link(tag: &Tag<'_>, candidates: &mut Candidates) {
    let is_canonical = tag.attribute("rel").is_some_and(|rel| {
        rel.split_ascii_whitespace()
            .any(|r| r.eq_ignore_ascii_case("canonical"))
    });
    if is_canonical {
        if let Some(href) = tag.attribute("href") {
            candidates.offer(Field::CanonicalUrl, RANK_CANONICAL, href);
        }
    }
}
