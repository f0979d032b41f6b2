#!/usr/bin/env bash
# Structure fidelity of crawlsift's Markdown beside trafilatura's, on every
# shared dataset; see README.md beside this file.
#
#   benches/structure/run.sh                          # all datasets, both tools
#   benches/structure/run.sh --datasets wcxb_dev --tools crawlsift
#   CRAWLSIFT=path/to/crawlsift benches/structure/run.sh
#
# Env: CRAWLSIFT (the binary scored, which also scores the F1; default
# $CARGO_TARGET_DIR/release/crawlsift, target/release/crawlsift, then PATH),
# PYTHON (interpreter for the venv, default python3). Other arguments go to
# score.py. Idempotent: the venv is rebuilt only when requirements.txt changes,
# and each tool's Markdown is re-made only when the tool changes.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="$here/.venv"
pip_version="26.3" # as benches/peers/run.sh: older pip trips over lxml[html-clean]

stamp="$venv/.requirements.sha256"
want="$(cat "$here/requirements.txt" "$repo/benches/peers/requirements.txt" | sha256sum | cut -d' ' -f1)"
if [[ ! -x "$venv/bin/python" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    echo "run.sh: installing the pinned packages into $venv" >&2
    "${PYTHON:-python3}" -m venv "$venv"
    "$venv/bin/python" -m pip install -q "pip==$pip_version"
    "$venv/bin/python" -m pip install -q -r "$here/requirements.txt"
    echo "$want" >"$stamp"
fi

crawlsift="${CRAWLSIFT:-}"
if [[ -z "$crawlsift" ]]; then
    for candidate in "${CARGO_TARGET_DIR:+$CARGO_TARGET_DIR/release/crawlsift}" "$repo/target/release/crawlsift" "$(command -v crawlsift || true)"; do
        if [[ -n "$candidate" && -x "$candidate" ]]; then
            crawlsift="$candidate"
            break
        fi
    done
fi
if [[ -z "$crawlsift" ]]; then
    echo "run.sh: no crawlsift binary: build it (cargo build --release) or set CRAWLSIFT" >&2
    exit 2
fi
cd "$here"
exec nice -n 10 "$venv/bin/python" score.py --crawlsift "$crawlsift" "$@"
