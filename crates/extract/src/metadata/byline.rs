//! What the body shows around its landmarks: the dateline and byline
//! under the title ([`around_title`], on every page), and the body's
//! fallbacks, read only when the head and JSON-LD gave no author or no
//! publish date: the body's `<meta>` and `<time datetime>` tags the
//! counting pass noted ([`Landmarks`]) and, in bounded windows around the
//! first `<h1>` and `<time>` tags and the start of the selected main text
//! ([`around_landmarks`]), the tags holding `itemprop` microdata or a
//! byline (`rel=author`, an element whose class names an author, byline or
//! date), all visited in page order ([`read`]). A page that still states
//! no author or no publish date gets one pass over the start of its body
//! ([`last_resort`]).
//!
//! A byline is what the page shows, so it is taken only when it reads as a
//! name: short, no digits, no sentence punctuation; `By ` and the like are
//! dropped. A `<time>` is taken only when its `datetime` (or its text)
//! parses as a date.

use super::tags::{Tag, Walk};
use super::{head, Candidates, Field, MetadataSettings};
use crate::density::landmarks::Landmarks;
use aho_corasick::{AhoCorasick, MatchKind};
use std::sync::LazyLock;

const RANK_ITEMPROP_DATE: u8 = 28;
const RANK_ITEMPROP_AUTHOR: u8 = 30;
const RANK_REL_AUTHOR: u8 = 31;
const RANK_CLASS_AUTHOR: u8 = 32;
const RANK_TIME: u8 = 33;
const RANK_SHOWN_DATE: u8 = 34;

/// The most bytes of an element read for its text.
const TEXT_LIMIT: usize = 400;
/// The longest byline kept, in characters, and its most words.
const NAME_CHARS: usize = 60;
const NAME_WORDS: usize = 7;

/// Words one of which is in every tag [`visit`] reads (besides `<meta>`
/// and `<time>`, which the counting pass notes): searched for all at once
/// (one Aho-Corasick search) in the attributes of a window's tags, or over
/// the bytes of the body by [`last_resort`], so that only those tags'
/// attributes are read one by one.
const TRIGGERS: &[&str] = &[
    "itemprop", "author", "byline", "date", "time", "publish", "updated",
];

/// The searcher for [`TRIGGERS`], built once.
static FINDER: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostFirst)
        .build(TRIGGERS)
        .expect("a few short literal words make an automaton")
});

/// Reads, in page order, the body's `<meta>` and `<time>` tags (those the
/// counting pass noted) and the tags of the windows around the landmarks
/// that hold microdata or a byline (`window_tags`, from [`around_title`]
/// and [`around_landmarks`]), from `from`, the head's end, to
/// [`MetadataSettings::body_limit`] bytes after it, for the author and
/// dates the head lacked, until both are settled.
pub fn read(
    html: &str,
    landmarks: &Landmarks,
    window_tags: &mut Vec<(u32, u32)>,
    from: usize,
    settings: &MetadataSettings,
    candidates: &mut Candidates,
) {
    let end = from.saturating_add(settings.body_limit).min(html.len());
    let after = |tags: &[(u32, u32)]| tags.partition_point(|&(start, _)| (start as usize) < from);
    window_tags.extend_from_slice(&landmarks.meta[after(&landmarks.meta)..]);
    window_tags.extend_from_slice(&landmarks.time[after(&landmarks.time)..]);
    window_tags.sort_unstable();
    window_tags.dedup();
    let mut text = String::new();
    let mut entities = String::new();
    for &(start, tag_end) in window_tags.iter() {
        if (start as usize) < from {
            continue;
        }
        if start as usize >= end
            || candidates.settled(Field::Author) && candidates.settled(Field::DatePublished)
        {
            return;
        }
        if let Some(tag) = Tag::at(html, start as usize, tag_end as usize) {
            visit(html, &tag, candidates, &mut text, &mut entities);
        }
    }
}

/// How many `<time>` tags the body fallback reads around, and how far:
/// a byline sits beside the date it shows.
const TIME_WINDOWS: usize = 3;
const TIME_BEFORE: usize = 1500;
const TIME_AFTER: usize = 1000;
/// How far around the start of the selected main text the body fallback
/// reads: a byline sits just above or below the text (posts show their
/// author in the line above, articles in a box under the title).
const MAIN_BEFORE: usize = 12_000;
const MAIN_AFTER: usize = 2500;

/// The body fallback's windows besides the title's: around the first
/// [`TIME_WINDOWS`] `<time>` tags after `from` and around `main_start`,
/// the start of the selected main text when there is one. The tags in
/// them holding a [`TRIGGERS`] word (microdata, a byline) are noted into
/// `window_tags` for [`read`]. Each byte is walked at most once.
pub fn around_landmarks(
    html: &str,
    landmarks: &Landmarks,
    from: usize,
    main_start: Option<usize>,
    window_tags: &mut Vec<(u32, u32)>,
) {
    let mut windows: Vec<(usize, usize)> = landmarks
        .time
        .iter()
        .map(|&(start, _)| start as usize)
        .filter(|&start| start >= from)
        .take(TIME_WINDOWS)
        .map(|at| {
            (
                at.saturating_sub(TIME_BEFORE),
                at.saturating_add(TIME_AFTER),
            )
        })
        .chain(main_start.map(|at| {
            (
                at.saturating_sub(MAIN_BEFORE),
                at.saturating_add(MAIN_AFTER),
            )
        }))
        .collect();
    windows.sort_unstable();
    let mut walked_to = from;
    for (start, end) in windows {
        let mut start = start.max(walked_to).min(html.len());
        let end = end.min(html.len());
        while !html.is_char_boundary(start) {
            start += 1;
        }
        if start >= end {
            continue;
        }
        walked_to = end;
        let mut walk = Walk::new(html, start, end);
        while let Some(tag) = walk.next() {
            // `<noscript>` is walked into: forum software serves its
            // posts there.
            if !tag.closing
                && ["script", "style", "svg", "template"]
                    .iter()
                    .any(|n| tag.is(n))
            {
                walk.skip_content(tag.name);
            } else {
                note_trigger(&tag, window_tags);
            }
        }
    }
}

/// Notes `tag` into `window_tags` when it is a start tag other than
/// `<meta>` and `<time>` (which the counting pass notes) whose attributes
/// hold a [`TRIGGERS`] word.
fn note_trigger(tag: &Tag<'_>, window_tags: &mut Vec<(u32, u32)>) {
    let read = !tag.closing
        && !tag.attributes.is_empty()
        && !tag.is("meta")
        && !tag.is("time")
        && FINDER.is_match(tag.attributes);
    if read {
        window_tags.push((tag.start as u32, tag.end as u32));
    }
}

/// How far before a trigger word its tag's `<` may be.
const TAG_REACH: usize = 400;

/// The last resort, for a page that states no author or no publish date
/// anywhere the landmarks lead to: the tags holding a [`TRIGGERS`] word in
/// the first [`MetadataSettings::body_limit`] bytes after the head (at
/// `from`), in page order, found with one Aho-Corasick pass over those
/// bytes (an occurrence the pass steps over, `date` in `updated`, starts
/// inside one it reports, with only letters between, so it lies in the
/// same tag). This is the one pass over the page's bytes the metadata
/// makes, and only on such pages.
pub fn last_resort(
    html: &str,
    from: usize,
    settings: &MetadataSettings,
    candidates: &mut Candidates,
) {
    let end = from.saturating_add(settings.body_limit).min(html.len());
    let Some(body) = html.as_bytes().get(from..end) else {
        return;
    };
    let mut starts = Vec::new();
    for found in FINDER.find_iter(body) {
        let hit = from + found.start();
        // The tag the word is in: the last `<` before it, with no `>`
        // between (else the word is text, not markup).
        let reach = hit.saturating_sub(TAG_REACH).max(from);
        let before = &html.as_bytes()[reach..hit];
        if let Some(lt) = memchr::memrchr(b'<', before) {
            if memchr::memchr(b'>', &before[lt..]).is_none() {
                starts.push(reach + lt);
            }
        }
    }
    starts.sort_unstable();
    starts.dedup();
    let mut entities = String::new();
    let mut text = String::new();
    let mut done_to = 0;
    for start in starts {
        if start < done_to {
            continue;
        }
        let Some(tag) = Walk::new(html, start, end).next() else {
            continue;
        };
        if tag.start != start {
            continue;
        }
        done_to = tag.end;
        if candidates.settled(Field::Author) && candidates.settled(Field::DatePublished) {
            return;
        }
        visit(html, &tag, candidates, &mut text, &mut entities);
    }
}

/// How far into the body the page's first `<h1>` is looked for.
const H1_REACH: usize = 1 << 20;
/// The dateline is looked for from this many bytes before the first
/// `<h1>` to this many after its start.
const DATELINE_BEFORE: usize = 600;
const DATELINE_AFTER: usize = 5000;

/// The longest text whose spaced hyphens part it into pieces (a dateline
/// line such as `Essay - Published: 2025.12.17 |`).
const SPACED_HYPHEN_LINE: usize = 80;

/// How far into a `<time>` element's text its label and date are looked
/// for.
const TIME_TEXT_REACH: usize = 100;

/// How many `<h1>` the dateline is looked for around (a site's name is
/// often the first).
const DATELINE_H1S: usize = 3;

/// What a page shows around its title (see [`around_title`]).
#[derive(Debug, Default)]
pub struct Shown {
    /// The dateline: the first date shown, and whether its label says it
    /// is an update.
    pub date: Option<(String, bool)>,
    /// The first byline: a name after `By`, `by:`, `Written by`.
    pub author: Option<String>,
}

/// The dateline and byline of a page: the first date and the first
/// `By <name>` shown as text around its title (from a little before one of
/// its first `<h1>` after `from`, the head's end, to a few kilobytes
/// after), as blogs and articles show them under or over their headline,
/// with or without a label (`Published on`, `Updated:`; a date after
/// `Joined` or `Member since` is a forum member's, not the page's). A
/// `<time datetime>` there is the date it states, whatever its text shows
/// (`Yesterday at 4:25 AM`). The `<h1>` are the counting pass's
/// ([`Landmarks::h1`]); the walks cover at most
/// [`DATELINE_H1S`] × ([`DATELINE_BEFORE`] + [`DATELINE_AFTER`]) bytes.
/// With `window_tags`, the tags of those windows that hold microdata or a
/// byline are noted there for [`read`].
pub fn around_title(
    html: &str,
    landmarks: &Landmarks,
    from: usize,
    candidates: &mut Candidates,
    mut window_tags: Option<&mut Vec<(u32, u32)>>,
) -> Shown {
    let mut shown = Shown::default();
    let end = from.saturating_add(H1_REACH).min(html.len());
    let mut text = std::mem::take(&mut candidates.text);
    let mut entities = std::mem::take(&mut candidates.entities);
    let mut searched_to = from;
    let h1s = landmarks
        .h1
        .iter()
        .map(|&h1| h1 as usize)
        .filter(|&h1| h1 >= from && h1 < end)
        .take(DATELINE_H1S);
    for h1 in h1s {
        // Both ends stay within the page: a window that reached its end
        // leaves the next one empty (a start past the end is no boundary).
        let mut start = h1
            .saturating_sub(DATELINE_BEFORE)
            .max(searched_to)
            .min(html.len());
        while !html.is_char_boundary(start) {
            start += 1;
        }
        searched_to = h1.saturating_add(DATELINE_AFTER).min(html.len());
        let mut window = Window {
            html,
            text: &mut text,
            entities: &mut entities,
            shown: &mut shown,
            window_tags: window_tags.as_deref_mut(),
        };
        window.walk(start, searched_to);
        if shown.date.is_some() && shown.author.is_some() && window_tags.is_none() {
            break;
        }
    }
    candidates.text = text;
    candidates.entities = entities;
    shown
}

/// One window around a title (see [`around_title`]).
struct Window<'w, 'h> {
    html: &'h str,
    text: &'w mut String,
    entities: &'w mut String,
    shown: &'w mut Shown,
    /// Where the window's tags holding microdata or a byline are noted,
    /// when the body fallback is on.
    window_tags: Option<&'w mut Vec<(u32, u32)>>,
}

impl Window<'_, '_> {
    /// Walks `html[start..end]`: the first date and byline shown as text,
    /// into `shown` where it has none yet, and with the fallback on, the
    /// tags holding a [`TRIGGERS`] word into `window_tags`.
    fn walk(&mut self, start: usize, end: usize) {
        let html = self.html;
        let mut walk = Walk::new(html, start, end);
        // The text before the first tag of the window may be inside a tag.
        let mut at = None;
        let mut updated_label = false;
        let mut member_label = false;
        let mut by_label = false;
        let mut texts_done = false;
        while let Some(tag) = walk.next() {
            if let Some(segment) = at
                .filter(|&at| !texts_done && at < tag.start)
                .and_then(|at| html.get(at..tag.start))
            {
                for piece in text_pieces(segment) {
                    super::decode_into(piece, self.text, self.entities);
                    let label = self.text.trim().trim_end_matches([':', ' ']);
                    if label.is_empty() {
                        continue;
                    }
                    let shown = &mut *self.shown;
                    // Every date shown has a digit: text without one is not
                    // tried against the layouts.
                    if shown.date.is_none()
                        && !member_label
                        && self.text.bytes().any(|b| b.is_ascii_digit())
                    {
                        if let Some((date, updated)) = text_date(self.text) {
                            shown.date = Some((date, updated || updated_label));
                        }
                    }
                    if shown.author.is_none() {
                        shown.author = text_byline(self.text, by_label);
                    }
                    if shown.date.is_some() && shown.author.is_some() {
                        texts_done = true;
                        break;
                    }
                    let is = |labels: &[&str]| labels.iter().any(|l| label.eq_ignore_ascii_case(l));
                    updated_label = is(&[
                        "updated",
                        "last updated",
                        "modified",
                        "last modified",
                        "updated on",
                    ]);
                    member_label = is_member_label(label);
                    by_label = is(&["by", "written by", "author", "words by"]);
                }
            }
            if texts_done && self.window_tags.is_none() {
                return;
            }
            if !tag.closing
                && ["script", "style", "svg", "noscript", "template"]
                    .iter()
                    .any(|n| tag.is(n))
            {
                walk.skip_content(tag.name);
            } else if let Some(window_tags) = self.window_tags.as_deref_mut() {
                note_trigger(&tag, window_tags);
            }
            if self.shown.date.is_none() && !member_label && !tag.closing && tag.is("time") {
                self.shown.date = time_date(html, &tag, updated_label);
            }
            at = Some(walk.position());
        }
    }
}

/// Whether a label (its colon dropped) says the date after it is when a
/// member joined a forum (`Joined`, `Member since`, `Registered`), which
/// is not the page's date.
fn is_member_label(label: &str) -> bool {
    ["joined", "join date", "member since", "registered"]
        .iter()
        .any(|l| {
            label
                .get(..l.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(l))
        })
}

/// The date a `<time>` element shows, as its `datetime` states it (the
/// page may show it as `Yesterday at 4:25 AM`, `7 years ago` or
/// `03/01/2017`, which are not read), and whether it is an update: a label
/// before it says so (`updated_label`), or its class (`updated`,
/// `modified`), or the label its text starts with (`Last Updated: Dec 17,
/// 2025`). When its text shows the same instant's day in the page's time
/// zone (`December 2, 2016` for `2016-12-01T23:29:49.000Z`), that day is
/// the date.
fn time_date(html: &str, tag: &Tag<'_>, updated_label: bool) -> Option<(String, bool)> {
    let mut date = super::dates::parse(tag.attribute("datetime")?)?;
    let class_updated = tag
        .attribute("class")
        .is_some_and(|c| contains_word(c, "updated") || contains_word(c, "modified"));
    // The element's first text, up to its next tag (a label is short).
    let mut end = tag.end.saturating_add(TIME_TEXT_REACH).min(html.len());
    while !html.is_char_boundary(end) {
        end -= 1;
    }
    let after = html.get(tag.end..end).unwrap_or_default();
    let first_text = after.split('<').next().unwrap_or_default().trim();
    let (shown, text_updated) = unlabelled_date(first_text).unwrap_or_default();
    if let Some(day) = super::dates::parse_shown(shown) {
        if super::dates::time_zone_shift(&date, &day[..10]) {
            date = day;
        }
    }
    Some((date, updated_label || class_updated || text_updated))
}

/// The pieces of text of a segment between two tags: none when it is
/// only whitespace; comments (`<!-- -->` between React's text nodes) part
/// pieces.
fn text_pieces(segment: &str) -> impl Iterator<Item = &str> {
    let blank = segment.bytes().all(|b| b.is_ascii_whitespace());
    let commented = !blank && memchr::memchr(b'-', segment.as_bytes()).is_some();
    let whole = (!blank && !commented).then_some(segment);
    let parts = commented.then(|| {
        segment
            .split("-->")
            .map(|piece| piece.split("<!--").next().unwrap_or_default())
    });
    whole.into_iter().chain(parts.into_iter().flatten())
}

/// The name a piece of shown text gives as its author: `By Jane Doe`
/// (before any ` - `, `|`, `·` and what follows), or a name alone right
/// after a `By` label.
fn text_byline(text: &str, after_by_label: bool) -> Option<String> {
    let text = text.trim();
    let labelled = ["by ", "by:", "written by "].iter().any(|l| {
        text.len() > l.len()
            && text.is_char_boundary(l.len())
            && text[..l.len()].eq_ignore_ascii_case(l)
    });
    // A byline is short; `by` in prose (`by integrating …`) is followed
    // by a lowercase word.
    if !labelled && !after_by_label || text.chars().count() > 100 {
        return None;
    }
    let first = text
        .split(" - ")
        .next()
        .and_then(|t| t.split(['|', '·', '•', '–', '—', ',']).next())
        .unwrap_or_default();
    let name = name_of(first)?;
    (after_by_label || name.starts_with(char::is_uppercase)).then(|| name.to_owned())
}

/// The first date in a piece of shown text: one of its pieces between
/// separators (`·`, `|`, `•`, dashes) that reads as a date once its label
/// is dropped.
fn text_date(text: &str) -> Option<(String, bool)> {
    let mut updated = false;
    // In a short line, a spaced hyphen parts pieces as a dash does (`Essay
    // - Published: 2025.12.17`); in prose it parts ranges (`01/01/2010 -
    // 31/12/2010`), and a hyphen inside a date (`2025-12-17`) never parts.
    let (mut split, mut whole);
    let parts: &mut dyn Iterator<Item = &str> = if text.len() <= SPACED_HYPHEN_LINE {
        split = text.split(" - ");
        &mut split
    } else {
        whole = std::iter::once(text);
        &mut whole
    };
    for piece in parts.flat_map(|p| p.split(['·', '|', '•', '⋅', '–', '—', '●'])) {
        let piece = piece.trim_matches([',', ' ', '-']);
        if is_member_label(&piece.get(..16).unwrap_or(piece).to_ascii_lowercase()) {
            continue;
        }
        let Some((rest, label_updated)) = unlabelled_date(piece) else {
            continue;
        };
        updated |= label_updated;
        if let Some(date) = super::dates::parse_shown(rest) {
            return Some((date, updated));
        }
    }
    None
}

/// Reads one tag of the body (and, for a byline or date element, its text).
fn visit(
    html: &str,
    tag: &Tag<'_>,
    candidates: &mut Candidates,
    text: &mut String,
    entities: &mut String,
) {
    {
        if tag.closing {
            return;
        }
        if tag.is("meta") {
            head::meta(tag, candidates);
            return;
        }
        if let Some(itemprop) = tag.attribute("itemprop") {
            for prop in itemprop.split_ascii_whitespace() {
                let date = if prop.eq_ignore_ascii_case("datePublished") {
                    Some(Field::DatePublished)
                } else if prop.eq_ignore_ascii_case("dateModified") {
                    Some(Field::DateModified)
                } else {
                    None
                };
                if let Some(field) = date {
                    if let Some(value) = tag
                        .attribute("datetime")
                        .or_else(|| tag.attribute("content"))
                    {
                        candidates.offer(field, RANK_ITEMPROP_DATE, value);
                    } else {
                        let shown = element_text(html, tag, text, entities);
                        candidates.offer(field, RANK_ITEMPROP_DATE, shown);
                    }
                } else if prop.eq_ignore_ascii_case("author")
                    || prop.eq_ignore_ascii_case("creator")
                {
                    if let Some(value) = tag.attribute("content") {
                        candidates.offer(Field::Author, RANK_ITEMPROP_AUTHOR, value);
                    } else if let Some(name) = name_of(element_text(html, tag, text, entities)) {
                        candidates.offer(Field::Author, RANK_ITEMPROP_AUTHOR, name);
                    }
                }
            }
        }
        if tag.is("time") {
            let modified = tag
                .attribute("class")
                .is_some_and(|c| c.contains("updated") || c.contains("modified"));
            let field = if modified {
                Field::DateModified
            } else {
                Field::DatePublished
            };
            match tag.attribute("datetime") {
                Some(value) => candidates.offer(field, RANK_TIME, value),
                None => {
                    let shown = element_text(html, tag, text, entities);
                    candidates.offer(field, RANK_TIME, shown)
                }
            };
            return;
        }
        if tag.is("link") {
            return;
        }
        let class = tag.attribute("class");
        if !candidates.has_strong(Field::DatePublished) && class.is_some_and(names_date) {
            let class_updated =
                class.is_some_and(|c| c.contains("updated") || c.contains("modified"));
            if let Some((date, updated)) = shown_date(html, tag, text, entities) {
                let field = if updated || class_updated {
                    Field::DateModified
                } else {
                    Field::DatePublished
                };
                candidates.offer(field, RANK_SHOWN_DATE, &date);
            }
        }
        if candidates.has_strong(Field::Author) {
            return;
        }
        let rel_author = tag.attribute("rel").is_some_and(|rel| {
            rel.split_ascii_whitespace()
                .any(|r| r.eq_ignore_ascii_case("author"))
        });
        let author_link = tag.is("a")
            && tag
                .attribute("href")
                .is_some_and(|h| h.contains("/author/") || h.contains("/authors/"));
        let rank = if rel_author || author_link {
            RANK_REL_AUTHOR
        } else if class.is_some_and(names_author) {
            RANK_CLASS_AUTHOR
        } else {
            return;
        };
        if let Some(name) = shown_name(html, tag, text, entities) {
            candidates.offer(Field::Author, rank, &name);
        }
    }
}

/// The name an author element shows: its whole text when that reads as a
/// name, else the first of its pieces (between tags, or between separators
/// such as `·` and `|`) that does (`Luke Kim` of `Luke Kim` `December 17,
/// 2025`).
fn shown_name(
    html: &str,
    tag: &Tag<'_>,
    text: &mut String,
    entities: &mut String,
) -> Option<String> {
    if let Some(name) = name_of(element_text(html, tag, text, entities)) {
        return Some(name.to_owned());
    }
    for (from, to) in text_nodes(html, tag) {
        super::decode_into(&html[from..to], text, entities);
        for piece in text.split(['·', '|', '•', '⋅']) {
            if let Some(name) = name_of(piece) {
                return Some(name.to_owned());
            }
        }
    }
    None
}

/// Whether a class attribute names an author or byline element (a class
/// such as `author`, `post-author`, `byline__name`), not a box about the
/// author (`author-bio`, `about-author`).
fn names_author(class: &str) -> bool {
    class.split_ascii_whitespace().any(|c| {
        (contains_word(c, "author") || contains_word(c, "byline"))
            && ![
                "bio", "about", "avatar", "image", "img", "photo", "desc", "box", "info", "social",
                "label", "title", "more", "link",
            ]
            .iter()
            .any(|w| contains_word(c, w))
    })
}

/// Whether a class attribute names an element showing a date
/// (`post-date`, `entry-time`, `published`, `updated`, `entry-meta`,
/// `byline`).
fn names_date(class: &str) -> bool {
    class.split_ascii_whitespace().any(|c| {
        [
            "date", "time", "publish", "posted", "updated", "modified", "meta", "byline",
        ]
        .iter()
        .any(|w| contains_word(c, w))
            && !["dates", "timeline", "times", "timer", "datepicker"]
                .iter()
                .any(|w| contains_word(c, w))
    })
}

/// Whether `class` contains `word` (ASCII lowercase), ASCII case ignored.
fn contains_word(class: &str, word: &str) -> bool {
    class
        .as_bytes()
        .windows(word.len())
        .any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
}

/// A shown date with its label (`Published on`, `Last updated:`, `Date:`)
/// dropped, and whether the label says it is an update.
fn unlabelled_date(text: &str) -> Option<(&str, bool)> {
    const LABELS: &[&str] = &[
        "last",
        "updated",
        "modified",
        "published",
        "posted",
        "on",
        "date",
        "reviewed",
        "originally",
    ];
    let mut rest = text.trim();
    let mut updated = false;
    'labels: loop {
        for label in LABELS {
            if rest.len() > label.len()
                && rest.is_char_boundary(label.len())
                && rest[..label.len()].eq_ignore_ascii_case(label)
                && rest[label.len()..].starts_with([' ', ':', '\u{a0}'])
            {
                updated |= matches!(*label, "updated" | "modified");
                rest = rest[label.len()..].trim_start_matches([' ', ':', '\u{a0}']);
                continue 'labels;
            }
        }
        break;
    }
    (!rest.is_empty() && rest.len() <= 64).then_some((rest, updated))
}

/// The first date shown in the element `tag` opens: one of its text
/// pieces (between tags, or between separators such as `·` and `|`) that
/// parses as a date once its label (`Published on`, `Updated:`) is
/// dropped; and whether a label before it says it is an update.
fn shown_date(
    html: &str,
    tag: &Tag<'_>,
    text: &mut String,
    entities: &mut String,
) -> Option<(String, bool)> {
    let mut updated = false;
    for (from, to) in text_nodes(html, tag) {
        super::decode_into(&html[from..to], text, entities);
        for piece in text.split(['·', '|', '•', '⋅', '–', '—']) {
            let piece = piece.trim_end_matches([',', ' ']);
            let Some((rest, label_updated)) = unlabelled_date(piece) else {
                continue;
            };
            updated |= label_updated;
            if let Some(date) = super::dates::parse(rest) {
                return Some((date, updated));
            }
        }
    }
    None
}

/// The byte ranges of the text between the tags of the element `tag`
/// opens, up to its end tag and at most [`TEXT_LIMIT`] bytes.
fn text_nodes(html: &str, tag: &Tag<'_>) -> Vec<(usize, usize)> {
    let end = tag.end.saturating_add(TEXT_LIMIT).min(html.len());
    let mut nodes = Vec::new();
    let walk = Walk::new(html, tag.end, end);
    let mut at = tag.end;
    let mut depth = 0usize;
    let mut closed = false;
    for inner in walk {
        if inner.start > at {
            nodes.push((at, inner.start));
        }
        at = inner.end;
        if inner.closing {
            if depth == 0 {
                closed = true;
                break;
            }
            depth -= 1;
        } else if !is_void(inner.name) {
            depth += 1;
        }
    }
    if !closed && at < end {
        nodes.push((at, end));
    }
    nodes.retain(|&(from, to)| html.is_char_boundary(from) && html.is_char_boundary(to));
    nodes
}

/// The visible text of the element `tag` opens (up to its end tag, at most
/// [`TEXT_LIMIT`] bytes), tags dropped, entities decoded, whitespace
/// collapsed.
fn element_text<'t>(
    html: &str,
    tag: &Tag<'_>,
    text: &'t mut String,
    entities: &mut String,
) -> &'t str {
    let mut raw = String::new();
    for (from, to) in text_nodes(html, tag) {
        raw.push_str(&html[from..to]);
        raw.push(' ');
    }
    super::decode_into(&raw, text, entities);
    text.as_str()
}

fn is_void(name: &str) -> bool {
    ["br", "img", "meta", "link", "input", "hr", "wbr", "source"]
        .iter()
        .any(|v| name.eq_ignore_ascii_case(v))
}

/// A byline's text as a name: `By`, `Written by`, `Author:` and the like
/// dropped; `None` unless what is left reads as a name.
fn name_of(text: &str) -> Option<&str> {
    let mut name = text.trim();
    for prefix in [
        "updated by",
        "reviewed by",
        "written by",
        "posted by",
        "published by",
        "post by",
        "by:",
        "by",
        "authors:",
        "author:",
        "von",
        "par",
        "por",
    ] {
        if name.len() > prefix.len()
            && name.is_char_boundary(prefix.len())
            && name[..prefix.len()].eq_ignore_ascii_case(prefix)
            && name[prefix.len()..].starts_with([' ', ':', '\u{a0}'])
        {
            name = name[prefix.len()..].trim_start_matches([' ', ':', '\u{a0}']);
            break;
        }
    }
    let name = name.trim_end_matches([' ', ',', '|', '-', '*']);
    // What is left of a label alone (`By`, `Written by`, `About the
    // Author`, `Name *`) is no name.
    let label = name.split_whitespace().any(|w| {
        [
            "by", "author", "authors", "from", "name", "written", "posted",
        ]
        .iter()
        .any(|l| w.eq_ignore_ascii_case(l))
    });
    let words = name.split_whitespace().count();
    // A lone word that is a site's button or heading, not a user name.
    let stop_word = !name.contains(' ')
        && [
            "post", "posts", "find", "updated", "guide", "share", "follow", "view", "more",
            "profile", "contact", "read", "admin", "staff", "editor", "team", "home",
        ]
        .iter()
        .any(|w| name.eq_ignore_ascii_case(w));
    let plausible = name.chars().count() >= 2
        && !stop_word
        && !label
        && name.chars().count() <= NAME_CHARS
        && words <= NAME_WORDS
        && !name.contains(|c: char| {
            c.is_ascii_digit() || matches!(c, '@' | '|' | '?' | '!' | '/' | '«' | '»' | ':')
        })
        && name.chars().next().is_some_and(char::is_alphabetic);
    plausible.then_some(name)
}

#[cfg(test)]
mod tests {
    use super::{name_of, names_author, unlabelled_date};

    #[test]
    fn bylines_read_as_names() {
        assert_eq!(name_of("By Jane Doe"), Some("Jane Doe"));
        assert_eq!(name_of("Written by: Jane Doe, MD"), Some("Jane Doe, MD"));
        assert_eq!(name_of("Jane Doe |"), Some("Jane Doe"));
        assert_eq!(name_of("By Jane Doe on September 4, 2025"), None);
        assert_eq!(
            name_of("Click here to read more about this author and their work"),
            None
        );
        assert_eq!(name_of(""), None);
        assert_eq!(name_of("Post by"), None);
        assert_eq!(name_of("About the Author"), None);
        assert_eq!(name_of("Updated by Jon Linkov"), Some("Jon Linkov"));
    }

    #[test]
    fn shown_dates_lose_their_labels() {
        assert_eq!(
            unlabelled_date("Last updated: Dec 12, 2025"),
            Some(("Dec 12, 2025", true))
        );
        assert_eq!(
            unlabelled_date("Published on July 8, 2025"),
            Some(("July 8, 2025", false))
        );
    }

    #[test]
    fn author_classes() {
        assert!(names_author("meta post-author"));
        assert!(names_author("c-byline__name"));
        assert!(!names_author("author-bio"));
        assert!(!names_author("content"));
    }
}
