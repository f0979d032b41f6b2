"""Extract the main text of WARC archives with Spark, the cc-pyspark way.

The list of WARC paths or URLs is distributed over the executors; each
executor streams its WARCs through :func:`dana.read_warc` (dana's parallel
Rust pipeline, one file at a time) and the pages become the rows of a Parquet
dataset with the columns of ``dana extract --format parquet``, compressed with
zstd. Spark schedules, retries and writes; dana does the per-file work.

Run it in local mode::

    python -m dana.spark --paths warc.paths OUTPUT --master 'local[2]'

or on a cluster (the ``dana`` wheel installed on every node), with this
file as the application (README, "On a cluster")::

    spark-submit --master yarn path/to/dana/spark.py --paths warc.paths.gz \
        --base-url https://data.commoncrawl.org/ s3a://bucket/cc-text/

A WARC that cannot be read is logged and counted (the ``files_failed``
accumulator), not a failed job; problems inside a file are counted like the
CLI counts them. Rows depend only on the input bytes and the options, so a
retried task writes the same rows and Spark's output committer keeps one copy.
"""

from __future__ import annotations

import argparse
import gzip
import logging
import os
import sys
from typing import Iterable, Iterator

import dana

log = logging.getLogger("dana.spark")

#: The Parquet columns of ``dana extract --format parquet``, in order, with
#: their Spark types and whether they may be null.
COLUMNS: list[tuple[str, str, bool]] = [
    ("url", "string", False),
    ("warc_record_id", "string", False),
    ("warc_date", "string", False),
    ("warc_filename", "string", False),
    ("offset", "long", False),
    ("length", "long", True),
    ("truncated", "string", True),
    ("http_status", "integer", True),
    ("content_type", "string", True),
    ("charset", "string", False),
    ("title", "string", False),
    ("text", "string", False),
    ("algorithm", "string", False),
]

#: Counters kept as Spark accumulators (summed over all tasks that succeed).
COUNTERS = ("files", "files_failed", "records", "extracted", "skipped", "failed")


def spark_schema():
    """The Spark ``StructType`` of the output rows (see :data:`COLUMNS`)."""
    from pyspark.sql import types as T

    kinds = {"string": T.StringType(), "long": T.LongType(), "integer": T.IntegerType()}
    return T.StructType([T.StructField(name, kinds[kind], nullable) for name, kind, nullable in COLUMNS])


def read_paths(paths: str, base_url: str | None = None) -> list[str]:
    """The inputs listed in ``paths`` (one per line, may be gzipped, like Common
    Crawl's ``warc.paths.gz``); relative entries are prefixed with ``base_url``."""
    opener = gzip.open if paths.endswith(".gz") else open
    with opener(paths, "rt", encoding="utf-8") as f:
        lines = [line.strip() for line in f]
    return [join_url(base_url, line) for line in lines if line]


def join_url(base_url: str | None, path: str) -> str:
    """``path`` prefixed with ``base_url`` unless it is absolute (a URL or ``/…``)."""
    if base_url is None or "://" in path or path.startswith("/"):
        return path
    return base_url.rstrip("/") + "/" + path.lstrip("/")


def extract_partition(
    sources: Iterable[str],
    *,
    algorithm: str,
    threads: int | None,
    max_record_bytes: int,
    counters: dict | None = None,
) -> Iterator[tuple]:
    """Rows (tuples in :data:`COLUMNS` order) of every page of ``sources``.

    Runs on an executor. A source that cannot be opened or read is logged and
    counted in ``counters['files_failed']``; the partition goes on.
    """
    names = [name for name, _, _ in COLUMNS]

    def add(name: str, value: int) -> None:
        if counters is not None and value:
            counters[name].add(value)

    for source in sources:
        add("files", 1)
        try:
            reader = dana.read_warc(
                source,
                algorithm=algorithm,
                threads=threads,
                max_record_bytes=max_record_bytes,
            )
            for page in reader:
                row = page.to_dict()
                yield tuple(row.get(name) for name in names)
        except Exception as e:  # noqa: BLE001 - any failure of one file is counted, not fatal
            log.error("dana.spark: cannot read %s: %s", source, e)
            add("files_failed", 1)
            continue
        stats = reader.stats
        add("records", stats["read"])
        add("extracted", stats["extracted"])
        add("skipped", sum(stats["skipped"].values()))
        add("failed", sum(stats["failed"].values()))
        for problem in stats.get("problems", [])[:10]:
            log.warning("dana.spark: %s", problem)


def run(
    spark,
    sources: list[str],
    output: str,
    *,
    partitions: int | None = None,
    algorithm: str = "addanag-plus",
    threads: int | None = 1,
    max_record_bytes: int = 16 << 20,
    mode: str = "errorifexists",
) -> dict[str, int]:
    """Extracts every page of ``sources`` into the Parquet dataset ``output``.

    ``partitions`` defaults to one per input (the cc-pyspark layout: a task per
    WARC); ``threads`` is dana's worker threads per task (1 lets Spark's task
    slots set the parallelism). Returns the accumulated counters.
    """
    sc = spark.sparkContext
    counters = {name: sc.accumulator(0) for name in COUNTERS}
    n = partitions or max(1, len(sources))
    options = dict(algorithm=algorithm, threads=threads, max_record_bytes=max_record_bytes)

    def task(part: Iterable[str]) -> Iterator[tuple]:
        return extract_partition(part, counters=counters, **options)

    rows = sc.parallelize(sources, n).mapPartitions(task)
    frame = spark.createDataFrame(rows, spark_schema())
    frame.write.mode(mode).option("compression", "zstd").parquet(output)
    return {name: acc.value for name, acc in counters.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m dana.spark",
        description="Extract the main text of WARC files with Spark into a Parquet dataset.",
    )
    parser.add_argument("output", help="output directory (a Parquet dataset; must not exist unless --mode says so)")
    parser.add_argument("--paths", required=True, help="file listing WARC paths or URLs, one per line (may be .gz)")
    parser.add_argument("--base-url", help="prefix for relative entries of --paths (e.g. https://data.commoncrawl.org/)")
    parser.add_argument("--master", help="Spark master, e.g. local[2] (default: spark-submit's)")
    parser.add_argument("--partitions", type=int, help="Spark partitions (default: one per input)")
    parser.add_argument("--algorithm", default="addanag-plus", help="dana extraction algorithm")
    parser.add_argument("--threads", type=int, default=1, help="dana worker threads per task (default 1)")
    parser.add_argument("--max-record-bytes", type=int, default=16 << 20)
    parser.add_argument("--mode", default="errorifexists", choices=["errorifexists", "overwrite", "append", "ignore"])
    args = parser.parse_args(argv)

    from pyspark.sql import SparkSession

    if (args.master or "").startswith("local"):
        # Local executors are this machine's Python processes: the interpreter
        # running this job has dana installed, a bare `python3` may not.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    builder = SparkSession.builder.appName("dana")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    try:
        sources = read_paths(args.paths, args.base_url)
        counts = run(
            spark,
            sources,
            args.output,
            partitions=args.partitions,
            algorithm=args.algorithm,
            threads=args.threads,
            max_record_bytes=args.max_record_bytes,
            mode=args.mode,
        )
    finally:
        spark.stop()
    print(" ".join(f"{k}={v}" for k, v in counts.items()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
