"""The ``crawlsift`` command the package installs (``crawlsift._cli``: the CLI's
own entry point inside the extension module) against the binary built by cargo:
the same output, exit codes and messages, and Ctrl-C ends it as it ends the binary."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# The command pip put beside this Python (the virtual environment's bin/).
COMMAND = Path(sys.executable).parent / "crawlsift"


@pytest.fixture(scope="module")
def command() -> Path:
    assert COMMAND.exists(), f"{COMMAND} is missing: the package installs a `crawlsift` command"
    return COMMAND


def both(crawlsift_bin, command, *args, cwd=None):
    """Runs the binary and the installed command with `args`; returns both results."""
    return [subprocess.run([str(exe), *map(str, args)], capture_output=True, cwd=cwd, timeout=300) for exe in (crawlsift_bin, command)]


@pytest.mark.parametrize("warc", ["dolma_sample-0000.warc.gz", "resiliparse_warcfile.warc.lz4"])
def test_extract_gives_the_binarys_output(crawlsift_bin, command, shared, warc):
    binary, installed = both(crawlsift_bin, command, "extract", "--quiet", "--markdown", shared / "warc" / warc)
    assert installed.returncode == binary.returncode == 0, installed.stderr.decode()
    assert installed.stdout == binary.stdout and binary.stdout.count(b"\n") > 10


def test_extract_to_a_folder_with_stats(crawlsift_bin, command, shared, tmp_path):
    warc = shared / "warc" / "cc_whirlwind.warc.gz"
    outputs = []
    for exe in (crawlsift_bin, command):
        out = tmp_path / exe.parent.name
        done = subprocess.run([str(exe), "extract", str(warc), "-o", str(out), "--format", "parquet", "--stats", str(out) + ".json"], capture_output=True, timeout=300)
        assert done.returncode == 0, done.stderr.decode()
        assert b"extracted" in done.stderr
        outputs.append(((out / "cc_whirlwind.parquet").read_bytes(), Path(str(out) + ".json").read_text()))
    assert outputs[0][0] == outputs[1][0]


def test_errors_and_exit_codes_are_the_binarys(crawlsift_bin, command, tmp_path):
    missing = tmp_path / "no-such.warc.gz"
    for args, code in [
        (["extract", "--quiet", missing], 1),
        (["extract", "--no-such-option"], 2),
        (["html", tmp_path], 1),
        (["--version"], 0),
    ]:
        binary, installed = both(crawlsift_bin, command, *args)
        assert binary.returncode == installed.returncode == code, (args, installed.stderr.decode())
        assert installed.stdout == binary.stdout, args
        assert installed.stderr == binary.stderr, args


def test_ctrl_c_ends_the_command(command, tmp_path):
    """SIGINT while the command waits for input (a FIFO nobody writes) ends it at once,
    killed by the signal as the binary is."""
    fifo = tmp_path / "in.warc"
    os.mkfifo(fifo)
    proc = subprocess.Popen([str(command), "extract", "--quiet", str(fifo)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        time.sleep(1.0)
        assert proc.poll() is None, proc.stderr.read()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == -signal.SIGINT
    finally:
        proc.kill()
        proc.wait()
