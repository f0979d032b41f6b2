"""One run of an engine over WARC files, for PERF.md's engine table (issue 42).

    python benches/engines_throughput.py ENGINE OUTPUT WARC...

ENGINE: ray, ray-warm (the same job after a first small one, counted as
start-up), daft, spark (crawlsift.spark.run: the pages as a DataFrame, written
by Spark), spark-direct (crawlsift.spark.write_files: the tasks write the files),
spark-warm and spark-direct-warm (after a first small job: Spark's Python
workers started and crawlsift imported in them, as Ray's are for ray-warm),
datatrove (CrawlsiftWarcReader -> ParquetWriter, one task per WARC, 2 worker
processes), or ray-startup, daft-startup, spark-startup.

Prints one line: engine, pages, start-up wall seconds, and the job's wall
seconds and CPU seconds (this process and all its descendants: Ray's workers,
Spark's JVM and its Python workers included, see `cpu`). A `*-startup` run starts the engine and runs no job.
"""

import os
import resource
import shutil
import sys
import time


def cpu() -> float:
    """CPU seconds of this process, of every process under it now alive (Ray's
    raylet, GCS and workers; Spark's JVM and Python workers), from /proc, and of
    the children they and this process have reaped (datatrove's worker pool):
    workers that Ray kills at shutdown are never reaped into RUSAGE_CHILDREN."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    tick = os.sysconf("SC_CLK_TCK")
    parent, times = {}, {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(pid)] = int(fields[1])
        # utime, stime, and cutime, cstime: its own and its reaped children's.
        times[int(pid)] = sum(int(f) for f in fields[11:15]) / tick
    me = os.getpid()
    for pid in times:
        p = parent.get(pid)
        while p and p != me:
            p = parent.get(p)
        if p == me and pid != me:
            total += times[pid]
    return total


SAMPLE = os.path.join(os.path.dirname(__file__), "..", "data-samples", "dolma_sample-0000.warc.gz")


def main() -> None:
    engine, output, warcs = sys.argv[1], sys.argv[2], sys.argv[3:]
    shutil.rmtree(output, ignore_errors=True)
    t0 = time.perf_counter()
    if engine.startswith("ray"):
        import ray

        import crawlsift.ray

        ray.init(num_cpus=2, include_dashboard=False)
        ray.data.DataContext.get_current().enable_progress_bars = False
        if engine == "ray-warm":
            # A first job over the repository's small sample WARC, counted as
            # start-up: Ray Data starts its actors and the workers import it.
            crawlsift.ray.read_warcs([SAMPLE, SAMPLE]).write_parquet(output + "-warm")
            shutil.rmtree(output + "-warm")
        t1, c1 = time.perf_counter(), cpu()
        if engine in ("ray", "ray-warm"):
            ds = crawlsift.ray.read_warcs(warcs)
            ds.write_parquet(output)
            pages = crawlsift.ray.stats(ds)["extracted"]
        else:
            pages = 0
        t2, c2 = time.perf_counter(), cpu()
        ray.shutdown()
    elif engine.startswith("spark"):
        from pyspark.sql import SparkSession

        import crawlsift.spark

        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        spark = (
            SparkSession.builder.master("local[2]")
            .appName("crawlsift-bench")
            .config("spark.ui.showConsoleProgress", "false")  # its \r lines would swallow ours
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        direct = engine.startswith("spark-direct")
        job = crawlsift.spark.write_files if direct else crawlsift.spark.run
        if engine.endswith("-warm"):
            # A first job over the sample WARC (two tasks, so both Python
            # workers start and import crawlsift), counted as start-up.
            job(spark, [os.path.abspath(SAMPLE)] * 2, output + "-warm")
            shutil.rmtree(output + "-warm")
        t1, c1 = time.perf_counter(), cpu()
        pages = 0
        if engine in ("spark", "spark-direct", "spark-warm", "spark-direct-warm"):
            pages = job(spark, [os.path.abspath(w) for w in warcs], output)["extracted"]
        t2, c2 = time.perf_counter(), cpu()
        spark.stop()
    elif engine.startswith("datatrove"):
        import tempfile

        from datatrove.executor import LocalPipelineExecutor
        from datatrove.pipeline.writers import ParquetWriter

        from crawlsift.datatrove import CrawlsiftWarcReader

        listing = tempfile.NamedTemporaryFile("w", suffix=".paths", delete=False)
        listing.write("".join(os.path.abspath(w) + "\n" for w in warcs))
        listing.close()
        reader = CrawlsiftWarcReader("/", paths_file=listing.name)
        t1, c1 = time.perf_counter(), cpu()
        pages = 0
        if engine == "datatrove":
            LocalPipelineExecutor(
                pipeline=[reader, ParquetWriter(output, schema=reader.parquet_schema())],
                tasks=len(warcs),
                workers=2,
                logging_dir=output + "-logs",
            ).run()
            import pyarrow.parquet as pq

            pages = pq.ParquetDataset(output).read(columns=["id"]).num_rows
        t2, c2 = time.perf_counter(), cpu()
        os.unlink(listing.name)
        shutil.rmtree(output + "-logs", ignore_errors=True)
    else:
        import daft

        import crawlsift.daft

        daft.set_runner_native(num_threads=2)
        t1, c1 = time.perf_counter(), cpu()
        pages = 0
        if engine == "daft":
            crawlsift.daft.read_warcs(warcs).write_parquet(output)
            import pyarrow.parquet as pq

            pages = pq.ParquetDataset(output).read(columns=["offset"]).num_rows
        t2, c2 = time.perf_counter(), cpu()
    print(f"{engine} pages={pages} startup_wall={t1 - t0:.2f} job_wall={t2 - t1:.2f} job_cpu_tree={c2 - c1:.2f}", flush=True)


if __name__ == "__main__":
    main()
