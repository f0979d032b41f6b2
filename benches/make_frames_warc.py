#!/usr/bin/env python3
"""Rewrite a one-member-per-record .warc.gz as a .warc.zst of one zstd frame per record.

Usage: make_frames_warc.py [IN.warc.gz] [OUT.warc.zst] [--level 3] [--dict] [--records N]

Every gzip member of IN (the Common Crawl layout; default: the benchmark
WARC, bench-data/bench.warc.gz, made by benches/make_bench_warc.py) becomes
one zstd frame of OUT (default: IN with .gz replaced by .zst), with a
checksum and the content size in its header, as FastWARC and the `zstd`
command write them. With --dict, a dictionary is trained on the records
(`zstd --train`, 110 kB) and written first in a skippable frame (magic
0x184D2A5D), as the IIPC `.warc.zst` proposal says, and every frame is
compressed with it. --records N keeps the first N records only. Needs the
`zstd` command; the records are written to a
temporary directory and compressed by one `zstd -c --filelist` call, which
writes one frame per file.
"""

import argparse
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def members(path):
    """The inflated gzip members of `path`, one at a time."""
    with open(path, "rb") as f:
        data = memoryview(f.read())
    pos = 0
    while pos < len(data):
        inflater = zlib.decompressobj(31)
        out = []
        # Fed a slice at a time: `unused_data` copies what is left of the input.
        while not inflater.eof:
            chunk = data[pos : pos + (1 << 20)]
            if not chunk:
                sys.exit(f"make_frames_warc.py: {path}: a gzip member is cut short")
            out.append(inflater.decompress(chunk))
            pos += len(chunk) - len(inflater.unused_data)
        yield b"".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", nargs="?", default=REPO / "bench-data" / "bench.warc.gz")
    parser.add_argument("output", nargs="?")
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--dict", action="store_true")
    parser.add_argument("--records", type=int)
    args = parser.parse_args()
    if shutil.which("zstd") is None:
        sys.exit("make_frames_warc.py: needs the zstd command (apt-get install zstd)")
    source = Path(args.input)
    output = Path(args.output) if args.output else source.with_suffix(".zst")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        names = []
        for i, record in enumerate(members(source)):
            if args.records is not None and i >= args.records:
                break
            name = tmp / f"{i:08d}"
            name.write_bytes(record)
            names.append(str(name))
        filelist = tmp / "files.txt"
        filelist.write_text("\n".join(names) + "\n")
        zstd = ["zstd", "-q", f"-{args.level}", "--check", "--content-size"]
        with open(output, "wb") as out:
            if args.dict:
                dictionary = tmp / "dictionary"
                subprocess.run(
                    ["zstd", "-q", "--train", "--filelist", str(filelist), "-o", str(dictionary)],
                    check=True,
                )
                data = dictionary.read_bytes()
                out.write(struct.pack("<II", 0x184D2A5D, len(data)) + data)
                zstd += ["-D", str(dictionary)]
            out.flush()
            subprocess.run(zstd + ["-c", "--filelist", str(filelist)], stdout=out, check=True)
    print(f"{output}: {len(names)} records, {output.stat().st_size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
