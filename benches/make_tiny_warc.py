#!/usr/bin/env python3
"""Build a WARC of many tiny HTML responses, to measure per-record overhead.

Usage: make_tiny_warc.py OUT.warc.gz [--records 100000] [--seed N]

One `warcinfo` record, then --records `response` records (HTTP/1.1 200,
text/html; charset=utf-8) whose pages are a few hundred bytes of HTML with a
title and two paragraphs drawn from a fixed word list. Every record is its own
gzip member at compresslevel 6, as in Common Crawl. The same seed gives the
same bytes. Compare `crawlsift extract -j 1 -q OUT > /dev/null` CPU time with
`cargo run --release --example gz_inflate -- OUT` (one core's inflate).
"""

import argparse
import gzip
import random
import uuid

WORDS = (
    "the archive page text crawl record engine extract main content body "
    "news report city council budget school river bridge market weather "
    "season team match result library museum garden station festival"
).split()


def record(warc_type, headers, block, rng):
    rid = uuid.UUID(int=rng.getrandbits(128), version=4)
    head = [
        "WARC/1.0",
        f"WARC-Type: {warc_type}",
        f"WARC-Record-ID: <urn:uuid:{rid}>",
        "WARC-Date: 2024-01-01T00:00:00Z",
    ] + headers + [f"Content-Length: {len(block)}"]
    raw = ("\r\n".join(head) + "\r\n\r\n").encode() + block + b"\r\n\r\n"
    return gzip.compress(raw, compresslevel=6, mtime=0)


def sentence(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.out, "wb") as out:
        info = b"software: make_tiny_warc.py\r\nformat: WARC File Format 1.0\r\n"
        out.write(record("warcinfo", ["Content-Type: application/warc-fields"], info, rng))
        for i in range(args.records):
            title = sentence(rng, 4)
            body = "".join(f"<p>{sentence(rng, 18)}</p>" for _ in range(2))
            html = (
                f"<!DOCTYPE html><html><head><title>{title}</title></head>"
                f"<body><article><h1>{title}</h1>{body}</article></body></html>"
            ).encode()
            http = (
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                f"Content-Length: {len(html)}\r\n\r\n"
            ).encode() + html
            headers = [
                f"WARC-Target-URI: http://tiny.example/{i}",
                "Content-Type: application/http; msgtype=response",
            ]
            out.write(record("response", headers, http, rng))


if __name__ == "__main__":
    main()
