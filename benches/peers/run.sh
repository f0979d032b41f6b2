#!/usr/bin/env bash
# Run every peer extractor on every shared dataset; see README.md beside this file.
#
#   benches/peers/run.sh                  # all tools, all datasets
#   DATASETS="scrapinghub daniel_dev" TOOLS="resiliparse dom_smoothie" benches/peers/run.sh
#   RUNS=3 TOOLS="resiliparse dom_smoothie" benches/peers/run.sh   # the speed comparison
#
# Env: DATASETS (names under $DATASETS_ROOT), TOOLS, DATASETS_ROOT
# (default ../shared/datasets beside the repo), PYTHON (interpreter for the
# venv, default python3), CARGO_TARGET_DIR (default dom_smoothie/target),
# CRAWLSIFT (the crawlsift binary used for scoring and timing), RUNS (timed runs per
# tool and dataset, crawlsift's included; the table takes each one's best; default 1).
# Idempotent: the venv and the Rust binary are reused when up to date;
# outputs are overwritten.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
datasets_root="${DATASETS_ROOT:-$repo/../shared/datasets}"
tools="${TOOLS:-trafilatura resiliparse readability justext boilerpy3 dom_smoothie}"
runs="${RUNS:-1}"
out="$here/out"
venv="$here/.venv"
pip_version="26.3" # older pip (23.x) trips over lxml[html-clean] extras when resolving

if [[ ! -d "$datasets_root" ]]; then
    echo "run.sh: no dataset root at $datasets_root; set DATASETS_ROOT" >&2
    exit 2
fi
datasets_root="$(cd "$datasets_root" && pwd)"
if [[ -z "${DATASETS:-}" ]]; then
    DATASETS="$(cd "$datasets_root" && for d in */; do [[ -d "$d/html" ]] && echo "${d%/}"; done | tr '\n' ' ')"
fi

# 1. Python peers in a pinned venv (reinstalled only when requirements.txt changes).
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [[ ! -x "$venv/bin/python" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    echo "run.sh: installing pinned peers into $venv" >&2
    "${PYTHON:-python3}" -m venv "$venv"
    "$venv/bin/python" -m pip install -q "pip==$pip_version"
    "$venv/bin/python" -m pip install -q -r "$here/requirements.txt"
    echo "$want" >"$stamp"
fi

# 2. dom_smoothie (Rust) in its own Cargo project; cargo itself skips an up-to-date build.
# Built from the repo root, so the repo's .cargo/config.toml gives it crawlsift's
# compiler flags (the CPU it is built on).
user_target="${CARGO_TARGET_DIR:-}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/dom_smoothie/target}"
if [[ " $tools " == *" dom_smoothie "* ]]; then
    (cd "$repo" && cargo build --quiet --release --locked --manifest-path "$here/dom_smoothie/Cargo.toml")
fi
dom_smoothie_bin="$CARGO_TARGET_DIR/release/peer-dom-smoothie"

# 3. Extract: one process per tool, dataset and run. Each run appends its speed
# line to out/logs/<tool>.<dataset>.speed.json (errors beside it); speed.jsonl
# gathers all of them, so a partial re-run (TOOLS=..., DATASETS=...) keeps the rest.
mkdir -p "$out/logs"
for tool in $tools; do
    for name in $DATASETS; do
        dataset="$datasets_root/$name"
        log="$out/logs/$tool.$name"
        rm -rf "${out:?}/$tool/$name" "$log.speed.json"
        for ((run = 1; run <= runs; run++)); do
            echo "run.sh: $tool on $name (run $run of $runs)" >&2
            if [[ "$tool" == dom_smoothie ]]; then
                "$dom_smoothie_bin" "$dataset" "$out/$tool" >>"$log.speed.json" 2>"$log.errors.log"
            else
                "$venv/bin/python" "$here/extract.py" "$tool" "$dataset" "$out/$tool" >>"$log.speed.json" 2>"$log.errors.log"
            fi
        done
        cat "$log.speed.json"
    done
done
cat "$out"/logs/*.speed.json >"$out/speed.jsonl"

# 4. Score with `crawlsift eval` when the binary has it, time crawlsift's default
# algorithm the way the peers were timed (one worker, extraction CPU time
# only, RUNS times), and print crawlsift beside the peers; else say how.
crawlsift="${CRAWLSIFT:-}"
if [[ -z "$crawlsift" ]]; then
    for candidate in "${user_target:+$user_target/release/crawlsift}" "$repo/target/release/crawlsift" "$(command -v crawlsift || true)"; do
        if [[ -n "$candidate" && -x "$candidate" ]]; then
            crawlsift="$candidate"
            break
        fi
    done
fi
dataset_dirs=()
for name in $DATASETS; do dataset_dirs+=("$datasets_root/$name"); done
if [[ -n "$crawlsift" ]] && "$crawlsift" eval --help 2>/dev/null | grep -q -- '--pred'; then
    for tool in $tools; do
        echo "run.sh: scoring $tool with $crawlsift eval" >&2
        "$crawlsift" eval --pred "$out/$tool" --label "$tool" --format json "${dataset_dirs[@]}" | tee "$out/$tool.eval.json"
    done
    rm -rf "$out/crawlsift.timed"
    mkdir -p "$out/crawlsift.timed"
    for ((run = 1; run <= runs; run++)); do
        echo "run.sh: crawlsift eval -j 1 (run $run of $runs)" >&2
        "$crawlsift" eval -j 1 --format json "${dataset_dirs[@]}" >"$out/crawlsift.timed/$run.json"
    done
    cp "$out/crawlsift.timed/1.json" "$out/crawlsift.eval.json"
    python3 "$here/table.py" "$out" | tee "$out/table.md"
else
    echo "run.sh: no crawlsift binary with 'eval --pred' found (set CRAWLSIFT=path/to/crawlsift). Score later with:" >&2
    for tool in $tools; do
        echo "  crawlsift eval --pred $out/$tool --label $tool --format json ${dataset_dirs[*]}" >&2
    done
fi
