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
