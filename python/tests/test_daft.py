"""crawlsift.daft in real Daft (the native runner) over the shared WARCs and dataset pages."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

daft = pytest.importorskip("daft", reason="daft is installed by .ci/run")
pq = pytest.importorskip("pyarrow.parquet")

import crawlsift  # noqa: E402
import crawlsift.daft as cdaft  # noqa: E402

from scaleout import ScaleOut, key  # noqa: E402



def test_read_warcs_write_parquet_equals_the_cli(tmp_path, paths_file, expected):
    """`read_warcs(warc.paths).write_parquet(dir)`: the CLI's rows, every field."""
    cdaft.read_warcs(str(paths_file)).write_parquet(str(tmp_path / "out"))
    rows = sorted(pq.read_table(str(tmp_path / "out")).to_pylist(), key=key)
    assert [key(r) for r in rows] == [key(r) for r in expected]
    for got, want in zip(rows, expected):
        assert {k: got.get(k) for k in want} == want


def test_warc_pages_names_the_inputs_it_cannot_read(paths_file, expected):
    """`warc_pages` gives per input its pages, its error and its --stats."""
    inputs = paths_file.read_text().split()
    df = daft.from_pydict({"path": inputs})
    out = df.select(df["path"], cdaft.warc_pages(df["path"])).to_pydict()
    failed = {Path(p).name: e for p, e in zip(out["path"], out["error"]) if e is not None}
    # the missing file cannot be read, and is named with its reason (the LZ4 file is read)
    assert set(failed) == {"no-such-file.warc.gz"}, failed
    assert "No such file" in failed["no-such-file.warc.gz"]
    assert sum(len(p) for p in out["pages"]) == len(expected)
    for pages, stats, error in zip(out["pages"], out["stats"], out["error"]):
        if error is None:
            assert json.loads(stats)["extracted"] == len(pages)


def test_extract_html_over_an_html_column(shared):
    """`extract_html` over a column of HTML bytes: per row, crawlsift.extract's text."""
    paths = sorted((shared / "datasets" / "scrapinghub" / "html").glob("*.html.gz"))[:40]
    assert len(paths) == 40
    pages = [gzip.decompress(p.read_bytes()) for p in paths]
    df = daft.from_pydict({"id": [p.name for p in paths], "html": pages})
    out = df.select(df["id"], cdaft.extract_html(df["html"])).to_pydict()
    assert out["id"] == [p.name for p in paths]
    for i, raw in enumerate(pages):
        want = crawlsift.extract(raw)
        assert (out["text"][i], out["title"][i], out["error"][i]) == (want.text, want.title, None), paths[i]


def test_a_bad_option_fails_before_the_query():
    with pytest.raises(ValueError):
        cdaft.read_warcs([], algorithm="no-such-algorithm")


def test_scale_out_with_broken_inputs(tmp_path, shared, cli_rows):
    """20 inputs (copies of the shared WARCs, one large, a cut .warc.gz, a URL that
    answers 404) over 2 threads: every good page arrives exactly once, the broken
    inputs are named, the output holds only whole Parquet files."""
    with ScaleOut(tmp_path, shared) as job:
        df = daft.from_pydict({"path": job.inputs}).into_partitions(4)
        df = df.select(df["path"], cdaft.warc_pages(df["path"])).collect()
        per_input = df.select("path", "error", "stats").to_pydict()
        pages = df.explode("pages").where(daft.col("pages").not_null())
        pages.select(daft.col("pages").unnest()).write_parquet(str(tmp_path / "out"))
    failed = [(p, e) for p, e in zip(per_input["path"], per_input["error"]) if e is not None]
    assert [p for p, _ in failed] == [job.missing] and "404" in failed[0][1], failed
    stats = {p: json.loads(s) for p, s in zip(per_input["path"], per_input["stats"]) if s is not None}
    assert stats[job.cut]["failed"].get("truncated") == 1, stats[job.cut]
    files = sorted((tmp_path / "out").iterdir())
    assert files and all(f.name.endswith(".parquet") for f in files), [f.name for f in files]
    rows = []
    for f in files:
        rows.extend(pq.read_table(f).to_pylist())
    job.check_rows(rows, cli_rows)
    assert sum(s["extracted"] for s in stats.values()) == len(rows)
