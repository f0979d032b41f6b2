//! Writing extracted pages: JSONL, Common Crawl WET, or plain text.
//!
//! Every page is serialised (and compressed) on its own by the worker that
//! extracted it, so formatting runs in parallel and the writer only appends
//! bytes in input order. Compressed outputs are therefore one gzip member
//! (or zstd frame) per page, which every gzip/zstd reader accepts as one
//! stream and which lets a reader seek to any page, as in Common Crawl files.

mod sink;

pub use sink::{DirSink, StdoutSink};

use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Output format of `dana extract`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One JSON object per page and line.
    Jsonl,
    /// Common Crawl WET: gzipped WARC `conversion` records of plain text.
    Wet,
    /// Plain text; each page is its title line and text, followed by a line
    /// holding only a form feed (`\f`). Split with
    /// `awk 'BEGIN{RS="\f\n"} {print > ("page" NR ".txt")}'`.
    Text,
}

/// Compression of JSONL and text output (WET is always gzip).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
}

/// One extracted page and where it came from.
#[derive(Debug, Serialize)]
pub struct Page<'a> {
    pub url: &'a str,
    pub warc_record_id: &'a str,
    pub warc_date: &'a str,
    pub warc_filename: &'a str,
    /// Byte offset of the record in the input (of its gzip member, for .warc.gz).
    pub offset: u64,
    /// Bytes of the record in the input; null when it shares a gzip member.
    pub length: Option<u64>,
    pub http_status: Option<u16>,
    pub content_type: Option<&'a str>,
    /// The encoding the page was decoded from (detected, not just declared).
    pub charset: &'a str,
    pub title: &'a str,
    pub text: &'a str,
    pub algorithm: &'a str,
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
    pub format: Format,
    pub compression: Compression,
}

impl Formatter {
    pub fn new(format: Format, compression: Compression) -> Self {
        // WET files are gzip by definition.
        let compression = if format == Format::Wet {
            Compression::Gzip
        } else {
            compression
        };
        Formatter {
            format,
            compression,
        }
    }

    /// The output file name for an input: its name without `.warc`/`.warc.gz`
    /// plus the format's extension.
    pub fn output_path(&self, dir: &Path, input: &Path) -> PathBuf {
        let name = crate::remote::file_name(input)
            .map(|n| n.into_owned())
            .unwrap_or_else(|| "stdin".into());
        let stem = [".warc.gz", ".warc", ".gz"]
            .iter()
            .find_map(|ext| name.strip_suffix(ext))
            .unwrap_or(&name);
        let ext = match (self.format, self.compression) {
            (Format::Wet, _) => "warc.wet.gz",
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
            "Software-Info: dana {}\r\nExtracted-Date: {}\r\ndescription: main text extracted with the DANA line-density algorithms\r\n",
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
        let record = warc_record(&headers, fields.as_bytes(), false);
        self.compress(&record, out).map_err(|source| WriteError {
            url: output_name.into(),
            source,
        })
    }

    /// Appends one page, serialised and compressed, to `out`.
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
                let headers = [
                    ("WARC-Type", "conversion"),
                    ("WARC-Target-URI", page.url),
                    ("WARC-Date", page.warc_date),
                    ("WARC-Record-ID", &id),
                    ("WARC-Refers-To", page.warc_record_id),
                ];
                plain = warc_record(&headers, &body, true);
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

/// A WARC/1.0 record with `headers` in order, then (for conversions) the
/// block digest and `Content-Type: text/plain`, then `Content-Length`.
fn warc_record(headers: &[(&str, &str)], block: &[u8], conversion: bool) -> Vec<u8> {
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
    if conversion {
        let digest = data_encoding::BASE32.encode(&sha1::Sha1::digest(block));
        header("WARC-Block-Digest", &format!("sha1:{digest}"));
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

    fn page() -> Page<'static> {
        Page {
            url: "http://example.com/",
            warc_record_id: "<urn:uuid:1>",
            warc_date: "2024-01-01T00:00:00Z",
            warc_filename: "a.warc.gz",
            offset: 10,
            length: None,
            http_status: Some(200),
            content_type: Some("text/html"),
            charset: "UTF-8",
            title: "Title",
            text: "Body ü",
            algorithm: "addanag",
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
    }

    #[test]
    fn wet_conversion_headers_are_in_common_crawl_order() {
        let record = warc_record(
            &[("WARC-Type", "conversion"), ("WARC-Target-URI", "u\r\nx")],
            "Title\nBody ü".as_bytes(),
            true,
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
    }
}
