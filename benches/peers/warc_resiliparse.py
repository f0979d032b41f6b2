#!/usr/bin/env python3
"""FastWARC + Resiliparse baseline for crawlsift's end-to-end WARC job.

Usage: warc_resiliparse.py [-o OUT.jsonl] WARC_FILE...

Reads each .warc / .warc.gz (compression auto-detected by FastWARC), takes
every `response` record whose HTTP Content-Type is HTML, decodes the payload
with Resiliparse's own charset detection (bytes_to_str + detect_encoding),
parses it (HTMLTree.parse) and extracts the main text
(extract_plain_text(main_content=True)). Writes one JSON object per page
({"url", "record_id", "text"}) to stdout or -o FILE (use -o /dev/null to time
extraction alone).

Prints to stderr one JSON line: records (all records read), html_records,
errors, warc_bytes (uncompressed WARC size, measured after the timed run by
inflating the file again), html_bytes (HTTP payloads extracted), wall and CPU
seconds of the timed run (reading + inflating + parsing + extracting +
writing), MB/s of uncompressed WARC and of HTML per wall second, and of WARC
per CPU second (the fair figure on a loaded machine; the run is one thread).
"""

import argparse
import gzip
import json
import os
import sys
import time

from fastwarc.warc import ArchiveIterator, WarcRecordType
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import bytes_to_str, detect_encoding
from resiliparse.parse.html import HTMLTree

HTML_TYPES = {"text/html", "application/xhtml+xml"}


def uncompressed_size(path):
    """Size of the WARC after inflating (multi-member gzip aware)."""
    with open(path, "rb") as f:
        magic = f.read(2)
    if magic != b"\x1f\x8b":
        return os.path.getsize(path)
    total = 0
    with gzip.open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            total += len(chunk)
    return total


def run(paths, out):
    records = html_records = errors = html_bytes = 0
    for path in paths:
        # Iterate over every record so `records` counts them; skip non-HTML here.
        for record in ArchiveIterator(path, parse_http=True):
            records += 1
            if record.record_type != WarcRecordType.response or not record.is_http:
                continue
            if (record.http_content_type or "").lower() not in HTML_TYPES:
                continue
            html_records += 1
            body = record.reader.read()
            html_bytes += len(body)
            try:
                tree = HTMLTree.parse(bytes_to_str(body, detect_encoding(body)))
                text = extract_plain_text(tree, main_content=True)
            except Exception as err:  # count and go on, like a crawl job would
                errors += 1
                print(f"{path}: record {record.record_id}: {type(err).__name__}: {err}", file=sys.stderr)
                continue
            out.write(json.dumps({
                "url": record.headers.get("WARC-Target-URI"),
                "record_id": record.record_id,
                "text": text,
            }, ensure_ascii=False))
            out.write("\n")
    return records, html_records, errors, html_bytes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("warcs", nargs="+", metavar="WARC_FILE")
    parser.add_argument("-o", "--output", default="-", help="JSONL output file (default stdout)")
    args = parser.parse_args()
    for path in args.warcs:
        if not os.path.isfile(path):
            raise SystemExit(f"{path}: no such file")

    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
    wall0, cpu0 = time.perf_counter(), time.process_time()
    try:
        records, html_records, errors, html_bytes = run(args.warcs, out)
        out.flush()
    except BrokenPipeError:  # reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    if out is not sys.stdout:
        out.close()

    warc_bytes = sum(uncompressed_size(p) for p in args.warcs)
    print(json.dumps({
        "tool": "fastwarc+resiliparse",
        "files": len(args.warcs),
        "records": records,
        "html_records": html_records,
        "errors": errors,
        "warc_bytes": warc_bytes,
        "html_bytes": html_bytes,
        "wall_seconds": round(wall, 3),
        "cpu_seconds": round(cpu, 3),
        "warc_mb_per_s": round(warc_bytes / 1e6 / wall, 2) if wall > 0 else None,
        "html_mb_per_s": round(html_bytes / 1e6 / wall, 2) if wall > 0 else None,
        "warc_mb_per_cpu_s": round(warc_bytes / 1e6 / cpu, 2) if cpu > 0 else None,
    }), file=sys.stderr)


if __name__ == "__main__":
    main()
