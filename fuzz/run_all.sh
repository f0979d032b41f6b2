#!/usr/bin/env bash
# Runs every fuzz target in turn, SECONDS each (default 600), one process at
# a time at low priority, logging to fuzz/logs/<target>.log; prints per
# target the CPU seconds used and libFuzzer's final line (#execs, cov, ft).
# Usage: [NICE=10] fuzz/run_all.sh [SECONDS] [TARGET...]   (from anywhere)
set -u
cd "$(dirname "$0")"
secs=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(warc_reader warc_split http charset extract markdown)
mkdir -p logs
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    log="logs/$t.log"
    # -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a
    # record is capped at 16 MiB (--max-record-bytes), so 2 GiB is an OOM.
    /usr/bin/time -f "cpu_seconds=%U+%S wall_seconds=%e max_rss_kb=%M" -o "logs/$t.time" \
        env RUSTC_BOOTSTRAP=1 nice -n "${NICE:-10}" cargo fuzz run "$t" "corpus/$t" -- \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -detect_leaks=0 >"$log" 2>&1
    echo "$t: exit $? $(cat "logs/$t.time" | tail -1)"
    grep -E '^#[0-9]+.*(DONE|cov:)' "$log" | tail -1
    grep -E '^(==[0-9]+==|thread .* panicked|SUMMARY|artifact_prefix|Test unit written)' "$log" | head -5
done
