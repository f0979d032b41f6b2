"""crawlsift.ray in real Ray Data (a local Ray instance, 2 CPUs) over the shared WARCs."""

from __future__ import annotations

import gzip
import os
import sys
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="ray[data] is installed by .ci/run")
pq = pytest.importorskip("pyarrow.parquet")

import pyarrow as pa  # noqa: E402
import ray.data  # noqa: E402

import crawlsift  # noqa: E402
import crawlsift.ray as cray  # noqa: E402

from scaleout import ScaleOut, key  # noqa: E402



@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """One local Ray for the module (starting one takes seconds)."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    yield
    ray.shutdown()


def parquet_rows(folder) -> list[dict]:
    return pq.read_table(str(folder)).to_pylist()


def test_read_warcs_write_parquet_equals_the_cli(tmp_path, paths_file, expected):
    """`read_warcs(warc.paths).write_parquet(dir)`: the CLI's rows, every field; the
    unreadable inputs counted and named in `stats`."""
    ds = cray.read_warcs(str(paths_file))
    ds.write_parquet(str(tmp_path / "out"))
    rows = sorted(parquet_rows(tmp_path / "out"), key=key)
    assert [key(r) for r in rows] == [key(r) for r in expected]
    for got, want in zip(rows, expected):
        assert {k: got.get(k) for k in want} == want
    summary = cray.stats(ds)
    assert summary["files"] == summary["reported"] == len(paths_file.read_text().split())
    failed = {Path(f["file"]).name: f["error"] for f in summary["failed_files"]}
    # the missing file cannot be read, and is named with its reason (the LZ4 file is read)
    assert set(failed) == {"no-such-file.warc.gz"}, failed
    assert "No such file" in failed["no-such-file.warc.gz"]
    assert summary["files_failed"] == 1
    assert summary["extracted"] == len(rows)
    assert summary["read"] == summary["extracted"] + sum(summary["skipped"].values()) + sum(summary["failed"].values())


def test_inputs_as_a_list_a_directory_or_a_gzipped_paths_list(tmp_path, shared):
    warcs = shared / "warc"
    listing = tmp_path / "warc.paths.gz"
    with gzip.open(listing, "wt") as f:
        f.write("dolma_sample-0000.warc.gz\n\n./cc_whirlwind.warc.gz\n")
    from_list = cray.WarcDatasource([warcs / "dolma_sample-0000.warc.gz", warcs / "cc_whirlwind.warc.gz"])
    from_paths = cray.WarcDatasource(listing, base_url=str(warcs))
    assert from_list.inputs == from_paths.inputs
    from_dir = cray.WarcDatasource(warcs)
    # The CLI's rule: every compression it reads, by name (the shared .lz4 sample among them).
    suffixes = (".warc", ".warc.gz", ".warc.zst", ".warc.lz4")
    assert from_dir.inputs == sorted(str(p) for p in warcs.iterdir() if p.name.endswith(suffixes))
    assert any(i.endswith(".warc.lz4") for i in from_dir.inputs)
    url_base = cray.WarcDatasource(listing, base_url="https://data.example/crawl/")
    assert url_base.inputs == [
        "https://data.example/crawl/dolma_sample-0000.warc.gz",
        "https://data.example/crawl/cc_whirlwind.warc.gz",
    ]
    with pytest.raises(ValueError, match="paths list"):
        cray.WarcDatasource([warcs / "cc_whirlwind.warc.gz"], base_url="https://data.example/")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no WARC files"):
        cray.WarcDatasource(tmp_path / "empty")


def test_a_bad_option_fails_before_the_job():
    with pytest.raises(ValueError):
        cray.read_warcs([], algorithm="no-such-algorithm")
    with pytest.raises(TypeError):
        cray.read_warcs([], no_such_option=True)


def test_extract_actor_over_an_html_column(shared):
    """`map_batches(Extract, ...)` over a column of HTML bytes: per row, crawlsift.extract's text."""
    html_dir = shared / "datasets" / "scrapinghub" / "html"
    paths = sorted(html_dir.glob("*.html.gz"))[:40]
    assert len(paths) == 40
    pages = [gzip.decompress(p.read_bytes()) for p in paths]
    table = pa.table({"id": [p.name for p in paths], "html": pa.array(pages, pa.binary())})
    ds = ray.data.from_arrow([table.slice(i, 10) for i in range(0, 40, 10)])
    out = ds.map_batches(
        cray.Extract,
        fn_constructor_kwargs={"html_column": "html", "url_column": None},
        batch_format="pyarrow",
        batch_size=8,
        concurrency=2,
        num_cpus=0.5,
    )
    rows = {r["id"]: r for r in out.take_all()}
    assert len(rows) == len(paths)
    for path, raw in zip(paths, pages):
        row = rows[path.name]
        assert "html" not in row
        want = crawlsift.extract(raw)
        assert (row["text"], row["title"]) == (want.text, want.title), path


def test_extract_refuses_a_bad_option_when_built():
    with pytest.raises(ValueError):
        cray.Extract(algorithm="no-such-algorithm")


def test_scale_out_with_broken_inputs_and_a_killed_task(tmp_path, shared, cli_rows):
    """20 inputs (copies of the shared WARCs, one large, a cut .warc.gz, a URL that
    answers 404); the first attempt of the large input's read task kills its worker
    process after it has handed over pages. Every good page arrives exactly once, the
    broken inputs are named, the output holds only whole Parquet files."""
    with ScaleOut(tmp_path, shared) as job:
        context = ray.data.DataContext.get_current()
        saved = context.target_max_block_size
        # small blocks, so the killed task has yielded many blocks before it dies
        context.target_max_block_size = 64 * 1024
        try:
            ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
            source = KillOnce(job.inputs, batch_rows=16, marker=str(tmp_path / "killed"), victim=job.large)
            ds = source.dataset(ray_remote_args={"max_retries": 2})  # as read_warcs makes it
            ds.write_parquet(str(tmp_path / "out"))
        finally:
            context.target_max_block_size = saved
            ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
        assert (tmp_path / "killed").exists(), "the large input's first attempt was killed"
        files = sorted((tmp_path / "out").iterdir())
        assert files and all(f.name.endswith(".parquet") for f in files), [f.name for f in files]
        rows = []
        for f in files:  # each file whole: readable to its end
            rows.extend(pq.read_table(f).to_pylist())
        job.check_rows(rows, cli_rows)
        summary = source.stats()
        assert summary["files"] == summary["reported"] == 20
        assert [Path(f["file"]).name for f in summary["failed_files"]] == ["missing.warc.gz"]
        assert "404" in summary["failed_files"][0]["error"]
        assert job.cut in [f["file"] for f in summary["files_damaged"]]
        assert summary["extracted"] == len(rows)


class KillOnce(cray.WarcDatasource):
    """The read task of ``victim`` exits its worker process after its third batch,
    the first time only (a marker file remembers); Ray retries the task."""

    def __init__(self, *args, marker: str, victim: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.marker = marker
        self.victim = victim

    def read_batches(self, source):
        batches = super().read_batches(source)
        if source != self.victim or os.path.exists(self.marker):
            return batches
        return _DiesAfterThirdBatch(batches, self.marker)


class _DiesAfterThirdBatch:
    def __init__(self, batches, marker):
        self.batches = batches
        self.marker = marker

    def __iter__(self):
        for n, batch in enumerate(self.batches):
            yield batch
            if n == 2:
                open(self.marker, "w").close()
                os._exit(1)

    @property
    def stats(self):
        return self.batches.stats
