#!/usr/bin/env python3
"""Build a Common-Crawl-like WARC from the real pages of the shared datasets.

Usage: make_bench_warc.py [OUT.warc.gz] [--size-mb 1100] [--also-uncompressed]
                          [--datasets-root DIR] [--seed N] [--mix pages|cc]

The WARC throughput benchmark needs a large WARC whose pages are real, so
it takes every DIR/*/html/<id>.html.gz of --datasets-root (default: the
shared/datasets directory beside the repository) and repeats them in a fixed
pseudo-random order (reshuffled each round with --seed) until the
uncompressed WARC reaches --size-mb megabytes (10^6 bytes). Each page becomes
what a Common Crawl fetch writes: a `request` record, a `response` record
(HTTP/1.1 200 with Date, Server, Content-Type carrying the charset the
dataset's profile.jsonl declares, Content-Length; the raw page bytes as body)
and a `metadata` record, after one `warcinfo` record. Every record is its own
gzip member at compresslevel 6, as in Common Crawl. The same seed gives the
same bytes (record ids and dates are derived from it).

--mix cc makes the fetches look more like a Common Crawl file's: 3 % are
redirects (301 with a Location header and a short HTML body), 2 % are 404s
(a small HTML body) and 3 % are PDFs (application/pdf, a fake PDF body of
20-300 kB); the rest are the pages as above. The default, --mix pages, gives
only pages (and the same bytes as before the option existed).

Default output: bench-data/bench.warc.gz at the repo root (gitignored);
--also-uncompressed writes the plain .warc beside it.
"""

import argparse
import base64
import datetime
import gzip
import hashlib
import json
import random
import sys
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SERVERS = ["nginx", "Apache", "cloudflare", "nginx/1.18.0 (Ubuntu)", "Microsoft-IIS/10.0", "LiteSpeed"]
USER_AGENT = "CCBot/2.0 (https://commoncrawl.org/faq/)"


def read_jsonl(path):
    out = {}
    if path.exists():
        with path.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    obj = json.loads(line)
                    out[obj["id"]] = obj
    return out


def load_pages(root):
    """(dataset, id, path, url, charset) for every page, in a stable order."""
    pages = []
    for dataset_dir in sorted(p for p in root.iterdir() if (p / "html").is_dir()):
        meta = read_jsonl(dataset_dir / "meta.jsonl")
        profile = read_jsonl(dataset_dir / "profile.jsonl")
        host = dataset_dir.name.replace("_", "-") + ".example"
        for path in sorted((dataset_dir / "html").glob("*.html.gz")):
            page_id = path.name[: -len(".html.gz")]
            url = meta.get(page_id, {}).get("url") or f"https://{host}/{page_id}"
            charset = profile.get(page_id, {}).get("declared_charset")
            pages.append((dataset_dir.name, page_id, path, url, charset))
    return pages


def sha1_b32(data):
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


def warc_date(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def record(headers, block):
    """One WARC/1.0 record: header lines, blank line, block, two CRLFs."""
    head = ["WARC/1.0"] + [f"{k}: {v}" for k, v in headers] + [f"Content-Length: {len(block)}"]
    return ("\r\n".join(head) + "\r\n\r\n").encode("utf-8") + block + b"\r\n\r\n"


class Writer:
    """Writes records as one gzip member each, plus an optional plain copy."""

    def __init__(self, out, plain):
        self.gz = open(out, "wb")
        self.plain = open(plain, "wb") if plain else None
        self.raw_bytes = 0

    def write(self, rec):
        self.gz.write(gzip.compress(rec, compresslevel=6, mtime=0))
        if self.plain:
            self.plain.write(rec)
        self.raw_bytes += len(rec)

    def close(self):
        self.gz.close()
        if self.plain:
            self.plain.close()


def page_records(rng, when, warcinfo_id, url, charset, body,
                 status="200 OK", content_type=None, extra_head=""):
    """The request, response and metadata records of one fetch."""
    host = url.split("/")[2] if url.count("/") >= 2 else "localhost"
    path = "/" + url.split("/", 3)[3] if url.count("/") >= 3 else "/"
    ip = "{}.{}.{}.{}".format(*hashlib.md5(host.encode()).digest()[:4])
    new_id = lambda: f"<urn:uuid:{uuid.UUID(int=rng.getrandbits(128), version=4)}>"
    date = warc_date(when)

    req_block = (
        f"GET {path} HTTP/1.1\r\nUser-Agent: {USER_AGENT}\r\n"
        "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
        f"Accept-Language: en-US,en;q=0.5\r\nAccept-Encoding: br,gzip\r\nHost: {host}\r\n"
        "Connection: Keep-Alive\r\n\r\n"
    ).encode("utf-8")
    req_id = new_id()
    request = record([
        ("WARC-Type", "request"), ("WARC-Date", date), ("WARC-Record-ID", req_id),
        ("Content-Type", "application/http; msgtype=request"),
        ("WARC-Warcinfo-ID", warcinfo_id), ("WARC-IP-Address", ip),
        ("WARC-Target-URI", url), ("WARC-Block-Digest", sha1_b32(req_block)),
    ], req_block)

    if content_type is None:
        content_type = f"text/html; charset={charset}" if charset else "text/html"
    http_date = when.strftime("%a, %d %b %Y %H:%M:%S GMT")
    http_head = (
        f"HTTP/1.1 {status}\r\nDate: {http_date}\r\nServer: {rng.choice(SERVERS)}\r\n{extra_head}"
        f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
        "Vary: Accept-Encoding\r\nCache-Control: max-age=600\r\n\r\n"
    ).encode("utf-8")
    resp_block = http_head + body
    resp_id = new_id()
    response = record([
        ("WARC-Type", "response"), ("WARC-Date", date), ("WARC-Record-ID", resp_id),
        ("Content-Type", "application/http; msgtype=response"),
        ("WARC-Warcinfo-ID", warcinfo_id), ("WARC-Concurrent-To", req_id),
        ("WARC-IP-Address", ip), ("WARC-Target-URI", url),
        ("WARC-Payload-Digest", sha1_b32(body)), ("WARC-Block-Digest", sha1_b32(resp_block)),
        ("WARC-Identified-Payload-Type", content_type.split(";")[0]),
    ], resp_block)

    meta_block = f"fetchTimeMs: {rng.randint(40, 2500)}\r\n".encode("ascii")
    if charset:
        meta_block += f"charset-detected: {charset.upper()}\r\n".encode("ascii")
    metadata = record([
        ("WARC-Type", "metadata"), ("WARC-Date", date), ("WARC-Record-ID", new_id()),
        ("Content-Type", "application/warc-fields"), ("WARC-Warcinfo-ID", warcinfo_id),
        ("WARC-Concurrent-To", resp_id), ("WARC-Target-URI", url),
        ("WARC-Block-Digest", sha1_b32(meta_block)),
    ], meta_block)
    return request, response, metadata


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", default=str(REPO / "bench-data" / "bench.warc.gz"),
                        help="output .warc.gz (default: bench-data/bench.warc.gz at the repo root)")
    parser.add_argument("--size-mb", type=float, default=1100, help="uncompressed size to reach, 10^6 bytes")
    parser.add_argument("--also-uncompressed", action="store_true", help="also write the plain .warc beside it")
    parser.add_argument("--datasets-root", default=str(REPO.parent / "shared" / "datasets"))
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--mix", choices=["pages", "cc"], default="pages",
                        help="cc: also 3%% redirects, 2%% 404s and 3%% PDFs, as in Common Crawl")
    args = parser.parse_args()

    out = Path(args.out)
    if not out.name.endswith(".warc.gz"):
        raise SystemExit(f"{out}: output name must end in .warc.gz")
    pages = load_pages(Path(args.datasets_root))
    if not pages:
        raise SystemExit(f"{args.datasets_root}: no <dataset>/html/*.html.gz pages found; pass --datasets-root")
    out.parent.mkdir(parents=True, exist_ok=True)
    plain = out.with_name(out.name[: -len(".gz")]) if args.also_uncompressed else None

    rng = random.Random(args.seed)
    when = datetime.datetime(2025, 1, 13, 8, 0, 0)
    target = int(args.size_mb * 1e6)
    started = time.perf_counter()
    writer = Writer(out, plain)
    warcinfo_id = f"<urn:uuid:{uuid.UUID(int=rng.getrandbits(128), version=4)}>"
    info_block = (
        "software: crawlsift benches/make_bench_warc.py\r\nformat: WARC File Format 1.0\r\n"
        "conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.0/\r\n"
        f"description: real pages of the crawlsift shared datasets, repeated to {args.size_mb:g} MB (seed {args.seed})\r\n"
    ).encode("utf-8")
    writer.write(record([
        ("WARC-Type", "warcinfo"), ("WARC-Date", warc_date(when)), ("WARC-Record-ID", warcinfo_id),
        ("WARC-Filename", out.name), ("Content-Type", "application/warc-fields"),
        ("WARC-Block-Digest", sha1_b32(info_block)),
    ], info_block))

    fetches = rounds = 0
    html_bytes = 0
    kinds = {"page": 0, "redirect": 0, "not_found": 0, "pdf": 0}
    while writer.raw_bytes < target:
        rounds += 1
        order = pages[:]
        rng.shuffle(order)
        for _dataset, _id, path, url, charset in order:
            if writer.raw_bytes >= target:
                break
            kind = "page"
            if args.mix == "cc":
                r = rng.random()
                kind = "redirect" if r < 0.03 else "not_found" if r < 0.05 else "pdf" if r < 0.08 else "page"
            when += datetime.timedelta(milliseconds=rng.randint(5, 900))
            if kind == "page":
                body = gzip.decompress(path.read_bytes())
                recs = page_records(rng, when, warcinfo_id, url, charset, body)
                html_bytes += len(body)
            elif kind == "redirect":
                body = b"<html><head><title>301 Moved Permanently</title></head><body><h1>Moved Permanently</h1></body></html>\n"
                location = url.replace("http://", "https://", 1) if url.startswith("http://") else url.rstrip("/") + "/"
                recs = page_records(rng, when, warcinfo_id, url, None, body, "301 Moved Permanently",
                                    "text/html", f"Location: {location}\r\n")
            elif kind == "not_found":
                body = b"<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>\n"
                recs = page_records(rng, when, warcinfo_id, url, None, body, "404 Not Found", "text/html")
            else:
                body = b"%PDF-1.4\n" + rng.randbytes(rng.randint(20_000, 300_000)) + b"\n%%EOF\n"
                recs = page_records(rng, when, warcinfo_id, url, None, body, "200 OK", "application/pdf")
            for rec in recs:
                writer.write(rec)
            fetches += 1
            kinds[kind] += 1
    writer.close()
    seconds = time.perf_counter() - started

    summary = {
        "out": str(out),
        "plain": str(plain) if plain else None,
        "distinct_pages": len(pages),
        "fetches": fetches,
        "mix": args.mix,
        "kinds": kinds,
        "records": 1 + 3 * fetches,
        "rounds": rounds,
        "html_bytes": html_bytes,
        "warc_bytes": writer.raw_bytes,
        "gz_bytes": out.stat().st_size,
        "seconds": round(seconds, 1),
    }
    print(json.dumps(summary), file=sys.stderr)


if __name__ == "__main__":
    main()
