"""The page schema is one table: crawlsift.COLUMNS, the Page attributes, the
JSONL keys, the Parquet columns, the Spark and datatrove fields and the type
stubs all follow it."""

import ast
import inspect
import json
from pathlib import Path

import pyarrow.parquet as pq

import crawlsift
from crawlsift import datatrove as cdatatrove
from crawlsift import spark as cspark

STUB = Path(crawlsift.__file__).with_name("_crawlsift.pyi")


def test_columns_are_the_cli_jsonl_keys_and_parquet_columns(shared, run_cli, tmp_path):
    names = [name for name, _, _ in crawlsift.COLUMNS]
    warc = shared / "warc" / "cc_whirlwind.warc.gz"
    out = run_cli("extract", "--quiet", warc)
    row = json.loads(out.stdout.decode().splitlines()[0])
    assert list(row) == names
    run_cli("extract", "--quiet", "--format", "parquet", "-o", tmp_path, warc)
    schema = pq.read_schema(next(tmp_path.glob("*.parquet")))
    assert schema.names == names
    assert [schema.field(n).nullable for n in names] == [nullable for _, _, nullable in crawlsift.COLUMNS]


def test_page_attributes_follow_the_columns(shared):
    page = next(iter(crawlsift.read_warc(shared / "warc" / "cc_whirlwind.warc.gz")))
    for name, spark_type, nullable in crawlsift.COLUMNS:
        value = getattr(page, name)
        if value is None:
            assert nullable, name
            continue
        python_type = {"string": str, "long": int, "integer": int, "double": float}[spark_type]
        assert isinstance(value, python_type), (name, value)
        assert name in dir(page)
    try:
        page.no_such_field
    except AttributeError as e:
        assert "no_such_field" in str(e)
    else:
        raise AssertionError("an unknown attribute must raise AttributeError")


def test_integrations_and_stubs_follow_the_columns():
    names = [name for name, _, _ in crawlsift.COLUMNS]
    assert cspark.COLUMNS == [tuple(c) for c in crawlsift.COLUMNS]
    assert list(cdatatrove.METADATA_FIELDS) == [n for n in names if n not in ("text", "warc_record_id")]
    stub = ast.parse(STUB.read_text())
    page = next(n for n in stub.body if isinstance(n, ast.ClassDef) and n.name == "Page")
    declared = {f.name for f in page.body if isinstance(f, ast.FunctionDef)}
    missing = [n for n in names if n not in declared]
    assert not missing, f"_crawlsift.pyi's Page lacks {missing}"


def test_defaults_are_the_exported_ones():
    read = inspect.signature(crawlsift.read_warc).parameters
    assert read["max_record_bytes"].default == crawlsift.DEFAULT_MAX_RECORD_BYTES == 16 << 20
    assert read["algorithm"].default == crawlsift.DEFAULT_ALGORITHM
    assert inspect.signature(crawlsift.extract).parameters["algorithm"].default == crawlsift.DEFAULT_ALGORITHM
    assert read["page_timeout"].default == crawlsift.DEFAULT_PAGE_TIMEOUT == 10.0
    assert inspect.signature(crawlsift.extract).parameters["page_timeout"].default == crawlsift.DEFAULT_PAGE_TIMEOUT
    reader = inspect.signature(cdatatrove.CrawlsiftWarcReader.__init__).parameters
    assert reader["max_record_bytes"].default == crawlsift.DEFAULT_MAX_RECORD_BYTES
    assert reader["algorithm"].default == crawlsift.DEFAULT_ALGORITHM
