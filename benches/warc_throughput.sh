#!/usr/bin/env bash
# End-to-end WARC throughput of `crawlsift extract` beside its bounds and the
# FastWARC+Resiliparse baseline, on the 1.1 GB benchmark WARC of
# benches/make_bench_warc.py (made if missing). Prints one Markdown table.
#
#   benches/warc_throughput.sh            # BENCH_DIR=../bench-data if it exists, else bench-data
#
# Rows: `gzip -dc` (single-core inflate, GNU gzip), flate2/zlib-rs inflate
# (examples/gz_inflate.rs: one core, the bound crawlsift is held to), a warm
# `cat` of the .warc (memory-read bound), `crawlsift extract -j 1|2 --quiet
# --format jsonl` to /dev/null (and -j 2 with the .warc.gz read by one
# thread, to show what splitting it buys), and benches/peers/warc_resiliparse.py (one
# thread), each on the .warc.gz and the .warc. Wall time, user+sys CPU and
# peak RSS come from /usr/bin/time -v; MB/s is uncompressed WARC bytes per
# wall second. Env: BENCH_DIR, CARGO_TARGET_DIR, PYTHON (the venv made by
# benches/peers/run.sh is used if present, else this script makes it).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
if [[ -z "${BENCH_DIR:-}" ]]; then
    if [[ -d "$repo/../bench-data" ]]; then BENCH_DIR="$repo/../bench-data"; else BENCH_DIR="$repo/bench-data"; fi
fi
gz="$BENCH_DIR/bench.warc.gz"
plain="$BENCH_DIR/bench.warc"
if [[ ! -f "$gz" || ! -f "$plain" ]]; then
    echo "warc_throughput.sh: making $gz and $plain" >&2
    mkdir -p "$BENCH_DIR"
    python3 "$here/make_bench_warc.py" "$gz" --also-uncompressed
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "warc_throughput.sh: needs GNU time (apt-get install time)" >&2
    exit 2
fi

venv="$here/peers/.venv"
if [[ ! -x "$venv/bin/python" ]]; then
    echo "warc_throughput.sh: installing the pinned peers into $venv" >&2
    "${PYTHON:-python3}" -m venv "$venv"
    "$venv/bin/python" -m pip install -q "pip==26.3"
    "$venv/bin/python" -m pip install -q -r "$here/peers/requirements.txt"
fi

target="${CARGO_TARGET_DIR:-$repo/target}"
(cd "$repo" && cargo build --quiet --release --bin crawlsift --example gz_inflate)
crawlsift="$target/release/crawlsift"
inflate="$target/release/examples/gz_inflate"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
warc_bytes="$(stat -c %s "$plain")"

# measure LABEL INPUT RECORDS_FROM CMD...: runs CMD once under /usr/bin/time
# -v and appends "label|input|wall|cpu|records|rss_kb" to $work/rows.
# RECORDS_FROM: "crawlsift" (from --stats), "resiliparse" (its JSON line), "-" (none).
measure() {
    local label="$1" input="$2" records_from="$3"
    shift 3
    echo "warc_throughput.sh: $label on $(basename "$input")" >&2
    /usr/bin/time -v -o "$work/time" "$@" >/dev/null 2>"$work/err" || {
        cat "$work/err" >&2
        exit 1
    }
    python3 - "$work/time" "$work/err" "$work/stats.json" "$records_from" "$label" "$input" >>"$work/rows" <<'EOF'
import json, re, sys
time_file, err_file, stats_file, records_from, label, path = sys.argv[1:]
t = open(time_file).read()
def field(name):
    return re.search(re.escape(name) + r": (.*)", t).group(1).strip()
clock = [float(x) for x in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")]
wall = sum(v * 60 ** i for i, v in enumerate(reversed(clock)))
cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
rss = int(field("Maximum resident set size (kbytes)"))
records = ""
if records_from == "crawlsift":
    records = sum(s["read"] for s in json.load(open(stats_file)))
elif records_from == "resiliparse":
    line = [l for l in open(err_file) if l.startswith("{")][-1]
    obj = json.loads(line)
    records = obj["records"]
    # Its process also re-inflates the file to measure it: time the run itself.
    wall, cpu = obj["wall_seconds"], obj["cpu_seconds"]
print(f"{label}|{path}|{wall}|{cpu}|{records}|{rss}")
EOF
}

cat "$plain" >/dev/null # warm the page cache for both files
cat "$gz" >/dev/null
measure "gzip -dc (GNU gzip, 1 core)" "$gz" - gzip -dc "$gz"
measure "flate2/zlib-rs inflate (examples/gz_inflate, 1 core)" "$gz" - "$inflate" "$gz"
measure "cat, warm (memory read)" "$plain" - cat "$plain"
for input in "$gz" "$plain"; do
    for jobs in 1 2; do
        measure "crawlsift extract -j $jobs" "$input" crawlsift \
            "$crawlsift" extract -j "$jobs" --quiet --format jsonl --stats "$work/stats.json" "$input"
    done
    if [[ "$input" == "$gz" ]]; then
        # What inflating one file with several threads buys: the same run read by one thread.
        measure "crawlsift extract -j 2, file not split" "$input" crawlsift \
            "$crawlsift" extract -j 2 --split-min-bytes 18446744073709551615 --quiet --format jsonl --stats "$work/stats.json" "$input"
    fi
    measure "FastWARC+Resiliparse (1 thread)" "$input" resiliparse \
        "$venv/bin/python" "$here/peers/warc_resiliparse.py" -o /dev/null "$input"
done

python3 - "$work/rows" "$warc_bytes" <<'EOF'
import sys
rows_file, warc_bytes = sys.argv[1], int(sys.argv[2])
rows = [l.rstrip("\n").split("|") for l in open(rows_file)]
print("| what | input | wall s | CPU s | MB/s | records/s | peak RSS MB |")
print("|---|---|---:|---:|---:|---:|---:|")
speed = {}
for label, path, wall, cpu, records, rss in rows:
    wall, cpu = float(wall), float(cpu)
    mbs = warc_bytes / 1e6 / wall
    speed[(label, path.endswith(".gz"))] = mbs
    rps = f"{int(records) / wall:,.0f}" if records else ""
    name = path.rsplit("/", 1)[-1]
    print(f"| {label} | {name} | {wall:.2f} | {cpu:.2f} | {mbs:,.0f} | {rps} | {int(rss) / 1024:,.0f} |")
bound = speed[("flate2/zlib-rs inflate (examples/gz_inflate, 1 core)", True)]
print()
print(f"Uncompressed WARC: {warc_bytes / 1e6:,.1f} MB. One core of zlib-rs inflate: {bound:,.0f} MB/s.")
for jobs in (1, 2):
    gz = speed[(f"crawlsift extract -j {jobs}", True)]
    plain = speed[(f"crawlsift extract -j {jobs}", False)]
    print(f"- `-j {jobs}` .warc.gz: {gz:,.0f} MB/s = {100 * gz / (jobs * bound):.0f} % of {jobs} x inflate bound; "
          f".warc: {plain:,.0f} MB/s = {plain / jobs:,.0f} MB/s per core")
EOF
