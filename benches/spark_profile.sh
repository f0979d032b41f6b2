#!/usr/bin/env bash
# Where the Spark job's time goes, beside `crawlsift extract -j 2`, on 4 copies
# (symlinks) of the benchmark WARC (benches/make_bench_warc.py). Interleaved
# rounds (ROUNDS, default 3) of:
# - `crawlsift extract -j 2 --format parquet` over the 4 copies;
# - Python alone: `crawlsift.read_warc_batches(path, threads=2)` over each copy
#   into pyarrow (extraction and the Arrow batches, no Spark);
# - `python -m crawlsift.spark --master local[2] --output-format noop` (Spark
#   start-up, extraction, batches to the JVM; nothing written);
# - `python -m crawlsift.spark --master local[2]` to Parquet (the whole job);
# - the same with `--direct` (the tasks write the Parquet files themselves).
# Each line: what, round, wall s, user+sys CPU s of the process tree
# (/usr/bin/time; Spark's JVM and Python workers are children that are waited
# for), and for Spark the start-up and job seconds it logs.
#
#   VENV=.venv benches/spark_profile.sh     # a venv with ./python and pyspark
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
BENCH_DIR="${BENCH_DIR:-$repo/bench-data}"
gz="$BENCH_DIR/bench.warc.gz"
[[ -f "$gz" ]] || python3 "$here/make_bench_warc.py" "$gz"
py="${VENV:-$repo/.venv}/bin/python"
crawlsift="${CARGO_TARGET_DIR:-$repo/target}/release/crawlsift"
[[ -x "$crawlsift" ]] || (cd "$repo" && cargo build --quiet --release --bin crawlsift)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/in"
for c in a b c d; do ln -s "$(realpath "$gz")" "$work/in/$c.warc.gz"; done
ls "$work"/in/*.warc.gz > "$work/paths"
export PYSPARK_PYTHON="$py"

measure() { # label round command...
    local label="$1" round="$2"
    shift 2
    rm -rf "$work/out"
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" > "$work/log" 2>&1 || {
        cat "$work/log" >&2
        exit 1
    }
    read -r wall user sys < "$work/time"
    local start job
    start="$(sed -n 's/.*Spark session started in \([0-9.]*\) s.*/\1/p' "$work/log")"
    job="$(sed -n 's/.*the job took \([0-9.]*\) s.*/\1/p' "$work/log")"
    printf '%s\t%s\t%s\t%.2f\t%s\t%s\n' "$label" "$round" "$wall" "$(echo "$user + $sys" | bc)" "${start:--}" "${job:--}"
}

printf 'what\tround\twall s\tCPU s\tSpark start-up s\tjob s\n'
for round in $(seq 1 "${ROUNDS:-3}"); do
    measure "cli -j 2 parquet" "$round" "$crawlsift" extract -q -j 2 --format parquet -o "$work/out" "$work"/in/*.warc.gz
    measure "python read_warc_batches" "$round" "$py" -c '
import sys, crawlsift, pyarrow as pa
n = 0
for path in sys.argv[1:]:
    for batch in crawlsift.read_warc_batches(path, threads=2):
        n += batch.num_rows
print(n)' "$work"/in/*.warc.gz
    measure "spark local[2] noop" "$round" "$py" -m crawlsift.spark --paths "$work/paths" "$work/out" \
        --master 'local[2]' --output-format noop
    measure "spark local[2] parquet" "$round" "$py" -m crawlsift.spark --paths "$work/paths" "$work/out" \
        --master 'local[2]'
    measure "spark local[2] --direct" "$round" "$py" -m crawlsift.spark --paths "$work/paths" "$work/out" \
        --master 'local[2]' --direct
done
