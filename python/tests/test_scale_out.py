"""The scale-out test that fails on purpose, in real Spark (local mode): 20
inputs made from the shared WARCs (copies, one large concatenation, one cut
``.warc.gz``, one URL that a real HTTP server on 127.0.0.1 answers 404), and
the first attempt of the task reading the large input killed mid-run. Every
good page arrives exactly once, the broken inputs are counted and named, and
the output holds no duplicate and no partial file."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import signal
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

pyspark = pytest.importorskip("pyspark", reason="pyspark is installed by .ci/run")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import crawlsift  # noqa: E402
import crawlsift.spark as cspark  # noqa: E402

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


def key(row: dict) -> tuple:
    return (row["warc_filename"], row["offset"])


def pages_of(source) -> list[dict]:
    """The pages crawlsift reads from `source` (warnings of a cut file aside)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", crawlsift.WarcWarning)
        batches = list(crawlsift.read_warc_batches(source, threads=1))
    return pa.Table.from_batches(batches).to_pylist() if batches else []


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real HTTP server on 127.0.0.1 over an empty directory: every WARC URL is a 404."""
    root = tmp_path_factory.mktemp("http")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))

    class Quiet(handler.func):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory, server):
    """20 inputs: 17 copies of good shared WARCs, one large one, one cut one, one 404 URL;
    and the pages each good input holds."""
    folder = tmp_path_factory.mktemp("inputs")
    good = []
    for warc in sorted((SHARED / "warc").glob("*.warc*")):
        if warc.suffix in (".wat", ".wet") or ".wat." in warc.name or ".wet." in warc.name:
            continue
        try:
            if pages_of(warc):
                good.append(warc)
        except OSError:
            continue  # not readable (e.g. LZ4): not a good input
    assert len(good) >= 5, good
    sources = []
    for i in range(17):
        warc = good[i % len(good)]
        copy = folder / f"copy-{i:02d}-{warc.name}"
        shutil.copy(warc, copy)
        sources.append(str(copy))
    # The large one: every good gzipped WARC, several times (gzip members chain).
    large = folder / "large.warc.gz"
    with open(large, "wb") as out:
        for _ in range(6):
            for warc in good:
                if warc.name.endswith(".gz"):
                    out.write(warc.read_bytes())
    sources.append(str(large))
    cut = folder / "cut.warc.gz"
    data = (SHARED / "warc" / "dolma_sample-0000.warc.gz").read_bytes()
    cut.write_bytes(data[: len(data) * 3 // 5])
    sources.append(str(cut))
    missing = f"{server}/crawl-data/missing.warc.gz"
    sources.append(missing)
    assert len(sources) == 20
    # A copy's pages are its original's under its own name.
    originals = {warc: pages_of(warc) for warc in set(good[i % len(good)] for i in range(17))}
    expected = {}
    for i, source in enumerate(sources[:17]):
        name = Path(source).name
        expected[source] = [{**r, "warc_filename": name} for r in originals[good[i % len(good)]]]
    expected[str(large)] = pages_of(large)
    expected[str(cut)] = pages_of(cut)
    assert len(expected[str(large)]) > 200
    assert 0 < len(expected[str(cut)]) < len(pages_of(SHARED / "warc" / "dolma_sample-0000.warc.gz"))
    assert pages_of(sources[0]) == expected[sources[0]]
    return {"sources": sources, "expected": expected, "large": str(large), "cut": str(cut), "missing": missing}


@pytest.mark.parametrize("route", ["run", "write_files"])
def test_spark_scale_out_with_broken_inputs_and_a_killed_task(tmp_path, inputs, monkeypatch, route):
    """Both routes: the pages as a Spark DataFrame written by Spark (`run`), and
    Parquet files written by the tasks themselves (`write_files`)."""
    from pyspark.sql import SparkSession

    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master("local[2,3]")  # 2 slots, a task tried up to 3 times
        .appName("crawlsift-scale-out")
        # The Python workers get this (a JVM started by an earlier test
        # would not see a variable set now): the first attempt of the task
        # reading the large input exits after its first batch.
        .config(f"spark.executorEnv.{cspark.FAIL_ONCE_ENV}", "large.warc.gz")
        .getOrCreate()
    )
    out = tmp_path / "pages"
    try:
        spark.sparkContext.setJobGroup("scale-out", "the scale-out test")
        job = getattr(cspark, route)
        counts = job(spark, inputs["sources"], str(out), partitions=20, batch_rows=64)
        tracker = spark.sparkContext.statusTracker()
        failed_tasks = sum(
            tracker.getStageInfo(stage).numFailedTasks
            for job in tracker.getJobIdsForGroup("scale-out")
            for stage in tracker.getJobInfo(job).stageIds
            if tracker.getStageInfo(stage) is not None
        )
    finally:
        spark.stop()
    # The killed attempt was retried.
    assert failed_tasks >= 1
    # Every good page exactly once.
    rows = pq.read_table(out).to_pylist()
    got = Counter(key(r) for r in rows)
    assert max(got.values()) == 1, [k for k, n in got.items() if n > 1][:5]
    want = [r for pages in inputs["expected"].values() for r in pages]
    assert sorted(got) == sorted(key(r) for r in want)
    by_key = {key(r): r for r in rows}
    for r in want:
        assert {k: by_key[key(r)][k] for k in r} == r
    # The broken inputs counted and named.
    assert counts["files"] == 20
    assert counts["files_failed"] == 1 and counts["files_damaged"] == 1
    named = dict(counts["broken"])
    assert set(named) == {inputs["cut"], inputs["missing"]}
    assert "404" in named[inputs["missing"]]
    assert "cut.warc.gz" in named[inputs["cut"]]
    assert counts["extracted"] == len(want)
    # No partial file: only the committed parts and the success marker.
    left = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert "_SUCCESS" in left and "_temporary" not in left, left
    assert all(n == "_SUCCESS" or n.endswith(".parquet") for n in left), left
    if route == "write_files":
        # One file per input with pages, named after it; the killed attempt's
        # temporary file is gone.
        hidden = [p.name for p in out.iterdir() if p.name.startswith(".")]
        assert not [n for n in hidden if "partial" in n], hidden
        assert sorted(counts["outputs"]) == sorted(str(p) for p in out.glob("part-*.parquet"))
        assert len(left) == 1 + 19, left  # every input but the missing one has pages
        assert "part-00017-large.parquet" in left and "part-00018-cut.parquet" in left, left


DATATROVE_JOB = """
import sys
from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.writers import JsonlWriter
from crawlsift.datatrove import CrawlsiftWarcReader

if __name__ == "__main__":
    folder, paths, out, logs = sys.argv[1:]
    LocalPipelineExecutor(
        pipeline=[CrawlsiftWarcReader(folder, paths_file=paths), JsonlWriter(out)],
        tasks=20,
        workers=1,
        logging_dir=logs,
    ).run()
"""


def test_datatrove_scale_out_with_broken_inputs_and_a_killed_run(tmp_path, inputs):
    """The same 20 inputs in real datatrove: the first run dies mid-task (the process
    exits after the first document of the large input); running it again redoes the
    unfinished tasks only, and every good page is written exactly once."""
    import gzip
    import json

    pytest.importorskip("datatrove", reason="datatrove is installed by .ci/run")
    import crawlsift.datatrove as cdatatrove

    folder = Path(inputs["large"]).parent
    paths = tmp_path / "warc.paths"
    paths.write_text("\n".join(Path(s).name if "://" not in s else s for s in inputs["sources"]) + "\n")
    script = tmp_path / "job.py"
    script.write_text(DATATROVE_JOB)
    marker = tmp_path / "killed-once"
    env = {**os.environ, cdatatrove.FAIL_ONCE_ENV: f"large.warc.gz={marker}", "CRAWLSIFT_HTTP_RETRIES": "0"}
    args = [sys.executable, str(script), str(folder), str(paths), str(tmp_path / "out"), str(tmp_path / "logs")]
    import subprocess

    def run(name):
        # Output to a file, not a pipe: a helper process datatrove leaves
        # behind a killed run must not hold the test waiting for EOF.
        log = tmp_path / f"{name}.log"
        with open(log, "w") as f:
            job = subprocess.Popen(args, env=env, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
            try:
                code = job.wait(timeout=300)
            finally:
                # The killed run leaves its multiprocess Manager behind: end
                # the run's process group.
                try:
                    os.killpg(job.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        return code, log.read_text()[-3000:]

    code, log = run("first")
    assert code == 17 and marker.exists(), log
    code, log = run("second")
    assert code == 0, log
    docs = []
    for path in sorted((tmp_path / "out").iterdir()):
        with gzip.open(path, "rt", encoding="utf-8") as f:  # each file whole: no partial file
            docs.extend(json.loads(line) for line in f)
    got = Counter((d["metadata"]["warc_filename"], d["metadata"]["offset"]) for d in docs)
    assert max(got.values()) == 1
    want = [r for pages in inputs["expected"].values() for r in pages]
    assert sorted(got) == sorted(key(r) for r in want)
    by_key = {(d["metadata"]["warc_filename"], d["metadata"]["offset"]): d for d in docs}
    assert all(by_key[key(r)]["text"] == r["text"] for r in want)
    logs = "".join(p.read_text() for p in (tmp_path / "logs" / "logs").glob("*.log"))
    assert f"broken input {inputs['missing']}" in logs and "404" in logs
    assert "broken input cut.warc.gz" in logs
