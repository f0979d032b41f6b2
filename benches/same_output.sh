#!/usr/bin/env bash
# Shows that two builds of crawlsift give the same output: every WARC in
# ../shared/warc/ and data-samples/ in every format (jsonl, wet, text,
# parquet) and mode (default, --signals --minhash, --filter
# gopher,c4,fineweb, --no-lang, and every --algorithm), `crawlsift html
# --json` (and --signals --minhash) over every page of ../shared/datasets/,
# and `crawlsift eval --algorithm all` per page to four decimals.
#
#   benches/same_output.sh BEFORE AFTER
#
# BEFORE and AFTER are each a crawlsift binary or a git revision, which is
# built (release) in a worktree under target/same-output/. Exits 0 when
# everything is identical, else 1 with the differing files named. WET's
# `WARC-Record-ID` (random) and its warcinfo's dates (the run's) are not
# compared;
# Parquet files are compared byte for byte, and by rows (pyarrow) when the
# bytes differ.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
shared="${SHARED:-$repo/../shared}"
work="$repo/target/same-output"
mkdir -p "$work"

if [[ $# -ne 2 ]]; then
    sed -n '2,16p' "$0" >&2
    exit 2
fi

# A binary as given, or the release build of a git revision.
binary_of() {
    local what="$1"
    if [[ -x "$what" && -f "$what" ]]; then
        realpath "$what"
        return
    fi
    local rev tree
    rev="$(git -C "$repo" rev-parse --verify "$what^{commit}")"
    tree="$work/tree-$rev"
    if [[ ! -d "$tree" ]]; then
        git -C "$repo" worktree add --detach --force "$tree" "$rev" >&2
    fi
    # One target directory for both builds: the dependencies build once.
    (cd "$tree" && CARGO_TARGET_DIR="$work/target" cargo build --quiet --release --locked --bin crawlsift >&2)
    cp "$work/target/release/crawlsift" "$work/crawlsift-$rev"
    echo "$work/crawlsift-$rev"
}

before="$(binary_of "$1")"
after="$(binary_of "$2")"

# Two groups: data-samples/ has a file of the same name as one in ../shared/warc.
warcs_of() {
    find "$1" -maxdepth 1 -type f \( -name '*.warc' -o -name '*.warc.gz' \) | sort
}
pages=()
while IFS= read -r f; do pages+=("$f"); done < <(find "$shared"/datasets/*/html -name '*.html.gz' | sort)
datasets=("$shared"/datasets/*/)
# The names the binary lists for an unknown algorithm.
algorithms="$("$after" html --algorithm none /dev/null 2>&1 | sed -n 's/.*; known: \(.*\)$/\1/p' | head -1 || true)"
IFS=', ' read -r -a algorithm_list <<< "$algorithms"
if [[ ${#algorithm_list[@]} -lt 2 ]]; then
    echo "same_output.sh: could not read the algorithm names from $after" >&2
    exit 2
fi

modes=("" "--signals --minhash" "--filter gopher,c4,fineweb" "--no-lang")
for a in "${algorithm_list[@]}"; do modes+=("--algorithm $a"); done

# run SIDE NAME ARGS...: the outputs of one case into $work/SIDE/NAME.
run() {
    local side="$1" name="$2" bin
    shift 2
    bin="$before"
    [[ "$side" == after ]] && bin="$after"
    local dir="$work/$side/$name"
    rm -rf "$dir" && mkdir -p "$dir"
    (cd "$dir" && "$bin" "$@" > stdout 2> stderr) || echo "exit $?" > "$dir/status"
    # Messages name the output directory, which differs by side.
    sed -i "s#$work/$side/#OUT/#g" "$dir/stderr"
}

cases=()
for group in "$shared/warc" "$repo/data-samples"; do
    warcs=()
    while IFS= read -r f; do warcs+=("$f"); done < <(warcs_of "$group")
    for mode in "${modes[@]}"; do
        for format in jsonl wet text parquet; do
            name="extract_$(basename "$group")_${format}_$(echo "${mode:-default}" | tr -c 'a-z0-9\n' '_')"
            cases+=("$name")
            for side in before after; do
                # shellcheck disable=SC2086
                run "$side" "$name" extract -j 2 -q --format "$format" $mode -o out "${warcs[@]}"
            done
        done
    done
done
for flags in "" "--signals --minhash"; do
    name="html_json_$(echo "${flags:-default}" | tr -c 'a-z0-9\n' '_')"
    cases+=("$name")
    for side in before after; do
        # shellcheck disable=SC2086
        run "$side" "$name" html --json $flags "${pages[@]}"
    done
done
cases+=(eval_all)
for side in before after; do
    run "$side" eval_all eval "${datasets[@]}" --algorithm all -j 2 --csv pages.csv
done

python3 - "$work" "${cases[@]}" <<'EOF'
import csv, gzip, os, sys
work, cases = sys.argv[1], sys.argv[2:]

def wet_lines(path):
    with gzip.open(path, "rb") as f:
        lines = f.read().split(b"\r\n")
    # A new id per record, and the warcinfo record's date (the run's date,
    # the file's first WARC-Date): all else must match.
    first_date = next((i for i, l in enumerate(lines) if l.startswith(b"WARC-Date:")), None)
    return [
        l
        for i, l in enumerate(lines)
        if i != first_date and not l.startswith((b"Extracted-Date:", b"WARC-Record-ID:"))
    ]

def parquet_rows(path):
    import pyarrow.parquet as pq
    return pq.read_table(path).to_pylist()

def rounded_csv(path):
    rows = []
    with open(path, newline="") as f:
        for row in csv.reader(f):
            out = []
            for cell in row:
                try:
                    out.append(f"{float(cell):.4f}" if "." in cell else cell)
                except ValueError:
                    out.append(cell)
            rows.append(out)
    return rows

def same(a, b):
    if open(a, "rb").read() == open(b, "rb").read():
        return True
    if a.endswith(".gz") and ".wet" in a:
        return wet_lines(a) == wet_lines(b)
    if a.endswith(".parquet"):
        return parquet_rows(a) == parquet_rows(b)
    if a.endswith(".csv"):
        return rounded_csv(a) == rounded_csv(b)
    if os.path.basename(a) == "stdout" and "eval" in a:
        return True  # the table's speed column; the per-page CSV is compared
    return False

bad, files = [], 0
for case in cases:
    left, right = os.path.join(work, "before", case), os.path.join(work, "after", case)
    names = set()
    for root in (left, right):
        for d, _, fs in os.walk(root):
            names.update(os.path.relpath(os.path.join(d, f), root) for f in fs)
    for name in sorted(names):
        if os.path.basename(name).startswith("."):
            continue  # resume records: they name the binary's own build
        a, b = os.path.join(left, name), os.path.join(right, name)
        files += 1
        if not (os.path.exists(a) and os.path.exists(b)) or not same(a, b):
            bad.append(f"{case}/{name}")
print(f"same_output: {len(cases)} cases, {files} files compared, {len(bad)} differ")
for b in bad:
    print("  differs:", b)
sys.exit(1 if bad else 0)
EOF
