"""Arrow out of Rust: read_warc_batches and extract_batch against read_warc,
extract and the CLI's Parquet on the shared WARCs and pages (every row
identical), with the GIL released while batches are built, a stream that
raises, a directory input."""

import gzip
import io
import json
import shutil
import threading
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import crawlsift

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
WARC = SHARED / "warc"
# Shared WARCs with many pages, and an uncompressed one.
SAMPLES = [
    WARC / "dolma_sample-0000.warc.gz",
    WARC / "pywb_iana.warc.gz",
    WARC / "dolma_sample-0001.warc.gz",
    WARC / "warcio_example-iana.org-chunked.warc",
]


def page_dict(page, names):
    """A read_warc page as a row of the batch columns `names`."""
    d = page.to_dict()
    filters = d.get("filters") or {}
    return {n: filters.get(n[len("filter_"):]) if n.startswith("filter_") else d.get(n) for n in names}


def table(batches):
    batches = list(batches)
    assert batches, "no batch"
    return pa.Table.from_batches(batches)


@pytest.mark.parametrize("warc", SAMPLES, ids=lambda p: p.name)
def test_batches_hold_the_pages_of_read_warc(warc):
    options = dict(threads=2, signals=True, minhash=True, markdown=True)
    reader = crawlsift.read_warc(warc, **options)
    pages = list(reader)
    batches = crawlsift.read_warc_batches(warc, batch_rows=7, **options)
    got = table(batches)
    assert all(b.num_rows <= 7 for b in got.to_batches())
    rows = got.to_pylist()
    assert rows == [page_dict(p, got.column_names) for p in pages]
    assert len(rows) == reader.stats["extracted"] > 0
    # The same counts, by reason.
    assert batches.stats == reader.stats


@pytest.mark.parametrize(
    "flags",
    [[], ["--signals", "--minhash", "--markdown"]],
    ids=["plain", "signals-minhash-markdown"],
)
def test_batches_equal_the_cli_parquet(tmp_path, run_cli, flags):
    warc = SAMPLES[0]
    out = tmp_path / "out"
    done = run_cli("extract", "-q", "-j", "2", "--format", "parquet", "-o", out, *flags, warc)
    assert done.returncode == 0, done.stderr.decode()
    (parquet,) = out.glob("*.parquet")
    want = pq.read_table(parquet)
    options = {f.lstrip("-"): True for f in flags}
    got = table(crawlsift.read_warc_batches(warc, threads=2, **options))
    # Same column names, types, nullability and values, row for row.
    assert got.schema.equals(want.schema, check_metadata=False), f"{got.schema}\n!=\n{want.schema}"
    assert got.num_rows == want.num_rows > 0
    assert got.equals(want.cast(got.schema))


def test_the_gil_is_released_while_a_batch_is_built(tmp_path):
    # One batch of every page: building it takes the whole extraction. The
    # WARC holds every scrapinghub page four times (~0.5 s on one core), long
    # enough for the ticks to tell a released GIL from a held one.
    from conftest import warc_response

    warc = tmp_path / "pages.warc.gz"
    warc.write_bytes(b"".join(warc_response(url, html) for url, html in dataset_pages(1000) * 4))
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    it = crawlsift.read_warc_batches(warc, threads=1, batch_rows=1_000_000, signals=True, minhash=True)
    thread = threading.Thread(target=count)
    start = time.perf_counter()
    thread.start()
    try:
        first = next(it)
        took = time.perf_counter() - start
    finally:
        stop.set()
        thread.join()
    assert first.num_rows > 0
    # The Python thread ran all along the wait (at least a tick per 20 ms).
    assert took > 0.05, "too fast to tell"
    assert len(ticks) >= took / 0.02, (len(ticks), took)


def test_a_raising_stream_yields_the_batches_before_and_raises_its_error():
    data = SAMPLES[0].read_bytes()

    class Dropping(io.RawIOBase):
        def __init__(self):
            self.inner = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, buf):
            if self.inner.tell() >= len(data) // 2:
                raise ConnectionError("the stream dropped")
            n = self.inner.readinto(memoryview(buf)[: 4096])
            return n

    whole = table(crawlsift.read_warc_batches(SAMPLES[0], threads=1)).to_pylist()
    got = []
    with pytest.raises(ConnectionError, match="dropped") as err, pytest.warns(crawlsift.WarcWarning, match="read failed"):
        for batch in crawlsift.read_warc_batches(Dropping(), batch_rows=1, threads=1):
            got.extend(batch.to_pylist())
    assert any("byte offset" in note for note in getattr(err.value, "__notes__", []))
    # The pages before the drop, each once and unchanged (the input is named "-").
    assert 0 < len(got) < len(whole)
    for row, want in zip(got, whole):
        assert {k: v for k, v in row.items() if k != "warc_filename"} == {
            k: v for k, v in want.items() if k != "warc_filename"
        }


def test_a_directory_is_read_file_by_file(tmp_path):
    names = ["b.warc.gz", "a.warc.gz", "c.warc", "d.warc.lz4"]
    sources = [SAMPLES[0], SAMPLES[1], SAMPLES[3], SHARED / "warc" / "resiliparse_warcfile.warc.lz4"]
    for name, source in zip(names, sources):
        shutil.copy(source, tmp_path / name)
    (tmp_path / "notes.txt").write_text("not a WARC")
    (tmp_path / "sub.warc.gz").mkdir()
    batches = crawlsift.read_warc_batches(tmp_path, batch_rows=1000, threads=2)
    got = list(batches)
    want = []
    for name in sorted(names):
        want.extend(p.to_dict() for p in crawlsift.read_warc(tmp_path / name, threads=2))
    rows = table(got).to_pylist()
    assert rows == [{k: d[k] for k in rows[0]} for d in want]
    # A batch never spans two files.
    assert all(len(set(b.column("warc_filename").to_pylist())) == 1 for b in got)
    stats = batches.stats
    assert [s["file"] for s in stats["files"]] == [str(tmp_path / n) for n in sorted(names)]
    assert stats["extracted"] == len(rows) == sum(s["extracted"] for s in stats["files"])
    assert stats["read"] == stats["extracted"] + sum(stats["skipped"].values()) + sum(stats["failed"].values())


def test_a_directory_with_a_broken_file_raises_after_the_good_pages(tmp_path):
    shutil.copy(SAMPLES[1], tmp_path / "a.warc.gz")
    (tmp_path / "b.warc.gz").write_bytes(b"this is not a WARC file at all\n" * 10)
    got = []
    batches = crawlsift.read_warc_batches(tmp_path, threads=1)
    with pytest.raises(OSError, match="b.warc.gz"):
        for batch in batches:
            got.append(batch)
    assert sum(b.num_rows for b in got) == len(list(crawlsift.read_warc(tmp_path / "a.warc.gz")))


def test_an_empty_directory_and_bad_options_raise_at_once(tmp_path):
    with pytest.raises(FileNotFoundError, match="holds no WARC files"):
        crawlsift.read_warc_batches(tmp_path)
    with pytest.raises(ValueError, match="batch_rows"):
        crawlsift.read_warc_batches(SAMPLES[0], batch_rows=0)
    with pytest.raises(FileNotFoundError):
        crawlsift.read_warc_batches(tmp_path / "missing.warc.gz")


def dataset_pages(limit=40):
    """(url, html bytes) of shared scrapinghub pages."""
    base = SHARED / "datasets" / "scrapinghub"
    pages = []
    with open(base / "meta.jsonl", encoding="utf-8") as f:
        for line in f:
            meta = json.loads(line)
            pages.append((meta["url"], gzip.decompress((base / "html" / f"{meta['id']}.html.gz").read_bytes())))
            if len(pages) == limit:
                break
    return pages


def test_extract_batch_equals_extract_row_for_row():
    pages = dataset_pages()
    urls = [u for u, _ in pages]
    html = pa.array([h for _, h in pages] + [None], pa.binary())
    url = pa.array(urls + [None])
    got = crawlsift.extract_batch(html, url, signals=True, minhash=True, markdown=True, threads=2).to_pylist()
    assert len(got) == len(pages) + 1
    for row, (u, h) in zip(got, pages):
        want = crawlsift.extract(h, url=u, signals=True, minhash=True, markdown=True)
        assert row["error"] is None
        assert (row["url"], row["title"], row["text"], row["charset"], row["markdown"]) == (
            u,
            want.title,
            want.text,
            want.encoding,
            want.markdown,
        )
        assert (row["lang"], row["lang_score"], row["signals"], row["exact_key"], row["minhash"]) == (
            want.lang,
            want.lang_score,
            want.signals,
            want.exact_key,
            want.minhash,
        )
        assert {k[len("filter_"):]: v for k, v in row.items() if k.startswith("filter_")} == want.filters
    assert got[-1]["error"] == "null_html" and got[-1]["text"] is None and got[-1]["signals"] is None


def test_extract_batch_takes_strings_chunked_arrays_and_drops_by_filter():
    pages = dataset_pages(6)
    texts = [h.decode("utf-8", "replace") for _, h in pages]
    chunked = pa.chunked_array([pa.array(texts[:2], pa.large_string()), pa.array(texts[2:], pa.large_string())])
    got = crawlsift.extract_batch(chunked, threads=1, filter="gopher")
    assert got.num_rows == 6
    for row, text in zip(got.to_pylist(), texts):
        want = crawlsift.extract(text, filter="gopher")
        if want is None:
            assert row["text"] is None and row["error"].startswith("filter:gopher")
        else:
            assert row["text"] == want.text and row["error"] is None
    with pytest.raises(TypeError, match="binary or string"):
        crawlsift.extract_batch(pa.array([1, 2]))
    with pytest.raises(ValueError, match="url has 1 rows, html 2"):
        crawlsift.extract_batch(pa.array([b"a", b"b"]), pa.array(["http://x/"]))
    with pytest.raises(TypeError, match="pyarrow Array"):
        crawlsift.extract_batch([b"<p>x</p>"])


def test_extract_batch_releases_the_gil():
    # Every scrapinghub page four times: long enough (~0.5 s on one core)
    # for the ticks to tell a released GIL from a held one.
    pages = dataset_pages(1000) * 4
    html = pa.array([h for _, h in pages])
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    thread = threading.Thread(target=count)
    start = time.perf_counter()
    thread.start()
    try:
        crawlsift.extract_batch(html, threads=1, signals=True)
        took = time.perf_counter() - start
    finally:
        stop.set()
        thread.join()
    assert took > 0.05, "too fast to tell"
    assert len(ticks) >= took / 0.02, (len(ticks), took)


def test_the_batch_options_are_read_warcs():
    import inspect

    read = inspect.signature(crawlsift.read_warc).parameters
    batches = inspect.signature(crawlsift.read_warc_batches).parameters
    assert {k: v.default for k, v in read.items()} == {k: v.default for k, v in batches.items() if k != "batch_rows"}
    assert batches["batch_rows"].default == 8192
