#!/usr/bin/env bash
# What a crawl costs: `crawlsift extract -j 1 --format jsonl` CPU seconds (with and
# without `--no-lang`) on one
# .warc.gz beside the one-core inflate bound of the same file (zlib-rs and
# libdeflate, benches/inflate.rs) and FastWARC + Resiliparse
# (benches/peers/warc_resiliparse.py), all in one run; prints the share of
# the bound and CPU-hours per TB of .warc.gz (CPU s / compressed GB * 1000 / 3600),
# the figure to multiply by a crawl's size (Common Crawl: ~90 TB).
#
#   benches/crawl_cost.sh FILE.warc.gz        # e.g. a file of make_bench_warc.py --mix cc
#
# Env: CARGO_TARGET_DIR; PEERS_PYTHON, a Python with FastWARC and
# Resiliparse (default benches/peers/.venv/bin/python, made by
# benches/peers/run.sh; the row is left out when it is missing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
gz="${1:?usage: crawl_cost.sh FILE.warc.gz}"
target="${CARGO_TARGET_DIR:-$repo/target}"
(cd "$repo" && cargo build --quiet --release --bin crawlsift)
bench="$(cd "$repo" && cargo bench --quiet --bench inflate --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys; print([m["executable"] for m in map(json.loads, sys.stdin) if m.get("target",{}).get("name")=="inflate" and m.get("executable")][-1])')"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

REPEAT=1 "$bench" "$gz" | tee "$work/inflate.md" >&2
cpu_of() { # CMD...: user+sys CPU seconds of CMD (GNU time)
    /usr/bin/time -f "%U %S" -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    awk '{print $1 + $2}' "$work/t"
}
crawlsift_cpu="$(cpu_of "$target/release/crawlsift" extract -j 1 --quiet --format jsonl "$gz")"
plain_cpu="$(cpu_of "$target/release/crawlsift" extract -j 1 --quiet --format jsonl --no-lang "$gz")"
py="${PEERS_PYTHON:-$here/peers/.venv/bin/python}"
peer_cpu=""
if [[ -x "$py" ]]; then
    "$py" "$here/peers/warc_resiliparse.py" -o /dev/null "$gz" 2>"$work/peer" >/dev/null
    peer_cpu="$(python3 -c 'import json,sys; print([json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")][-1]["cpu_seconds"])' "$work/peer")"
fi
python3 - "$gz" "$work/inflate.md" "$crawlsift_cpu" "$peer_cpu" "$plain_cpu" <<'EOF'
import os, re, sys
gz, table, crawlsift, peer, plain = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], float(sys.argv[5])
gb = os.path.getsize(gz) / 1e9
rows = {l.split("|")[1].strip(): float(l.split("|")[2]) for l in open(table) if l.startswith("| ") and re.match(r"\| [a-zA-Z]", l) and "CPU s" not in l}
zlib = next(v for k, v in rows.items() if k.startswith("flate2"))
per_tb = lambda cpu: cpu / gb * 1000 / 3600
print(f"| what | CPU s | CPU-h per TB of .warc.gz |\n|---|---:|---:|")
print(f"| zlib-rs inflate alone (one core) | {zlib:.2f} | {per_tb(zlib):.2f} |")
for k, v in rows.items():
    if k.startswith("libdeflate, whole member, extent found"):
        print(f"| libdeflate inflate alone (one core) | {v:.2f} | {per_tb(v):.2f} |")
print(f"| crawlsift extract -j 1 --format jsonl --no-lang | {plain:.2f} | {per_tb(plain):.2f} |")
print(f"| crawlsift extract -j 1 --format jsonl (with lang) | {crawlsift:.2f} | {per_tb(crawlsift):.2f} |")
if peer:
    print(f"| FastWARC + Resiliparse (1 thread) | {float(peer):.2f} | {per_tb(float(peer)):.2f} |")
print(f"\ncrawlsift -j 1 runs at {100 * zlib / plain:.0f} % (--no-lang) and {100 * zlib / crawlsift:.0f} % (with lang) of the zlib-rs one-core inflate bound per CPU second ({gb:.3f} GB compressed).")
EOF
