"""The scale-out job every engine's test runs (issue 42, part 5): 20 inputs made from
the shared WARCs, two of them broken, one large, and the pages they must give."""

from __future__ import annotations

import http.server
import shutil
import threading
from collections import Counter
from pathlib import Path

# Shared .warc.gz files that read cleanly: concatenated (gzip members follow each
# other), they make one larger valid WARC.
CLEAN = ("dolma_sample-0000.warc.gz", "dolma_sample-0001.warc.gz", "pywb_iana.warc.gz",
         "resiliparse_warcfile.warc.gz", "cc_whirlwind.warc.gz")


def key(row: dict) -> tuple:
    return (row["warc_filename"], row["offset"], row["warc_record_id"])


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


class ScaleOut:
    """Makes the inputs in ``folder`` and serves them on 127.0.0.1 (a context manager).

    ``inputs``: 17 copies of shared WARCs, ``large`` (CLEAN concatenated 4 times),
    ``cut`` (a .warc.gz cut inside a gzip member: the pages before the cut are good)
    and ``missing`` (a URL on the local server that answers 404)."""

    def __init__(self, folder: Path, shared: Path, copies: int = 17, large_times: int = 4):
        self.folder = folder / "inputs"
        self.folder.mkdir()
        warcs = shared / "warc"
        sources = sorted(p for p in warcs.iterdir() if p.name.endswith((".warc", ".warc.gz")))
        self.good = []
        for i in range(copies):
            src = sources[i % len(sources)]
            dst = self.folder / f"in{i:02d}-{src.name}"
            shutil.copyfile(src, dst)
            self.good.append(str(dst))
        large = self.folder / "large.warc.gz"
        with open(large, "wb") as out:
            for _ in range(large_times):
                for name in CLEAN:
                    out.write((warcs / name).read_bytes())
        self.large = str(large)
        iana = (warcs / "pywb_iana.warc.gz").read_bytes()
        cut = self.folder / "cut.warc.gz"
        cut.write_bytes(iana[: len(iana) // 2])
        self.cut = str(cut)
        handler = lambda *a, **kw: _Quiet(*a, directory=str(self.folder), **kw)  # noqa: E731
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.missing = f"http://127.0.0.1:{self.server.server_port}/missing.warc.gz"
        # the large one in the middle, so it does not simply run last
        self.inputs = self.good[:8] + [self.large, self.cut, self.missing] + self.good[8:]
        assert len(self.inputs) == 20

    def __enter__(self) -> "ScaleOut":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def expected(self, cli_rows) -> list:
        """The CLI's rows of every local input (the URL has none)."""
        rows = []
        for path in self.inputs:
            if path != self.missing:
                rows.extend(cli_rows(path))
        return rows

    def check_rows(self, rows: list, cli_rows) -> None:
        """Every page of the CLI arrives exactly once, with the CLI's text."""
        want = self.expected(cli_rows)
        assert len({key(r) for r in want}) == len(want), "keys name pages uniquely"
        seen = Counter(key(r) for r in rows)
        duplicates = [k for k, n in seen.items() if n > 1]
        assert not duplicates, f"{len(duplicates)} pages arrived more than once, e.g. {duplicates[:3]}"
        assert set(seen) == {key(r) for r in want}, (len(seen), len(want))
        text = {key(r): r["text"] for r in rows}
        assert all(text[key(r)] == r["text"] for r in want)
        names = {Path(r["warc_filename"]).name for r in rows}
        assert Path(self.large).name in names and Path(self.cut).name in names
        assert len(want) > 300, len(want)
