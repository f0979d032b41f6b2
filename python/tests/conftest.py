"""Shared fixtures: the crawlsift binary built by cargo and the real data in ../shared."""

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"


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
    assert SHARED.is_dir(), f"{SHARED} is missing: the tests read real data from ../shared"
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
