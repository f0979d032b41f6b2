//! The page schema: one table of the fields every extracted page has, from
//! which the borrowed [`Page`] and owned [`PageRow`], the JSONL object, the
//! Parquet columns ([`super::parquet`]), the Python `Page` and
//! `crawlsift.COLUMNS` (used by the Spark and datatrove integrations) all
//! follow. Adding a field is one line in the `page_schema!` table below,
//! plus the code that computes it.
//!
//! The optional fields (`markdown`, and the analyses `signals`, `filters`,
//! `exact_key`, `minhash`) come after the table's fields, present only
//! when asked for; the analyses are nested or list values whose layout
//! follows [`crate::signals`].

use crate::signals::{Filters, Signals};
use serde::Serialize;

/// The value type of a field of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A UTF-8 string.
    Str,
    /// A UTF-8 string or null.
    OptStr,
    /// An unsigned 64-bit integer (Parquet INT64, Spark `long`).
    U64,
    /// An unsigned 64-bit integer or null.
    OptU64,
    /// An unsigned 16-bit integer or null (Parquet INT32, Spark `integer`).
    OptU16,
    /// A 64-bit float (Parquet DOUBLE, Spark `double`).
    F64,
    /// A 64-bit float or null.
    OptF64,
}

impl Kind {
    /// Whether the field may be null.
    pub fn nullable(self) -> bool {
        matches!(
            self,
            Kind::OptStr | Kind::OptU64 | Kind::OptU16 | Kind::OptF64
        )
    }

    /// The Spark SQL type name of the field.
    pub fn spark_type(self) -> &'static str {
        match self {
            Kind::Str | Kind::OptStr => "string",
            Kind::U64 | Kind::OptU64 => "long",
            Kind::OptU16 => "integer",
            Kind::F64 | Kind::OptF64 => "double",
        }
    }

    /// The field's line in a Parquet message type.
    pub fn parquet_column(self, name: &str) -> String {
        let repetition = if self.nullable() {
            "optional"
        } else {
            "required"
        };
        let physical = match self {
            Kind::Str | Kind::OptStr => return format!("{repetition} binary {name} (STRING);"),
            Kind::U64 | Kind::OptU64 => "int64",
            Kind::OptU16 => "int32",
            Kind::F64 | Kind::OptF64 => "double",
        };
        format!("{repetition} {physical} {name};")
    }
}

/// One field of the table: its name (the JSONL key, Parquet column and
/// Python attribute), value type and one-line description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The name.
    pub name: &'static str,
    /// The value type.
    pub kind: Kind,
    /// What it holds.
    pub doc: &'static str,
}

/// A field's value, borrowed from a row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    /// [`Kind::Str`], or [`Kind::OptStr`] when present.
    Str(&'a str),
    /// [`Kind::U64`].
    U64(u64),
    /// [`Kind::OptU16`] when present, widened.
    U16(u16),
    /// [`Kind::F64`], or [`Kind::OptF64`] when present.
    F64(f64),
    /// A null of an optional field.
    Null,
}

/// A field's place in a row, to move its value out (Parquet's writer).
#[derive(Debug)]
pub enum Slot<'a> {
    /// A [`Kind::Str`] field.
    Str(&'a mut String),
    /// A [`Kind::OptStr`] field.
    OptStr(&'a mut Option<String>),
    /// A [`Kind::U64`] field.
    U64(u64),
    /// A [`Kind::OptU64`] field.
    OptU64(Option<u64>),
    /// A [`Kind::OptU16`] field.
    OptU16(Option<u16>),
    /// A [`Kind::F64`] field.
    F64(f64),
    /// A [`Kind::OptF64`] field.
    OptF64(Option<f64>),
}

/// The Rust types of a field kind, borrowed and owned.
trait Owned<'a> {
    type Row;
    fn to_row(self) -> Self::Row;
}

impl<'a> Owned<'a> for &'a str {
    type Row = String;
    fn to_row(self) -> String {
        self.into()
    }
}

impl<'a> Owned<'a> for Option<&'a str> {
    type Row = Option<String>;
    fn to_row(self) -> Option<String> {
        self.map(Into::into)
    }
}

macro_rules! copied {
    ($($t:ty),*) => {$(
        impl Owned<'_> for $t {
            type Row = $t;
            fn to_row(self) -> $t {
                self
            }
        }
    )*};
}
copied!(u64, Option<u64>, Option<u16>, f64, Option<f64>);

/// A row field seen through its page type again.
trait Borrowed<'a> {
    type Page;
    fn as_page(&'a self) -> Self::Page;
    fn value(&'a self) -> Value<'a>;
    fn slot(&'a mut self) -> Slot<'a>;
}

impl<'a> Borrowed<'a> for String {
    type Page = &'a str;
    fn as_page(&'a self) -> &'a str {
        self
    }
    fn value(&'a self) -> Value<'a> {
        Value::Str(self)
    }
    fn slot(&'a mut self) -> Slot<'a> {
        Slot::Str(self)
    }
}

impl<'a> Borrowed<'a> for Option<String> {
    type Page = Option<&'a str>;
    fn as_page(&'a self) -> Option<&'a str> {
        self.as_deref()
    }
    fn value(&'a self) -> Value<'a> {
        self.as_deref().map_or(Value::Null, Value::Str)
    }
    fn slot(&'a mut self) -> Slot<'a> {
        Slot::OptStr(self)
    }
}

impl<'a> Borrowed<'a> for u64 {
    type Page = u64;
    fn as_page(&'a self) -> u64 {
        *self
    }
    fn value(&'a self) -> Value<'a> {
        Value::U64(*self)
    }
    fn slot(&'a mut self) -> Slot<'a> {
        Slot::U64(*self)
    }
}

impl<'a> Borrowed<'a> for Option<u64> {
    type Page = Option<u64>;
    fn as_page(&'a self) -> Option<u64> {
        *self
    }
    fn value(&'a self) -> Value<'a> {
        self.map_or(Value::Null, Value::U64)
    }
    fn slot(&'a mut self) -> Slot<'a> {
        Slot::OptU64(*self)
    }
}

impl<'a> Borrowed<'a> for Option<u16> {
    type Page = Option<u16>;
    fn as_page(&'a self) -> Option<u16> {
        *self
    }
    fn value(&'a self) -> Value<'a> {
        self.map_or(Value::Null, Value::U16)
    }
    fn slot(&'a mut self) -> Slot<'a> {
        Slot::OptU16(*self)
    }
}

impl<'a> Borrowed<'a> for f64 {
    type Page = f64;
    fn as_page(&'a self) -> f64 {
        *self
    }
    fn value(&'a self) -> Value<'a> {
        Value::F64(*self)
    }
    fn slot(&'a mut self) -> Slot<'a> {
        Slot::F64(*self)
    }
}

impl<'a> Borrowed<'a> for Option<f64> {
    type Page = Option<f64>;
    fn as_page(&'a self) -> Option<f64> {
        *self
    }
    fn value(&'a self) -> Value<'a> {
        self.map_or(Value::Null, Value::F64)
    }
    fn slot(&'a mut self) -> Slot<'a> {
        Slot::OptF64(*self)
    }
}

/// The borrowed type of a kind (in [`Page`]).
macro_rules! page_type {
    ($a:lifetime, Str) => { &$a str };
    ($a:lifetime, OptStr) => { Option<&$a str> };
    ($a:lifetime, U64) => { u64 };
    ($a:lifetime, OptU64) => { Option<u64> };
    ($a:lifetime, OptU16) => { Option<u16> };
    ($a:lifetime, F64) => { f64 };
    ($a:lifetime, OptF64) => { Option<f64> };
}

/// The owned type of a kind (in [`PageRow`]).
macro_rules! row_type {
    (Str) => { String };
    (OptStr) => { Option<String> };
    (U64) => { u64 };
    (OptU64) => { Option<u64> };
    (OptU16) => { Option<u16> };
    (F64) => { f64 };
    (OptF64) => { Option<f64> };
}

/// Defines [`Page`], [`PageRow`] and [`FIELDS`] from the table of fields.
macro_rules! page_schema {
    ($( #[doc = $doc:literal] $name:ident: $kind:ident, )*) => {
        /// One extracted page and where it came from: the fields of
        /// [`FIELDS`] in their order, then the optional analyses.
        /// `markdown` is left out of JSON when `None` (no `--markdown`;
        /// `Some(None)`, written as `null`, for an algorithm that renders
        /// no Markdown), `signals`, `filters` and `exact_key` when
        /// `None` (no `--signals`), `minhash` when `None` (no `--minhash`;
        /// `Some(None)` is a text of fewer than 5 words, written as `null`).
        #[derive(Debug, Clone, Copy, PartialEq, Serialize)]
        pub struct Page<'a> {
            $( #[doc = $doc] pub $name: page_type!('a, $kind), )*
            /// The main content as Markdown (headings, lists, tables, code,
            /// math), the same regions as `text`.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub markdown: Option<Option<&'a str>>,
            /// The raw values of the rule sets.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub signals: Option<&'a Signals>,
            /// Per rule set, null when the page passes, else the first rule failed.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub filters: Option<Filters>,
            /// xxHash64 of the normalised text, as 16 hex digits.
            #[serde(skip_serializing_if = "Option::is_none", serialize_with = "hex_key")]
            pub exact_key: Option<u64>,
            /// The 112 MinHash values.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub minhash: Option<Option<&'a [u64]>>,
        }

        /// One extracted page with owned fields: the same fields, order and
        /// meaning as [`Page`] (and the JSONL object), for code that keeps
        /// pages, such as [`super::parquet::ParquetWriter`] or the Python
        /// binding.
        #[derive(Debug, Clone, Default, PartialEq, Serialize)]
        pub struct PageRow {
            $( #[doc = $doc] pub $name: row_type!($kind), )*
            /// See [`Page::markdown`].
            #[serde(skip_serializing_if = "Option::is_none")]
            pub markdown: Option<Option<String>>,
            /// See [`Page::signals`].
            #[serde(skip_serializing_if = "Option::is_none")]
            pub signals: Option<Signals>,
            /// See [`Page::filters`].
            #[serde(skip_serializing_if = "Option::is_none")]
            pub filters: Option<Filters>,
            /// See [`Page::exact_key`].
            #[serde(skip_serializing_if = "Option::is_none", serialize_with = "hex_key")]
            pub exact_key: Option<u64>,
            /// See [`Page::minhash`].
            #[serde(skip_serializing_if = "Option::is_none")]
            pub minhash: Option<Option<Vec<u64>>>,
        }

        /// The fields every page has, in order (the optional analyses
        /// follow them in JSONL and Parquet).
        pub const FIELDS: &[Field] = &[
            $( Field { name: stringify!($name), kind: Kind::$kind, doc: $doc.trim_ascii() }, )*
        ];

        impl Page<'_> {
            /// An owned copy (what Parquet output buffers).
            pub fn to_row(&self) -> PageRow {
                PageRow {
                    $( $name: Owned::to_row(self.$name), )*
                    markdown: self.markdown.map(|m| m.map(str::to_owned)),
                    signals: self.signals.cloned(),
                    filters: self.filters,
                    exact_key: self.exact_key,
                    minhash: self.minhash.map(|m| m.map(<[u64]>::to_vec)),
                }
            }
        }

        impl PageRow {
            /// A borrowed view, to serialise with a [`super::Formatter`].
            pub fn as_page(&self) -> Page<'_> {
                Page {
                    $( $name: Borrowed::as_page(&self.$name), )*
                    markdown: self.markdown.as_ref().map(Option::as_deref),
                    signals: self.signals.as_ref(),
                    filters: self.filters,
                    exact_key: self.exact_key,
                    minhash: self.minhash.as_ref().map(Option::as_deref),
                }
            }

            /// The values of [`FIELDS`], in order.
            pub fn values(&self) -> [Value<'_>; FIELDS.len()] {
                [$( Borrowed::value(&self.$name), )*]
            }

            /// The value of `FIELDS[index]`; `None` past the table.
            pub fn value(&self, index: usize) -> Option<Value<'_>> {
                match index {
                    $( i if i == Index::$name as usize => Some(Borrowed::value(&self.$name)), )*
                    _ => None,
                }
            }

            /// The place of `FIELDS[index]`, to move its value out; `None`
            /// past the table.
            pub fn slot(&mut self, index: usize) -> Option<Slot<'_>> {
                match index {
                    $( i if i == Index::$name as usize => Some(Borrowed::slot(&mut self.$name)), )*
                    _ => None,
                }
            }
        }

        /// Each field's place in [`FIELDS`].
        #[allow(non_camel_case_types)]
        enum Index {
            $( $name, )*
        }
    };
}

page_schema! {
    /// `WARC-Target-URI` of the record.
    url: Str,
    /// `WARC-Record-ID` of the record.
    warc_record_id: Str,
    /// `WARC-Date` of the record.
    warc_date: Str,
    /// The input's file name (a URL's last path segment).
    warc_filename: Str,
    /// Byte offset of the record in the input (of its gzip member, for `.warc.gz`).
    offset: U64,
    /// Bytes of the record in the input; null when it shares a gzip member.
    length: OptU64,
    /// Why the page is only part of the record: its `WARC-Truncated` reason (`length`, `time`, …) when the crawler stored only part of it; `segment` for a segmented record whose segments are not all in the input, in order; `partial` for a 206 Partial Content response (a range of the page); null for a whole record.
    truncated: OptStr,
    /// HTTP status; null for `resource` records.
    http_status: OptU16,
    /// HTTP `Content-Type` (the WARC one for `resource` records).
    content_type: OptStr,
    /// The encoding the page was decoded from (detected, not just declared).
    charset: Str,
    /// The page's `<title>`, entities decoded, whitespace collapsed.
    title: Str,
    /// The main text: paragraphs separated by `\n`.
    text: Str,
    /// The extraction algorithm's name.
    algorithm: Str,
    /// The text's language: ISO 639-1, else 639-3; null when it has too few letters.
    lang: OptStr,
    /// Confidence of `lang` in [0, 1] (0 without a language).
    lang_score: F64,
    /// The page's author as it states it (JSON-LD, `<meta>`, byline); several joined with `, `; null when it states none.
    author: OptStr,
    /// When the page was first published, ISO 8601 (`2025-09-04`, or with time and offset), as the page states it; null when it states none that parses.
    date_published: OptStr,
    /// When the page was last modified, as `date_published`.
    date_modified: OptStr,
    /// The site's or publisher's name (`og:site_name`, JSON-LD); null when the page states none.
    site_name: OptStr,
    /// The page's own summary (`og:description`, `<meta name=description>`); null when it has none.
    description: OptStr,
    /// The page's canonical URL (`<link rel=canonical>`, `og:url`), resolved against `url`; null when it names none.
    canonical_url: OptStr,
    /// What kind of page it is: article, forum, product, listing, collection, documentation or service (addanag-plus's model; null for the other algorithms).
    page_type: OptStr,
    /// The extraction's expected word-level F1 in [0, 1], to route the least sure pages to another extractor (addanag-plus's model; null for the other algorithms).
    confidence: OptF64,
}

/// The exact key as JSON and Parquet write it: 16 lowercase hex digits.
pub fn key_hex(key: u64) -> String {
    format!("{key:016x}")
}

fn hex_key<S: serde::Serializer>(key: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
    match key {
        Some(k) => s.serialize_str(&key_hex(*k)),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSONL object's keys are the table's names, in order, then the
    /// optional analyses present.
    #[test]
    fn jsonl_keys_follow_the_table() {
        let row = PageRow {
            exact_key: Some(7),
            ..PageRow::default()
        };
        let json = serde_json::to_value(row.as_page()).unwrap_or_default();
        let keys: Vec<&str> = json
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let mut want: Vec<&str> = FIELDS.iter().map(|f| f.name).collect();
        want.push("exact_key");
        assert_eq!(keys, want);
        assert_eq!(json["exact_key"], "0000000000000007");
    }

    /// Values and slots come in the table's order and kinds.
    #[test]
    fn values_match_the_kinds() {
        let mut row = PageRow {
            url: "u".into(),
            http_status: Some(200),
            lang: None,
            lang_score: 0.5,
            ..PageRow::default()
        };
        let values = row.values();
        for (field, value) in FIELDS.iter().zip(values) {
            let fits = matches!(
                (field.kind, value),
                (Kind::Str | Kind::OptStr, Value::Str(_))
                    | (Kind::U64 | Kind::OptU64, Value::U64(_))
                    | (Kind::OptU16, Value::U16(_))
                    | (Kind::F64 | Kind::OptF64, Value::F64(_))
                    | (
                        Kind::OptStr | Kind::OptU64 | Kind::OptU16 | Kind::OptF64,
                        Value::Null
                    )
            );
            assert!(fits, "{}: {value:?}", field.name);
        }
        assert_eq!(values[0], Value::Str("u"));
        for (i, value) in values.into_iter().enumerate() {
            assert_eq!(row.value(i), Some(value));
        }
        assert_eq!(row.value(FIELDS.len()), None);
        if let Some(Slot::Str(url)) = row.slot(0) {
            url.push('!');
        }
        assert_eq!(row.url, "u!");
        assert_eq!(FIELDS[0].doc, "`WARC-Target-URI` of the record.");
    }
}
