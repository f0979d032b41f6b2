//! Writing extracted pages: JSONL, Common Crawl WET, plain text or Parquet.
//!
//! Every page is serialised (and compressed) on its own by the worker that
//! extracted it, so formatting runs in parallel and the writer only appends
//! bytes in input order. Compressed outputs are therefore one gzip member
//! (or zstd frame) per page, which every gzip/zstd reader accepts as one
//! stream and which lets a reader seek to any page, as in Common Crawl files.
//! Parquet is columnar, so a page cannot be encoded alone: the worker copies
//! it into an owned [`PageRow`] and the writer ([`parquet::ParquetWriter`])
//! encodes rows a row group at a time.

#[cfg(feature = "arrow")]
pub mod arrow;
pub mod parquet;
pub mod resume;
pub mod schema;

pub use schema::{key_hex, Page, PageRow, FIELDS};

use crate::signals::Signals;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Output format of `crawlsift extract`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per page and line.
    Jsonl,
    /// Common Crawl WET: gzipped WARC `conversion` records of plain text.
    Wet,
    /// Plain text; each page is its title line and text, followed by a line
    /// holding only a form feed (`\f`). Split with
    /// `awk 'BEGIN{RS="\f\n"} {print > ("page" NR ".txt")}'`.
    Text,
    /// Apache Parquet, one file per input (needs `-o DIR`): the JSONL fields
    /// as columns, zstd-compressed, in row groups of bounded size.
    Parquet,
}

impl Format {
    /// Every format, in the order `--format` lists them.
    pub const ALL: [Format; 4] = [Format::Jsonl, Format::Wet, Format::Text, Format::Parquet];

    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Jsonl => "jsonl",
            Format::Wet => "wet",
            Format::Text => "text",
            Format::Parquet => "parquet",
        }
    }
}

/// Compression of JSONL and text output (WET is always gzip, Parquet always
/// zstd inside the file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Uncompressed.
    None,
    /// One gzip member per page.
    Gzip,
    /// One zstd frame per page.
    Zstd,
}

impl Compression {
    /// Every compression, in the order `--compress` lists them.
    pub const ALL: [Compression; 3] = [Compression::None, Compression::Gzip, Compression::Zstd];

    /// The name `--compress` takes.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
        }
    }
}

/// A format or compression name that is not one of the known ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {name:?} (known: {known})")]
pub struct UnknownName {
    what: &'static str,
    name: String,
    known: String,
}

macro_rules! named {
    ($ty:ty, $what:literal) => {
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $ty {
            type Err = UnknownName;
            fn from_str(s: &str) -> Result<Self, UnknownName> {
                <$ty>::ALL
                    .into_iter()
                    .find(|v| v.name().eq_ignore_ascii_case(s))
                    .ok_or_else(|| UnknownName {
                        what: $what,
                        name: s.to_string(),
                        known: <$ty>::ALL.map(|v| v.name()).join(", "),
                    })
            }
        }
    };
}
named!(Format, "format");
named!(Compression, "compression");

/// The signals as a JSON tree (the `signals` object of a JSONL page), for
/// code that walks them by name: Parquet's columns, the Python binding's
/// dicts.
pub fn signals_value(signals: &Signals) -> serde_json::Value {
    serde_json::to_value(signals).unwrap_or(serde_json::Value::Null)
}

/// A page ready for the writer: bytes to append (JSONL, WET, text), or a
/// row for a columnar writer (Parquet).
#[derive(Debug)]
pub enum Rendered {
    /// The page serialised (and compressed), to append as is.
    Bytes(Vec<u8>),
    /// The page as an owned row, for the Parquet writer.
    Row(Box<PageRow>),
}

/// A failure to serialise or compress a page.
#[derive(Debug, thiserror::Error)]
#[error("cannot write page {url}: {source}")]
pub struct WriteError {
    url: String,
    #[source]
    source: std::io::Error,
}

/// Serialises pages in one format and compression.
#[derive(Debug, Clone, Copy)]
pub struct Formatter {
    /// The output format.
    pub format: Format,
    /// The compression: always gzip for WET and zstd for Parquet.
    pub compression: Compression,
    /// The optional columns of Parquet output (JSONL writes what a page has).
    pub columns: parquet::Columns,
}

impl Formatter {
    /// A formatter for `format` and `compression` (overridden for WET and
    /// Parquet), without Parquet's optional columns.
    pub fn new(format: Format, compression: Compression) -> Self {
        // WET files are gzip by definition; Parquet compresses its columns
        // with zstd inside the file.
        let compression = match format {
            Format::Wet => Compression::Gzip,
            Format::Parquet => Compression::Zstd,
            Format::Jsonl | Format::Text => compression,
        };
        Formatter {
            format,
            compression,
            columns: parquet::Columns::default(),
        }
    }

    /// The formatter with Parquet's optional columns set.
    pub fn with_columns(mut self, columns: parquet::Columns) -> Self {
        self.columns = columns;
        self
    }

    /// The output file name for an input: its name without `.warc` and its
    /// compression's extension, plus the format's extension.
    pub fn output_path(&self, dir: &Path, input: &Path) -> PathBuf {
        let name = crate::remote::file_name(input)
            .map(|n| n.into_owned())
            .unwrap_or_else(|| "stdin".into());
        let stem = [
            ".warc.gz",
            ".warc.zst",
            ".warc.lz4",
            ".warc",
            ".gz",
            ".zst",
            ".lz4",
        ]
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .unwrap_or(&name);
        let ext = match (self.format, self.compression) {
            (Format::Wet, _) => "warc.wet.gz",
            (Format::Parquet, _) => "parquet",
            (Format::Jsonl, Compression::None) => "jsonl",
            (Format::Jsonl, Compression::Gzip) => "jsonl.gz",
            (Format::Jsonl, Compression::Zstd) => "jsonl.zst",
            (Format::Text, Compression::None) => "txt",
            (Format::Text, Compression::Gzip) => "txt.gz",
            (Format::Text, Compression::Zstd) => "txt.zst",
        };
        dir.join(format!("{stem}.{ext}"))
    }

    /// What starts an output file: a `warcinfo` record for WET, nothing else.
    pub fn file_header(&self, output_name: &str, out: &mut Vec<u8>) -> Result<(), WriteError> {
        if self.format != Format::Wet {
            return Ok(());
        }
        let now = chrono::Utc::now();
        let fields = format!(
            "Software-Info: crawlsift {}\r\nExtracted-Date: {}\r\ndescription: main text extracted with the DANA line-density algorithms\r\n",
            env!("CARGO_PKG_VERSION"),
            now.to_rfc2822()
        );
        let date = now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        let id = new_record_id();
        let headers = [
            ("WARC-Type", "warcinfo"),
            ("WARC-Date", &date),
            ("WARC-Filename", output_name),
            ("WARC-Record-ID", &id),
            ("Content-Type", "application/warc-fields"),
        ];
        let record = warc_record(&headers, fields.as_bytes(), None);
        self.compress(&record, out).map_err(|source| WriteError {
            url: output_name.into(),
            source,
        })
    }

    /// One page as the writer needs it: serialised bytes, or (Parquet) a row.
    pub fn render(&self, page: &Page<'_>) -> Result<Rendered, WriteError> {
        if self.format == Format::Parquet {
            return Ok(Rendered::Row(Box::new(page.to_row())));
        }
        let mut out = Vec::new();
        self.write_page(page, &mut out)?;
        Ok(Rendered::Bytes(out))
    }

    /// Appends one page, serialised and compressed, to `out`. Parquet has no
    /// per-page serialisation: use [`parquet::ParquetWriter`].
    pub fn write_page(&self, page: &Page<'_>, out: &mut Vec<u8>) -> Result<(), WriteError> {
        let err = |source| WriteError {
            url: page.url.into(),
            source,
        };
        let mut plain = Vec::with_capacity(page.text.len() + page.title.len() + 512);
        match self.format {
            Format::Jsonl => {
                serde_json::to_writer(&mut plain, page).map_err(|e| err(e.into()))?;
                plain.push(b'\n');
            }
            Format::Text => {
                push_title_and_text(page, &mut plain);
                plain.extend_from_slice(b"\n\x0c\n");
            }
            Format::Wet => {
                let mut body = Vec::with_capacity(page.text.len() + page.title.len() + 1);
                push_title_and_text(page, &mut body);
                let id = new_record_id();
                let mut headers = vec![
                    ("WARC-Type", "conversion"),
                    ("WARC-Target-URI", page.url),
                    ("WARC-Date", page.warc_date),
                    ("WARC-Record-ID", &id),
                    ("WARC-Refers-To", page.warc_record_id),
                ];
                // The text of a cut page is cut too: say so as the response did.
                if let Some(reason) = page.truncated {
                    headers.push(("WARC-Truncated", reason));
                }
                // Common Crawl's form: ISO 639-3 codes (its CLD2 lists up to
                // three, comma-separated; crawlsift identifies one).
                let lang = page.lang.map(iso_639_3);
                plain = warc_record(&headers, &body, Some(lang.unwrap_or_default()));
            }
            Format::Parquet => {
                return Err(err(std::io::Error::other(
                    "Parquet is written a row group at a time by output::parquet::ParquetWriter, not page by page",
                )))
            }
        }
        self.compress(&plain, out).map_err(err)
    }

    fn compress(&self, data: &[u8], out: &mut Vec<u8>) -> std::io::Result<()> {
        match self.compression {
            Compression::None => out.extend_from_slice(data),
            Compression::Gzip => {
                let mut gz = flate2::write::GzEncoder::new(out, flate2::Compression::default());
                gz.write_all(data)?;
                gz.finish()?;
            }
            Compression::Zstd => zstd::stream::copy_encode(data, out, 3)?,
        }
        Ok(())
    }
}

/// The title as the first line, then the text (the WET layout).
fn push_title_and_text(page: &Page<'_>, out: &mut Vec<u8>) {
    if !page.title.is_empty() {
        out.extend_from_slice(page.title.as_bytes());
        out.push(b'\n');
    }
    out.extend_from_slice(page.text.as_bytes());
}

fn new_record_id() -> String {
    format!("<urn:uuid:{}>", uuid::Uuid::new_v4())
}

/// The ISO 639-3 code of a page's `lang` (ISO 639-1, else already 639-3),
/// as Common Crawl's `WARC-Identified-Content-Language` holds it.
pub fn iso_639_3(lang: &str) -> &'static str {
    let language = if lang.len() == 2 {
        isolang::Language::from_639_1(lang)
    } else {
        isolang::Language::from_639_3(lang)
    };
    language.map_or("", |l| l.to_639_3())
}

/// A WARC/1.0 record with `headers` in order, then (for conversions, given
/// the ISO 639-3 language code or "" when none was identified) the block
/// digest, `WARC-Identified-Content-Language` and `Content-Type:
/// text/plain`, then `Content-Length`: Common Crawl's order.
fn warc_record(headers: &[(&str, &str)], block: &[u8], conversion: Option<&str>) -> Vec<u8> {
    use sha1::Digest;
    let mut out = Vec::with_capacity(block.len() + 512);
    out.extend_from_slice(b"WARC/1.0\r\n");
    let mut header = |name: &str, value: &str| {
        // A header value must stay on one line.
        let value: String = value
            .chars()
            .map(|c| if c == '\r' || c == '\n' { ' ' } else { c })
            .collect();
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    };
    for (name, value) in headers {
        header(name, value);
    }
    if let Some(lang) = conversion {
        let digest = data_encoding::BASE32.encode(&sha1::Sha1::digest(block));
        header("WARC-Block-Digest", &format!("sha1:{digest}"));
        if !lang.is_empty() {
            header("WARC-Identified-Content-Language", lang);
        }
        header("Content-Type", "text/plain");
    }
    header("Content-Length", &block.len().to_string());
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::signals::Filters;

    /// `p` as `crawlsift extract`'s JSONL object.
    fn jsonl(p: &Page<'_>) -> serde_json::Value {
        let mut out = Vec::new();
        Formatter::new(Format::Jsonl, Compression::None)
            .write_page(p, &mut out)
            .unwrap_or_else(|e| panic!("{e}"));
        serde_json::from_slice(&out).unwrap_or_default()
    }

    /// `p` as a WET conversion record, gunzipped.
    fn wet(p: &Page<'_>) -> String {
        let mut out = Vec::new();
        Formatter::new(Format::Wet, Compression::None)
            .write_page(p, &mut out)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&out[..]), &mut text)
            .unwrap_or_else(|e| panic!("{e}"));
        text
    }

    fn page() -> Page<'static> {
        Page {
            url: "http://example.com/",
            warc_record_id: "<urn:uuid:1>",
            warc_date: "2024-01-01T00:00:00Z",
            warc_filename: "a.warc.gz",
            offset: 10,
            length: None,
            truncated: None,
            http_status: Some(200),
            content_type: Some("text/html"),
            charset: "UTF-8",
            title: "Title",
            text: "Body ü",
            algorithm: "addanag",
            lang: Some("de"),
            lang_score: 0.5,
            author: Some("Ann Lee"),
            date_published: Some("2024-01-01"),
            date_modified: None,
            site_name: None,
            description: None,
            canonical_url: None,
            page_type: Some("article"),
            confidence: Some(0.75),
            markdown: None,
            signals: None,
            filters: None,
            exact_key: None,
            minhash: None,
        }
    }

    #[test]
    fn jsonl_is_one_line_with_every_field() {
        let mut out = Vec::new();
        Formatter::new(Format::Jsonl, Compression::None)
            .write_page(&page(), &mut out)
            .unwrap_or_else(|e| panic!("{e}"));
        let text = String::from_utf8(out).unwrap_or_default();
        assert_eq!(text.matches('\n').count(), 1);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(v["length"], serde_json::Value::Null);
        assert_eq!(v["text"], "Body ü");
        assert_eq!(v["offset"], 10);
        assert_eq!(v["author"], "Ann Lee");
        assert_eq!(v["date_modified"], serde_json::Value::Null);
    }

    /// WET stays as Common Crawl writes it: the metadata is not in it.
    #[test]
    fn wet_has_no_metadata() {
        let record = wet(&page());
        assert!(
            !record.contains("Ann Lee") && !record.contains("2024-01-01\r"),
            "{record}"
        );
    }

    #[test]
    fn truncated_is_null_or_the_reason_in_jsonl_and_a_wet_header() {
        let whole = page();
        let cut = Page {
            truncated: Some("length"),
            ..page()
        };
        assert_eq!(jsonl(&whole)["truncated"], serde_json::Value::Null);
        assert_eq!(jsonl(&cut)["truncated"], "length");
        assert!(wet(&cut).contains("\r\nWARC-Truncated: length\r\n"));
        assert!(!wet(&whole).contains("WARC-Truncated"));
    }

    #[test]
    fn analysis_fields_are_written_only_when_present() {
        let plain = jsonl(&page());
        assert_eq!(
            (&plain["lang"], &plain["lang_score"]),
            (&"de".into(), &0.5.into())
        );
        for absent in ["signals", "filters", "exact_key", "minhash"] {
            assert!(plain.get(absent).is_none(), "{absent}");
        }
        let signals = crate::signals::Analyser::new(crate::signals::Config {
            signals: true,
            minhash: false,
        })
        .analyse("One line.")
        .signals
        .unwrap_or_else(|| panic!("signals asked for"));
        let filters = Filters {
            c4: Some("too_few_sentences"),
            ..Filters::default()
        };
        let full = jsonl(&Page {
            lang: None,
            signals: Some(&signals),
            filters: Some(filters),
            exact_key: Some(0xab),
            minhash: Some(None),
            ..page()
        });
        assert_eq!(full["lang"], serde_json::Value::Null);
        assert_eq!(full["signals"], signals_value(&signals));
        assert_eq!(full["signals"]["c4"]["lines"], 1);
        assert_eq!(full["filters"]["c4"], "too_few_sentences");
        assert_eq!(full["filters"]["fineweb"], serde_json::Value::Null);
        assert_eq!(full["exact_key"], "00000000000000ab");
        assert!(full.get("minhash").is_some_and(|m| m.is_null()));
    }

    #[test]
    fn wet_language_is_iso_639_3_and_absent_without_a_language() {
        assert_eq!(iso_639_3("en"), "eng");
        assert_eq!(iso_639_3("zh"), "zho");
        assert_eq!(iso_639_3("fa"), "fas");
        assert_eq!(iso_639_3("ckb"), "ckb");
        assert!(wet(&page())
            .contains("\r\nWARC-Identified-Content-Language: deu\r\nContent-Type: text/plain\r\n"));
        let none = Page {
            lang: None,
            ..page()
        };
        assert!(!wet(&none).contains("Identified-Content-Language"));
    }

    #[test]
    fn rows_and_pages_convert_both_ways_and_parquet_renders_rows() {
        let row = page().to_row();
        assert_eq!(row.as_page(), page());
        match Formatter::new(Format::Parquet, Compression::None).render(&page()) {
            Ok(Rendered::Row(r)) => assert_eq!(*r, row),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn wet_conversion_headers_are_in_common_crawl_order() {
        let record = warc_record(
            &[("WARC-Type", "conversion"), ("WARC-Target-URI", "u\r\nx")],
            "Title\nBody ü".as_bytes(),
            Some("spa"),
        );
        let text = String::from_utf8(record).unwrap_or_default();
        let names: Vec<&str> = text
            .lines()
            .take_while(|l| !l.is_empty())
            .filter_map(|l| l.split(':').next())
            .collect();
        assert_eq!(
            names,
            [
                "WARC/1.0",
                "WARC-Type",
                "WARC-Target-URI",
                "WARC-Block-Digest",
                "WARC-Identified-Content-Language",
                "Content-Type",
                "Content-Length"
            ]
        );
        assert!(text.contains("WARC-Target-URI: u  x\r\n"));
        assert!(
            text.contains("Content-Length: 13\r\n"),
            "UTF-8 bytes, not chars"
        );
    }

    #[test]
    fn output_names_drop_the_warc_extension() {
        let f = Formatter::new(Format::Wet, Compression::None);
        assert_eq!(
            f.output_path(Path::new("/o"), Path::new("/in/x.warc.gz")),
            Path::new("/o/x.warc.wet.gz")
        );
        let f = Formatter::new(Format::Jsonl, Compression::Zstd);
        assert_eq!(
            f.output_path(Path::new("/o"), Path::new("y.warc")),
            Path::new("/o/y.jsonl.zst")
        );
        assert_eq!(
            f.output_path(Path::new("/o"), Path::new("z.warc.lz4")),
            Path::new("/o/z.jsonl.zst")
        );
        assert_eq!(
            f.output_path(Path::new("/o"), Path::new("CC-MAIN-1.warc.zst")),
            Path::new("/o/CC-MAIN-1.jsonl.zst")
        );
    }
}
