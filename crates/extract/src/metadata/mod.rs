//! Page metadata: `author`, `date_published`, `date_modified`, `site_name`,
//! `description` and `canonical_url`, read beside the extraction at little
//! cost: no DOM, no second parse of the page, and no pass of its own over
//! its bytes but on a page that names no author or no publish date where
//! the landmarks lead.
//!
//! The counting pass (`density::scan`) notes where the tags read
//! here are, the page's landmarks (`density::landmarks`): its `<meta>` and `<link>` tags, its
//! JSON-LD scripts, its first `<h1>` tags, its `<time>` tags and where its
//! head ends. The reader takes them as they are and reads only those tags'
//! attributes and a few bounded windows around them:
//! - `head`: the `<meta>` (OpenGraph, `article:*`, `name=author|date|…`,
//!   Dublin Core, `itemprop`) and `<link rel=canonical>` tags of the head;
//! - `json_ld`: the `application/ld+json` scripts, parsed with
//!   `serde_json`, each within a size cap;
//! - `byline`: on every page, a walk over a few kilobytes around the first
//!   `<h1>` elements for the date and `By <name>` shown under the title
//!   (`byline::around_title`); and only when the head and JSON-LD gave no
//!   author or no publish date, the body's `<meta>` and `<time>` tags and,
//!   in windows around the `<h1>` and `<time>` tags and the start of the
//!   selected main text, the tags holding microdata or a byline. Only a
//!   page that still names no author or no publish date gets one pass of
//!   the metadata's own over the bytes: a search for the trigger words of
//!   those tags in the first [`MetadataSettings::body_limit`] bytes of its
//!   body (`byline::last_resort`);
//! - `dates`: dates parsed and written as ISO 8601, and the day a URL's
//!   path states.
//!
//! Every source offers values with a rank; the lowest rank wins, so the
//! order of the sources is one table of numbers (measured on wcxb_dev:
//! ACCURACY.md); the date shown under the title and the URL's day then
//! settle the publish date (`settle_dates`). A field is `None` when the
//! page does not state it; a date that does not parse is no date.

mod byline;
mod dates;
mod head;
mod json_ld;
mod tags;
#[cfg(test)]
mod tests;

use crate::density::landmarks::Landmarks;
use crate::density::text::TextSink;

pub use dates::parse as parse_date;

/// What a page says about itself. Every field is `None` when the page does
/// not state it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    /// Who wrote it (several authors joined with `, `).
    pub author: Option<String>,
    /// When it was first published, ISO 8601: a day (`2025-09-04`), a
    /// local date-time (`2025-09-04T10:30:00`) or one with its offset
    /// (`2025-09-04T10:30:00+02:00`), as precise as the page states it.
    pub date_published: Option<String>,
    /// When it was last modified, as `date_published`.
    pub date_modified: Option<String>,
    /// The name of the site or publisher.
    pub site_name: Option<String>,
    /// The page's own summary (`<meta name=description>`, OpenGraph).
    pub description: Option<String>,
    /// The page's canonical URL (`<link rel=canonical>`, `og:url`), as
    /// written, resolved against the page URL when it is relative and that
    /// is known.
    pub canonical_url: Option<String>,
}

/// The bounds of the metadata reader: how much of a page it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetadataSettings {
    /// The most bytes of the page read for the head (a head that does not
    /// end before is read up to here).
    pub head_limit: usize,
    /// The most bytes of one JSON-LD script parsed as JSON; a longer one
    /// has its dates read by a key scan of its first this-many bytes.
    pub json_ld_limit: usize,
    /// The most JSON-LD scripts read on one page.
    pub json_ld_scripts: usize,
    /// The most bytes of the body after the head whose tags are read for
    /// an author or a publish date, when the head and JSON-LD gave none.
    pub body_limit: usize,
    /// The longest value kept, in bytes (a longer description is cut at a
    /// character boundary; a longer author or site name is dropped).
    pub value_limit: usize,
}

impl Default for MetadataSettings {
    fn default() -> Self {
        MetadataSettings {
            head_limit: 256 << 10,
            json_ld_limit: 1 << 20,
            json_ld_scripts: 32,
            body_limit: 256 << 10,
            value_limit: 2000,
        }
    }
}

/// The fields, to index the candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Author,
    DatePublished,
    DateModified,
    SiteName,
    Description,
    CanonicalUrl,
}

/// Ranks from here on are weak: the body is still read for a better one.
const RANK_WEAK: u8 = 27;

/// From this rank on, a value leaves the body walk going (an organisation
/// as author).
const RANK_UNSETTLED: u8 = 35;

/// The rank of a byline shown under the title (`By Jane Doe`): before an
/// organisation as author, after every other source.
const RANK_BYLINE: u8 = 34;

/// The best value offered so far for each field, with its rank.
struct Candidates<'m> {
    out: &'m mut Metadata,
    ranks: [u8; 6],
    value_limit: usize,
    text: String,
    entities: String,
    /// Whether the last `twitter:label1` was `Written by` (its
    /// `twitter:data1` is then the author).
    written_by_label: bool,
}

impl Candidates<'_> {
    /// Whether `field` has a value from the head or JSON-LD's page nodes
    /// (not only a weak one such as an organisation as author), so that
    /// the body need not be read for it.
    fn has_strong(&self, field: Field) -> bool {
        self.ranks[field as usize] < RANK_WEAK
    }

    /// Whether `field` has a value the body walk need not look further
    /// for: any but an organisation as author.
    fn settled(&self, field: Field) -> bool {
        self.ranks[field as usize] < RANK_UNSETTLED
    }

    /// Offers `raw` (entities not yet decoded) for `field` at `rank`:
    /// taken, cleaned for its field, when it ranks before the value held
    /// and is valid (a date that parses, a name that is not a URL). Returns
    /// whether it was taken.
    fn offer(&mut self, field: Field, rank: u8, raw: &str) -> bool {
        if rank >= self.ranks[field as usize] || raw.trim().is_empty() {
            return false;
        }
        decode_into(raw, &mut self.text, &mut self.entities);
        let value = self.text.as_str();
        let kept = match field {
            Field::DatePublished | Field::DateModified => dates::parse(value),
            Field::Author => author(value, self.value_limit).map(str::to_owned),
            Field::SiteName => {
                (!value.is_empty() && value.len() <= self.value_limit / 4).then(|| value.to_owned())
            }
            Field::Description => {
                let mut cut = value.len().min(self.value_limit);
                while !value.is_char_boundary(cut) {
                    cut -= 1;
                }
                (!value.is_empty()).then(|| value[..cut].to_owned())
            }
            Field::CanonicalUrl => {
                (!value.is_empty() && !value.contains(' ')).then(|| value.to_owned())
            }
        };
        let Some(kept) = kept else {
            return false;
        };
        self.ranks[field as usize] = rank;
        *match field {
            Field::Author => &mut self.out.author,
            Field::DatePublished => &mut self.out.date_published,
            Field::DateModified => &mut self.out.date_modified,
            Field::SiteName => &mut self.out.site_name,
            Field::Description => &mut self.out.description,
            Field::CanonicalUrl => &mut self.out.canonical_url,
        } = Some(kept);
        true
    }
}

/// An author value cleaned: `By ` dropped; `None` for what is not a name
/// (a URL, a handle, an e-mail address, empty, longer than a quarter of
/// `limit`).
fn author(value: &str, limit: usize) -> Option<&str> {
    let mut value = value.trim_start_matches([',', ';', '-', '–', '|', ' ']);
    for prefix in ["By ", "by ", "BY "] {
        value = value.strip_prefix(prefix).unwrap_or(value);
    }
    let value = value.trim_matches([',', ';', '-', '–', '|', ' ', '*', '"', '\'', '“', '”']);
    let placeholder = ["the author", "author", "unknown", "anonymous", "guest"]
        .iter()
        .any(|p| value.eq_ignore_ascii_case(p));
    let not_a_name = value.is_empty()
        || placeholder
        || value.len() > limit / 4
        || value.contains("://")
        || value.starts_with("www.")
        || value.starts_with('@')
        || value.contains('@') && !value.contains(' ')
        || value.starts_with('{')
        || value.starts_with('[')
        || !value.chars().any(char::is_alphabetic)
        || value.contains("{{")
        || !value.contains(' ') && value.matches('.').count() >= 2;
    (!not_a_name).then_some(value)
}

/// `raw` with entities decoded and whitespace collapsed (as the title),
/// into `out`.
fn decode_into(raw: &str, out: &mut String, entities: &mut String) {
    let mut sink = TextSink::new(out, entities);
    sink.append_text(raw);
}

/// Settles the publish date with what the page shows: its dateline (see
/// [`byline::around_title`]: the date and whether its label says it is an
/// update) and the day its URL's path states.
///
/// - The day the URL states was set when the page was published: it wins
///   over a publish date of another day, unless that is a local date a
///   time-zone shift away from it ([`dates::time_zone_shift`]). A UTC
///   timestamp does not state the page's local day: when the URL states a
///   day next to it that the instant has in some time zone, that day is
///   the date (`/2025/12/18/` for `2025-12-19T02:41:41+00:00`).
/// - A dateline not labelled as an update is the publish date the page
///   shows: it wins over the head's and JSON-LD's unless it is a day next
///   to theirs (a time-zone shift), their modification date (also seen in
///   another time zone: `2023-09-27` for `2023-09-28T00:49:54+00:00`), or
///   another day than the URL's.
/// - Without any other publish date, the dateline is the page's date even
///   when it is an update (a page that shows only `Updated: …` gives that
///   as its date; it is the modification date too), else the URL's day.
fn settle_dates(out: &mut Metadata, shown: Option<(String, bool)>, url_day: Option<String>) {
    if let (Some(published), Some(local)) = (out.date_published.as_deref(), url_day.as_deref()) {
        let other_day = &published[..10] != local && !dates::time_zone_shift(published, local);
        if dates::local_day_of_utc(published, local) || other_day {
            out.date_published = Some(local.to_owned());
        }
    }
    if let Some((date, updated)) = shown {
        let day = &date[..10];
        if updated && out.date_modified.is_none() {
            out.date_modified = Some(date.clone());
        }
        let overrides = !updated
            && out
                .date_modified
                .as_deref()
                .is_none_or(|m| &m[..10] != day && !dates::time_zone_shift(m, day))
            && url_day.as_deref().is_none_or(|u| u == day)
            && out
                .date_published
                .as_deref()
                .is_some_and(|p| &p[..10] != day && !dates::one_day_apart(&p[..10], day));
        if out.date_published.is_none() || overrides {
            out.date_published = Some(date);
        }
    }
    if out.date_published.is_none() {
        out.date_published = url_day;
    }
}

/// Reads the metadata of pages, reusing its buffers.
#[derive(Debug, Default)]
pub struct MetadataReader {
    settings: MetadataSettings,
    text: String,
    entities: String,
    /// The tags the body fallback reads, reused from page to page.
    window_tags: Vec<(u32, u32)>,
}

impl MetadataReader {
    /// A reader with these bounds.
    pub fn new(settings: MetadataSettings) -> Self {
        MetadataReader {
            settings,
            ..Default::default()
        }
    }

    /// The reader's bounds.
    pub fn settings(&self) -> &MetadataSettings {
        &self.settings
    }

    /// Reads the metadata of `html` (the page decoded to UTF-8) into `out`
    /// (cleared first), from the tags and around the places `landmarks`
    /// (the counting pass's, for this page) gives, and around `main_start`,
    /// where the main text the extraction selected starts, if it is known;
    /// a relative canonical URL is resolved against `url` when it is given.
    pub fn read(
        &mut self,
        html: &str,
        url: Option<&str>,
        landmarks: &Landmarks,
        main_start: Option<usize>,
        out: &mut Metadata,
    ) {
        *out = Metadata::default();
        let settings = self.settings;
        let mut candidates = Candidates {
            out,
            ranks: [u8::MAX; 6],
            value_limit: settings.value_limit,
            text: std::mem::take(&mut self.text),
            entities: std::mem::take(&mut self.entities),
            written_by_label: false,
        };
        let head_end = head::end(html, landmarks, &settings);
        head::read(html, landmarks, head_end, &mut candidates);
        json_ld::read(html, landmarks, &settings, &mut candidates);
        // Only when the head and JSON-LD name no author or no publish
        // date, the body: its `<meta>` and `<time>` tags and, in windows
        // around the landmarks, the tags holding microdata or a byline.
        let fallback =
            !candidates.has_strong(Field::Author) || !candidates.has_strong(Field::DatePublished);
        let mut window_tags = std::mem::take(&mut self.window_tags);
        window_tags.clear();
        let shown = byline::around_title(
            html,
            landmarks,
            head_end,
            &mut candidates,
            fallback.then_some(&mut window_tags),
        );
        if fallback {
            byline::around_landmarks(html, landmarks, head_end, main_start, &mut window_tags);
            byline::read(
                html,
                landmarks,
                &mut window_tags,
                head_end,
                &settings,
                &mut candidates,
            );
            // An organisation as author is not yet the page's author.
            let no_author = !candidates.settled(Field::Author) && shown.author.is_none();
            let no_date = candidates.out.date_published.is_none() && shown.date.is_none();
            if no_author || no_date {
                byline::last_resort(html, head_end, &settings, &mut candidates);
            }
        }
        self.window_tags = window_tags;
        if let Some(name) = &shown.author {
            if !candidates.settled(Field::Author) {
                candidates.offer(Field::Author, RANK_BYLINE, name);
            }
        }
        settle_dates(candidates.out, shown.date, url.and_then(dates::from_url));
        self.text = candidates.text;
        self.entities = candidates.entities;
        if let (Some(canonical), Some(base)) = (&mut out.canonical_url, url) {
            if !canonical.starts_with("http://") && !canonical.starts_with("https://") {
                if let Some(resolved) = url::Url::parse(base)
                    .ok()
                    .and_then(|base| base.join(canonical).ok())
                {
                    *canonical = resolved.into();
                }
            }
        }
    }
}
