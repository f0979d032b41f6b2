#!/usr/bin/env python3
"""Metadata accuracy on wcxb_dev: crawlsift's author and publish date beside
trafilatura's, on the pages whose gold (``metadata.jsonl``) has them.

    benches/peers/.venv/bin/python benches/metadata_accuracy.py \
        [--crawlsift target/release/crawlsift] [--dataset ../shared/datasets/wcxb_dev]

Run with the peers' venv (``benches/peers/run.sh`` makes it) to have
trafilatura's column; with another Python the table has crawlsift's only.

Matching (the same as ``crates/extract/tests/metadata_wcxb.rs``): names are
compared as words, case and punctuation ignored, ``and``/``&`` between names
dropped; an author is right when the gold's words are a run of the words
read (several authors are joined with ``, ``), or the words read, two or
more, are a run of the gold's (the gold adds a title or co-authors). A date
is right when it is the gold's calendar day (the first 10 characters), as
written: no time-zone shift for either tool; a gold of month precision
(``2015-11``) is right for neither.

Both tools get the same input: the page's bytes and the URL it was fetched
from (``meta.jsonl``): trafilatura's ``extract_metadata(html,
default_url=url)``, crawlsift's ``html --json --url URL``, one page per run.

Besides ``date_published``, the table shows ``date_published``, else
``date_modified`` when the page states no publish date: the gold takes the
date a page shows, which is often its "last updated" date.
"""

import argparse
import gzip
import os
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def words(name):
    return [w for w in re.split(r"[\s,.;()]+", (name or "").lower()) if w and w not in ("and", "&")]


def contains(outer, inner):
    n = len(inner)
    return n > 0 and any(outer[i : i + n] == inner for i in range(len(outer) - n + 1))


def author_right(gold, got):
    gold, got = words(gold), words(got)
    return contains(got, gold) or (len(got) >= 2 and contains(gold, got))


def date_right(gold, got):
    return bool(got) and len(gold) >= 10 and got[:10] == gold[:10]


def crawlsift_metadata(binary, pages, urls):
    """crawlsift html --json --url URL over each page (the URL the page was
    fetched from, as trafilatura is given it), in order."""

    def one(page_url):
        page, url = page_url
        command = [binary, "html", "--json", *(["--url", url] if url else []), str(page)]
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        return json.loads(out)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(one, zip(pages, urls)))


def trafilatura_metadata(pages, urls):
    try:
        import trafilatura
    except ImportError:
        return None
    rows = []
    for page, url in zip(pages, urls):
        raw = gzip.open(page).read()
        meta = trafilatura.extract_metadata(raw.decode("utf-8", "replace"), default_url=url)
        rows.append({"author": meta.author if meta else None, "date": meta.date if meta else None})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--crawlsift", default=str(REPO / "target/release/crawlsift"))
    parser.add_argument("--dataset", default=str(REPO.parent / "shared/datasets/wcxb_dev"))
    args = parser.parse_args()
    dataset = Path(args.dataset)
    gold = [json.loads(line) for line in open(dataset / "metadata.jsonl")]
    urls = {json.loads(line)["id"]: json.loads(line)["url"] for line in open(dataset / "meta.jsonl")}
    gold = [g for g in gold if (g.get("author") or "").strip() or (g.get("publish_date") or "").strip()]
    pages = [dataset / "html" / f"{g['id']}.html.gz" for g in gold]
    page_urls = [urls.get(g["id"]) for g in gold]
    ours = crawlsift_metadata(args.crawlsift, pages, page_urls)
    theirs = trafilatura_metadata(pages, page_urls)

    authors = [i for i, g in enumerate(gold) if (g.get("author") or "").strip()]
    dates = [i for i, g in enumerate(gold) if (g.get("publish_date") or "").strip()]

    def share(indices, right):
        hits = sum(1 for i in indices if right(i))
        return f"{hits / len(indices):.3f} ({hits}/{len(indices)})"

    rows = [
        (
            "author",
            share(authors, lambda i: author_right(gold[i]["author"], ours[i]["author"])),
            theirs and share(authors, lambda i: author_right(gold[i]["author"], theirs[i]["author"])),
        ),
        (
            "publish date: `date_published`",
            share(dates, lambda i: date_right(gold[i]["publish_date"], ours[i]["date_published"])),
            theirs and share(dates, lambda i: date_right(gold[i]["publish_date"], theirs[i]["date"])),
        ),
        (
            "publish date: `date_published`, else `date_modified`",
            share(
                dates,
                lambda i: date_right(
                    gold[i]["publish_date"], ours[i]["date_published"] or ours[i]["date_modified"]
                ),
            ),
            "",
        ),
    ]
    print(f"wcxb_dev: {len(authors)} pages with a gold author, {len(dates)} with a gold publish date\n")
    print("| field | crawlsift | trafilatura |")
    print("|---|---|---|")
    for name, a, b in rows:
        print(f"| {name} | {a} | {b if b is not None else 'not run'} |")


if __name__ == "__main__":
    sys.exit(main())
