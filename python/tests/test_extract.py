"""crawlsift.extract against `crawlsift html --json`, on the real pages of a dataset."""

import gzip
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import crawlsift

DATASET = "scrapinghub"


@pytest.fixture(scope="module")
def pages(shared):
    paths = sorted((shared / "datasets" / DATASET / "html").glob("*.html.gz"))
    assert len(paths) > 100, f"expected the {DATASET} pages, found {len(paths)}"
    return [(p, gzip.decompress(p.read_bytes())) for p in paths]


def cli_json(run_cli, paths, algorithm):
    out = run_cli("html", "--json", "--algorithm", algorithm, *paths)
    assert out.returncode == 0, out.stderr.decode()
    rows = [json.loads(line) for line in out.stdout.decode().splitlines()]
    assert len(rows) == len(paths)
    return {row["path"]: row for row in rows}


@pytest.mark.parametrize("algorithm", ["addanag-plus", "danag", "ccb"])
def test_extract_equals_crawlsift_html_on_every_page(run_cli, pages, algorithm):
    expected = cli_json(run_cli, [p for p, _ in pages], algorithm)
    nonempty = 0
    for path, raw in pages:
        got = crawlsift.extract(raw, algorithm=algorithm)
        want = expected[str(path)]
        assert (got.title, got.text, got.encoding, got.algorithm) == (
            want["title"],
            want["text"],
            want["encoding"],
            want["algorithm"],
        ), path
        nonempty += bool(got.text)
    assert nonempty > len(pages) * 0.9, "most pages have main text"


def test_str_input_is_taken_as_decoded(pages):
    for path, raw in pages:
        from_bytes = crawlsift.extract(raw)
        if from_bytes.encoding != "UTF-8":
            continue
        from_str = crawlsift.extract(raw.decode("utf-8"))
        assert from_str.text == from_bytes.text, path
        assert from_str.title == from_bytes.title, path
        assert from_str.encoding == "UTF-8"


def test_str_input_ignores_a_charset_it_no_longer_has():
    html = "<html><head><meta charset=iso-8859-7><title>Ελληνικά</title></head><body><p>Καλημέρα κόσμε, αυτή είναι μια παράγραφος κειμένου.</p></body></html>"
    got = crawlsift.extract(html, content_type="text/html; charset=windows-1252")
    assert got.encoding == "UTF-8"
    assert got.title == "Ελληνικά"
    assert "Καλημέρα κόσμε" in got.text


def test_content_type_charset_decodes_bytes():
    body = "<html><head><title>Caf\u00e9</title></head><body><p>" + "D\u00e9j\u00e0 vu au caf\u00e9 de la gare. " * 5 + "</p></body></html>"
    raw = body.encode("windows-1252")
    declared = crawlsift.extract(raw, content_type="text/html; charset=windows-1252", url="http://example.com/")
    assert declared.encoding == "windows-1252"
    assert declared.title == "Caf\u00e9"
    assert "D\u00e9j\u00e0 vu" in declared.text
    assert declared.url == "http://example.com/"
    # Another label is followed, as the CLI follows the HTTP header.
    wrong = crawlsift.extract(raw, content_type="text/html; charset=koi8-r")
    assert wrong.encoding == "KOI8-R"
    assert "D\u00e9j\u00e0" not in wrong.text


def test_unknown_algorithm_lists_the_names():
    with pytest.raises(ValueError) as err:
        crawlsift.extract(b"<p>x</p>", algorithm="nope")
    message = str(err.value)
    assert "nope" in message
    for name in crawlsift.ALGORITHMS:
        assert name in message


def test_html_of_another_type_is_a_type_error():
    with pytest.raises(TypeError, match="bytes or str, not int"):
        crawlsift.extract(42)


def test_hostile_bytes_do_not_crash():
    for raw in [b"", b"\x00" * 1000, b"<" * 5000, bytes(range(256)) * 50, b"<html><title>" + b"\xff\xfe" * 999]:
        got = crawlsift.extract(raw)
        assert isinstance(got.text, str)


def test_threads_give_the_serial_results(pages):
    serial = [(p, crawlsift.extract(raw).text) for p, raw in pages]

    def one(item):
        path, raw = item
        return path, crawlsift.extract(raw).text

    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(2):
            assert list(pool.map(one, pages)) == serial


def test_extract_releases_the_gil(pages):
    """Another Python thread runs in the middle of one long extract call,
    which it could not if the call held the GIL (a C call holding it lets
    other threads in only before and after)."""
    big = b"".join(raw for _, raw in pages) * 3
    progress = []
    stop = threading.Event()

    def spin():
        n = 0
        while not stop.is_set():
            n += 1
            if n % 1000 == 0:
                progress.append(time.perf_counter())

    thread = threading.Thread(target=spin)
    thread.start()
    time.sleep(0.05)
    started = time.perf_counter()
    page = crawlsift.extract(big)
    ended = time.perf_counter()
    stop.set()
    thread.join()
    assert page.text
    middle = (started + (ended - started) / 4, ended - (ended - started) / 4)
    inside = [t for t in progress if middle[0] <= t <= middle[1]]
    assert inside, f"no progress of the other thread during the middle of a {ended - started:.2f} s call"


@pytest.mark.parametrize("algorithm", ["addanag-plus", "ccb", "danag"])
def test_a_spent_page_timeout_raises_timeout_error_as_the_cli_fails(run_cli, pages, algorithm):
    path, raw = pages[0]
    with pytest.raises(TimeoutError, match="page timeout"):
        crawlsift.extract(raw, algorithm=algorithm, page_timeout=1e-9)
    out = run_cli("html", "--algorithm", algorithm, "--page-timeout", "0.000000001", path)
    assert out.returncode == 1 and "page timeout" in out.stderr.decode(), out.stderr.decode()
    # The thread's extractor goes on; 0 turns the limit off.
    page = crawlsift.extract(raw, algorithm=algorithm, page_timeout=0)
    assert page.text == crawlsift.extract(raw, algorithm=algorithm).text != ""
    with pytest.raises(ValueError, match="page timeout"):
        crawlsift.extract(raw, page_timeout=float("nan"))
