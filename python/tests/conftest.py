"""Shared fixtures: the crawlsift binary built by cargo and the real data in ../shared."""

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("CRAWLSIFT_SHARED") or REPO.parent / "shared")


def shared_missing(shared: Path) -> "str | None":
    """Why the tests cannot run without `shared`, naming it and TESTING.md; None when it is there."""
    if shared.is_dir():
        return None
    return (
        f"{shared} is missing: the tests read real data from the shared folder beside the "
        "checkout (`../shared`, or $CRAWLSIFT_SHARED); TESTING.md says what it holds and where to get it"
    )


def pytest_sessionstart(session):
    """Stop before collection (test modules list ../shared when imported) with a message that says why."""
    why = shared_missing(SHARED)
    if why:
        pytest.exit(why, returncode=1)


def crawlsift_binary() -> Path:
    """The CLI to compare with: $CRAWLSIFT_BIN, else target/release/crawlsift, else target/debug/crawlsift."""
    if os.environ.get("CRAWLSIFT_BIN"):
        return Path(os.environ["CRAWLSIFT_BIN"])
    for profile in ("release", "debug"):
        candidate = REPO / "target" / profile / "crawlsift"
        if candidate.exists():
            return candidate
    raise RuntimeError(
        "no crawlsift binary: run `cargo build --release` or set CRAWLSIFT_BIN to the binary"
    )


@pytest.fixture(scope="session")
def crawlsift_bin() -> Path:
    path = crawlsift_binary()
    assert path.exists(), f"CRAWLSIFT_BIN={path} does not exist"
    return path


@pytest.fixture(scope="session")
def shared() -> Path:
    assert SHARED.is_dir(), shared_missing(SHARED)
    return SHARED


@pytest.fixture(scope="session")
def run_cli(crawlsift_bin):
    """Runs the crawlsift CLI with arguments; returns the completed process."""

    def run(*args) -> subprocess.CompletedProcess:
        return subprocess.run([str(crawlsift_bin), *map(str, args)], capture_output=True, check=False)

    return run


@pytest.fixture(scope="session")
def cli_rows(run_cli):
    """The JSONL rows `crawlsift extract --quiet ARGS` prints."""
    import json

    def rows(*args) -> list:
        out = run_cli("extract", "--quiet", *args)
        return [json.loads(line) for line in out.stdout.decode().splitlines() if line.strip()]

    return rows


@pytest.fixture(scope="session")
def shared_warcs(shared) -> list:
    """Every file of ../shared/warc but its SOURCE.md and inventory.json."""
    return sorted(p for p in (shared / "warc").iterdir() if ".warc" in p.name)


@pytest.fixture(scope="session")
def paths_file(tmp_path_factory, shared_warcs):
    """A `warc.paths` of every shared WARC and one missing file (the engines'
    tests: every good page once, the missing input named)."""
    listing = tmp_path_factory.mktemp("paths") / "warc.paths"
    missing = listing.parent / "no-such-file.warc.gz"
    listing.write_text("\n".join(map(str, [*shared_warcs, missing])) + "\n")
    return listing


@pytest.fixture(scope="session")
def expected(cli_rows, shared_warcs):
    """The CLI's JSONL rows of every shared WARC, in :func:`scaleout.key` order."""
    from scaleout import key

    rows = []
    for warc in shared_warcs:
        rows.extend(cli_rows(warc))
    assert len(rows) > 50, "the shared WARCs hold many pages"
    return sorted(rows, key=key)


#: The page timeout (CPU seconds) under which :func:`slow_page_warc`'s big
#: page is stopped and its small page is not.
TINY_BUDGET = 0.02


def warc_response(url: str, html: bytes) -> bytes:
    """A gzip member holding one WARC response record of ``html``."""
    import gzip
    import uuid

    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + html
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, url)}>\r\n"
        "WARC-Date: 2024-01-01T00:00:00Z\r\n"
        f"WARC-Target-URI: {url}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return gzip.compress(head + http + b"\r\n\r\n")


@pytest.fixture(scope="session")
def slow_page_warc(tmp_path_factory):
    """A ``.warc.gz`` of three pages: a short article, an 8 MiB page of tiny
    ``<p>`` lines (the scaling benchmark's ``tiny-lines`` shape), whose
    extraction takes far more than :data:`TINY_BUDGET` of CPU, and another
    short article after it."""
    article = (
        "<html><head><title>A short page</title></head><body><article>"
        + "<p>A paragraph of an article, long enough to be its main text, and nothing else.</p>" * 5
        + "</article></body></html>"
    ).encode()
    slow = b"<!DOCTYPE html><html><head><title>Shape</title></head><body>\n" + b"<p>x</p>\n" * ((8 << 20) // 9)
    path = tmp_path_factory.mktemp("slow") / "slow.warc.gz"
    path.write_bytes(
        warc_response("http://example.com/first", article)
        + warc_response("http://example.com/slow", slow + b"</body></html>\n")
        + warc_response("http://example.com/last", article)
    )
    return path
