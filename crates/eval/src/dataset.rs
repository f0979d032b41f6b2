//! Gold-standard datasets on disk: `html/<id>.html[.gz]`, `gold/<id>.txt` and
//! an optional `meta.jsonl` with one object per page.

use super::EvalError;
use flate2::read::MultiGzDecoder;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// One page: its raw HTML, its gold text and what `meta.jsonl` says about it.
#[derive(Debug)]
pub struct Page {
    /// The file name without `.html[.gz]`, shared by the gold text.
    pub id: String,
    /// The HTML file, `html/<id>.html` or `html/<id>.html.gz`.
    pub html: PathBuf,
    /// The gold text file, `gold/<id>.txt`.
    pub gold: PathBuf,
    /// The page's `meta.jsonl` object without its `id`; empty if it has none.
    pub meta: Map<String, Value>,
}

/// A dataset directory, its pages sorted by id.
#[derive(Debug)]
pub struct Dataset {
    /// The directory's name, used to label results.
    pub name: String,
    /// The pages, sorted by id.
    pub pages: Vec<Page>,
}

impl Dataset {
    /// Lists the pages of `dir`; every page in `html/` must have its gold.
    pub fn open(dir: &Path) -> Result<Dataset, EvalError> {
        let name = dir
            .canonicalize()
            .map_err(|source| EvalError::io(dir, source))?
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let html_dir = dir.join("html");
        let gold_dir = dir.join("gold");
        let mut html = BTreeMap::new();
        let entries = std::fs::read_dir(&html_dir).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => EvalError::NoPages {
                dir: html_dir.clone(),
            },
            _ => EvalError::io(&html_dir, e),
        })?;
        for entry in entries {
            let path = entry.map_err(|e| EvalError::io(&html_dir, e))?.path();
            let Some(file_name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let Some(id) = file_name
                .strip_suffix(".html.gz")
                .or_else(|| file_name.strip_suffix(".html"))
            else {
                continue;
            };
            if let Some(other) = html.insert(id.to_string(), path.clone()) {
                return Err(EvalError::TwoHtmlFiles {
                    first: other,
                    second: path,
                });
            }
        }
        if html.is_empty() {
            return Err(EvalError::NoPages { dir: html_dir });
        }
        let mut meta = read_meta(&dir.join("meta.jsonl"))?;
        let pages = html
            .into_iter()
            .map(|(id, html)| {
                let gold = gold_dir.join(format!("{id}.txt"));
                if !gold.is_file() {
                    return Err(EvalError::MissingGold { html, gold });
                }
                let meta = meta.remove(&id).unwrap_or_default();
                Ok(Page {
                    id,
                    html,
                    gold,
                    meta,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Dataset { name, pages })
    }
}

impl Page {
    /// Reads the raw HTML bytes into `buf`, gunzipping `.gz` files.
    pub fn read_html(&self, buf: &mut Vec<u8>) -> Result<(), EvalError> {
        buf.clear();
        let file = File::open(&self.html).map_err(|e| EvalError::io(&self.html, e))?;
        let read = if self.html.extension().is_some_and(|ext| ext == "gz") {
            MultiGzDecoder::new(file).read_to_end(buf)
        } else {
            BufReader::new(file).read_to_end(buf)
        };
        read.map(drop).map_err(|e| EvalError::io(&self.html, e))
    }

    /// The value of a `meta.jsonl` field as a group label: strings as they
    /// are, other values as JSON, absent fields and nulls as `unknown`.
    pub fn meta_label(&self, field: &str) -> String {
        match self.meta.get(field) {
            None | Some(Value::Null) => "unknown".to_string(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
        }
    }
}

/// Reads a UTF-8 text file into `buf` and returns it as `&str`.
pub fn read_text<'a>(path: &Path, buf: &'a mut Vec<u8>) -> Result<&'a str, EvalError> {
    buf.clear();
    File::open(path)
        .and_then(|mut f| f.read_to_end(buf))
        .map_err(|e| EvalError::io(path, e))?;
    std::str::from_utf8(buf).map_err(|e| EvalError::NotUtf8 {
        path: path.to_path_buf(),
        offset: e.valid_up_to(),
    })
}

/// `meta.jsonl` by page id; a dataset without one has no metadata.
fn read_meta(path: &Path) -> Result<BTreeMap<String, Map<String, Value>>, EvalError> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(EvalError::io(path, e)),
    };
    let mut meta = BTreeMap::new();
    for (index, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| EvalError::io(path, e))?;
        if line.trim().is_empty() {
            continue;
        }
        let bad = |reason: String| EvalError::BadMeta {
            path: path.to_path_buf(),
            line: index + 1,
            reason,
        };
        let mut object: Map<String, Value> =
            serde_json::from_str(&line).map_err(|e| bad(e.to_string()))?;
        let Some(Value::String(id)) = object.remove("id") else {
            return Err(bad("the object has no string `id`".to_string()));
        };
        meta.insert(id, object);
    }
    Ok(meta)
}

/// Where the shared test data is (TESTING.md).
#[cfg(test)]
#[path = "../../../tests/support/shared.rs"]
mod support;

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared scrapinghub dataset; a missing folder fails naming it.
    fn scrapinghub() -> PathBuf {
        support::shared_path(env!("CARGO_MANIFEST_DIR"), "datasets/scrapinghub")
    }

    #[test]
    fn opens_a_real_dataset_sorted_with_meta() -> Result<(), EvalError> {
        let dataset = Dataset::open(&scrapinghub())?;
        assert_eq!(dataset.name, "scrapinghub");
        assert_eq!(dataset.pages.len(), 181);
        assert!(dataset.pages.windows(2).all(|w| w[0].id < w[1].id));
        let first = &dataset.pages[0];
        assert!(first.meta_label("url").starts_with("https://"));
        assert_eq!(first.meta_label("no_such_field"), "unknown");
        let mut buf = Vec::new();
        first.read_html(&mut buf)?;
        assert!(buf.len() > 1000, "gunzipped HTML is {} bytes", buf.len());
        assert!(!read_text(&first.gold, &mut buf)?.trim().is_empty());
        Ok(())
    }

    #[test]
    fn errors_name_the_file() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        std::fs::create_dir_all(dir.path().join("html"))?;
        std::fs::create_dir_all(dir.path().join("gold"))?;
        std::fs::write(dir.path().join("html/a.html"), "<p>x</p>")?;
        let missing = Dataset::open(dir.path())
            .map(drop)
            .map_err(|e| e.to_string());
        assert!(
            matches!(&missing, Err(m) if m.contains("a.txt")),
            "{missing:?}"
        );

        std::fs::write(dir.path().join("gold/a.txt"), b"caf\xe9")?;
        std::fs::write(
            dir.path().join("meta.jsonl"),
            "{\"id\": \"a\"}\n{\"lang\": \"en\"}\n",
        )?;
        let bad_meta = Dataset::open(dir.path())
            .map(drop)
            .map_err(|e| e.to_string());
        assert!(
            matches!(&bad_meta, Err(m) if m.contains("meta.jsonl") && m.contains("line 2")),
            "{bad_meta:?}"
        );

        let mut buf = Vec::new();
        let not_utf8 = read_text(&dir.path().join("gold/a.txt"), &mut buf)
            .map(drop)
            .map_err(|e| e.to_string());
        assert!(
            matches!(&not_utf8, Err(m) if m.contains("a.txt") && m.contains("byte 3")),
            "{not_utf8:?}"
        );
        Ok(())
    }
}
