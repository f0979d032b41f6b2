"""One run of an engine over WARC files, for PERF.md's engine table (issue 42).

    python benches/engines_throughput.py ray|ray-startup|daft|daft-startup OUTPUT WARC...

Prints one line: engine, pages, start-up wall seconds, and the job's wall
seconds and CPU seconds (this process and all its descendants: Ray's workers
included, see `cpu`). A `*-startup` run starts the engine and runs no job.
"""

import os
import resource
import shutil
import sys
import time


def cpu() -> float:
    """CPU seconds of this process and every process under it now alive (Ray's
    raylet, GCS and workers), from /proc: workers that Ray kills at shutdown
    are never reaped into this process's RUSAGE_CHILDREN."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    total = r.ru_utime + r.ru_stime
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
        times[int(pid)] = (int(fields[11]) + int(fields[12])) / tick
    me = os.getpid()
    for pid in times:
        p = parent.get(pid)
        while p and p != me:
            p = parent.get(p)
        if p == me and pid != me:
            total += times[pid]
    return total


def main() -> None:
    engine, output, warcs = sys.argv[1], sys.argv[2], sys.argv[3:]
    shutil.rmtree(output, ignore_errors=True)
    t0 = time.perf_counter()
    if engine.startswith("ray"):
        import ray

        import crawlsift.ray

        ray.init(num_cpus=2, include_dashboard=False)
        ray.data.DataContext.get_current().enable_progress_bars = False
        t1, c1 = time.perf_counter(), cpu()
        if engine == "ray":
            ds = crawlsift.ray.read_warcs(warcs)
            ds.write_parquet(output)
            pages = crawlsift.ray.stats(ds)["extracted"]
        else:
            pages = 0
        t2, c2 = time.perf_counter(), cpu()
        ray.shutdown()
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
    print(f"{engine} pages={pages} startup_wall={t1 - t0:.2f} job_wall={t2 - t1:.2f} job_cpu_tree={c2 - c1:.2f}")


if __name__ == "__main__":
    main()
