"""Every ``python`` block of the README, and its ``python -m crawlsift.spark``
command, run exactly as printed by a fresh Python in a directory laid out as
the examples expect (``data-samples/`` the repository's; ``warc.paths`` listing
two shared WARCs), and what each prints or writes checked. The README's other
shell commands are run by ``crates/cli/tests/readme.rs``."""

from __future__ import annotations

import ast
import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import crawlsift

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```python\n(.*?)^```", README, re.S | re.M)
SAMPLES = REPO / "data-samples"


def pages(path) -> list:
    return list(crawlsift.read_warc(path))


@pytest.fixture
def workdir(tmp_path, shared):
    """A fresh directory with `data-samples/` and a `warc.paths` of two shared WARCs."""
    (tmp_path / "data-samples").symlink_to(SAMPLES)
    warcs = [shared / "warc" / name for name in ("dolma_sample-0000.warc.gz", "cc_whirlwind.warc.gz")]
    (tmp_path / "warc.paths").write_text("".join(f"{w}\n" for w in warcs))
    return tmp_path, warcs


def run(args: list[str], cwd: Path) -> list[str]:
    done = subprocess.run(
        args,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        # `python` is this Python, as in the virtual environment it runs in.
        env={
            **os.environ,
            "PYSPARK_PYTHON": sys.executable,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        },
    )
    assert done.returncode == 0, f"{args}\n{done.stderr[-3000:]}"
    return done.stdout.splitlines()


def check_extract_and_read_warc(lines, cwd, warcs):
    page = crawlsift.extract(gzip.open(SAMPLES / "pages" / "scrapinghub-ctpost-suvs.html.gz").read())
    assert lines[0] == f"{page.title} {page.encoding} {page.algorithm} {page.text[:80]}"
    read = pages(SAMPLES / "resiliparse_warcfile.warc.gz")
    assert lines[1 : 1 + len(read)] == [f"{p.url} {p.http_status} {p.charset} {len(p.text)}" for p in read]
    stats = ast.literal_eval(lines[1 + len(read)])
    assert stats["extracted"] == len(read) == 16


def check_write_parquet(lines, cwd, warcs):
    rows = pq.read_table(cwd / "dolma_sample-0000.parquet").to_pylist()
    want = pages(SAMPLES / "dolma_sample-0000.warc.gz")
    assert [r["offset"] for r in rows] == [p.offset for p in want] and want


def check_arrow(lines, cwd, warcs):
    want = pages(SAMPLES / "dolma_sample-0000.warc.gz")
    rows, extracted, names = lines[0].split(" ", 2)
    assert int(rows) == int(extracted) == len(want) > 0
    assert ast.literal_eval(names) == ["url", "warc_record_id", "warc_date"]
    batch = ast.literal_eval(lines[1])
    assert batch[0]["title"] == "T" and "Some text of a page." in batch[0]["text"] and batch[0]["error"] is None
    assert batch[1] == {"title": None, "text": None, "error": "null_html"}


def check_spark(lines, cwd, warcs):
    extracted, broken = lines[-2].split(" ", 1)
    want = pages(SAMPLES / "dolma_sample-0000.warc.gz")
    assert int(extracted) == len(want) and ast.literal_eval(broken) == []
    rows = pq.read_table(cwd / "out-spark").to_pylist()
    assert sorted(r["offset"] for r in rows) == sorted(p.offset for p in want)
    # write_files: the same rows, in one file named after the WARC
    extracted, outputs = lines[-1].split(" ", 1)
    assert int(extracted) == len(want)
    assert [Path(p).name for p in ast.literal_eval(outputs)] == ["part-00000-dolma_sample-0000.parquet"]
    files = pq.read_table(cwd / "out-files").to_pylist()
    assert sorted(files, key=lambda r: r["offset"]) == sorted(rows, key=lambda r: r["offset"])


def check_datatrove(lines, cwd, warcs):
    docs = []
    for f in sorted((cwd / "out-datatrove").iterdir()):
        with gzip.open(f, "rt") as lines_in:
            docs.extend(json.loads(line) for line in lines_in)
    want = [p for w in sorted(SAMPLES.glob("*.warc.gz")) for p in pages(w)]
    assert sorted(d["id"] for d in docs) == sorted(p.warc_record_id for p in want) and want


def check_parquet_folder(lines, cwd, warcs):
    outputs = [p for p in cwd.iterdir() if p.is_dir() and p.name != "data-samples"]
    assert len(outputs) == 1, outputs
    rows = pq.read_table(str(outputs[0])).to_pylist()
    assert len(rows) == sum(len(pages(w)) for w in warcs) > 0


# The README's Python examples, told apart by a line of each, and what each must do.
CHECKS = {
    "crawlsift.extract(gzip.open(": check_extract_and_read_warc,
    "crawlsift.write_parquet(": check_write_parquet,
    "crawlsift.read_warc_batches(": check_arrow,
    "crawlsift.spark.run(": check_spark,
    "CrawlsiftWarcReader(": check_datatrove,
    "crawlsift.ray.read_warcs(": check_parquet_folder,
    "crawlsift.daft.read_warcs(": check_parquet_folder,
}


def test_every_python_block_has_a_check():
    for block in BLOCKS:
        found = [needle for needle in CHECKS if needle in block]
        assert len(found) == 1, f"README python block matched by {found}, not one check:\n{block}"
    for needle in CHECKS:
        assert sum(needle in b for b in BLOCKS) == 1, f"{needle!r} is in no README python block, or in several"


@pytest.mark.parametrize("needle", list(CHECKS))
def test_readme_python_block_runs_as_printed(needle, workdir):
    cwd, warcs = workdir
    (block,) = [b for b in BLOCKS if needle in b]
    # A block that says to run it as a file (`python pipeline.py`) is run so.
    script = re.match(r"# (\S+\.py) \(run as `python \1`", block)
    if script:
        (cwd / script.group(1)).write_text(block)
        lines = run([sys.executable, script.group(1)], cwd)
    else:
        lines = run([sys.executable, "-c", block], cwd)
    CHECKS[needle](lines, cwd, warcs)


SPARK_COMMANDS = [l.strip() for l in README.splitlines() if l.startswith("python -m crawlsift.spark ")]


def test_the_readme_shows_both_spark_routes():
    assert [line.split("  #")[0].strip() for line in SPARK_COMMANDS] == [
        "python -m crawlsift.spark --paths warc.paths OUTPUT --master 'local[2]'",
        "python -m crawlsift.spark data-samples/ OUTPUT --master 'local[2]' --direct",
    ]


@pytest.mark.parametrize("line", SPARK_COMMANDS)
def test_readme_spark_command_runs_as_printed(workdir, line):
    """Each `python -m crawlsift.spark ... OUTPUT ...` line, with `OUTPUT` the
    folder it names: every page of the WARCs it names (the listed ones, or
    the WARC files of `data-samples/`), once."""
    cwd, warcs = workdir
    if "--paths" not in line:
        warcs = sorted(SAMPLES.glob("*.warc.gz"))
    run(["bash", "-c", line], cwd)
    rows = pq.read_table(cwd / "OUTPUT").to_pylist()
    assert len(rows) == sum(len(pages(w)) for w in warcs) > 0
    assert len({(r["warc_filename"], r["offset"]) for r in rows}) == len(rows)
