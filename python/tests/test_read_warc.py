"""crawlsift.read_warc against `crawlsift extract`, on every file of ../shared/warc."""

import gzip
import io
import json
import os
import threading
import time
import warnings
from pathlib import Path

import pytest

import crawlsift
SHARED = Path(__file__).resolve().parents[2].parent / "shared"
WARC_FILES = sorted(p for p in (SHARED / "warc").iterdir() if p.is_file())
# Readable WARC files of the shared set (the others are errors, tested too).
READABLE = [p for p in WARC_FILES if p.name.endswith((".warc", ".warc.gz"))]


@pytest.fixture
def cli_extract(run_cli, tmp_path):
    """Runs `crawlsift extract` on a path: its JSONL rows, per-file stats, exit code and stderr."""

    def run(path, *args):
        stats = tmp_path / "stats.json"
        stats.unlink(missing_ok=True)
        out = run_cli("extract", "--quiet", "--stats", stats, *args, path)
        rows = [json.loads(line) for line in out.stdout.decode().splitlines()]
        file_stats = json.loads(stats.read_text())[0] if stats.exists() else None
        return rows, file_stats, out.returncode, out.stderr.decode()

    return run


def python_extract(source, **kwargs):
    """Rows, stats and warnings of read_warc, or the exception it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reader = crawlsift.read_warc(source, **kwargs)
        assert reader.stats is None, "no stats before the end"
        pages = list(reader)
    return pages, reader.stats, [str(w.message) for w in caught if w.category is crawlsift.WarcWarning]


def test_the_shared_set_has_files():
    assert len(READABLE) >= 20, READABLE


@pytest.mark.parametrize("path", WARC_FILES, ids=lambda p: p.name)
def test_read_warc_yields_the_cli_rows(cli_extract, path):
    rows, stats, code, stderr = cli_extract(path, "-j", "2")
    if code != 0:
        # The CLI could not read it (LZ4, WAT/WET-free metadata, not WARC at all):
        # Python raises OSError with the message the CLI printed.
        with pytest.raises(OSError) as err:
            python_extract(path, threads=2)
        assert f"crawlsift: error: {err.value}" in stderr.splitlines(), (str(err.value), stderr)
        return
    pages, py_stats, problems = python_extract(path, threads=2)
    assert [p.to_dict() for p in pages] == rows
    assert py_stats == stats
    assert problems == stats["problems"]
    assert [f"crawlsift: warning: {p}" for p in problems] == [
        line for line in stderr.splitlines() if line.startswith("crawlsift: warning:")
    ]
    for page, row in zip(pages, rows):
        assert {k: getattr(page, k) for k in row} == row


def test_attributes_and_dict_have_the_jsonl_fields(shared, cli_rows):
    path = shared / "warc" / "cc_whirlwind.warc.gz"
    pages, stats, _ = python_extract(path)
    assert len(pages) == stats["extracted"] == 1
    page = pages[0]
    assert page.url == "https://an.wikipedia.org/wiki/Escopete"
    # The same keys, in the same order, as the CLI's JSONL object.
    assert list(page.to_dict()) == list(cli_rows(path)[0])
    assert list(page.to_dict())[:7] == [
        "url", "warc_record_id", "warc_date", "warc_filename", "offset", "length", "truncated",
    ]
    assert all(getattr(page, key) == value for key, value in page.to_dict().items())
    assert page.truncated is None
    assert page.warc_filename == "cc_whirlwind.warc.gz"
    assert page.algorithm == crawlsift.DEFAULT_ALGORITHM
    assert stats["read"] == stats["extracted"] + sum(stats["skipped"].values()) + sum(stats["failed"].values())


@pytest.mark.parametrize("name", ["resiliparse_warcfile.warc.gz", "warcio_example-iana.org-chunked.warc"])
def test_file_objects_yield_the_path_rows(shared, name):
    path = shared / "warc" / name
    by_path, stats, _ = python_extract(path)
    by_path = [p.to_dict() for p in by_path]
    assert by_path

    with open(path, "rb") as f:
        opened, opened_stats, _ = python_extract(f)
    assert [p.to_dict() for p in opened] == by_path, "open(): named by its path"
    assert opened_stats == stats

    anonymous, anonymous_stats, _ = python_extract(io.BytesIO(path.read_bytes()))
    assert [dict(p.to_dict(), warc_filename=name) for p in anonymous] == by_path
    assert {p.warc_filename for p in anonymous} == {"-"}
    assert anonymous_stats["file"] == "-"
    assert {k: v for k, v in anonymous_stats.items() if k != "file"} == {
        k: v for k, v in stats.items() if k != "file"
    }


class NonSeekable(io.RawIOBase):
    """A forward-only stream handing out at most `chunk` bytes per read, like a socket."""

    def __init__(self, data, chunk):
        self._data = memoryview(data)
        self._chunk = chunk
        self.reads = 0

    def readable(self):
        return True

    def readinto(self, buf):
        self.reads += 1
        n = min(len(buf), self._chunk, len(self._data))
        buf[:n] = self._data[:n]
        self._data = self._data[n:]
        return n


@pytest.mark.parametrize("chunk", [7, 1000])
def test_gzip_through_a_non_seekable_stream(shared, chunk):
    path = shared / "warc" / "dolma_sample-0000.warc.gz"
    by_path = [p.to_dict() for p in python_extract(path)[0]]
    assert len(by_path) > 10

    stream = NonSeekable(path.read_bytes(), chunk)
    raw = [p.to_dict() for p in python_extract(stream)[0]]
    assert stream.reads > 200, "read in small pieces"
    assert raw == [dict(r, warc_filename="-") for r in by_path]

    # Inflated by Python's gzip: a plain WARC, offsets now in inflated bytes.
    inflated = gzip.GzipFile(fileobj=NonSeekable(path.read_bytes(), 4096))
    pages = [p.to_dict() for p in python_extract(inflated)[0]]
    kept = ("url", "warc_record_id", "title", "text", "charset", "http_status")
    assert [{k: p[k] for k in kept} for p in pages] == [{k: p[k] for k in kept} for p in by_path]
    assert all(p["length"] is not None for p in pages)


def test_a_text_mode_file_is_a_clear_error(shared):
    with open(shared / "warc" / "warcio_example-trunc.warc", encoding="latin-1") as f:
        with pytest.raises(OSError, match=r"returned str, not bytes; open it in binary mode"):
            list(crawlsift.read_warc(f))


def test_a_read_that_raises_is_reported_with_the_python_error():
    class Failing(io.RawIOBase):
        name = "flaky.warc"

        def readable(self):
            return True

        def readinto(self, buf):
            raise ConnectionResetError("peer went away")

    # The exception itself (type, message, traceback), with a note giving the offset.
    with pytest.raises(ConnectionResetError) as err:
        list(crawlsift.read_warc(Failing()))
    assert str(err.value) == "peer went away"
    assert any("read() of flaky.warc at byte offset 0" in n for n in getattr(err.value, "__notes__", []))


def test_a_missing_file_raises_the_cli_message(cli_extract, tmp_path):
    missing = tmp_path / "missing.warc.gz"
    _, _, code, stderr = cli_extract(missing)
    assert code != 0
    with pytest.raises(FileNotFoundError) as err:
        crawlsift.read_warc(missing)
    assert str(err.value) == f"cannot read {missing}: No such file or directory (os error 2)"
    assert f"crawlsift: error: {err.value}" in stderr.splitlines()


def test_damaged_gzip_members_are_counted_and_warned(cli_extract, tmp_path, shared):
    data = bytearray((shared / "warc" / "resiliparse_warcfile.warc.gz").read_bytes())
    for at in (20_000, 60_000, 100_000):
        data[at : at + 64] = b"\xde\xad" * 32
    damaged = tmp_path / "damaged.warc.gz"
    damaged.write_bytes(bytes(data))
    rows, stats, code, stderr = cli_extract(damaged)
    assert code == 0, stderr
    assert sum(stats["failed"].values()) > 0, stats
    pages, py_stats, problems = python_extract(damaged)
    assert [p.to_dict() for p in pages] == rows
    assert py_stats == stats
    assert problems == stats["problems"] and all(f"{damaged}: record " in p for p in problems)


def test_options_reach_the_pipeline(cli_extract, shared):
    path = shared / "warc" / "pywb_iana.warc.gz"
    rows, stats, code, _ = cli_extract(
        path, "--algorithm", "danag", "--max-record-bytes", "20000", "-j", "3"
    )
    assert code == 0 and stats["skipped"].get("too_large", 0) > 0, stats
    pages, py_stats, _ = python_extract(path, algorithm="danag", max_record_bytes=20000, threads=3)
    assert [p.to_dict() for p in pages] == rows
    assert py_stats == stats
    one = [p.to_dict() for p in python_extract(path, algorithm="danag", max_record_bytes=20000, threads=1)[0]]
    assert one == rows


def test_bad_arguments_are_value_and_type_errors(shared):
    path = shared / "warc" / "cc_whirlwind.warc.gz"
    with pytest.raises(ValueError, match="unknown algorithm `nope`"):
        crawlsift.read_warc(path, algorithm="nope")
    with pytest.raises(ValueError, match="threads must be at least 1"):
        crawlsift.read_warc(path, threads=0)
    with pytest.raises(TypeError, match="path .* or a binary file-like object"):
        crawlsift.read_warc(42)


def threads_of_this_process():
    return len(os.listdir("/proc/self/task"))


def threads_settle_to(count, seconds=5.0):
    """A joined thread can stay listed in /proc for a moment after it exits."""
    deadline = time.monotonic() + seconds
    while threads_of_this_process() != count and time.monotonic() < deadline:
        time.sleep(0.05)
    return threads_of_this_process()


@pytest.fixture(scope="module")
def big_warc(tmp_path_factory, shared):
    """Gzip members concatenate: 30 copies of two real samples make a file of ~13 MB."""
    path = tmp_path_factory.mktemp("big") / "big.warc.gz"
    parts = [(shared / "warc" / n).read_bytes() for n in ("dolma_sample-0000.warc.gz", "dolma_sample-0001.warc.gz")]
    path.write_bytes(b"".join(parts) * 30)
    return path


@pytest.mark.parametrize("as_stream", [False, True], ids=["path", "file-object"])
def test_leaving_early_stops_the_pipeline(big_warc, as_stream):
    before = threads_of_this_process()
    for _ in range(3):
        started = time.monotonic()
        f = open(big_warc, "rb") if as_stream else None
        reader = crawlsift.read_warc(f or big_warc, threads=2)
        for i, page in enumerate(reader):
            if i == 3:
                break
        assert threads_of_this_process() > before, "the pipeline runs in threads"
        del reader, page
        assert time.monotonic() - started < 20
        if f:
            # Bounded look-ahead, then stopped: most of the file was never read.
            assert f.tell() < big_warc.stat().st_size / 4, (f.tell(), big_warc.stat().st_size)
            f.close()
    assert threads_settle_to(before) == before, "every pipeline thread ended"


def test_close_and_with_stop_the_pipeline(big_warc):
    before = threads_of_this_process()
    with crawlsift.read_warc(big_warc) as reader:
        next(reader)
    assert list(reader) == [] and reader.stats is None
    reader = crawlsift.read_warc(big_warc)
    next(reader)
    reader.close()
    reader.close()
    assert threads_settle_to(before) == before


def test_python_threads_read_files_side_by_side(shared):
    paths = [shared / "warc" / n for n in ("dolma_sample-0000.warc.gz", "dolma_sample-0001.warc.gz", "pywb_iana.warc.gz")]
    serial = {p: [x.to_dict() for x in crawlsift.read_warc(p, threads=1)] for p in paths}
    results = {}

    def one(path):
        with open(path, "rb") as f:
            results[path] = [x.to_dict() for x in crawlsift.read_warc(f, threads=1)]

    threads = [threading.Thread(target=one, args=(p,)) for p in paths]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert results == serial


def test_write_parquet_equals_the_cli_parquet(shared, run_cli, tmp_path):
    """crawlsift.write_parquet writes the rows, columns and types of `crawlsift extract --format parquet`."""
    pq = pytest.importorskip("pyarrow.parquet")
    path = shared / "warc" / "dolma_sample-0000.warc.gz"
    done = run_cli("extract", "-q", "--format", "parquet", "-o", tmp_path / "cli", path)
    assert done.returncode == 0, done.stderr
    cli = pq.read_table(tmp_path / "cli" / "dolma_sample-0000.parquet")
    written = crawlsift.write_parquet(crawlsift.read_warc(path), tmp_path / "py.parquet")
    py = pq.read_table(tmp_path / "py.parquet")
    assert written == py.num_rows == cli.num_rows > 10
    assert py.schema == cli.schema
    assert py.to_pylist() == cli.to_pylist()


def test_write_parquet_refuses_what_is_not_a_page(tmp_path):
    with pytest.raises(TypeError, match="crawlsift.Page"):
        crawlsift.write_parquet([{"url": "x"}], tmp_path / "x.parquet")


def test_write_parquet_leaves_nothing_at_the_path_when_it_fails(shared, tmp_path):
    """A source that raises midway (a network stream dropping, a task killed): no
    broken .parquet is left where a glob or a retried task would read it."""
    pages = list(crawlsift.read_warc(shared / "warc" / "resiliparse_warcfile.warc.gz"))
    assert len(pages) > 2

    def dropping():
        yield from pages[:2]
        raise ConnectionError("the stream dropped")

    target = tmp_path / "out.parquet"
    with pytest.raises(ConnectionError, match="dropped"):
        crawlsift.write_parquet(dropping(), target)
    assert list(tmp_path.iterdir()) == []
    # A complete earlier file stays as it was.
    assert crawlsift.write_parquet(pages, target) == len(pages)
    before = target.read_bytes()
    with pytest.raises(TypeError, match="crawlsift.Page"):
        crawlsift.write_parquet(pages[:1] + ["not a page"], target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["out.parquet"]


def test_a_spent_page_timeout_fails_each_page_and_the_file_goes_on(cli_extract, shared):
    # A timeout of a nanosecond stops every page at its first check: each
    # is counted as failed (timeout) with its record and offset, as by the
    # command line, and the reading goes on to the end of the file.
    path = shared / "warc" / "cc_whirlwind.warc.gz"
    _, full, code, _ = cli_extract(path)
    assert code == 0 and full["extracted"] > 0, full
    rows, stats, code, stderr = cli_extract(path, "--page-timeout", "0.000000001")
    assert code == 0, stderr
    assert rows == []
    assert stats["failed"] == {"timeout": full["extracted"]}, stats
    assert stats["read"] == full["read"]
    pages, py_stats, problems = python_extract(path, page_timeout=1e-9)
    assert pages == []
    assert py_stats == stats
    assert problems == stats["problems"] and problems
    assert all(f"{path}: record " in p and "byte offset" in p and "page timeout" in p for p in problems)
    # 0 turns the limit off: every page again.
    pages, py_stats, _ = python_extract(path, page_timeout=0)
    assert py_stats == full and len(pages) == full["extracted"]
    with pytest.raises(ValueError, match="page timeout"):
        crawlsift.read_warc(path, page_timeout=-1)
