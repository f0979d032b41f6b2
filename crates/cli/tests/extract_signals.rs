//! `crawlsift extract` with the text analysis: `lang` always, `--signals`,
//! `--minhash`, `--filter`, the WET language header and resuming, on the
//! real WARCs in ../shared/warc.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

#[path = "../../../tests/support/shared.rs"]
mod support;

fn shared(name: &str) -> PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), &format!("warc/{name}"))
}

/// WARCs with many real pages in several languages.
const INPUTS: [&str; 4] = [
    "resiliparse_warcfile.warc.gz",
    "dolma_sample-0000.warc.gz",
    "dolma_sample-0001.warc.gz",
    "pywb_iana.warc.gz",
];

fn crawlsift(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crawlsift"))
        .arg("extract")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `crawlsift extract` over `inputs` into `dir`; returns stderr.
fn extract(inputs: &[&str], dir: &Path, extra: &[&str]) -> String {
    let paths: Vec<String> = inputs
        .iter()
        .map(|i| shared(i).display().to_string())
        .collect();
    let mut args: Vec<&str> = paths.iter().map(String::as_str).collect();
    let dir = dir.display().to_string();
    args.extend(["-o", &dir, "-j", "2"]);
    args.extend(extra);
    let out = crawlsift(&args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    stderr
}

fn stem(input: &str) -> &str {
    input.strip_suffix(".warc.gz").unwrap_or(input)
}

fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"))
}

/// A Parquet value as JSON: groups as objects, lists as arrays.
fn field_json(field: &parquet::record::Field) -> Value {
    use parquet::record::{Field, ListAccessor};
    match field {
        Field::Null => Value::Null,
        Field::Bool(b) => json!(b),
        Field::Str(s) => json!(s),
        Field::Int(n) => json!(n),
        Field::Long(n) => json!(n),
        Field::ULong(n) => json!(n),
        Field::Double(x) => json!(x),
        Field::Group(row) => Value::Object(
            row.get_column_iter()
                .map(|(k, v)| (k.clone(), field_json(v)))
                .collect(),
        ),
        Field::ListInternal(list) => Value::Array(
            (0..list.len())
                .map(|i| {
                    // Lists here hold doubles (signals) or unsigned longs (minhash).
                    list.get_double(i)
                        .map(|x| json!(x))
                        .or_else(|_| list.get_ulong(i).map(|n| json!(n)))
                        .unwrap_or_else(|e| panic!("list item {i}: {e}"))
                })
                .collect(),
        ),
        other => panic!("unexpected Parquet field {other:?}"),
    }
}

/// Every row of a Parquet file as a JSON object, and the column names.
fn parquet_rows(path: &Path) -> (Vec<String>, Vec<Value>) {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let reader = SerializedFileReader::new(file).unwrap_or_else(|e| panic!("{e}"));
    let columns = reader
        .metadata()
        .file_metadata()
        .schema()
        .get_fields()
        .iter()
        .map(|f| f.name().to_owned())
        .collect();
    let rows = reader
        .get_row_iter(None)
        .unwrap_or_else(|e| panic!("{e}"))
        .map(|row| {
            let row = row.unwrap_or_else(|e| panic!("{e}"));
            Value::Object(
                row.get_column_iter()
                    .map(|(k, v)| (k.clone(), field_json(v)))
                    .collect(),
            )
        })
        .collect();
    (columns, rows)
}

/// Equal JSON values, floats within one part in 10^15: serde_json's
/// default parser may be a unit in the last place off the written value.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            (x - y).abs() <= 1e-15 * x.abs().max(y.abs())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same(vx, vy))
        }
        _ => a == b,
    }
}

const SETS: [&str; 4] = ["gopher_quality", "gopher_repetition", "c4", "fineweb"];

#[test]
fn jsonl_and_parquet_carry_the_same_language_signals_and_keys() {
    let dir = tempdir();
    let (j, p) = (dir.path().join("j"), dir.path().join("p"));
    extract(&INPUTS, &j, &["--signals", "--minhash"]);
    extract(
        &INPUTS,
        &p,
        &["--signals", "--minhash", "--format", "parquet"],
    );
    let mut pages = 0;
    let mut langs = BTreeMap::new();
    let mut failed = 0;
    for input in INPUTS {
        let objects = jsonl(&j.join(format!("{}.jsonl", stem(input))));
        let (columns, rows) = parquet_rows(&p.join(format!("{}.parquet", stem(input))));
        let filter_columns: Vec<String> = SETS.iter().map(|s| format!("filter_{s}")).collect();
        for name in ["lang", "lang_score", "signals", "exact_key", "minhash"] {
            assert!(columns.iter().any(|c| c == name), "{name} in {columns:?}");
        }
        assert!(filter_columns.iter().all(|f| columns.contains(f)));
        assert_eq!(objects.len(), rows.len(), "{input}");
        for (o, r) in objects.iter().zip(&rows) {
            assert_eq!(o["warc_record_id"], r["warc_record_id"]);
            for field in ["lang", "lang_score", "signals", "exact_key", "minhash"] {
                assert!(
                    same(&o[field], &r[field]),
                    "{input} {} {field}: {} vs {}",
                    o["url"],
                    o[field],
                    r[field]
                );
            }
            for (set, column) in SETS.iter().zip(&filter_columns) {
                assert_eq!(o["filters"][set], r[column], "{input} {set}");
                failed += usize::from(!r[column].is_null());
            }
            let key = o["exact_key"].as_str().unwrap_or_default();
            assert!(
                key.len() == 16 && key.bytes().all(|b| b.is_ascii_hexdigit()),
                "{key}"
            );
            match o["minhash"].as_array() {
                Some(values) => assert_eq!(values.len(), 112),
                None => assert!(
                    o["text"]
                        .as_str()
                        .unwrap_or_default()
                        .split_whitespace()
                        .count()
                        < 5,
                    "no minhash for a text of 5 words or more"
                ),
            }
            *langs.entry(o["lang"].to_string()).or_insert(0) += 1;
            pages += 1;
        }
    }
    assert!(pages > 60, "{pages} pages");
    // The samples hold English, Chinese, Russian and German pages.
    for lang in ["\"en\"", "\"zh\"", "\"ru\""] {
        assert!(langs.contains_key(lang), "{lang} in {langs:?}");
    }
    assert!(failed > 0 && failed < 4 * pages, "{failed} failures");
}

#[test]
fn without_options_only_lang_is_added_and_parquet_has_no_optional_columns() {
    let dir = tempdir();
    let input = [INPUTS[1]];
    extract(&input, &dir.path().join("j"), &[]);
    extract(&input, &dir.path().join("p"), &["--format", "parquet"]);
    let objects = jsonl(
        &dir.path()
            .join("j")
            .join(format!("{}.jsonl", stem(input[0]))),
    );
    assert!(!objects.is_empty());
    for o in &objects {
        assert!(o.get("lang").is_some() && o["lang_score"].is_f64(), "{o}");
        for absent in ["signals", "filters", "exact_key", "minhash"] {
            assert!(o.get(absent).is_none(), "{absent}");
        }
    }
    let (columns, _) = parquet_rows(
        &dir.path()
            .join("p")
            .join(format!("{}.parquet", stem(input[0]))),
    );
    // The table's last field (the extraction's confidence) ends the row.
    assert_eq!(columns.last().map(String::as_str), Some("confidence"));
    assert!(!columns.iter().any(|c| c == "signals" || c == "minhash"));
}

#[test]
fn no_lang_leaves_the_language_out_and_changes_nothing_else() {
    let dir = tempdir();
    let input = [INPUTS[0]];
    extract(&input, &dir.path().join("with"), &[]);
    extract(&input, &dir.path().join("without"), &["--no-lang"]);
    extract(
        &input,
        &dir.path().join("wet"),
        &["--no-lang", "--format", "wet"],
    );
    let name = format!("{}.jsonl", stem(input[0]));
    let with = jsonl(&dir.path().join("with").join(&name));
    let without = jsonl(&dir.path().join("without").join(&name));
    assert_eq!(with.len(), without.len());
    assert!(
        with.iter().any(|o| o["lang"].is_string()),
        "the input has languages"
    );
    for (a, b) in with.iter().zip(&without) {
        assert!(b["lang"].is_null() && b["lang_score"] == json!(0.0), "{b}");
        let strip = |o: &Value| {
            let mut o = o.clone();
            o.as_object_mut().map(|m| {
                m.remove("lang");
                m.remove("lang_score")
            });
            o
        };
        assert_eq!(strip(a), strip(b));
    }
    let wet = wet_languages(
        &dir.path()
            .join("wet")
            .join(format!("{}.warc.wet.gz", stem(input[0]))),
    );
    assert!(wet.iter().any(|(kind, _)| kind == "conversion"));
    assert!(wet.iter().all(|(_, lang)| lang.is_none()));
}

/// (rule set, rule) of the first failure among `sets` (in that order).
fn first_failure(o: &Value, sets: &[&str]) -> Option<String> {
    sets.iter().find_map(|set| {
        o["filters"][set]
            .as_str()
            .map(|rule| format!("filter:{set}:{rule}"))
    })
}

#[derive(serde::Deserialize)]
struct Stats {
    read: u64,
    extracted: u64,
    skipped: BTreeMap<String, u64>,
    failed: BTreeMap<String, u64>,
}

fn stats(path: &Path) -> Vec<Stats> {
    let text = std::fs::read(path).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// `--filter` keeps exactly the pages whose `filters` (from a `--signals`
/// run of the same inputs) are null for those rule sets, counts each dropped
/// page under its first failed rule, and every record is still accounted for.
#[test]
fn filter_drops_exactly_the_failing_pages_and_counts_them_per_rule() {
    for (filter, sets) in [
        ("gopher,c4,fineweb", &SETS[..]),
        ("c4", &SETS[2..3]),
        (
            "fineweb,gopher_repetition",
            &["fineweb", "gopher_repetition"][..],
        ),
    ] {
        let dir = tempdir();
        let (all, kept) = (dir.path().join("all"), dir.path().join("kept"));
        let (all_stats, kept_stats) = (dir.path().join("all.json"), dir.path().join("kept.json"));
        extract(
            &INPUTS,
            &all,
            &["--signals", "--stats", &all_stats.display().to_string()],
        );
        let stderr = extract(
            &INPUTS,
            &kept,
            &[
                "--filter",
                filter,
                "--stats",
                &kept_stats.display().to_string(),
            ],
        );
        let (all_stats, kept_stats) = (stats(&all_stats), stats(&kept_stats));
        let mut dropped_total = 0;
        for (i, input) in INPUTS.iter().enumerate() {
            let name = format!("{}.jsonl", stem(input));
            let every = jsonl(&all.join(&name));
            let kept_pages = jsonl(&kept.join(&name));
            let mut expected_kept = Vec::new();
            let mut expected_dropped: BTreeMap<String, u64> = BTreeMap::new();
            for o in &every {
                match first_failure(o, sets) {
                    Some(reason) => *expected_dropped.entry(reason).or_default() += 1,
                    None => expected_kept.push(o["warc_record_id"].clone()),
                }
            }
            let ids: Vec<Value> = kept_pages
                .iter()
                .map(|o| o["warc_record_id"].clone())
                .collect();
            assert_eq!(ids, expected_kept, "{filter}: {input}");
            assert!(kept_pages.iter().all(|o| o.get("filters").is_none()));
            let (a, k) = (&all_stats[i], &kept_stats[i]);
            let dropped: BTreeMap<String, u64> = k
                .skipped
                .iter()
                .filter(|(r, _)| r.starts_with("filter:"))
                .map(|(r, n)| (r.clone(), *n))
                .collect();
            assert_eq!(dropped, expected_dropped, "{filter}: {input}");
            // The other skips are those of the unfiltered run.
            let others: BTreeMap<&String, &u64> = k
                .skipped
                .iter()
                .filter(|(r, _)| !r.starts_with("filter:"))
                .collect();
            assert_eq!(others, a.skipped.iter().collect(), "{input}");
            assert_eq!(k.read, a.read);
            assert_eq!(
                k.read,
                k.extracted + k.skipped.values().sum::<u64>() + k.failed.values().sum::<u64>()
            );
            assert_eq!(k.extracted as usize, kept_pages.len());
            dropped_total += dropped.values().sum::<u64>();
        }
        assert!(dropped_total > 0, "{filter} dropped nothing");
        assert!(
            stderr.contains("filter:"),
            "the summary names the rules: {stderr}"
        );
    }
}

#[test]
fn an_unknown_rule_set_is_refused_before_reading() {
    let input = shared(INPUTS[0]).display().to_string();
    let out = crawlsift(&[&input, "--filter", "gopher,c5"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("c5") && stderr.contains("fineweb"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

/// (WARC-Type, WARC-Identified-Content-Language) of each record of a
/// gzipped WARC (crawlsift's or Common Crawl's WET), read with the warc crate.
fn wet_languages(path: &Path) -> Vec<(String, Option<String>)> {
    let reader = warc::WarcReader::from_path_gzip(path).unwrap_or_else(|e| panic!("{e}"));
    reader
        .iter_records()
        .map(|r| {
            let r = r.unwrap_or_else(|e| panic!("{e}"));
            let lang = r
                .header(warc::WarcHeader::from("WARC-Identified-Content-Language"))
                .map(|v| v.into_owned());
            (r.warc_type().to_string(), lang)
        })
        .collect()
}

#[test]
fn wet_records_carry_the_language_as_common_crawl_does() {
    let dir = tempdir();
    let inputs = [INPUTS[0], "cc_whirlwind.warc.gz"];
    extract(&inputs, &dir.path().join("j"), &[]);
    extract(&inputs, &dir.path().join("w"), &["--format", "wet"]);
    for input in inputs {
        let pages = jsonl(&dir.path().join("j").join(format!("{}.jsonl", stem(input))));
        let records = wet_languages(
            &dir.path()
                .join("w")
                .join(format!("{}.warc.wet.gz", stem(input))),
        );
        let conversions: Vec<_> = records
            .iter()
            .filter(|(kind, _)| kind == "conversion")
            .collect();
        assert_eq!(conversions.len(), pages.len());
        for ((_, header), page) in conversions.iter().zip(&pages) {
            match page["lang"].as_str() {
                Some(lang) => {
                    let three = header
                        .as_deref()
                        .unwrap_or_else(|| panic!("no language header for {}", page["url"]));
                    assert_eq!(three.len(), 3, "{three}");
                    assert_eq!(crawlsift::output::iso_639_3(lang), three);
                }
                None => assert!(header.is_none()),
            }
        }
    }
    // Common Crawl's own WET of the same capture names the same language.
    let cc = wet_languages(&shared("cc_whirlwind.warc.wet.gz"));
    let ours = wet_languages(&dir.path().join("w").join("cc_whirlwind.warc.wet.gz"));
    let lang = |records: &[(String, Option<String>)]| records.iter().find_map(|(_, l)| l.clone());
    assert_eq!(lang(&cc).as_deref(), Some("spa"));
    assert_eq!(lang(&ours), lang(&cc));
}

#[test]
fn resume_redoes_an_output_when_the_analysis_options_change() {
    let dir = tempdir();
    let out = dir.path().join("o");
    let input = [INPUTS[1]];
    let page = |field: &str| {
        jsonl(&out.join(format!("{}.jsonl", stem(input[0]))))[0]
            .get(field)
            .is_some()
    };
    extract(&input, &out, &[]);
    assert!(extract(&input, &out, &[]).contains("is complete"));
    let stderr = extract(&input, &out, &["--signals"]);
    assert!(stderr.contains("--signals off (this run: on)"), "{stderr}");
    assert!(page("signals"));
    assert!(extract(&input, &out, &["--signals"]).contains("is complete"));
    let stderr = extract(&input, &out, &["--signals", "--minhash"]);
    assert!(stderr.contains("--minhash off (this run: on)"), "{stderr}");
    assert!(page("minhash"));
    let stderr = extract(&input, &out, &["--signals", "--minhash", "--filter", "c4"]);
    assert!(stderr.contains("--filter none (this run: c4)"), "{stderr}");
    let stderr = extract(&input, &out, &[]);
    assert!(stderr.contains("redoing"), "{stderr}");
    assert!(!page("signals"));
}
