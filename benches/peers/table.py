#!/usr/bin/env python3
"""Print crawlsift beside the peers: mean F1 and MB/s per core per dataset, as Markdown.

Usage: table.py OUT_DIR

Reads what run.sh leaves in OUT_DIR: `<tool>.eval.json` (`crawlsift eval --format json`
output, one object per dataset with `mean_f1`; `crawlsift.eval.json` is crawlsift's own
extraction), `speed.jsonl` (the peers' speed lines) and `crawlsift.timed/<run>.json`
(one timed `crawlsift eval -j 1 --format json` per run, `mb_per_s` per dataset). A tool
timed several times counts with its best run per dataset, crawlsift as much as the
peers. The last row of the speed table is crawlsift's MB/s divided by the fastest
peer's, the issue's "≥ 20x" measure. Stdlib only.
"""

import json
import sys
from pathlib import Path


def best_speeds(lines):
    """tool -> dataset -> best MB/s per core over the given speed records."""
    best = {}
    for rec in lines:
        speed = rec.get("mb_per_s_core")
        if speed is None:
            continue
        per_tool = best.setdefault(rec["tool"], {})
        per_tool[rec["dataset"]] = max(speed, per_tool.get(rec["dataset"], 0.0))
    return best


def crawlsift_speed_lines(out):
    """Speed records of the timed `crawlsift eval` runs, shaped like the peers' lines."""
    return [
        {"tool": "crawlsift", "dataset": rec["dataset"], "mb_per_s_core": rec.get("mb_per_s")}
        for path in sorted((out / "crawlsift.timed").glob("*.json"))
        for rec in json.loads(path.read_text(encoding="utf-8"))
    ]


def read_jsonl(path):
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def row(label, values, fmt):
    cells = [fmt(v) if v is not None else "–" for v in values]
    return f"| {label} | " + " | ".join(cells) + " |"


def main(argv):
    if len(argv) != 2:
        raise SystemExit(__doc__)
    out = Path(argv[1])
    f1 = {}  # tool -> dataset -> mean F1
    algorithm = None  # crawlsift's, from its own rows
    for path in sorted(out.glob("*.eval.json")):
        tool = path.name[: -len(".eval.json")]
        for rec in json.loads(path.read_text(encoding="utf-8")):
            f1.setdefault(tool, {})[rec["dataset"]] = rec["mean_f1"]
            if tool == "crawlsift":
                algorithm = rec["algorithm"]
    if "crawlsift" not in f1:
        raise SystemExit(f"table.py: no {out}/crawlsift.eval.json; run run.sh first")
    speed = best_speeds(read_jsonl(out / "speed.jsonl") + crawlsift_speed_lines(out))
    datasets = sorted({d for per_tool in f1.values() for d in per_tool})
    peers = sorted(t for t in f1 if t != "crawlsift")
    header = "| | " + " | ".join(datasets) + " |\n|---|" + "---|" * len(datasets)

    print("Mean word-level LCS F1 (`crawlsift eval`), every page:\n")
    print(header)
    label = {tool: tool for tool in peers}
    label["crawlsift"] = f"**crawlsift {algorithm}**"
    for tool in ["crawlsift"] + peers:
        print(row(label[tool], [f1[tool].get(d) for d in datasets], lambda v: f"{v:.3f}"))

    print("\nMB of raw HTML per CPU second (one core; best run per dataset):\n")
    print(header)
    for tool in ["crawlsift"] + peers:
        print(row(label[tool], [speed.get(tool, {}).get(d) for d in datasets], lambda v: f"{v:,.1f}"))
    ratios = []
    for d in datasets:
        fastest = max((speed.get(t, {}).get(d, 0.0) for t in peers), default=0.0)
        mine = speed.get("crawlsift", {}).get(d)
        ratios.append(mine / fastest if mine and fastest else None)
    print(row("crawlsift / fastest peer", ratios, lambda v: f"{v:.1f}x"))


if __name__ == "__main__":
    main(sys.argv)
