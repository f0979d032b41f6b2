//! `crawlsift extract`'s formats end to end: Parquet rows against JSONL on
//! every shared WARC, and truncated records marked in JSONL, WET and Parquet.

mod common;

use common::*;
use std::path::{Path, PathBuf};

/// A crafted WARC: two HTML responses, the second cut by the crawler and
/// marked `WARC-Truncated: length`.
fn truncated_warc(dir: &Path) -> PathBuf {
    let response = |uri: &str, extra: &str, html: &str| {
        let block =
            format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}");
        format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2024-05-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:{}>\r\n{extra}Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
            uuid::Uuid::new_v4(),
            block.len()
        )
    };
    let article = "<p>The whole story of the harbour, told in one paragraph that goes on.</p>";
    let data = [
        response(
            "http://example.com/whole",
            "",
            &format!("<html><head><title>Whole</title></head><body>{article}</body></html>"),
        ),
        // Cut mid-tag, as a crawler's size limit cuts.
        response(
            "http://example.com/cut",
            "WARC-Truncated: length\r\n",
            &format!("<html><head><title>Cut</title></head><body>{article}<p>The sec"),
        ),
    ]
    .concat();
    let path = dir.join("truncated.warc");
    std::fs::write(&path, data).unwrap_or_else(|e| panic!("{e}"));
    path
}

#[test]
fn truncated_records_say_so_in_jsonl_wet_and_parquet() {
    let dir = tempdir();
    let input = truncated_warc(dir.path());
    let out = crawlsift(&[input.as_os_str(), os("--quiet")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pages = jsonl(&out.stdout);
    let truncated: Vec<(&str, &serde_json::Value)> = pages
        .iter()
        .map(|p| (p["url"].as_str().unwrap_or_default(), &p["truncated"]))
        .collect();
    assert_eq!(
        truncated,
        [
            ("http://example.com/whole", &serde_json::Value::Null),
            ("http://example.com/cut", &serde_json::json!("length")),
        ]
    );
    // Present as a key (null) in every object, not only when set.
    assert!(pages[0]
        .as_object()
        .is_some_and(|o| o.contains_key("truncated")));

    let wet_dir = dir.path().join("wet");
    extract_into(&input, "wet", &wet_dir);
    let records = read_warc(&wet_dir.join("truncated.warc.wet.gz"));
    let conversions: Vec<(Option<String>, Option<String>)> = records
        .iter()
        .filter(|r| r.0 == "conversion")
        .map(|r| (header(r, "WARC-Target-URI"), header(r, "WARC-Truncated")))
        .collect();
    assert_eq!(
        conversions,
        [
            (Some("http://example.com/whole".into()), None),
            (Some("http://example.com/cut".into()), Some("length".into())),
        ]
    );

    let pq_dir = dir.path().join("pq");
    extract_into(&input, "parquet", &pq_dir);
    let rows = parquet_rows(&pq_dir.join("truncated.parquet"));
    assert_eq!(rows, pages, "Parquet rows equal the JSONL objects");
}

/// `crawlsift extract --quiet --format FORMAT -o DIR INPUT`, which must succeed.
fn extract_into(input: &Path, format: &str, dir: &Path) {
    let out = crawlsift(&[
        input.as_os_str(),
        os("--quiet"),
        os("--format"),
        os(format),
        os("-o"),
        dir.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every row of a Parquet file as a JSON object (column name -> value), read
/// with the parquet crate's record reader.
fn parquet_rows(path: &Path) -> Vec<serde_json::Value> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let reader = SerializedFileReader::new(file).unwrap_or_else(|e| panic!("{e}"));
    reader
        .get_row_iter(None)
        .unwrap_or_else(|e| panic!("{e}"))
        .map(|row| {
            let row = row.unwrap_or_else(|e| panic!("{e}"));
            let object = row
                .get_column_iter()
                .map(|(name, field)| {
                    let value = match field {
                        Field::Null => serde_json::Value::Null,
                        Field::Str(s) => serde_json::json!(s),
                        Field::Long(n) => serde_json::json!(n),
                        Field::Int(n) => serde_json::json!(n),
                        Field::Double(x) => serde_json::json!(x),
                        other => panic!("{name}: unexpected {other:?}"),
                    };
                    (name.clone(), value)
                })
                .collect();
            serde_json::Value::Object(object)
        })
        .collect()
}

/// `--format parquet -o DIR` over every shared WARC: each file's rows equal
/// the JSONL objects of the same inputs (same records, texts, every column).
#[test]
fn parquet_rows_equal_jsonl_objects_for_every_shared_warc() {
    let dir = tempdir();
    let files = all_shared();
    let run = |format: &str, out: &Path| {
        let mut args: Vec<&std::ffi::OsStr> = files.iter().map(|f| f.as_os_str()).collect();
        args.extend([
            os("--quiet"),
            os("--format"),
            os(format),
            os("-o"),
            out.as_os_str(),
            os("-j"),
            os("2"),
        ]);
        crawlsift(&args)
    };
    let (jsonl_dir, pq_dir) = (dir.path().join("jsonl"), dir.path().join("pq"));
    for (format, out_dir) in [("jsonl", &jsonl_dir), ("parquet", &pq_dir)] {
        let out = run(format, out_dir);
        // Some shared files are deliberately unreadable: the run fails for them only.
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("writing output failed"), "{stderr}");
    }
    let mut compared = 0;
    let mut pages = 0;
    for input in &files {
        let name = input
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let stem = name
            .strip_suffix(".warc.gz")
            .or_else(|| name.strip_suffix(".warc"))
            .unwrap_or(&name);
        let jsonl_path = jsonl_dir.join(format!("{stem}.jsonl"));
        let pq_path = pq_dir.join(format!("{stem}.parquet"));
        assert_eq!(jsonl_path.exists(), pq_path.exists(), "{name}");
        if !jsonl_path.exists() {
            continue;
        }
        let expected = jsonl(&std::fs::read(&jsonl_path).unwrap_or_default());
        let rows = parquet_rows(&pq_path);
        assert_eq!(rows.len(), expected.len(), "{name}");
        for (row, object) in rows.iter().zip(&expected) {
            assert_eq!(row, object, "{name}");
        }
        compared += 1;
        pages += rows.len();
    }
    assert!(compared >= files.len() - 2, "{compared} of {}", files.len());
    assert!(pages > 100, "{pages} pages compared");
}

#[test]
fn parquet_needs_an_output_directory() {
    let out = crawlsift(&[
        shared("cc_whirlwind.warc.gz").as_os_str(),
        os("--format"),
        os("parquet"),
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("-o DIR"), "{stderr}");
    assert!(out.stdout.is_empty());
}
