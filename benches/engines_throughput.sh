#!/usr/bin/env bash
# PERF.md's engine table: the CLI (-j 2), Ray Data, Daft, datatrove and Spark (local[2], both
# routes: crawlsift.spark.run and write_files) over the same WARC
# files, interleaved, ROUNDS times. Each line: wall and CPU (user+sys of the
# process tree, /usr/bin/time) of the whole run; the Python engines also print
# their own start-up and job wall time. Needs the package installed in release
# mode (maturin develop --release) in .venv and target/release/crawlsift.
#   bash benches/engines_throughput.sh ROUNDS WARC...
# ENGINES (a space-separated list) runs only some of them.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=$1
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for round in $(seq "$rounds"); do
    for engine in ${ENGINES:-cli ray ray-warm ray-startup daft daft-startup spark spark-direct spark-direct-warm spark-startup datatrove}; do
        if [ "$engine" = cli ]; then
            /usr/bin/time -f "time cli wall=%e cpu=%U+%S" target/release/crawlsift extract -q -j 2 \
                --format parquet -o "$out/cli" "$@" 2>&1 | grep '^time'
            .venv/bin/python -c "import pyarrow.parquet as pq, sys; print('cli pages=%d' % pq.ParquetDataset(sys.argv[1]).read(columns=['offset']).num_rows)" "$out/cli"
            rm -rf "$out/cli"
        else
            /usr/bin/time -f "time $engine wall=%e cpu=%U+%S" .venv/bin/python benches/engines_throughput.py \
                "$engine" "$out/$engine" "$@" 2>&1 | grep -oE "(time )?$engine (wall|pages)=.*"
        fi
    done
    uptime
done
