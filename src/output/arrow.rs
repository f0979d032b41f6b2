//! Pages as Arrow record batches (feature `arrow`): the columns of the
//! Parquet output ([`super::parquet`]) with the types a Parquet reader gives
//! them, built from the page schema's table ([`FIELDS`]) and the same
//! optional [`Columns`], so a new page field is still one line in
//! [`super::schema`]. The Python binding hands these batches to Python
//! through the Arrow C data interface.
//!
//! Types: strings `Utf8`, offsets and lengths `Int64`, the HTTP status
//! `Int32`, `lang_score` `Float64`; nullable where JSONL has `null`. The
//! `signals` struct follows [`crate::signals::Signals`] as the Parquet
//! writer's does (integers `Int64`, fractions `Float64`, arrays lists of
//! `Float64`, optional names `Utf8`); `minhash` is a list of `UInt64`.

use super::parquet::{signals_sample, to_i64, Columns, FILTER_COLUMNS};
use super::schema::{Kind, Value, FIELDS};
use super::{key_hex, signals_value, PageRow};
use arrow_array::builder::{Float64Builder, Int32Builder, Int64Builder, StringBuilder};
use arrow_array::{
    ArrayRef, Float64Array, Int64Array, ListArray, RecordBatch, StringArray, StructArray,
    UInt64Array,
};
use arrow_buffer::{OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema, SchemaRef};
use std::sync::Arc;

/// The Arrow type of a field kind.
pub fn arrow_type(kind: Kind) -> DataType {
    match kind {
        Kind::Str | Kind::OptStr => DataType::Utf8,
        Kind::U64 | Kind::OptU64 => DataType::Int64,
        Kind::OptU16 => DataType::Int32,
        Kind::F64 | Kind::OptF64 => DataType::Float64,
    }
}

/// The Arrow type of a value of the signals object (as JSON), and whether
/// it may be null.
fn json_type(value: &serde_json::Value) -> (DataType, bool) {
    use serde_json::Value as J;
    match value {
        J::Object(map) => {
            let fields: Fields = map
                .iter()
                .map(|(name, v)| {
                    let (dt, nullable) = json_type(v);
                    Field::new(name, dt, nullable)
                })
                .collect();
            (DataType::Struct(fields), false)
        }
        J::Array(_) => (
            DataType::List(Arc::new(list_item(DataType::Float64))),
            false,
        ),
        J::Number(n) if n.is_f64() => (DataType::Float64, false),
        J::Number(_) => (DataType::Int64, false),
        _ => (DataType::Utf8, true),
    }
}

/// The item field of a Parquet LIST as Arrow readers name it.
fn list_item(dt: DataType) -> Field {
    Field::new("element", dt, false)
}

/// Builds record batches of pages with one schema.
#[derive(Debug, Clone)]
pub struct Batcher {
    columns: Columns,
    schema: SchemaRef,
    /// The type of `signals`, when the batches have it.
    signals: Option<DataType>,
}

impl Batcher {
    /// Batches with the fixed columns and `columns`.
    pub fn new(columns: Columns) -> Self {
        let mut fields: Vec<Field> = FIELDS
            .iter()
            .map(|f| Field::new(f.name, arrow_type(f.kind), f.kind.nullable()))
            .collect();
        if columns.markdown {
            fields.push(Field::new("markdown", DataType::Utf8, true));
        }
        let mut signals = None;
        if columns.signals {
            let (dt, _) = json_type(&signals_sample());
            fields.push(Field::new("signals", dt.clone(), false));
            signals = Some(dt);
            for name in FILTER_COLUMNS {
                fields.push(Field::new(name, DataType::Utf8, true));
            }
            fields.push(Field::new("exact_key", DataType::Utf8, false));
        }
        if columns.minhash {
            fields.push(Field::new(
                "minhash",
                DataType::List(Arc::new(list_item(DataType::UInt64))),
                true,
            ));
        }
        Batcher {
            columns,
            schema: Arc::new(Schema::new(fields)),
            signals,
        }
    }

    /// The schema of the batches.
    pub fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    /// The optional columns of the batches.
    pub fn columns(&self) -> Columns {
        self.columns
    }

    /// One batch of `rows`. Fails when a row lacks a value of an optional
    /// column the batches have (a page read without `signals` into batches
    /// with signals).
    pub fn batch(&self, rows: &[PageRow]) -> Result<RecordBatch, ArrowError> {
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(self.schema.fields().len());
        for (index, field) in FIELDS.iter().enumerate() {
            arrays.push(field_array(index, field.kind, rows));
        }
        if self.columns.markdown {
            let values = rows
                .iter()
                .map(|r| {
                    r.markdown
                        .as_ref()
                        .map(Option::as_deref)
                        .ok_or_else(|| missing("markdown", r))
                })
                .collect::<Result<Vec<_>, _>>()?;
            arrays.push(Arc::new(StringArray::from(values)));
        }
        if let Some(dt) = &self.signals {
            let values = rows
                .iter()
                .map(|r| {
                    r.signals
                        .as_ref()
                        .map(signals_value)
                        .ok_or_else(|| missing("signals", r))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let values: Vec<&serde_json::Value> = values.iter().collect();
            arrays.push(json_array(dt, &values)?);
            let filters = rows
                .iter()
                .map(|r| r.filters.ok_or_else(|| missing("filters", r)))
                .collect::<Result<Vec<_>, _>>()?;
            for i in 0..FILTER_COLUMNS.len() {
                let column: StringArray = filters
                    .iter()
                    .map(|f| [f.gopher_quality, f.gopher_repetition, f.c4, f.fineweb][i])
                    .collect();
                arrays.push(Arc::new(column));
            }
            let keys = rows
                .iter()
                .map(|r| {
                    r.exact_key
                        .map(key_hex)
                        .ok_or_else(|| missing("exact_key", r))
                })
                .collect::<Result<Vec<_>, _>>()?;
            arrays.push(Arc::new(StringArray::from(keys)));
        }
        if self.columns.minhash {
            let mut offsets = vec![0i32];
            let mut values: Vec<u64> = Vec::new();
            let mut valid = Vec::with_capacity(rows.len());
            for r in rows {
                let m = r.minhash.as_ref().ok_or_else(|| missing("minhash", r))?;
                valid.push(m.is_some());
                values.extend(m.iter().flatten());
                offsets.push(offset(values.len())?);
            }
            arrays.push(Arc::new(ListArray::try_new(
                Arc::new(list_item(DataType::UInt64)),
                OffsetBuffer::new(ScalarBuffer::from(offsets)),
                Arc::new(UInt64Array::from(values)),
                Some(valid.into()),
            )?));
        }
        RecordBatch::try_new(self.schema(), arrays)
    }
}

/// A list offset, or an error past `i32::MAX` items in one batch.
fn offset(n: usize) -> Result<i32, ArrowError> {
    i32::try_from(n).map_err(|_| {
        ArrowError::InvalidArgumentError(format!(
            "a list column of one batch holds more than {} items; use smaller batches",
            i32::MAX
        ))
    })
}

/// A row that lacks a value of an optional column of the batch.
fn missing(what: &str, r: &PageRow) -> ArrowError {
    ArrowError::InvalidArgumentError(format!(
        "the page {} has no {what}, but the batch has that column",
        r.url
    ))
}

/// The column of the table's field `index` (of `kind`) for `rows`.
fn field_array(index: usize, kind: Kind, rows: &[PageRow]) -> ArrayRef {
    let values = rows.iter().map(|r| r.value(index).unwrap_or(Value::Null));
    match kind {
        Kind::Str | Kind::OptStr => {
            let bytes = rows
                .iter()
                .map(|r| match r.value(index) {
                    Some(Value::Str(s)) => s.len(),
                    _ => 0,
                })
                .sum();
            let mut b = StringBuilder::with_capacity(rows.len(), bytes);
            for v in values {
                match v {
                    Value::Str(s) => b.append_value(s),
                    _ => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        Kind::U64 | Kind::OptU64 => {
            let mut b = Int64Builder::with_capacity(rows.len());
            for v in values {
                match v {
                    Value::U64(n) => b.append_value(to_i64(n)),
                    _ => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        Kind::OptU16 => {
            let mut b = Int32Builder::with_capacity(rows.len());
            for v in values {
                match v {
                    Value::U16(n) => b.append_value(i32::from(n)),
                    _ => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
        Kind::F64 | Kind::OptF64 => {
            let mut b = Float64Builder::with_capacity(rows.len());
            for v in values {
                match v {
                    Value::F64(n) => b.append_value(n),
                    _ => b.append_null(),
                }
            }
            Arc::new(b.finish())
        }
    }
}

/// The column of type `dt` holding `values` (parts of the signals objects),
/// as the Parquet writer stores them.
fn json_array(dt: &DataType, values: &[&serde_json::Value]) -> Result<ArrayRef, ArrowError> {
    const NULL: serde_json::Value = serde_json::Value::Null;
    Ok(match dt {
        DataType::Struct(fields) => {
            let children = fields
                .iter()
                .map(|f| {
                    let parts: Vec<&serde_json::Value> = values
                        .iter()
                        .map(|v| v.get(f.name()).unwrap_or(&NULL))
                        .collect();
                    json_array(f.data_type(), &parts)
                })
                .collect::<Result<Vec<_>, _>>()?;
            Arc::new(StructArray::try_new(fields.clone(), children, None)?)
        }
        DataType::List(item) => {
            let mut offsets = vec![0i32];
            let mut items = Vec::new();
            for v in values {
                let list = v.as_array().map(Vec::as_slice).unwrap_or_default();
                items.extend(list.iter().map(|x| x.as_f64().unwrap_or(f64::NAN)));
                offsets.push(offset(items.len())?);
            }
            Arc::new(ListArray::try_new(
                Arc::clone(item),
                OffsetBuffer::new(ScalarBuffer::from(offsets)),
                Arc::new(Float64Array::from(items)),
                None,
            )?)
        }
        DataType::Float64 => Arc::new(Float64Array::from_iter_values(
            values.iter().map(|v| v.as_f64().unwrap_or(f64::NAN)),
        )),
        DataType::Int64 => Arc::new(Int64Array::from_iter_values(values.iter().map(|v| {
            v.as_i64()
                .or_else(|| v.as_u64().map(to_i64))
                .unwrap_or_else(|| v.as_f64().unwrap_or(0.0) as i64)
        }))),
        _ => Arc::new(values.iter().map(|v| v.as_str()).collect::<StringArray>()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The batches' columns are the Parquet file's top-level columns, in
    /// order, for every choice of optional columns.
    #[test]
    fn columns_are_the_parquet_columns() {
        for bits in 0..8u8 {
            let columns = Columns {
                markdown: bits & 1 != 0,
                signals: bits & 2 != 0,
                minhash: bits & 4 != 0,
            };
            let parquet = super::super::parquet::schema(columns);
            let parquet = parquet::schema::parser::parse_message_type(&parquet)
                .map(|t| {
                    t.get_fields()
                        .iter()
                        .map(|f| f.name().to_owned())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default();
            let batcher = Batcher::new(columns);
            let arrow: Vec<String> = batcher
                .schema()
                .fields()
                .iter()
                .map(|f| f.name().clone())
                .collect();
            assert_eq!(arrow, parquet, "{columns:?}");
        }
    }

    /// A row lacking a value of an asked-for column is an error naming it,
    /// not a panic; rows with it give one batch row each.
    #[test]
    fn rows_without_the_asked_values_are_refused() {
        let columns = Columns {
            markdown: true,
            ..Columns::default()
        };
        let batcher = Batcher::new(columns);
        let row = PageRow {
            url: "http://x/".into(),
            ..PageRow::default()
        };
        let err = batcher.batch(std::slice::from_ref(&row));
        assert!(
            matches!(err, Err(ArrowError::InvalidArgumentError(m)) if m.contains("markdown") && m.contains("http://x/"))
        );
        let row = PageRow {
            markdown: Some(None),
            http_status: Some(200),
            ..row
        };
        let batch = batcher.batch(&[row.clone(), row]);
        assert!(matches!(batch, Ok(b) if b.num_rows() == 2 && b.num_columns() == FIELDS.len() + 1));
    }
}
