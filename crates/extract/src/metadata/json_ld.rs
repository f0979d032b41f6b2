//! JSON-LD: the `<script type="application/ld+json">` blocks of the page,
//! found with one `memmem` search over the bytes and parsed with
//! `serde_json` (linear in the script, depth-limited), each up to
//! [`super::MetadataSettings::json_ld_limit`] bytes. A longer or invalid
//! script is not parsed: its dates are read by a bounded key scan
//! ([`key_scan`]) instead.
//!
//! The nodes read are the top-level objects, the members of arrays and of
//! `@graph`, and a page's `mainEntity`: not the nodes nested deeper (the
//! authors and dates of a product's reviews, of the comments, of the items
//! of a list, are not the page's).

use super::{Candidates, Field, MetadataSettings};
use memchr::memmem;
use serde_json::{Map, Value};
use std::collections::HashMap;

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

/// Reads every JSON-LD script of `html` into `candidates`.
pub fn read(html: &str, settings: &MetadataSettings, candidates: &mut Candidates) {
    let bytes = html.as_bytes();
    let finder = memmem::Finder::new(b"ld+json");
    let mut at = 0;
    let mut scripts = 0;
    while scripts < settings.json_ld_scripts {
        let Some(found) = finder.find(&bytes[at..]) else {
            return;
        };
        let hit = at + found;
        at = hit + 7;
        // The `<script` this type belongs to, a few bytes before.
        let from = hit.saturating_sub(256);
        let Some(open) = memmem::rfind(&bytes[from..hit], b"<").map(|o| from + o) else {
            continue;
        };
        if !bytes[open + 1..]
            .get(..6)
            .is_some_and(|n| n.eq_ignore_ascii_case(b"script"))
        {
            continue;
        }
        let Some(content_start) = memchr::memchr(b'>', &bytes[hit..]).map(|e| hit + e + 1) else {
            return;
        };
        let content_end = match memmem::find(&bytes[content_start..], b"</script") {
            Some(end) => content_start + end,
            None => bytes.len(),
        };
        at = content_end;
        scripts += 1;
        let Some(script) = html.get(content_start..content_end) else {
            continue;
        };
        if script.len() > settings.json_ld_limit {
            key_scan(script, settings, candidates);
            continue;
        }
        match parse(script) {
            Some(value) => read_value(&value, candidates),
            None => key_scan(script, settings, candidates),
        }
    }
}

/// The script as JSON: as written, else with control characters (raw
/// newlines and tabs inside strings, which many sites write and JSON
/// forbids) made spaces, and HTML comment or CDATA wrappers removed.
fn parse(script: &str) -> Option<Value> {
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
    let cleaned: String = unwrapped
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    serde_json::from_str(&cleaned).ok()
}

/// Reads the nodes of one script.
fn read_value(value: &Value, candidates: &mut Candidates) {
    let mut nodes = Vec::new();
    collect(value, 0, &mut nodes);
    // `@id` → name, to resolve authors and publishers given by reference.
    let names: HashMap<&str, &str> = nodes
        .iter()
        .filter_map(|n| Some((n.get("@id")?.as_str()?, n.get("name")?.as_str()?)))
        .collect();
    for node in &nodes {
        read_node(node, &names, candidates);
    }
}

/// The nodes worth reading: top-level objects, array and `@graph` members,
/// and `mainEntity` / `mainEntityOfPage` objects, two levels deep at most.
fn collect<'v>(value: &'v Value, depth: usize, nodes: &mut Vec<&'v Map<String, Value>>) {
    if depth > 3 {
        return;
    }
    match value {
        Value::Array(items) => {
            for item in items {
                collect(item, depth + 1, nodes);
            }
        }
        Value::Object(object) => {
            nodes.push(object);
            for key in ["@graph", "mainEntity", "mainEntityOfPage"] {
                if let Some(inner @ (Value::Array(_) | Value::Object(_))) = object.get(key) {
                    collect(inner, depth + 1, nodes);
                }
            }
        }
        _ => {}
    }
}

/// The kind of a node from its `@type` (a string or an array; `schema:`
/// or URL prefixes dropped); `None` without one.
fn kind(node: &Map<String, Value>) -> Option<Node> {
    let types: Vec<&str> = match node.get("@type")? {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
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

fn read_node(node: &Map<String, Value>, names: &HashMap<&str, &str>, candidates: &mut Candidates) {
    let Some(kind) = kind(node) else {
        return;
    };
    let rank = match kind {
        Node::Main => RANK_MAIN,
        Node::Page => RANK_PAGE,
        Node::Site => {
            if let Some(name) = node.get("name").and_then(Value::as_str) {
                candidates.offer(Field::SiteName, RANK_SITE, name);
            }
            return;
        }
        Node::Other => RANK_OTHER,
    };
    let text = |key: &str| node.get(key).and_then(Value::as_str);
    for key in ["author", "creator"] {
        if let Some(author) = node.get(key) {
            let mut joined = String::new();
            author_names(author, names, &mut joined, 0);
            if !joined.is_empty() {
                let publisher = node
                    .get("publisher")
                    .and_then(|p| p.get("name"))
                    .and_then(Value::as_str);
                let weak = organisation(author) || publisher == Some(joined.as_str());
                let rank = if weak { RANK_ORGANISATION_AUTHOR } else { rank };
                candidates.offer(Field::Author, rank, &joined);
                break;
            }
        }
    }
    for key in ["datePublished", "dateCreated", "uploadDate"] {
        if let Some(date) = text(key) {
            if candidates.offer(Field::DatePublished, rank, date) {
                break;
            }
        }
    }
    if let Some(date) = text("dateModified") {
        candidates.offer(Field::DateModified, rank, date);
    }
    if kind == Node::Main {
        if let Some(description) = text("description") {
            candidates.offer(Field::Description, RANK_DESCRIPTION, description);
        }
    }
    if let Some(publisher) = node.get("publisher") {
        let mut name = String::new();
        author_names(publisher, names, &mut name, MAX_AUTHORS - 1);
        if !name.is_empty() {
            candidates.offer(Field::SiteName, RANK_PUBLISHER, &name);
        }
    }
}

/// Whether an author value is only organisations (`@type` an
/// `Organization` or one of its kinds).
fn organisation(value: &Value) -> bool {
    let is_organisation = |item: &Value| {
        item.get("@type").and_then(Value::as_str).is_some_and(|t| {
            let t = t.to_ascii_lowercase();
            t.contains("organization") || t == "corporation" || t.ends_with("business")
        })
    };
    match value {
        Value::Array(items) => !items.is_empty() && items.iter().all(is_organisation),
        item => is_organisation(item),
    }
}

/// Appends the names of `value` (a name, a `Person`/`Organization` object,
/// an `@id` reference, or an array of those) to `out`, `, `-separated, up
/// to [`MAX_AUTHORS`] in all (counting the `count` already there).
fn author_names(
    value: &Value,
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
        Value::String(name) => push(name, out),
        Value::Object(object) => {
            let name = object
                .get("name")
                .and_then(|n| match n {
                    Value::String(s) => Some(s.as_str()),
                    Value::Array(a) => a.first().and_then(Value::as_str),
                    _ => None,
                })
                .or_else(|| {
                    object
                        .get("@id")
                        .and_then(Value::as_str)
                        .and_then(|id| names.get(id).copied())
                });
            if let Some(name) = name {
                push(name, out);
            }
        }
        Value::Array(items) => {
            for item in items.iter().take(MAX_AUTHORS) {
                if !matches!(item, Value::Array(_)) {
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
