#!/usr/bin/env python3
"""The publish dates crawlsift gets wrong on wcxb_dev, with where the page
shows the gold date, split into the even- and odd-indexed halves of the pages
whose gold has a publish date (ids sorted): rules are decided on the even
half; the odd half says whether they hold on pages they were not made on.

    python3 benches/date_misses.py --crawlsift target/debug/crawlsift [--save run.json]
    python3 benches/date_misses.py --compare a.json b.json
    python3 benches/date_misses.py --crawlsift BIN --others --save others.json

``--others`` reads every page of the other shared datasets (no gold dates)
and saves each page's ``date_published``; ``--compare`` of two such saves
counts the pages whose date changed and prints a sample of them.

For a miss, the gold day is looked for in the page's HTML written the usual
ways (``2025-09-04``, ``September 4, 2025``, ``4 Sep 2025``, ``09/04/2025``,
``2025年9月4日``, …) and the 60 characters before its first appearance are
printed, tags dropped, so that the label beside it shows; the misses are
then counted by cause (the gold day nowhere in the HTML, the stated
modification date, only in markup or script state, shown but not found,
another stated date wins).
"""

import argparse
import gzip
import html as htmllib
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "datasets"
MONTHS = "january february march april may june july august september october november december".split()


def run(binary, page, url):
    command = [binary, "html", "--json", *(["--url", url] if url else []), str(page)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    row = json.loads(out)
    return {"date_published": row.get("date_published"), "date_modified": row.get("date_modified")}


def run_all(binary, jobs):
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(lambda j: run(binary, *j), jobs))


def forms(day):
    y, m, d = int(day[:4]), int(day[5:7]), int(day[8:10])
    month = MONTHS[m - 1]
    out = [
        f"{y:04}-{m:02}-{d:02}",
        f"{y:04}/{m:02}/{d:02}",
        f"{month} {d}, {y}",
        f"{month} {d} {y}",
        f"{month[:3]} {d}, {y}",
        f"{month[:3]}. {d}, {y}",
        f"{month[:3]} {d} {y}",
        f"{d} {month} {y}",
        f"{d} {month[:3]} {y}",
        f"{d:02} {month[:3]} {y}",
        f"{d:02} {month} {y}",
        f"{m:02}/{d:02}/{y}",
        f"{m}/{d}/{y}",
        f"{d:02}/{m:02}/{y}",
        f"{d}/{m}/{y}",
        f"{d:02}.{m:02}.{y}",
        f"{d}.{m}.{y}",
        f"{y}年{m}月{d}日",
        f"{m:02}-{d:02}-{y}",
        f"{d:02}-{m:02}-{y}",
        f"{m}.{d}.{y}",
        f"{y}.{m:02}.{d:02}",
        f"{month} {d}th, {y}",
        f"{month} {d}st, {y}",
        f"{month} {d}nd, {y}",
        f"{month} {d}rd, {y}",
    ]
    return out


def where(raw, day):
    """The first form of the gold day in the page, its offset and the text
    before it (tags dropped)."""
    low = raw.lower()
    best = None
    for form in forms(day):
        i = low.find(form.lower())
        if i >= 0 and (best is None or i < best[1]):
            best = (form, i)
    if best is None:
        return None
    form, i = best
    before = re.sub(r"<[^>]*>", " ", raw[max(0, i - 400) : i])
    before = re.sub(r"\s+", " ", htmllib.unescape(before))[-70:]
    return form, i, before


def visible(raw):
    """The page's text, roughly: scripts, styles and tags dropped."""
    text = re.sub(r"(?is)<(script|style|template)\b[^>]*>.*?</\1>", " ", raw)
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]*>", " ", text)))


def cause(raw, day, row):
    """Why a page's date is wrong, one of a few kinds."""
    if len(day) < 10:
        return "gold of month precision"
    if where(raw, day) is None:
        return "gold day nowhere in the HTML"
    if (row["date_modified"] or "")[:10] == day:
        return "gold is the stated modification date"
    if where(visible(raw), day) is None:
        return "gold day only in markup or script state"
    if not row["date_published"]:
        return "gold day shown, no date found"
    return "gold day shown, another stated date wins"


def load_wcxb():
    gold = [json.loads(line) for line in open(SHARED / "wcxb_dev" / "metadata.jsonl")]
    urls = {}
    for line in open(SHARED / "wcxb_dev" / "meta.jsonl"):
        row = json.loads(line)
        urls[row["id"]] = row["url"]
    gold = sorted((g for g in gold if (g.get("publish_date") or "").strip()), key=lambda g: g["id"])
    return gold, urls


def wcxb(args):
    gold, urls = load_wcxb()
    pages = [SHARED / "wcxb_dev" / "html" / f"{g['id']}.html.gz" for g in gold]
    got = run_all(args.crawlsift, [(p, urls.get(g["id"])) for p, g in zip(pages, gold)])
    result = {}
    halves = {0: [0, 0], 1: [0, 0]}
    causes = {}
    for i, (g, row, page) in enumerate(zip(gold, got, pages)):
        day = g["publish_date"][:10]
        right = (row["date_published"] or "")[:10] == day and len(g["publish_date"]) >= 10
        halves[i % 2][0] += right
        halves[i % 2][1] += 1
        result[g["id"]] = {**row, "gold": g["publish_date"], "right": right, "half": i % 2}
        if right:
            continue
        raw = gzip.open(page).read().decode("utf-8", "replace")
        kind = cause(raw, day, row)
        causes.setdefault(kind, [0, 0])[i % 2] += 1
        if args.quiet:
            continue
        found = where(raw, day) if len(day) == 10 else None
        half = "even" if i % 2 == 0 else "odd"
        print(
            f"{g['id']} [{half}] gold {g['publish_date']} got {row['date_published']} "
            f"mod {row['date_modified']} url {urls.get(g['id'])}"
        )
        if found:
            form, at, before = found
            print(f"    shown {form!r} at {at}/{len(raw)} after …{before!r}")
        else:
            print("    gold day not in the page")
    for kind, (even, odd) in sorted(causes.items(), key=lambda c: -sum(c[1])):
        print(f"{even + odd:4} ({even} even, {odd} odd) {kind}")
    total = [halves[0][0] + halves[1][0], halves[0][1] + halves[1][1]]
    for name, (r, n) in (("even", halves[0]), ("odd", halves[1]), ("all", total)):
        print(f"{name}: {r}/{n} = {r / n:.3f}")
    if args.save:
        json.dump(result, open(args.save, "w"), indent=0)


def others(args):
    jobs, names = [], []
    for dataset in sorted(p for p in SHARED.iterdir() if p.is_dir() and p.name != "wcxb_dev"):
        urls = {}
        for line in open(dataset / "meta.jsonl"):
            row = json.loads(line)
            urls[row["id"]] = row.get("url")
        for page in sorted((dataset / "html").glob("*.html*")):
            pid = page.name.split(".html")[0]
            jobs.append((page, urls.get(pid)))
            names.append(f"{dataset.name}/{pid}")
    got = run_all(args.crawlsift, jobs)
    result = dict(zip(names, got))
    dated = sum(1 for r in got if r["date_published"])
    print(f"{len(got)} pages, {dated} with a date_published")
    if args.save:
        json.dump(result, open(args.save, "w"), indent=0)


def compare(a, b):
    a, b = json.load(open(a)), json.load(open(b))
    changed = [k for k in a if a[k]["date_published"] != b.get(k, {}).get("date_published")]
    print(f"{len(changed)}/{len(a)} pages' date_published changed")
    for k in changed[:60]:
        line = f"  {k}: {a[k]['date_published']} -> {b[k]['date_published']}"
        if "gold" in a[k]:
            mark = "=" if a[k]["right"] == b[k]["right"] else "+" if b[k]["right"] else "-"
            line += f" gold {a[k]['gold']} {mark} [{'even' if a[k]['half'] == 0 else 'odd'}]"
        print(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--crawlsift", default=str(REPO / "target/debug/crawlsift"))
    parser.add_argument("--save")
    parser.add_argument("--others", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="only the halves' accuracy")
    parser.add_argument("--compare", nargs=2)
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    return others(args) if args.others else wcxb(args)


if __name__ == "__main__":
    sys.exit(main())
