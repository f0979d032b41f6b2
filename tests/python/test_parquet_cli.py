"""`crawlsift extract --format parquet` read back with an independent reader (pyarrow).

The binary is $CRAWLSIFT_BIN, else target/release/crawlsift, else target/debug/crawlsift
(build it first: `cargo build --release`). pyarrow is pinned in
.ci/python-constraints.txt (installed from python/requirements-test.txt).
"""

import json
import os
import subprocess
import uuid
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "warc"
INPUTS = [
    "resiliparse_warcfile.warc.gz",  # 16 pages, Common Crawl
    "resiliparse_clueweb-quirk.warc.gz",  # EUC-JP pages
    "dolma_sample-0000.warc.gz",
    "warcio_example-iana.org-chunked.warc",  # uncompressed, chunked HTTP
]


def crawlsift_bin() -> Path:
    candidates = [os.environ.get("CRAWLSIFT_BIN")] + [
        str(ROOT / "target" / p / "crawlsift") for p in ("release", "debug")
    ]
    for c in candidates:
        if c and Path(c).is_file():
            return Path(c)
    raise FileNotFoundError(
        "no crawlsift binary: set CRAWLSIFT_BIN or run `cargo build --release` in " + str(ROOT)
    )


def extract(inputs, out_dir: Path, fmt: str) -> subprocess.CompletedProcess:
    cmd = [str(crawlsift_bin()), "extract", *map(str, inputs), "--quiet", "--format", fmt, "-o", str(out_dir)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


def stem(name: str) -> str:
    for ext in (".warc.gz", ".warc"):
        if name.endswith(ext):
            return name[: -len(ext)]
    return name


EXPECTED_SCHEMA = pa.schema(
    [
        pa.field("url", pa.string(), nullable=False),
        pa.field("warc_record_id", pa.string(), nullable=False),
        pa.field("warc_date", pa.string(), nullable=False),
        pa.field("warc_filename", pa.string(), nullable=False),
        pa.field("offset", pa.int64(), nullable=False),
        pa.field("length", pa.int64()),
        pa.field("truncated", pa.string()),
        pa.field("http_status", pa.int32()),
        pa.field("content_type", pa.string()),
        pa.field("charset", pa.string(), nullable=False),
        pa.field("title", pa.string(), nullable=False),
        pa.field("text", pa.string(), nullable=False),
        pa.field("algorithm", pa.string(), nullable=False),
        pa.field("lang", pa.string()),
        pa.field("lang_score", pa.float64(), nullable=False),
        pa.field("author", pa.string()),
        pa.field("date_published", pa.string()),
        pa.field("date_modified", pa.string()),
        pa.field("site_name", pa.string()),
        pa.field("description", pa.string()),
        pa.field("canonical_url", pa.string()),
        pa.field("page_type", pa.string()),
        pa.field("confidence", pa.float64()),
    ]
)


def test_parquet_equals_jsonl_and_has_the_documented_schema(tmp_path):
    inputs = [SHARED / n for n in INPUTS]
    extract(inputs, tmp_path / "jsonl", "jsonl")
    extract(inputs, tmp_path / "pq", "parquet")
    total = 0
    for name in INPUTS:
        objects = [
            json.loads(line)
            for line in (tmp_path / "jsonl" / f"{stem(name)}.jsonl").read_text("utf-8").splitlines()
        ]
        path = tmp_path / "pq" / f"{stem(name)}.parquet"
        table = pq.read_table(path)
        assert table.schema.remove_metadata() == EXPECTED_SCHEMA, name
        # Same field order as the JSONL object, and the same values.
        assert table.column_names == list(objects[0].keys()), name
        assert table.to_pylist() == objects, name
        meta = pq.ParquetFile(path).metadata
        assert meta.created_by.startswith("crawlsift ")
        for g in range(meta.num_row_groups):
            for c in range(meta.num_columns):
                assert meta.row_group(g).column(c).compression == "ZSTD"
        total += len(objects)
    assert total > 50


def test_truncated_column_carries_the_warc_truncated_reason(tmp_path):
    def response(uri: str, extra: str, html: str) -> bytes:
        block = ("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + html).encode()
        head = (
            f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n"
            f"WARC-Date: 2024-05-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
            f"{extra}Content-Length: {len(block)}\r\n\r\n"
        ).encode()
        return head + block + b"\r\n\r\n"

    body = "<p>" + "A sentence about the harbour and its boats. " * 5 + "</p>"
    warc = tmp_path / "cut.warc"
    warc.write_bytes(
        response("http://a/", "", f"<html><body>{body}</body></html>")
        + response("http://b/", "WARC-Truncated: time\r\n", f"<html><body>{body}<p>Th")
    )
    extract([warc], tmp_path / "pq", "parquet")
    table = pq.read_table(tmp_path / "pq" / "cut.parquet")
    assert table.column("url").to_pylist() == ["http://a/", "http://b/"]
    assert table.column("truncated").to_pylist() == [None, "time"]
    assert table.column("http_status").to_pylist() == [200, 200]


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-v"]))
