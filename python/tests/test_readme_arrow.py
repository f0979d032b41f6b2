"""The README's examples of read_warc_batches/extract_batch and of Spark from
Python, run exactly as printed (in a directory where `data-samples/` is the
repository's), and what they print checked."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import crawlsift

REPO = Path(__file__).resolve().parents[2]


def readme_block(needle: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S)
    found = [b for b in blocks if needle in b]
    assert len(found) == 1, f"the README has {len(found)} python examples with {needle!r}"
    return found[0]


def run_as_printed(code: str, cwd: Path) -> list[str]:
    (cwd / "data-samples").symlink_to(REPO / "data-samples")
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYSPARK_PYTHON": sys.executable},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


def test_the_readme_arrow_example_runs_as_printed(tmp_path):
    lines = run_as_printed(readme_block("read_warc_batches("), tmp_path)
    pages = list(crawlsift.read_warc(REPO / "data-samples" / "dolma_sample-0000.warc.gz"))
    rows, extracted, names = lines[0].split(" ", 2)
    assert int(rows) == int(extracted) == len(pages) > 0
    assert ast.literal_eval(names) == ["url", "warc_record_id", "warc_date"]
    batch = ast.literal_eval(lines[1])
    assert batch[0]["title"] == "T" and "Some text of a page." in batch[0]["text"] and batch[0]["error"] is None
    assert batch[1] == {"title": None, "text": None, "error": "null_html"}


def test_the_readme_spark_example_runs_as_printed(tmp_path):
    pytest.importorskip("pyspark", reason="pyspark is installed by .ci/run")
    pq = pytest.importorskip("pyarrow.parquet")
    lines = run_as_printed(readme_block("crawlsift.spark.run("), tmp_path)
    extracted, broken = lines[-2].split(" ", 1)
    pages = list(crawlsift.read_warc(REPO / "data-samples" / "dolma_sample-0000.warc.gz"))
    assert int(extracted) == len(pages) and ast.literal_eval(broken) == []
    rows = pq.read_table(tmp_path / "out-spark").to_pylist()
    assert sorted(r["offset"] for r in rows) == sorted(p.offset for p in pages)
    # write_files: the same rows, in one file named after the WARC
    extracted, outputs = lines[-1].split(" ", 1)
    assert int(extracted) == len(pages)
    assert [Path(p).name for p in ast.literal_eval(outputs)] == ["part-00000-dolma_sample-0000.parquet"]
    files = pq.read_table(tmp_path / "out-files").to_pylist()
    assert sorted(files, key=lambda r: r["offset"]) == sorted(rows, key=lambda r: r["offset"])
