//! Parquet output: the JSONL fields as columns, zstd-compressed.
//!
//! [`ParquetWriter`] is independent of the pipeline, so any code holding
//! [`PageRow`]s (the CLI's `--format parquet`, the Python binding) writes the
//! same files. It uses the `parquet` crate's low-level column writers (no
//! Arrow): rows are buffered and written as one row group whenever
//! [`ROW_GROUP_ROWS`] rows or [`ROW_GROUP_BYTES`] bytes (strings and row
//! structs) are buffered, so memory per open file stays near
//! `ROW_GROUP_BYTES` plus one encoded page (1 MiB) whatever the input size:
//! a row group's strings are moved into the column writers, not copied. The schema ([`base_schema`]) has the JSONL
//! object's fields, names, order and null-ability.

use super::schema::{Kind, Slot, FIELDS};
use super::PageRow;
use parquet::basic::{Compression, ZstdLevel};
use parquet::data_type::{ByteArray, ByteArrayType, Int32Type, Int64Type};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The Parquet schema of crawlsift's pages without the optional columns:
/// the fields of [`FIELDS`] in their order, nullable where JSONL has `null`
/// (offsets and lengths INT64, the HTTP status INT32, `lang_score` DOUBLE,
/// strings UTF-8). [`schema`] adds the columns [`Columns`] asks for.
pub fn base_schema() -> String {
    let mut schema = String::from("message crawlsift_page {\n");
    for field in FIELDS {
        schema.push_str("  ");
        schema.push_str(&field.kind.parquet_column(field.name));
        schema.push('\n');
    }
    schema.push('}');
    schema
}

/// The optional columns (`crawlsift extract --markdown`, `--signals`,
/// `--minhash`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Columns {
    /// `markdown`: a nullable string (null for algorithms that render no
    /// Markdown).
    pub markdown: bool,
    /// `signals` (a struct: per rule set its raw values, with the JSONL
    /// names and nesting), the flat nullable strings `filter_gopher_quality`,
    /// `filter_gopher_repetition`, `filter_c4`, `filter_fineweb`, and
    /// `exact_key` (16 hex digits, as in JSONL).
    pub signals: bool,
    /// `minhash`: LIST of UINT64, null for texts of fewer than 5 words.
    pub minhash: bool,
}

/// The filter columns, in order, and the [`Filters`](crate::signals::Filters)
/// field each holds.
pub const FILTER_COLUMNS: [&str; 4] = [
    "filter_gopher_quality",
    "filter_gopher_repetition",
    "filter_c4",
    "filter_fineweb",
];

/// One leaf column of the `signals` struct.
#[derive(Debug, Clone)]
struct SignalLeaf {
    /// Keys from the `signals` object down to the value.
    path: Vec<String>,
    kind: LeafKind,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum LeafKind {
    Int,
    Double,
    /// A list of doubles (`top_n_gram_char_frac`, …).
    Doubles,
    /// A nullable string (`c4.page_rule`).
    Str,
}

/// A column after [`FIELDS`]' (the optional analyses).
#[derive(Debug, Clone)]
enum Extra {
    Markdown,
    Signal(SignalLeaf),
    Filter(usize),
    ExactKey,
    Minhash,
}

/// The signals of a sample text as JSON: the shape every page's `signals`
/// has (the Parquet and Arrow layouts of the column follow it).
pub(crate) fn signals_sample() -> serde_json::Value {
    let mut analyser = crate::signals::Analyser::new(crate::signals::Config {
        signals: true,
        minhash: false,
    });
    let sample = "The quick brown fox jumps over the lazy dog. It was the best of times.";
    analyser
        .analyse(sample)
        .signals
        .as_ref()
        .map(super::signals_value)
        .unwrap_or_default()
}

/// The layout of the `signals` struct: taken from the signals of a sample
/// text, so it follows [`crate::signals::Signals`] as it is (integers INT64,
/// fractions DOUBLE, arrays LIST of DOUBLE, optional names STRING).
fn signal_layout() -> (String, Vec<SignalLeaf>) {
    let value = signals_sample();
    let mut schema = String::new();
    let mut leaves = Vec::new();
    describe("signals", &value, &mut Vec::new(), &mut leaves, &mut schema);
    (schema, leaves)
}

fn describe(
    name: &str,
    value: &serde_json::Value,
    path: &mut Vec<String>,
    leaves: &mut Vec<SignalLeaf>,
    schema: &mut String,
) {
    use serde_json::Value;
    let mut leaf = |kind| {
        leaves.push(SignalLeaf {
            path: path.clone(),
            kind,
        })
    };
    match value {
        Value::Object(map) => {
            schema.push_str(&format!("required group {name} {{\n"));
            for (key, v) in map {
                path.push(key.clone());
                describe(key, v, path, leaves, schema);
                path.pop();
            }
            schema.push_str("}\n");
        }
        Value::Array(_) => {
            leaf(LeafKind::Doubles);
            schema.push_str(&format!(
                "required group {name} (LIST) {{ repeated group list {{ required double element; }} }}\n"
            ));
        }
        Value::Number(n) if n.is_f64() => {
            leaf(LeafKind::Double);
            schema.push_str(&format!("required double {name};\n"));
        }
        Value::Number(_) => {
            leaf(LeafKind::Int);
            schema.push_str(&format!("required int64 {name};\n"));
        }
        _ => {
            leaf(LeafKind::Str);
            schema.push_str(&format!("optional binary {name} (STRING);\n"));
        }
    }
}

/// The Parquet schema (message type) of a file with `columns`, and the
/// columns after the fixed ones, in order.
fn layout(columns: Columns) -> (String, Vec<Extra>) {
    let mut schema = base_schema().trim_end_matches('}').to_owned();
    let mut extra = Vec::new();
    if columns.markdown {
        schema.push_str("optional binary markdown (STRING);\n");
        extra.push(Extra::Markdown);
    }
    if columns.signals {
        let (group, leaves) = signal_layout();
        schema.push_str(&group);
        extra.extend(leaves.into_iter().map(Extra::Signal));
        for (i, name) in FILTER_COLUMNS.iter().enumerate() {
            schema.push_str(&format!("optional binary {name} (STRING);\n"));
            extra.push(Extra::Filter(i));
        }
        schema.push_str("required binary exact_key (STRING);\n");
        extra.push(Extra::ExactKey);
    }
    if columns.minhash {
        schema.push_str(
            "optional group minhash (LIST) { repeated group list { required int64 element (INTEGER(64,false)); } }\n",
        );
        extra.push(Extra::Minhash);
    }
    schema.push('}');
    (schema, extra)
}

/// The Parquet schema of a file with `columns`, as a message type.
pub fn schema(columns: Columns) -> String {
    layout(columns).0
}

/// A row group is written when this many rows are buffered...
pub const ROW_GROUP_ROWS: usize = 100_000;
/// ...or when the buffered rows reach this many bytes (strings and structs).
pub const ROW_GROUP_BYTES: usize = 32 << 20;

/// zstd level of the column chunks (the level `--compress zstd` uses).
const ZSTD_LEVEL: i32 = 3;

/// A failure to create or write a Parquet file.
#[derive(Debug, thiserror::Error)]
pub enum ParquetError {
    /// The file cannot be created.
    #[error("cannot create {}: {source}", path.display())]
    Create {
        /// The file's path.
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Encoding or writing the Parquet data failed.
    #[error("cannot write Parquet: {0}")]
    Write(#[from] parquet::errors::ParquetError),
}

/// Writes [`PageRow`]s to one Parquet file in bounded row groups.
pub struct ParquetWriter<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    /// What the columns after [`FIELDS`]' hold.
    extra: Vec<Extra>,
    rows: Vec<PageRow>,
    buffered_bytes: usize,
    max_rows: usize,
    max_bytes: usize,
    rows_written: u64,
}

impl ParquetWriter<BufWriter<File>> {
    /// Creates (or truncates) the file at `path`, without optional columns.
    pub fn create(path: &Path) -> Result<Self, ParquetError> {
        Self::create_with_columns(path, Columns::default())
    }

    /// Creates (or truncates) the file at `path`, with `columns`.
    pub fn create_with_columns(path: &Path, columns: Columns) -> Result<Self, ParquetError> {
        let file = File::create(path).map_err(|source| ParquetError::Create {
            path: path.to_path_buf(),
            source,
        })?;
        Self::with_columns(BufWriter::with_capacity(1 << 20, file), columns)
    }
}

impl<W: Write + Send> ParquetWriter<W> {
    /// A writer into `out`, which needs no `Seek`: Parquet's footer is
    /// written last and points back by offsets.
    pub fn new(out: W) -> Result<Self, ParquetError> {
        Self::with_columns(out, Columns::default())
    }

    /// A writer into `out` whose files have the optional `columns`; a row
    /// written must then have the values (`PageRow::signals`, …).
    pub fn with_columns(out: W, columns: Columns) -> Result<Self, ParquetError> {
        let (schema, extra) = layout(columns);
        let schema = Arc::new(parquet::schema::parser::parse_message_type(&schema)?);
        let zstd = Compression::ZSTD(ZstdLevel::try_new(ZSTD_LEVEL)?);
        let mut props = WriterProperties::builder()
            .set_compression(zstd)
            .set_created_by(format!("crawlsift {}", env!("CARGO_PKG_VERSION")));
        // Long, mostly distinct strings: a dictionary only costs time, and
        // min/max statistics of page texts help no query.
        for column in ["url", "warc_record_id", "title", "text", "markdown"] {
            props = props.set_column_dictionary_enabled(ColumnPath::from(column), false);
        }
        for column in ["title", "text", "markdown"] {
            props = props
                .set_column_statistics_enabled(ColumnPath::from(column), EnabledStatistics::None);
        }
        let writer = SerializedFileWriter::new(out, schema, Arc::new(props.build()))?;
        Ok(ParquetWriter {
            writer,
            extra,
            rows: Vec::new(),
            buffered_bytes: 0,
            max_rows: ROW_GROUP_ROWS,
            max_bytes: ROW_GROUP_BYTES,
            rows_written: 0,
        })
    }

    /// Row groups of at most `rows` rows and about `bytes` bytes of strings
    /// (each at least 1).
    pub fn with_row_group_limits(mut self, rows: usize, bytes: usize) -> Self {
        self.max_rows = rows.max(1);
        self.max_bytes = bytes.max(1);
        self
    }

    /// Adds a copy of `row`.
    pub fn write(&mut self, row: &PageRow) -> Result<(), ParquetError> {
        self.push(row.clone())
    }

    /// Adds `row`, writing a row group when the buffer is full.
    pub fn push(&mut self, row: PageRow) -> Result<(), ParquetError> {
        self.buffered_bytes += row_bytes(&row);
        self.rows.push(row);
        if self.rows.len() >= self.max_rows || self.buffered_bytes >= self.max_bytes {
            self.flush_row_group()?;
        }
        Ok(())
    }

    /// Rows written so far, buffered ones included.
    pub fn rows(&self) -> u64 {
        self.rows_written + self.rows.len() as u64
    }

    /// Writes the buffered rows as one row group (nothing when empty).
    pub fn flush_row_group(&mut self) -> Result<(), ParquetError> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let mut rows = std::mem::take(&mut self.rows);
        self.buffered_bytes = 0;
        let n = rows.len();
        let mut group = self.writer.next_row_group()?;
        // The signals as JSON trees, walked by name for each leaf column.
        let signals: Vec<Option<serde_json::Value>> =
            if self.extra.iter().any(|e| matches!(e, Extra::Signal(_))) {
                rows.iter()
                    .map(|r| r.signals.as_ref().map(super::signals_value))
                    .collect()
            } else {
                Vec::new()
            };
        // Columns in schema order: the table's, then the optional ones.
        let mut column = 0;
        while let Some(mut writer) = group.next_column()? {
            if column < FIELDS.len() {
                write_field(column, &mut rows, &mut writer)?;
            } else {
                let Some(extra) = self.extra.get(column - FIELDS.len()) else {
                    return Err(parquet::errors::ParquetError::General(format!(
                        "the schema has more columns than crawlsift writes ({column})"
                    ))
                    .into());
                };
                write_extra(extra, &mut rows, &signals, &mut writer)?;
            }
            writer.close()?;
            column += 1;
        }
        group.close()?;
        self.rows_written += n as u64;
        // Keep the allocation for the next group.
        rows.clear();
        self.rows = rows;
        Ok(())
    }

    /// Writes the last row group and the footer; returns the inner writer
    /// (flushed).
    pub fn finish(mut self) -> Result<W, ParquetError> {
        self.flush_row_group()?;
        let mut out = self.writer.into_inner()?;
        out.flush().map_err(parquet::errors::ParquetError::from)?;
        Ok(out)
    }
}

/// A page whose row lacks a value its file's columns need.
fn missing(what: &str, r: &PageRow) -> parquet::errors::ParquetError {
    parquet::errors::ParquetError::General(format!(
        "the page {} has no {what}, but the Parquet file was opened with that column",
        r.url
    ))
}

/// Writes the column of the table's field `index` for `rows`; strings are
/// moved out of the rows, not copied.
fn write_field(
    index: usize,
    rows: &mut [PageRow],
    writer: &mut parquet::file::writer::SerializedColumnWriter<'_>,
) -> Result<(), parquet::errors::ParquetError> {
    use parquet::data_type::DoubleType;
    let (mut strings, mut ints, mut doubles, mut levels) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for row in rows.iter_mut() {
        let Some(slot) = row.slot(index) else {
            return Err(parquet::errors::ParquetError::General(format!(
                "the page schema has no field {index}"
            )));
        };
        match slot {
            Slot::Str(s) => strings.push(ByteArray::from(std::mem::take(s).into_bytes())),
            Slot::OptStr(s) => {
                levels.push(i16::from(s.is_some()));
                strings.extend(s.take().map(|s| ByteArray::from(s.into_bytes())));
            }
            Slot::U64(v) => ints.push(to_i64(v)),
            Slot::OptU64(v) => {
                levels.push(i16::from(v.is_some()));
                ints.extend(v.map(to_i64));
            }
            Slot::OptU16(v) => {
                levels.push(i16::from(v.is_some()));
                ints.extend(v.map(i64::from));
            }
            Slot::F64(v) => doubles.push(v),
            Slot::OptF64(v) => {
                levels.push(i16::from(v.is_some()));
                doubles.extend(v);
            }
        }
    }
    let kind = FIELDS[index].kind;
    let levels = kind.nullable().then_some(&levels[..]);
    match kind {
        Kind::Str | Kind::OptStr => {
            writer
                .typed::<ByteArrayType>()
                .write_batch(&strings, levels, None)?;
        }
        Kind::U64 | Kind::OptU64 => {
            writer
                .typed::<Int64Type>()
                .write_batch(&ints, levels, None)?;
        }
        Kind::OptU16 => {
            let ints: Vec<i32> = ints.into_iter().map(|v| v as i32).collect();
            writer
                .typed::<Int32Type>()
                .write_batch(&ints, levels, None)?;
        }
        Kind::F64 | Kind::OptF64 => {
            writer
                .typed::<DoubleType>()
                .write_batch(&doubles, levels, None)?;
        }
    }
    Ok(())
}

/// Writes one optional column for `rows`, whose signals (when
/// the file has their columns) are `signals`.
fn write_extra(
    extra: &Extra,
    rows: &mut [PageRow],
    signals: &[Option<serde_json::Value>],
    writer: &mut parquet::file::writer::SerializedColumnWriter<'_>,
) -> Result<(), parquet::errors::ParquetError> {
    use parquet::data_type::DoubleType;
    let strings = |values: Vec<Option<String>>| -> (Vec<ByteArray>, Vec<i16>) {
        let levels = values.iter().map(|v| i16::from(v.is_some())).collect();
        let values = values
            .into_iter()
            .flatten()
            .map(|s| ByteArray::from(s.into_bytes()))
            .collect();
        (values, levels)
    };
    match extra {
        Extra::Markdown => {
            let mut values = Vec::with_capacity(rows.len());
            for r in rows.iter_mut() {
                // Moved out, as the table's strings are.
                match r.markdown.take() {
                    Some(markdown) => values.push(markdown),
                    None => return Err(missing("markdown", r)),
                }
            }
            let (values, levels) = strings(values);
            writer
                .typed::<ByteArrayType>()
                .write_batch(&values, Some(&levels), None)?;
        }
        Extra::Filter(i) => {
            let mut values = Vec::with_capacity(rows.len());
            for r in rows.iter() {
                let f = r.filters.ok_or_else(|| missing("filters", r))?;
                let rule = [f.gopher_quality, f.gopher_repetition, f.c4, f.fineweb]
                    .get(*i)
                    .copied()
                    .flatten();
                values.push(rule.map(str::to_owned));
            }
            let (values, levels) = strings(values);
            writer
                .typed::<ByteArrayType>()
                .write_batch(&values, Some(&levels), None)?;
        }
        Extra::ExactKey => {
            let values = rows
                .iter()
                .map(|r| {
                    r.exact_key
                        .map(|k| ByteArray::from(super::key_hex(k).into_bytes()))
                        .ok_or_else(|| missing("exact_key", r))
                })
                .collect::<Result<Vec<_>, _>>()?;
            writer
                .typed::<ByteArrayType>()
                .write_batch(&values, None, None)?;
        }
        Extra::Minhash => {
            let (mut values, mut defs, mut reps) = (Vec::new(), Vec::new(), Vec::new());
            for r in rows.iter() {
                match r.minhash.as_ref().ok_or_else(|| missing("minhash", r))? {
                    None => {
                        defs.push(0);
                        reps.push(0);
                    }
                    Some(m) if m.is_empty() => {
                        defs.push(1);
                        reps.push(0);
                    }
                    Some(m) => {
                        for (i, &v) in m.iter().enumerate() {
                            // UINT64 is stored as INT64 bits.
                            values.push(v as i64);
                            defs.push(2);
                            reps.push(i16::from(i > 0));
                        }
                    }
                }
            }
            writer
                .typed::<Int64Type>()
                .write_batch(&values, Some(&defs), Some(&reps))?;
        }
        Extra::Signal(leaf) => {
            let mut found = Vec::with_capacity(rows.len());
            for (r, signals) in rows.iter().zip(signals) {
                let signals = signals.as_ref().ok_or_else(|| missing("signals", r))?;
                let value = leaf
                    .path
                    .iter()
                    .try_fold(signals, |v, key| v.get(key))
                    .ok_or_else(|| missing(&format!("signal {}", leaf.path.join(".")), r))?;
                found.push(value);
            }
            match leaf.kind {
                LeafKind::Int => {
                    let values: Vec<i64> = found
                        .iter()
                        .map(|v| {
                            v.as_i64()
                                .or_else(|| v.as_u64().map(to_i64))
                                .unwrap_or_else(|| v.as_f64().unwrap_or(0.0) as i64)
                        })
                        .collect();
                    writer
                        .typed::<Int64Type>()
                        .write_batch(&values, None, None)?;
                }
                LeafKind::Double => {
                    let values: Vec<f64> = found
                        .iter()
                        .map(|v| v.as_f64().unwrap_or(f64::NAN))
                        .collect();
                    writer
                        .typed::<DoubleType>()
                        .write_batch(&values, None, None)?;
                }
                LeafKind::Doubles => {
                    let (mut values, mut defs, mut reps) = (Vec::new(), Vec::new(), Vec::new());
                    for v in &found {
                        let items = v.as_array().map(Vec::as_slice).unwrap_or_default();
                        if items.is_empty() {
                            defs.push(0);
                            reps.push(0);
                        }
                        for (i, item) in items.iter().enumerate() {
                            values.push(item.as_f64().unwrap_or(f64::NAN));
                            defs.push(1);
                            reps.push(i16::from(i > 0));
                        }
                    }
                    writer
                        .typed::<DoubleType>()
                        .write_batch(&values, Some(&defs), Some(&reps))?;
                }
                LeafKind::Str => {
                    let values = found
                        .iter()
                        .map(|v| match v {
                            serde_json::Value::Null => None,
                            serde_json::Value::String(s) => Some(s.clone()),
                            other => Some(other.to_string()),
                        })
                        .collect();
                    let (values, levels) = strings(values);
                    writer
                        .typed::<ByteArrayType>()
                        .write_batch(&values, Some(&levels), None)?;
                }
            }
        }
    }
    Ok(())
}

/// What a buffered row holds: its strings and the row itself.
fn row_bytes(r: &PageRow) -> usize {
    r.url.len()
        + r.warc_record_id.len()
        + r.warc_date.len()
        + r.warc_filename.len()
        + r.truncated.as_ref().map_or(0, String::len)
        + r.content_type.as_ref().map_or(0, String::len)
        + r.charset.len()
        + r.title.len()
        + r.text.len()
        + r.markdown.as_ref().and_then(Option::as_ref).map_or(0, String::len)
        + r.algorithm.len()
        + r.lang.as_ref().map_or(0, String::len)
        // The signals' JSON tree: about 64 bytes per value.
        + r.signals.as_ref().map_or(0, |_| 64 * 40)
        + r.minhash.as_ref().and_then(Option::as_ref).map_or(0, |m| 8 * m.len())
        + std::mem::size_of::<PageRow>()
}

/// Offsets and lengths of files fit in i64; saturate rather than wrap.
pub(crate) fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;

    fn row(i: u64) -> PageRow {
        PageRow {
            url: format!("http://example.com/{i}"),
            warc_record_id: format!("<urn:uuid:{i}>"),
            warc_date: "2024-01-01T00:00:00Z".into(),
            warc_filename: "a.warc.gz".into(),
            offset: i * 1000,
            length: i.is_multiple_of(2).then_some(i + 7),
            truncated: (i == 3).then(|| "length".into()),
            http_status: (i != 1).then_some(200),
            content_type: (i != 2).then(|| "text/html; charset=utf-8".into()),
            charset: "UTF-8".into(),
            title: format!("Title {i}"),
            text: "Body ü\n".repeat(i as usize),
            algorithm: "addanag-plus".into(),
            lang: (i != 4).then(|| "en".into()),
            lang_score: i as f64 / 8.0,
            author: (i != 5).then(|| format!("Author {i}")),
            date_published: (i == 2).then(|| "2025-09-04".into()),
            page_type: (i != 5).then(|| "forum".into()),
            confidence: (i != 5).then_some(i as f64 / 16.0),
            ..PageRow::default()
        }
    }

    /// Rows read back with the parquet crate's record reader, field by field.
    fn read_back(path: &Path) -> (usize, Vec<PageRow>) {
        let file = File::open(path).unwrap_or_else(|e| panic!("{e}"));
        let reader = SerializedFileReader::new(file).unwrap_or_else(|e| panic!("{e}"));
        let groups = reader.metadata().num_row_groups();
        let rows = reader
            .get_row_iter(None)
            .unwrap_or_else(|e| panic!("{e}"))
            .map(|r| {
                let r = r.unwrap_or_else(|e| panic!("{e}"));
                let mut out = PageRow::default();
                for (name, field) in r.get_column_iter() {
                    let s = || match field {
                        Field::Str(s) => Some(s.clone()),
                        Field::Null => None,
                        other => panic!("{name}: {other:?}"),
                    };
                    let n = || match field {
                        Field::Long(n) => Some(*n as u64),
                        Field::Int(n) => Some(*n as u64),
                        Field::Null => None,
                        other => panic!("{name}: {other:?}"),
                    };
                    match name.as_str() {
                        "url" => out.url = s().unwrap_or_default(),
                        "warc_record_id" => out.warc_record_id = s().unwrap_or_default(),
                        "warc_date" => out.warc_date = s().unwrap_or_default(),
                        "warc_filename" => out.warc_filename = s().unwrap_or_default(),
                        "offset" => out.offset = n().unwrap_or(u64::MAX),
                        "length" => out.length = n(),
                        "truncated" => out.truncated = s(),
                        "http_status" => out.http_status = n().map(|n| n as u16),
                        "content_type" => out.content_type = s(),
                        "charset" => out.charset = s().unwrap_or_default(),
                        "title" => out.title = s().unwrap_or_default(),
                        "text" => out.text = s().unwrap_or_default(),
                        "algorithm" => out.algorithm = s().unwrap_or_default(),
                        "lang" => out.lang = s(),
                        "lang_score" => match field {
                            Field::Double(x) => out.lang_score = *x,
                            other => panic!("{name}: {other:?}"),
                        },
                        "author" => out.author = s(),
                        "date_published" => out.date_published = s(),
                        "date_modified" => out.date_modified = s(),
                        "site_name" => out.site_name = s(),
                        "description" => out.description = s(),
                        "canonical_url" => out.canonical_url = s(),
                        "page_type" => out.page_type = s(),
                        "confidence" => match field {
                            Field::Double(x) => out.confidence = Some(*x),
                            Field::Null => out.confidence = None,
                            other => panic!("{name}: {other:?}"),
                        },
                        other => panic!("unexpected column {other}"),
                    }
                }
                out
            })
            .collect();
        (groups, rows)
    }

    #[test]
    fn rows_round_trip_with_nulls_in_bounded_row_groups() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("p.parquet");
        let rows: Vec<PageRow> = (0..7).map(row).collect();
        let mut writer = ParquetWriter::create(&path)
            .unwrap_or_else(|e| panic!("{e}"))
            .with_row_group_limits(3, usize::MAX);
        for r in &rows {
            writer.write(r).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(writer.rows(), 7);
        writer.finish().unwrap_or_else(|e| panic!("{e}"));
        let (groups, back) = read_back(&path);
        assert_eq!(groups, 3, "7 rows in groups of at most 3");
        assert_eq!(back, rows);
    }

    #[test]
    fn byte_limit_starts_a_new_row_group() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("p.parquet");
        // A limit just over the largest row: any two rows reach it, so the
        // group is written at every second row.
        let sizes: Vec<usize> = (0..4).map(|i| row_bytes(&row(i))).collect();
        let limit = sizes.iter().max().copied().unwrap_or(0) + 1;
        assert!(sizes.iter().all(|&a| sizes.iter().all(|&b| a + b >= limit)));
        let mut writer = ParquetWriter::create(&path)
            .unwrap_or_else(|e| panic!("{e}"))
            .with_row_group_limits(usize::MAX, limit);
        for i in 0..4 {
            writer.push(row(i)).unwrap_or_else(|e| panic!("{e}"));
        }
        writer.finish().unwrap_or_else(|e| panic!("{e}"));
        let (groups, back) = read_back(&path);
        assert_eq!((groups, back.len()), (2, 4));
    }

    #[test]
    fn an_empty_file_is_valid_parquet() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("p.parquet");
        ParquetWriter::create(&path)
            .and_then(ParquetWriter::finish)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read_back(&path), (0, vec![]));
    }
}
