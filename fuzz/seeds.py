#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora into fuzz/corpus/<target>/ from the
real WARCs and pages in ../shared (beside the checkout): WARCs are cut into
records (one gzip member each, or split before `WARC/` in plain files) and
pages are taken whole, every seed at most 64 KiB. Standard library only.

    python3 fuzz/seeds.py [SHARED_DIR]
"""

import gzip
import hashlib
import sys
import zlib
from pathlib import Path

MAX_SEED = 64 << 10
FUZZ = Path(__file__).resolve().parent
SHARED = Path(sys.argv[1]) if len(sys.argv) > 1 else FUZZ.parent.parent / "shared"
PAGES_PER_DATASET = 40


def members(data):
    """The gzip members of `data` as (compressed, inflated) pairs."""
    out, pos = [], 0
    while pos < len(data):
        d = zlib.decompressobj(31)
        try:
            inflated = d.decompress(data[pos:])
        except zlib.error:
            break
        used = len(data) - pos - len(d.unused_data)
        out.append((data[pos : pos + used], inflated))
        if not d.eof or used == 0:
            break
        pos += used
    return out


def plain_records(data):
    """A plain WARC cut before every `WARC/1.` or `WARC/0.` line."""
    starts = [i for i in range(len(data)) if data.startswith((b"WARC/1.", b"WARC/0."), i)]
    starts = [s for s in starts if s == 0 or data[s - 1 : s] == b"\n"] or [0]
    return [data[a:b] for a, b in zip(starts, starts[1:] + [len(data)])]


def write(target, seed):
    seed = seed[:MAX_SEED]
    directory = FUZZ / "corpus" / target
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(seed).hexdigest()).write_bytes(seed)


def http_block(record):
    """The HTTP response inside a WARC `response` record, if any."""
    head, sep, block = record.partition(b"\r\n\r\n")
    if sep and b"WARC-Type: response" in head and block.startswith(b"HTTP/"):
        return block
    return None


def main():
    warcs = sorted((SHARED / "warc").glob("*.warc*"))
    if not warcs:
        sys.exit(f"no WARC files in {SHARED / 'warc'}")
    for path in warcs:
        data = path.read_bytes()
        if data.startswith(b"\x1f\x8b"):
            pairs = members(data)
            compressed = [c for c, _ in pairs]
            records = [r for _, r in pairs]
        elif data.startswith(b"WARC/"):
            records = plain_records(data)
            compressed = []
        else:
            continue  # LZ4 and other formats crawlsift does not read
        # Small runs of consecutive records: what follows a record matters.
        for i in range(0, min(len(records), 24), 3):
            plain = b"".join(records[i : i + 3])
            # warc_reader: first byte = cap 1 MiB, stream buffer 4096, then
            # as is (0x2e) or gzipped one member per record (0xee).
            write("warc_reader", b"\x2e" + plain)
            write("warc_reader", b"\xee" + plain)
            # warc_split: 2 threads, parts of 64 bytes, gzip members made here.
            write("warc_split", b"\x00\x3f\x0e" + plain)
            if compressed:
                gz = b"".join(compressed[i : i + 3])
                write("warc_reader", b"\x2e" + gz)
                write("warc_split", b"\x00\x3f\x06" + gz)
        for record in records[:40]:
            block = http_block(record)
            if block is not None:
                # http: max 65535, no encoding made here (0), then the block.
                write("http", b"\xff\xff\x00" + block)
    for dataset in sorted((SHARED / "datasets").iterdir()):
        pages = sorted((dataset / "html").glob("*"))
        step = max(1, len(pages) // PAGES_PER_DATASET)
        for page in pages[::step][:PAGES_PER_DATASET]:
            raw = page.read_bytes()
            if page.suffix == ".gz":
                raw = gzip.decompress(raw)
            # charset and extract: no label (Option tag 0), then the page.
            write("charset", b"\x00" + raw)
            write("extract", b"\x00" + raw)
            # markdown: links, images, no url, then the pages (arbitrary
            # splits them into `other` and `raw`).
            write("markdown", b"\x01\x01\x00" + raw)
    for target in sorted((FUZZ / "corpus").iterdir()):
        print(f"{target.name}: {len(list(target.iterdir()))} seeds")


if __name__ == "__main__":
    main()
