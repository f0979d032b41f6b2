"""crawlsift.spark in real Spark (local mode) over the shared WARCs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pyspark = pytest.importorskip("pyspark", reason="pyspark is installed by .ci/run")
pq = pytest.importorskip("pyarrow.parquet")

import crawlsift.spark as dspark  # noqa: E402

from scaleout import key  # noqa: E402


def parquet_rows(path) -> list[dict]:
    return pq.read_table(str(path)).to_pylist()


@pytest.mark.parametrize("direct", [[], ["--direct"]], ids=["dataframe", "direct"])
def test_spark_job_equals_the_cli(tmp_path, paths_file, expected, direct):
    """`python -m crawlsift.spark` in local mode: the Parquet rows are the CLI's JSONL rows,
    and an unreadable input is counted, not a failed job; with `--direct` the tasks
    write the files themselves, one per input with pages, named after it."""
    out = tmp_path / "pages"
    done = subprocess.run(
        [sys.executable, "-m", "crawlsift.spark", "--paths", str(paths_file), str(out),
         "--master", "local[2]", "--partitions", "3", *direct],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = sorted(parquet_rows(out), key=key)
    assert [key(r) for r in rows] == [key(r) for r in expected]
    for got, want in zip(rows, expected):
        assert {k: got.get(k) for k in want} == want
    summary = [line for line in done.stderr.splitlines() if line.startswith("files=")]
    assert summary, done.stderr[-3000:]
    counters = dict(item.split("=") for item in summary[-1].split())
    # the missing file cannot be read (the LZ4 file is)
    assert int(counters["files_failed"]) == 1, done.stderr[-2000:]
    assert int(counters["extracted"]) == len(expected)
    if direct:
        names = sorted(p.name for p in out.iterdir())
        with_pages = {r["warc_filename"] for r in expected}
        assert names == ["_SUCCESS"] + sorted(
            dspark.output_name(i, w) for i, w in enumerate(dspark.read_paths(str(paths_file)))
            if Path(w).name in with_pages
        ), names


def test_every_option_reaches_the_executors(tmp_path, shared, cli_rows, slow_page_warc):
    """`python -m crawlsift.spark --markdown --signals --minhash --filter c4 --page-timeout T`:
    the rows are the CLI's with the same options (Markdown, signals, filter verdicts, MinHash,
    the pages the filter drops dropped), in one job so the options' Spark types are checked
    together; the page over the CPU budget is counted as failed (timeout) and the job goes on."""
    from conftest import TINY_BUDGET

    import crawlsift

    unlimited = crawlsift.read_warc(str(slow_page_warc), page_timeout=0)
    assert [p.url for p in unlimited] == [f"http://example.com/{n}" for n in ("first", "slow", "last")]
    options = ["--markdown", "--signals", "--minhash", "--filter", "c4", "--page-timeout", str(TINY_BUDGET)]
    warcs = [shared / "warc" / n for n in ("dolma_sample-0000.warc.gz", "resiliparse_warcfile.warc.gz")]
    warcs.append(slow_page_warc)
    listing = tmp_path / "warc.paths"
    listing.write_text("".join(f"{w}\n" for w in warcs))
    out = tmp_path / "pages"
    done = subprocess.run(
        [sys.executable, "-m", "crawlsift.spark", "--paths", str(listing), str(out), "--master", "local[2]", *options],
        capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    table = pq.read_table(str(out))
    assert table.schema.names == [n for n, _, _ in dspark.columns(markdown=True, signals=True, minhash=True)]
    got = sorted(table.to_pylist(), key=key)
    want = sorted((r for w in warcs for r in cli_rows(*options, w)), key=key)
    assert len(got) == len(want) > 10
    for g, w in zip(got, want):
        assert (g["text"], g["markdown"]) == (w["text"], w["markdown"])
        assert (g["exact_key"], g["lang"], g["minhash"]) == (w["exact_key"], w["lang"], w["minhash"])
        assert g["signals"] == w["signals"]
        assert {s: g[f"filter_{s}"] for s in w["filters"]} == w["filters"]
        assert g["filter_c4"] is None
    urls = {g["url"] for g in got}
    assert "http://example.com/slow" not in urls and "http://example.com/last" in urls
    summary = [line for line in done.stderr.splitlines() if line.startswith("files=")]
    counters = dict(item.split("=") for item in summary[-1].split())
    assert (counters["failed"], counters["failed_timeout"]) == ("1", "1"), counters


def test_columns_are_the_cli_parquet_columns(tmp_path, run_cli, shared):
    """The Spark schema names and types the columns of `crawlsift extract --format parquet`."""
    import pyarrow as pa

    done = run_cli("extract", "-q", "--format", "parquet", "-o", tmp_path, shared / "warc" / "cc_whirlwind.warc.gz")
    assert done.returncode == 0, done.stderr
    schema = pq.read_schema(next(tmp_path.glob("*.parquet")))
    kinds = {"string": pa.string(), "long": pa.int64(), "integer": pa.int32(), "double": pa.float64()}
    want = [(name, kinds[kind], nullable) for name, kind, nullable in dspark.COLUMNS]
    got = [(f.name, f.type, f.nullable) for f in schema]
    assert got == want


def test_a_retried_or_repartitioned_job_gives_the_same_rows(tmp_path, paths_file):
    import os

    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.master("local[2]").appName("crawlsift-test").getOrCreate()
    try:
        sources = dspark.read_paths(str(paths_file))
        a = dspark.run(spark, sources, str(tmp_path / "a"), partitions=2)
        b = dspark.run(spark, sources, str(tmp_path / "b"), partitions=5)
    finally:
        spark.stop()
    assert a["extracted"] == b["extracted"] > 0
    ra = sorted(parquet_rows(tmp_path / "a"), key=key)
    rb = sorted(parquet_rows(tmp_path / "b"), key=key)
    assert ra == rb


def test_base_url_joins_relative_paths(tmp_path):
    listing = tmp_path / "warc.paths.gz"
    import gzip

    with gzip.open(listing, "wt") as f:
        f.write("crawl-data/a.warc.gz\nhttps://host/b.warc.gz\n\n/abs/c.warc\n")
    assert dspark.read_paths(str(listing), "https://data.example/") == [
        "https://data.example/crawl-data/a.warc.gz",
        "https://host/b.warc.gz",
        "/abs/c.warc",
    ]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["a.warc.gz", "--paths", "warc.paths", "out"], "not both"),
        (["out"], "give the WARC files"),
        (["a.warc.gz", "out", "--base-url", "https://data.example/"], "--base-url applies"),
        (["no-such-directory/", "out"], None),
    ],
    ids=["inputs-and-paths", "no-input", "base-url-without-paths", "empty-directory"],
)
def test_a_wrong_command_line_fails_before_spark_starts(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "no-such-directory").mkdir()
    with pytest.raises(SystemExit) as exit:
        dspark.main(argv)
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert (message or "holds no WARC files") in err


def test_inputs_are_files_and_directories_as_the_cli_takes_them(tmp_path):
    """A directory stands for its WARC files of every compression the CLI
    reads, by name; files and URLs are taken as given (paths made absolute)."""
    import argparse

    d = tmp_path / "crawl"
    d.mkdir()
    for name in ["a.warc.gz", "b.warc.zst", "c.warc.lz4", "d.warc", "notes.txt"]:
        (d / name).write_bytes(b"")
    parser = argparse.ArgumentParser()
    args = argparse.Namespace(paths=None, base_url=None, inputs=[str(d), "https://host/x.warc.gz"])
    assert dspark._sources(parser, args) == [
        *(str(d / n) for n in ["a.warc.gz", "b.warc.zst", "c.warc.lz4", "d.warc"]),
        "https://host/x.warc.gz",
    ]
