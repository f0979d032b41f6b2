"""Extract the main text of WARC archives with Spark, the cc-pyspark way.

The list of WARC paths or URLs is distributed over the executors; each
task streams its WARCs through :func:`crawlsift.read_warc_batches` (crawlsift's
parallel Rust pipeline, one file at a time) and hands Spark the Arrow record
batches crawlsift builds (``mapInArrow``: no Python object per page); the pages
become the rows of a Parquet dataset with the columns of ``crawlsift extract
--format parquet``, compressed with zstd (:func:`run`). Spark schedules, retries
and writes; crawlsift does the per-file work. With ``--direct``
(:func:`write_files`) the tasks write one Parquet file per WARC themselves and
Spark gets a stats row per input instead of the pages: the same rows for less
CPU.

Run it in local mode::

    python -m crawlsift.spark --paths warc.paths OUTPUT --master 'local[2]'
    python -m crawlsift.spark data-samples/ a.warc.gz OUTPUT --master 'local[2]'

or on a cluster (the ``crawlsift`` wheel installed on every node), with this
file as the application (README, "On a cluster")::

    spark-submit --master yarn path/to/crawlsift/spark.py --paths warc.paths.gz \
        --base-url https://data.commoncrawl.org/ s3a://bucket/cc-text/

A WARC that cannot be read is logged, counted (the ``files_failed``
accumulator) and named (``broken``), not a failed job; problems inside a file are counted like the
CLI counts them. Rows depend only on the input bytes and the options, so a
retried task writes the same rows and Spark's output committer keeps one copy.
"""

from __future__ import annotations

import argparse
import gzip
import logging
import os
import sys
import time
from typing import Iterable, Iterator

import crawlsift

log = logging.getLogger("crawlsift.spark")

#: The Parquet columns of ``crawlsift extract --format parquet``, in order, with
#: their Spark types and whether they may be null: the page schema
#: (:data:`crawlsift.COLUMNS`).
COLUMNS: list[tuple[str, str, bool]] = list(crawlsift.COLUMNS)

#: The column ``--markdown`` adds, right after :data:`COLUMNS`: the main
#: content as Markdown (null for the element-based algorithms).
MARKDOWN_COLUMNS: list[tuple[str, str, bool]] = [("markdown", "string", True)]

#: The columns ``--signals`` adds (``signals`` is a struct, see
#: :func:`spark_schema`), after :data:`COLUMNS`.
SIGNAL_COLUMNS: list[tuple[str, str, bool]] = [
    ("signals", "struct", False),
    ("filter_gopher_quality", "string", True),
    ("filter_gopher_repetition", "string", True),
    ("filter_c4", "string", True),
    ("filter_fineweb", "string", True),
    ("exact_key", "string", False),
]

#: The column ``--minhash`` adds: 112 values, null for texts of fewer than 5
#: words. Spark has no unsigned 64-bit type: they are ``long`` (every value
#: is below 2**61, datatrove's Mersenne prime, so none is negative).
MINHASH_COLUMNS: list[tuple[str, str, bool]] = [("minhash", "array<long>", True)]


def columns(signals: bool = False, minhash: bool = False, markdown: bool = False) -> list[tuple[str, str, bool]]:
    """The output columns with the optional ones asked for, in the order of
    ``crawlsift extract --format parquet --markdown --signals --minhash``."""
    return (
        COLUMNS
        + (MARKDOWN_COLUMNS if markdown else [])
        + (SIGNAL_COLUMNS if signals else [])
        + (MINHASH_COLUMNS if minhash else [])
    )

#: Counters kept as Spark accumulators (summed over all tasks that succeed).
COUNTERS = ("files", "files_failed", "files_damaged", "records", "extracted", "skipped", "failed", "failed_timeout")


def _struct_type(value):
    """The Spark type of a ``signals`` value (as the Parquet writer maps it:
    integers long, fractions double, lists of doubles, absent names string)."""
    from pyspark.sql import types as T

    if isinstance(value, dict):
        return T.StructType([T.StructField(k, _struct_type(v), v is None) for k, v in value.items()])
    if isinstance(value, list):
        return T.ArrayType(T.DoubleType(), containsNull=False)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return T.StringType()
    if isinstance(value, int):
        return T.LongType()
    return T.DoubleType()


def signals_type():
    """The Spark type of the ``signals`` struct, taken from crawlsift's own output."""
    sample = crawlsift.extract("<p>The quick brown fox jumps over the lazy dog.</p>", signals=True)
    return _struct_type(sample.signals)


def spark_schema(signals: bool = False, minhash: bool = False, markdown: bool = False):
    """The Spark ``StructType`` of the output rows (see :func:`columns`)."""
    from pyspark.sql import types as T

    kinds = {
        "string": T.StringType(),
        "long": T.LongType(),
        "integer": T.IntegerType(),
        "double": T.DoubleType(),
        "array<long>": T.ArrayType(T.LongType(), containsNull=False),
    }
    fields = []
    for name, kind, nullable in columns(signals, minhash, markdown):
        spark_type = signals_type() if kind == "struct" else kinds[kind]
        fields.append(T.StructField(name, spark_type, nullable))
    return T.StructType(fields)


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


def _arrow_schema(names: list[str], schema):
    """The Arrow schema Spark takes for ``schema`` (``minhash`` as ``long``s:
    Spark has no unsigned type)."""
    import pyarrow as pa

    return pa.schema([schema.field(n).with_type(pa.list_(pa.field("element", pa.int64(), False)))
                      if n == "minhash" else schema.field(n) for n in names])


def extract_batches(
    sources: Iterable[str],
    *,
    algorithm: str = crawlsift.DEFAULT_ALGORITHM,
    threads: int | None = 1,
    max_record_bytes: int = crawlsift.DEFAULT_MAX_RECORD_BYTES,
    signals: bool = False,
    minhash: bool = False,
    filter: str | None = None,
    counters: dict | None = None,
    markdown: bool = False,
    batch_rows: int = 8192,
    page_timeout: float = crawlsift.DEFAULT_PAGE_TIMEOUT,
) -> Iterator:
    """Arrow record batches (the columns of :func:`columns`) of every page of
    ``sources``, from :func:`crawlsift.read_warc_batches`.

    Runs on an executor. A source that cannot be opened or read is logged,
    counted in ``counters['files_failed']`` and named in
    ``counters['broken']`` (``(source, reason)``); one read with damaged
    records in ``counters['files_damaged']`` and ``broken``; the partition
    goes on. Pages that ``filter`` drops are counted as skipped; pages whose
    extraction takes more than ``page_timeout`` seconds of CPU as failed (and
    in ``failed_timeout``).
    """
    arrow_schema = None

    def add(name: str, value) -> None:
        if counters is not None and value:
            counters[name].add(value)

    for source in sources:
        add("files", 1)
        try:
            batches = crawlsift.read_warc_batches(
                source,
                batch_rows=batch_rows,
                algorithm=algorithm,
                threads=threads,
                max_record_bytes=max_record_bytes,
                signals=signals,
                minhash=minhash,
                filter=filter,
                markdown=markdown,
                page_timeout=page_timeout,
            )
            for batch in batches:
                if minhash:
                    if arrow_schema is None:
                        arrow_schema = _arrow_schema(batch.schema.names, batch.schema)
                    batch = batch.cast(arrow_schema)
                yield batch
                _maybe_fail(source)
        except Exception as e:  # noqa: BLE001 - any failure of one file is counted, not fatal
            log.error("crawlsift.spark: cannot read %s: %s", source, e)
            add("files_failed", 1)
            add("broken", [(source, str(e))])
            continue
        stats = batches.stats
        add("records", stats["read"])
        add("extracted", stats["extracted"])
        add("skipped", sum(stats["skipped"].values()))
        add("failed", sum(stats["failed"].values()))
        add("failed_timeout", stats["failed"].get("timeout", 0))
        if stats.get("problems"):
            add("files_damaged", 1)
            add("broken", [(source, stats["problems"][0])])
        for problem in stats.get("problems", [])[:10]:
            log.warning("crawlsift.spark: %s", problem)


#: Environment variable for the retry test: a task whose input's path
#: contains its value exits on its first attempt, after its first batch.
FAIL_ONCE_ENV = "CRAWLSIFT_SPARK_FAIL_FIRST_ATTEMPT"


def _maybe_fail(source: str) -> None:
    """Exits the Python worker mid-task on the first attempt of the task
    reading ``source``, when :data:`FAIL_ONCE_ENV` names it: a task killed
    mid-run, which Spark retries (``spark.task.maxFailures``)."""
    marker = os.environ.get(FAIL_ONCE_ENV)
    if not marker or marker not in source:
        return
    from pyspark import TaskContext

    context = TaskContext.get()
    if context is not None and context.attemptNumber() == 0:
        os._exit(17)


class _ListParam:
    """An accumulator of lists (the inputs that failed, with why)."""

    @staticmethod
    def zero(value):
        return []

    @staticmethod
    def addInPlace(a, b):
        a.extend(b)
        return a


def run(
    spark,
    sources: list[str],
    output: str,
    *,
    partitions: int | None = None,
    algorithm: str = crawlsift.DEFAULT_ALGORITHM,
    threads: int | None = 1,
    max_record_bytes: int = crawlsift.DEFAULT_MAX_RECORD_BYTES,
    mode: str = "errorifexists",
    signals: bool = False,
    minhash: bool = False,
    filter: str | None = None,
    markdown: bool = False,
    batch_rows: int = 8192,
    output_format: str = "parquet",
    page_timeout: float = crawlsift.DEFAULT_PAGE_TIMEOUT,
) -> dict:
    """Extracts every page of ``sources`` into the Parquet dataset ``output``.

    ``partitions`` defaults to one per input (the cc-pyspark layout: a task per
    WARC); ``threads`` is crawlsift's worker threads per task (1 lets Spark's task
    slots set the parallelism); ``signals``, ``minhash``, ``filter`` and
    ``markdown`` are ``crawlsift extract``'s ``--signals``, ``--minhash``,
    ``--filter`` and ``--markdown`` (a ``markdown`` column), ``page_timeout``
    its ``--page-timeout`` (CPU seconds per page, 0: no limit; a page over it
    is counted in ``failed`` and ``failed_timeout``). Each task streams
    Arrow record batches of at most ``batch_rows`` rows built by crawlsift
    (``mapInArrow``), no Python object per page. ``output_format="noop"``
    runs the job without writing (Spark's ``noop`` sink: to time the
    extraction and the transfer to the JVM alone). Returns the accumulated counters (:data:`COUNTERS`) and
    ``broken``: ``(source, reason)`` for each input that could not be read
    or had damaged records.
    """
    from pyspark.accumulators import AccumulatorParam

    sc = spark.sparkContext
    counters = {name: sc.accumulator(0) for name in COUNTERS}

    class ListParam(_ListParam, AccumulatorParam):
        pass

    counters["broken"] = sc.accumulator([], ListParam())
    n = partitions or max(1, len(sources))
    if filter:
        crawlsift.extract("", filter=filter)  # an unknown rule set fails here, not in a task
    options = dict(
        algorithm=algorithm,
        threads=threads,
        max_record_bytes=max_record_bytes,
        signals=signals,
        minhash=minhash,
        filter=filter,
        markdown=markdown,
        batch_rows=batch_rows,
        page_timeout=page_timeout,
    )

    def task(batches: Iterator) -> Iterator:
        for batch in batches:
            yield from extract_batches(batch.column(0).to_pylist(), counters=counters, **options)

    frame = spark.createDataFrame(sc.parallelize([(s,) for s in sources], n), "source string")
    pages = frame.mapInArrow(task, spark_schema(signals, minhash, markdown))
    if output_format == "noop":
        pages.write.format("noop").mode("overwrite").save()
    else:
        pages.write.mode(mode).option("compression", "zstd").format(output_format).save(output)
    counts = {name: acc.value for name, acc in counters.items()}
    counts["broken"] = sorted(counts["broken"])
    return counts


#: The extensions an input's name loses in its output file's name (those
#: ``crawlsift extract -o DIR`` drops).
_INPUT_EXTENSIONS = (".warc.gz", ".warc.zst", ".warc.lz4", ".warc", ".gz", ".zst", ".lz4")


def output_name(index: int, source: str) -> str:
    """The Parquet file :func:`write_files` writes for input number ``index``:
    ``part-NNNNN-`` and the input's name without its WARC extension (as
    ``crawlsift extract -o DIR`` names it). It depends only on the inputs'
    list, so a retried task writes the same file."""
    from urllib.parse import urlsplit

    name = (urlsplit(source).path if "://" in source else source).rstrip("/").rsplit("/", 1)[-1]
    stem = next((name[: -len(ext)] for ext in _INPUT_EXTENSIONS if name.endswith(ext)), name)
    return f"part-{index:05d}-{stem or 'input'}.parquet"


def _filesystem(output: str):
    """The pyarrow filesystem of ``output`` and the path in it (a local path,
    or a URI pyarrow knows: ``s3://``, ``gs://``, ``hdfs://``, ``file://``)."""
    from pyarrow import fs

    if "://" not in output:
        output = os.path.abspath(output)
    return fs.FileSystem.from_uri(output)


def _partial_name(name: str, attempt: int) -> str:
    """The hidden name a task attempt writes ``name`` under until it is complete."""
    return f".{name}.partial-{attempt}"


def _write_one(filesystem, directory: str, index: int, source: str, options: dict) -> dict:
    """Reads ``source`` and writes its pages to ``directory/output_name(index,
    source)`` with pyarrow's Parquet writer (zstd), under a hidden temporary
    name renamed once complete. Returns the input's stats row."""
    import pyarrow.parquet as pq
    from pyspark import TaskContext

    context = TaskContext.get()
    attempt = context.attemptNumber() if context is not None else 0
    name = output_name(index, source)
    final = f"{directory}/{name}"
    temp = f"{directory}/{_partial_name(name, attempt)}"
    row = {"index": index, "source": source, "output": None, "rows": 0, "error": None, "stats": None}
    stream = writer = None
    # Only the input's failures are caught (counted, the pages before them
    # kept, as run() keeps them); a failure to write fails the task.
    try:
        batches = crawlsift.read_warc_batches(source, **options)
        pages = iter(batches)
    except Exception as e:  # noqa: BLE001 - an input that cannot be opened is counted, not fatal
        row["error"] = str(e)
        return row
    while True:
        try:
            batch = next(pages)
        except StopIteration:
            row["stats"] = batches.stats
            break
        except Exception as e:  # noqa: BLE001 - an input that cannot be read on is counted, not fatal
            row["error"] = str(e)
            break
        if writer is None:
            stream = filesystem.open_output_stream(temp)
            writer = pq.ParquetWriter(stream, batch.schema, compression="zstd")
        writer.write_batch(batch)
        row["rows"] += batch.num_rows
        _maybe_fail(source)
    if writer is not None:
        writer.close()
        stream.close()  # the writer leaves a stream it was given open
        filesystem.move(temp, final)
        row["output"] = final
    return row


def write_files(
    spark,
    sources: list[str],
    output: str,
    *,
    partitions: int | None = None,
    mode: str = "errorifexists",
    batch_rows: int = 8192,
    **options,
) -> dict:
    """Like :func:`run`, but each task writes the Parquet files itself: one per
    input with pages (:func:`output_name`), its batches from
    :func:`crawlsift.read_warc_batches` written by pyarrow's Parquet writer
    (zstd) under a hidden temporary name and renamed once complete. Spark
    schedules the inputs and retries the tasks; it gets one small stats row
    per input instead of the pages, so no page crosses into the JVM. A
    retried task rewrites the same file names; the temporary files of
    attempts that died are removed at the end, and ``_SUCCESS`` is written
    as Spark's committer writes it. The rows are those :func:`run` writes
    (``minhash`` as unsigned 64-bit values, as ``crawlsift extract``
    writes them). ``options`` are :func:`run`'s extraction options
    (``algorithm``, ``threads``, ``max_record_bytes``, ``signals``,
    ``minhash``, ``filter``, ``markdown``, ``page_timeout``). Returns the
    counters of :func:`run`, ``broken``, and ``outputs`` (the files written).
    """
    sc = spark.sparkContext
    filesystem, directory = _filesystem(output)
    from pyarrow import fs as pafs

    info = filesystem.get_file_info(directory)
    if info.type != pafs.FileType.NotFound:
        if mode == "errorifexists":
            raise FileExistsError(f"{output} exists; give mode='overwrite' or another directory")
        if mode == "ignore":
            return {name: 0 for name in COUNTERS} | {"broken": [], "outputs": []}
        if mode == "overwrite":
            filesystem.delete_dir_contents(directory)
    filesystem.create_dir(directory, recursive=True)
    if options.get("filter"):
        crawlsift.extract("", filter=options["filter"])  # an unknown rule set fails here, not in a task
    read_options = {"batch_rows": batch_rows, "threads": 1, **options}

    def task(numbered: Iterator) -> Iterator:
        for index, source in numbered:
            yield _write_one(filesystem, directory, index, source, read_options)

    n = partitions or max(1, len(sources))
    rows = sc.parallelize(list(enumerate(sources)), n).mapPartitions(task).collect()
    for leftover in filesystem.get_file_info(pafs.FileSelector(directory)):
        if leftover.base_name.startswith(".") and ".parquet.partial-" in leftover.base_name:
            filesystem.delete_file(leftover.path)
    with filesystem.open_output_stream(f"{directory}/_SUCCESS"):
        pass
    counts = {name: 0 for name in COUNTERS}
    broken, outputs = [], []
    for row in sorted(rows, key=lambda r: r["index"]):
        counts["files"] += 1
        if row["output"]:
            outputs.append(row["output"])
        stats = row["stats"]
        if row["error"] is not None:
            log.error("crawlsift.spark: cannot read %s: %s", row["source"], row["error"])
            counts["files_failed"] += 1
            broken.append((row["source"], row["error"]))
            continue
        counts["records"] += stats["read"]
        counts["extracted"] += stats["extracted"]
        counts["skipped"] += sum(stats["skipped"].values())
        counts["failed"] += sum(stats["failed"].values())
        counts["failed_timeout"] += stats["failed"].get("timeout", 0)
        if stats.get("problems"):
            counts["files_damaged"] += 1
            broken.append((row["source"], stats["problems"][0]))
        for problem in stats.get("problems", [])[:10]:
            log.warning("crawlsift.spark: %s", problem)
    counts["broken"] = sorted(broken)
    counts["outputs"] = outputs
    return counts


def _sources(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    """The inputs the command line names: its INPUTs (a directory standing for
    its WARC files) or the entries of ``--paths``, one of the two; before Spark
    starts, so that a wrong command line fails at once."""
    if args.paths and args.inputs:
        parser.error("give WARC inputs or --paths LIST, not both")
    if args.paths:
        return read_paths(args.paths, args.base_url)
    if not args.inputs:
        parser.error("give the WARC files, URLs or directories to read, or --paths LIST")
    if args.base_url:
        parser.error("--base-url applies to the entries of --paths")
    from crawlsift._inputs import resolve

    try:
        return resolve(args.inputs)
    except (OSError, ValueError) as err:
        parser.error(str(err))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m crawlsift.spark",
        description="Extract the main text of WARC files with Spark into a Parquet dataset.",
    )
    parser.add_argument(
        "inputs",
        nargs="*",
        metavar="INPUT",
        help="WARC files, URLs or directories (a directory: its *.warc, *.warc.gz, *.warc.zst, "
        "*.warc.lz4), as crawlsift extract takes them; or give --paths",
    )
    parser.add_argument("output", help="output directory (a Parquet dataset; must not exist unless --mode says so)")
    parser.add_argument("--paths", help="file listing WARC paths or URLs, one per line (may be .gz), instead of INPUTs")
    parser.add_argument("--base-url", help="prefix for relative entries of --paths (e.g. https://data.commoncrawl.org/)")
    parser.add_argument("--master", help="Spark master, e.g. local[2] (default: spark-submit's)")
    parser.add_argument("--partitions", type=int, help="Spark partitions (default: one per input)")
    parser.add_argument("--algorithm", default=crawlsift.DEFAULT_ALGORITHM, help="crawlsift extraction algorithm")
    parser.add_argument("--threads", type=int, default=1, help="crawlsift worker threads per task (default 1)")
    parser.add_argument("--max-record-bytes", type=int, default=crawlsift.DEFAULT_MAX_RECORD_BYTES)
    parser.add_argument("--mode", default="errorifexists", choices=["errorifexists", "overwrite", "append", "ignore"])
    parser.add_argument("--signals", action="store_true", help="add the signals, filter_* and exact_key columns")
    parser.add_argument("--minhash", action="store_true", help="add the minhash column (datatrove's defaults)")
    parser.add_argument("--markdown", action="store_true", help="add the markdown column (the main content as Markdown)")
    parser.add_argument(
        "--output-format", default="parquet", choices=["parquet", "noop"],
        help="parquet (default), or noop: run the job and discard the rows (to time it without writing)",
    )
    parser.add_argument(
        "--direct", action="store_true",
        help="each task writes one Parquet file per input itself (pyarrow's writer, zstd); Spark gets "
        "one stats row per input instead of the pages (see write_files; faster, no Spark DataFrame)",
    )
    parser.add_argument(
        "--filter", metavar="SETS", help="drop pages failing these rule sets: gopher,c4,fineweb (as crawlsift extract)"
    )
    parser.add_argument(
        "--page-timeout",
        type=float,
        default=crawlsift.DEFAULT_PAGE_TIMEOUT,
        metavar="SECONDS",
        help="CPU seconds one page's extraction may take, 0: no limit (as crawlsift extract; "
        f"default {crawlsift.DEFAULT_PAGE_TIMEOUT:g}); a page over it is counted as failed",
    )
    # Intermixed: INPUTs may come before and after options (`a.warc.gz --paths x out`
    # is refused by _sources, not taken as an output named `a.warc.gz`).
    args = parser.parse_intermixed_args(argv)
    sources = _sources(parser, args)

    from pyspark.sql import SparkSession

    if (args.master or "").startswith("local"):
        # Local executors are this machine's Python processes: the interpreter
        # running this job has crawlsift installed, a bare `python3` may not.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    started = time.perf_counter()
    builder = SparkSession.builder.appName("crawlsift")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    ready = time.perf_counter()
    log.info("crawlsift.spark: Spark session started in %.2f s", ready - started)
    try:
        if args.direct and args.output_format != "parquet":
            parser.error("--direct writes Parquet: it takes no --output-format")
        counts = (write_files if args.direct else run)(
            spark,
            sources,
            args.output,
            partitions=args.partitions,
            algorithm=args.algorithm,
            threads=args.threads,
            max_record_bytes=args.max_record_bytes,
            mode=args.mode,
            signals=args.signals,
            minhash=args.minhash,
            filter=args.filter,
            markdown=args.markdown,
            page_timeout=args.page_timeout,
            **({} if args.direct else {"output_format": args.output_format}),
        )
        log.info("crawlsift.spark: the job took %.2f s", time.perf_counter() - ready)
    finally:
        spark.stop()
    broken = counts.pop("broken")
    counts.pop("outputs", None)
    for source, reason in broken:
        print(f"broken input {source}: {reason}", file=sys.stderr)
    print(" ".join(f"{k}={v}" for k, v in counts.items()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
