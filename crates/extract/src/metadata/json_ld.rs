//! JSON-LD: the `<script type="application/ld+json">` blocks of the page,
//! as the counting pass noted them ([`Landmarks::json_ld`]), parsed with
//! `serde_json` (linear in the script, depth-limited) into a [`Json`] that
//! keeps only the keys read here (the rest is parsed and checked as JSON
//! but not built), each up to
//! [`super::MetadataSettings::json_ld_limit`] bytes. A longer or invalid
//! script is not parsed: its dates are read by a bounded key scan
//! ([`key_scan`]) instead.
//!
//! The nodes read are the top-level objects, the members of arrays and of
//! `@graph`, and a page's `mainEntity`: not the nodes nested deeper (the
//! authors and dates of a product's reviews, of the comments, of the items
//! of a list, are not the page's).

use super::{Candidates, Field, MetadataSettings};
use crate::density::landmarks::Landmarks;
use memchr::memmem;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

/// What kind of node a `@type` names, by how much its fields say about the
/// page itself.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Node {
    /// The page's main thing: an article, post, product, recipe, …
    Main,
    /// The web page as such (`WebPage` and its kinds).
    Page,
    /// The web site (`WebSite`): its name is the site's.
    Site,
    /// Anything else with a `@type`.
    Other,
}

/// Types that are the page's main thing.
const MAIN: &[&str] = &[
    "article",
    "newsarticle",
    "blogposting",
    "reportagenewsarticle",
    "analysisnewsarticle",
    "opinionnewsarticle",
    "backgroundnewsarticle",
    "reviewnewsarticle",
    "techarticle",
    "scholarlyarticle",
    "medicalscholarlyarticle",
    "socialmediaposting",
    "liveblogposting",
    "discussionforumposting",
    "advertisercontentarticle",
    "satiricalarticle",
    "report",
    "posting",
    "blog",
    "review",
    "product",
    "recipe",
    "howto",
    "creativework",
    "videoobject",
    "podcastepisode",
    "course",
    "event",
    "jobposting",
    "question",
];

/// The JSON-LD ranks, beside the head's (see [`super::head`]): the main
/// thing's author and dates come first of all sources.
const RANK_MAIN: u8 = 10;
const RANK_PAGE: u8 = 20;
const RANK_OTHER: u8 = 24;
const RANK_SITE: u8 = 12;
const RANK_PUBLISHER: u8 = 14;
const RANK_DESCRIPTION: u8 = 16;
const RANK_KEY_SCAN: u8 = 26;
/// An organisation as author (or the publisher's name as author): weak,
/// a byline naming a person in the body wins over it.
const RANK_ORGANISATION_AUTHOR: u8 = 35;

/// How many authors of one node are written (joined with `, `).
const MAX_AUTHORS: usize = 5;

/// Reads the JSON-LD scripts of `html` (at most
/// [`MetadataSettings::json_ld_scripts`]) into `candidates`.
pub fn read(
    html: &str,
    landmarks: &Landmarks,
    settings: &MetadataSettings,
    candidates: &mut Candidates,
) {
    for &(start, end) in landmarks.json_ld.iter().take(settings.json_ld_scripts) {
        let Some(script) = html.get(start as usize..end as usize) else {
            continue;
        };
        if script.len() > settings.json_ld_limit {
            key_scan(script, settings, candidates);
            continue;
        }
        let mut cleaned = String::new();
        match parse(script, &mut cleaned) {
            Some(value) => read_value(&value, candidates),
            None => key_scan(script, settings, candidates),
        }
    }
}

/// The script as JSON: as written, else with control characters (raw
/// newlines and tabs inside strings, which many sites write and JSON
/// forbids) made spaces (in `cleaned`), and HTML comment or CDATA wrappers
/// removed.
fn parse<'s>(script: &'s str, cleaned: &'s mut String) -> Option<Json<'s>> {
    let trimmed = script.trim();
    if let Ok(value) = serde_json::from_str(trimmed) {
        return Some(value);
    }
    let unwrapped = trimmed
        .trim_start_matches("<!--")
        .trim_start_matches("//<![CDATA[")
        .trim_start_matches("<![CDATA[")
        .trim_end_matches("-->")
        .trim_end_matches("//]]>")
        .trim_end_matches("]]>")
        .trim()
        .trim_end_matches(';');
    cleaned.extend(
        unwrapped
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c }),
    );
    let cleaned: &'s String = cleaned;
    serde_json::from_str(cleaned).ok()
}

/// The keys of a JSON-LD object the metadata reads (at any depth): an
/// object keeps these and drops the rest unbuilt.
#[derive(Clone, Copy)]
enum Key {
    Type,
    Id,
    Name,
    Author,
    Creator,
    Publisher,
    DatePublished,
    DateCreated,
    UploadDate,
    DateModified,
    Description,
    Graph,
    MainEntity,
    MainEntityOfPage,
}

/// The JSON names of [`Key`], in its order.
const KEYS: [&str; 14] = [
    "@type",
    "@id",
    "name",
    "author",
    "creator",
    "publisher",
    "datePublished",
    "dateCreated",
    "uploadDate",
    "dateModified",
    "description",
    "@graph",
    "mainEntity",
    "mainEntityOfPage",
];

/// A JSON value as far as the metadata reads it: strings (borrowed from
/// the script unless they hold escapes), arrays, and objects with only
/// their [`KEYS`]. It is read through `serde_json`'s own parser, value by
/// value as `serde_json::Value` is, so that the same scripts are valid
/// JSON (numbers, escapes, depth) without allocating what is not read.
enum Json<'a> {
    Str(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    Object(Box<Object<'a>>),
    /// A number, `true`, `false` or `null`.
    Other,
}

/// A JSON object's values for [`KEYS`] (the last of a key written twice,
/// as `serde_json::Value`).
#[derive(Default)]
struct Object<'a> {
    values: [Option<Json<'a>>; KEYS.len()],
}

impl<'a> Object<'a> {
    fn get(&self, key: Key) -> Option<&Json<'a>> {
        self.values[key as usize].as_ref()
    }

    fn str(&self, key: Key) -> Option<&str> {
        self.get(key).and_then(Json::as_str)
    }
}

impl<'a> Json<'a> {
    fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The value of `key` when this is an object.
    fn get(&self, key: Key) -> Option<&Json<'a>> {
        match self {
            Json::Object(object) => object.get(key),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Json<'de>, E> {
        Ok(Json::Other)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Json<'de>, E> {
        Ok(Json::Other)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Json<'de>, E> {
        Ok(Json::Other)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Json<'de>, E> {
        Ok(Json::Other)
    }
    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Other)
    }
    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Borrowed(value)))
    }
    fn visit_str<E>(self, value: &str) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Owned(value.to_owned())))
    }
    fn visit_string<E>(self, value: String) -> Result<Json<'de>, E> {
        Ok(Json::Str(Cow::Owned(value)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let mut object = Object::default();
        while let Some(KeySlot(key)) = map.next_key()? {
            match key {
                Some(key) => object.values[key as usize] = Some(map.next_value()?),
                None => {
                    map.next_value::<Skip>()?;
                }
            }
        }
        Ok(Json::Object(Box::new(object)))
    }
}

/// An object key: which of [`KEYS`] it is, if any.
struct KeySlot(Option<Key>);

impl<'de> Deserialize<'de> for KeySlot {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = KeySlot;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_str<E>(self, key: &str) -> Result<KeySlot, E> {
                const ALL: [Key; KEYS.len()] = [
                    Key::Type,
                    Key::Id,
                    Key::Name,
                    Key::Author,
                    Key::Creator,
                    Key::Publisher,
                    Key::DatePublished,
                    Key::DateCreated,
                    Key::UploadDate,
                    Key::DateModified,
                    Key::Description,
                    Key::Graph,
                    Key::MainEntity,
                    Key::MainEntityOfPage,
                ];
                Ok(KeySlot(KEYS.iter().position(|k| *k == key).map(|i| ALL[i])))
            }
        }
        deserializer.deserialize_any(KeyVisitor)
    }
}

/// A value parsed (and so checked) as `serde_json::Value` parses it, and
/// dropped.
struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SkipVisitor)
    }
}

struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skip;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_unit<E>(self) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_str<E>(self, _: &str) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
        while map.next_entry::<Skip, Skip>()?.is_some() {}
        Ok(Skip)
    }
}

/// Reads the nodes of one script.
fn read_value(value: &Json<'_>, candidates: &mut Candidates) {
    let mut nodes = Vec::new();
    collect(value, 0, &mut nodes);
    // `@id` → name, to resolve authors and publishers given by reference.
    let names: HashMap<&str, &str> = nodes
        .iter()
        .filter_map(|n| Some((n.str(Key::Id)?, n.str(Key::Name)?)))
        .collect();
    for node in &nodes {
        read_node(node, &names, candidates);
    }
}

/// The nodes worth reading: top-level objects, array and `@graph` members,
/// and `mainEntity` / `mainEntityOfPage` objects, two levels deep at most.
fn collect<'v, 'a>(value: &'v Json<'a>, depth: usize, nodes: &mut Vec<&'v Object<'a>>) {
    if depth > 3 {
        return;
    }
    match value {
        Json::Array(items) => {
            for item in items {
                collect(item, depth + 1, nodes);
            }
        }
        Json::Object(object) => {
            nodes.push(object);
            for key in [Key::Graph, Key::MainEntity, Key::MainEntityOfPage] {
                if let Some(inner @ (Json::Array(_) | Json::Object(_))) = object.get(key) {
                    collect(inner, depth + 1, nodes);
                }
            }
        }
        _ => {}
    }
}

/// The kind of a node from its `@type` (a string or an array; `schema:`
/// or URL prefixes dropped); `None` without one.
fn kind(node: &Object<'_>) -> Option<Node> {
    let types: Vec<&str> = match node.get(Key::Type)? {
        Json::Str(t) => vec![t.as_ref()],
        Json::Array(ts) => ts.iter().filter_map(Json::as_str).collect(),
        _ => return None,
    };
    types
        .iter()
        .map(|t| {
            let t = t
                .rsplit(['/', ':', '#'])
                .next()
                .unwrap_or(t)
                .to_ascii_lowercase();
            if MAIN.contains(&t.as_str()) {
                Node::Main
            } else if t.ends_with("webpage") || t.ends_with("page") && t != "page" {
                Node::Page
            } else if t == "website" {
                Node::Site
            } else {
                Node::Other
            }
        })
        .min()
}

fn read_node(node: &Object<'_>, names: &HashMap<&str, &str>, candidates: &mut Candidates) {
    let Some(kind) = kind(node) else {
        return;
    };
    let rank = match kind {
        Node::Main => RANK_MAIN,
        Node::Page => RANK_PAGE,
        Node::Site => {
            if let Some(name) = node.str(Key::Name) {
                candidates.offer(Field::SiteName, RANK_SITE, name);
            }
            return;
        }
        Node::Other => RANK_OTHER,
    };
    for key in [Key::Author, Key::Creator] {
        if let Some(author) = node.get(key) {
            let mut joined = String::new();
            author_names(author, names, &mut joined, 0);
            if !joined.is_empty() {
                let publisher = node
                    .get(Key::Publisher)
                    .and_then(|p| p.get(Key::Name))
                    .and_then(Json::as_str);
                let weak = organisation(author) || publisher == Some(joined.as_str());
                let rank = if weak { RANK_ORGANISATION_AUTHOR } else { rank };
                candidates.offer(Field::Author, rank, &joined);
                break;
            }
        }
    }
    for key in [Key::DatePublished, Key::DateCreated, Key::UploadDate] {
        if let Some(date) = node.str(key) {
            if candidates.offer(Field::DatePublished, rank, date) {
                break;
            }
        }
    }
    if let Some(date) = node.str(Key::DateModified) {
        candidates.offer(Field::DateModified, rank, date);
    }
    if kind == Node::Main {
        if let Some(description) = node.str(Key::Description) {
            candidates.offer(Field::Description, RANK_DESCRIPTION, description);
        }
    }
    if let Some(publisher) = node.get(Key::Publisher) {
        let mut name = String::new();
        author_names(publisher, names, &mut name, MAX_AUTHORS - 1);
        if !name.is_empty() {
            candidates.offer(Field::SiteName, RANK_PUBLISHER, &name);
        }
    }
}

/// Whether an author value is only organisations (`@type` an
/// `Organization` or one of its kinds).
fn organisation(value: &Json<'_>) -> bool {
    let is_organisation = |item: &Json<'_>| {
        item.get(Key::Type).and_then(Json::as_str).is_some_and(|t| {
            let t = t.to_ascii_lowercase();
            t.contains("organization") || t == "corporation" || t.ends_with("business")
        })
    };
    match value {
        Json::Array(items) => !items.is_empty() && items.iter().all(is_organisation),
        item => is_organisation(item),
    }
}

/// Appends the names of `value` (a name, a `Person`/`Organization` object,
/// an `@id` reference, or an array of those) to `out`, `, `-separated, up
/// to [`MAX_AUTHORS`] in all (counting the `count` already there).
fn author_names(
    value: &Json<'_>,
    names: &HashMap<&str, &str>,
    out: &mut String,
    count: usize,
) -> usize {
    let mut count = count;
    let mut push = |name: &str, out: &mut String| {
        let name = name.trim();
        if name.is_empty() || count >= MAX_AUTHORS || out.split(", ").any(|n| n == name) {
            return;
        }
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(name);
        count += 1;
    };
    match value {
        Json::Str(name) => push(name, out),
        Json::Object(object) => {
            let name = object
                .get(Key::Name)
                .and_then(|n| match n {
                    Json::Str(s) => Some(s.as_ref()),
                    Json::Array(a) => a.first().and_then(Json::as_str),
                    _ => None,
                })
                .or_else(|| object.str(Key::Id).and_then(|id| names.get(id).copied()));
            if let Some(name) = name {
                push(name, out);
            }
        }
        Json::Array(items) => {
            for item in items.iter().take(MAX_AUTHORS) {
                if !matches!(item, Json::Array(_)) {
                    count = author_names(item, names, out, count);
                }
            }
        }
        _ => {}
    }
    count
}

/// The dates of a script too long or invalid to parse: the first
/// `"datePublished"` and `"dateModified"` string values, looked for in its
/// first [`MetadataSettings::json_ld_limit`] bytes.
fn key_scan(script: &str, settings: &MetadataSettings, candidates: &mut Candidates) {
    let end = script.len().min(settings.json_ld_limit);
    let bytes = &script.as_bytes()[..end];
    for (key, field) in [
        (&b"\"datePublished\""[..], Field::DatePublished),
        (&b"\"dateModified\""[..], Field::DateModified),
    ] {
        let Some(at) = memmem::find(bytes, key) else {
            continue;
        };
        let rest = &bytes[at + key.len()..];
        let rest = trim_ascii_start(rest);
        let Some(rest) = rest.strip_prefix(b":") else {
            continue;
        };
        let Some(rest) = trim_ascii_start(rest).strip_prefix(b"\"") else {
            continue;
        };
        let Some(close) = memchr::memchr(b'"', &rest[..rest.len().min(80)]) else {
            continue;
        };
        if let Ok(value) = std::str::from_utf8(&rest[..close]) {
            candidates.offer(field, RANK_KEY_SCAN, value);
        }
    }
}

fn trim_ascii_start(bytes: &[u8]) -> &[u8] {
    let skip = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &bytes[skip..]
}

#[cfg(test)]
mod tests {
    use super::{Json, Key};

    /// `Json` accepts exactly the scripts `serde_json::Value` accepts.
    #[test]
    fn same_scripts_valid_as_with_value() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let scripts = [
            r#"{"@type": "Article", "author": {"name": "Ann"}, "x": [1, 2.5, -3e4, true, null]}"#,
            r#"{"a": 1e999}"#,
            r#"{"a": 123456789012345678901234567890}"#,
            r#"{"a": "\ud800"}"#,
            r#"{"a": "\u00e9\n"}"#,
            "{\"a\": \"raw\tcontrol\"}",
            r#"{"a": [1, 2,]}"#,
            r#"{"a": 1} trailing"#,
            r#"{"@graph": [{"@type": "Person"}], "@graph": 3}"#,
            r#"{"a": {"b": {"c": [{"d": "\"quoted\""}]}}}"#,
            deep.as_str(),
            "",
        ];
        for script in scripts {
            assert_eq!(
                serde_json::from_str::<Json>(script).is_ok(),
                serde_json::from_str::<serde_json::Value>(script).is_ok(),
                "{script}"
            );
        }
    }

    /// A key written twice keeps its last value, as in `serde_json::Value`.
    #[test]
    fn last_of_a_repeated_key() {
        let json: Json = serde_json::from_str(
            r#"{"author": "First", "other": {"author": "Inner"}, "author": "Last"}"#,
        )
        .expect("valid JSON");
        assert_eq!(json.get(Key::Author).and_then(Json::as_str), Some("Last"));
    }
}
