#!/usr/bin/env bash
# crawlsift from Python, Spark and datatrove, beside the CLI, on the benchmark
# WARC of benches/make_bench_warc.py. Prints one Markdown table.
#
#   benches/python_throughput.sh          # BENCH_DIR=bench-data unless set
#
# Rows (each one run under /usr/bin/time -v: wall, user+sys CPU, peak RSS):
# - `crawlsift extract -j 2` to JSONL (/dev/null) and to Parquet (a temp dir);
# - the CLI from a local HTTP server (python3 -m http.server on 127.0.0.1);
# - Python: a loop over `crawlsift.read_warc(path, threads=2)` reading every page;
# - Spark: `python -m crawlsift.spark --master local[2]` over 4 copies of the
#   file, beside `crawlsift extract -j 2` over the same 4 copies, and Spark's
#   start-up alone (a session that runs one trivial job);
# - datatrove, on a 100 MB WARC of the same pages (trafilatura is slow):
#   `CrawlsiftWarcReader` -> JsonlWriter, and datatrove's `WarcReader` ->
#   `Trafilatura` -> JsonlWriter, one task each.
# The Python rows use a venv made here (.venv-bench, or $VENV) with ./python and the
# pinned test dependencies (.ci/python-constraints.txt) plus trafilatura.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
BENCH_DIR="${BENCH_DIR:-$repo/bench-data}"
gz="$BENCH_DIR/bench.warc.gz"
small="$BENCH_DIR/bench100.warc.gz"
mkdir -p "$BENCH_DIR"
[[ -f "$gz" ]] || python3 "$here/make_bench_warc.py" "$gz"
[[ -f "$small" ]] || python3 "$here/make_bench_warc.py" "$small" --size-mb 100

venv="${VENV:-$repo/.venv-bench}"
if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv"
    PIP_CONSTRAINT="$repo/.ci/python-constraints.txt" "$venv/bin/pip" install -q \
        "$repo/python" -r "$repo/python/requirements-test.txt"
    "$venv/bin/pip" install -q "trafilatura==2.3.1" "lxml_html_clean==0.4.6"
fi
py="$venv/bin/python"
(cd "$repo" && cargo build --quiet --release --bin crawlsift)
crawlsift="${CARGO_TARGET_DIR:-$repo/target}/release/crawlsift"

work="$(mktemp -d)"
server=""
cleanup() {
    [[ -n "$server" ]] && kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
for i in 1 2 3 4; do ln -s "$gz" "$work/copy$i.warc.gz"; done
printf '%s\n' "$work"/copy{1,2,3,4}.warc.gz >"$work/paths"

# measure LABEL INPUT CMD...: one run; appends "label|input|wall|cpu|rss_kb".
measure() {
    local label="$1" input="$2"
    shift 2
    echo "python_throughput.sh: $label" >&2
    /usr/bin/time -v -o "$work/time" "$@" >/dev/null 2>"$work/err" || {
        tail -20 "$work/err" >&2
        exit 1
    }
    python3 - "$work/time" "$label" "$input" >>"$work/rows" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
f = lambda name: re.search(re.escape(name) + r": (.*)", t).group(1).strip()
clock = [float(x) for x in f("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")]
wall = sum(v * 60 ** i for i, v in enumerate(reversed(clock)))
cpu = float(f("User time (seconds)")) + float(f("System time (seconds)"))
print(f"{sys.argv[2]}|{sys.argv[3]}|{wall}|{cpu}|{f('Maximum resident set size (kbytes)')}")
EOF
}

cat "$gz" "$small" >/dev/null # warm the page cache
port=$((20000 + RANDOM % 20000))
(cd "$BENCH_DIR" && exec python3 -m http.server --bind 127.0.0.1 "$port" >/dev/null 2>&1) &
server=$!
sleep 1

measure "crawlsift extract -j 2, JSONL" "$gz" "$crawlsift" extract -j 2 -q "$gz"
measure "crawlsift extract -j 2, Parquet" "$gz" "$crawlsift" extract -j 2 -q --format parquet -o "$work/pq" "$gz"
measure "crawlsift extract -j 2, from http://127.0.0.1" "$gz" "$crawlsift" extract -j 2 -q "http://127.0.0.1:$port/bench.warc.gz"
measure "Python: for page in crawlsift.read_warc(path, threads=2)" "$gz" "$py" -c '
import sys, crawlsift
n = sum(len(p.text) for p in crawlsift.read_warc(sys.argv[1], threads=2))
print(n)' "$gz"
measure "crawlsift extract -j 2, 4 copies" "4 x $(basename "$gz")" "$crawlsift" extract -j 2 -q "$work"/copy{1,2,3,4}.warc.gz
measure "Spark start-up alone (local[2], one trivial job)" "-" "$py" -c '
from pyspark.sql import SparkSession
s = SparkSession.builder.master("local[2]").getOrCreate()
print(s.sparkContext.parallelize([1, 2]).count()); s.stop()'
measure "python -m crawlsift.spark --master local[2], 4 copies" "4 x $(basename "$gz")" \
    env PYSPARK_PYTHON="$py" "$py" -m crawlsift.spark --paths "$work/paths" "$work/spark" --master "local[2]"
measure "datatrove: CrawlsiftWarcReader -> JsonlWriter (1 task)" "$small" "$py" -c '
import sys
from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.writers import JsonlWriter
from crawlsift.datatrove import CrawlsiftWarcReader
d, name, out = sys.argv[1:]
LocalPipelineExecutor(pipeline=[CrawlsiftWarcReader(d, glob_pattern=name), JsonlWriter(out)], tasks=1,
                      logging_dir=out + "-logs").run()' "$BENCH_DIR" "$(basename "$small")" "$work/dt-crawlsift"
measure "datatrove: WarcReader -> Trafilatura -> JsonlWriter (1 task)" "$small" "$py" -c '
import sys
from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.extractors import Trafilatura
from datatrove.pipeline.readers import WarcReader
from datatrove.pipeline.writers import JsonlWriter
d, name, out = sys.argv[1:]
LocalPipelineExecutor(pipeline=[WarcReader(d, glob_pattern=name), Trafilatura(timeout=10), JsonlWriter(out)],
                      tasks=1, logging_dir=out + "-logs").run()' "$BENCH_DIR" "$(basename "$small")" "$work/dt-traf"

python3 - "$work/rows" "$gz" "$small" <<'EOF'
import gzip, sys
rows_file, gz, small = sys.argv[1:]
def inflated(path):
    # Streamed: gzip.open reads every member of a multi-member file.
    n = 0
    with gzip.open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            n += len(chunk)
    return n
size = {gz: inflated(gz), small: inflated(small)}
print("| what | input | wall s | CPU s | WARC MB per CPU-s | peak RSS MB |")
print("|---|---|---:|---:|---:|---:|")
for label, path, wall, cpu, rss in (l.rstrip("\n").split("|") for l in open(rows_file)):
    wall, cpu = float(wall), float(cpu)
    mb = 4 * size[gz] / 1e6 if path.startswith("4 x") else size.get(path, 0) / 1e6
    # Spark's executors run in a JVM that /usr/bin/time does not see: wall only.
    spark = "spark" in label.lower()
    per = f"{mb / cpu:,.0f}" if mb and not spark else ""
    cpu_s = "(JVM not seen)" if spark else f"{cpu:.2f}"
    name = path.rsplit("/", 1)[-1]
    print(f"| {label} | {name} | {wall:.2f} | {cpu_s} | {per} | {int(rss) / 1024:,.0f} |")
print()
print(f"{gz.rsplit('/', 1)[-1]}: {size[gz] / 1e6:,.1f} MB of WARC; {small.rsplit('/', 1)[-1]}: {size[small] / 1e6:,.1f} MB.")
EOF
