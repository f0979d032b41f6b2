"""read_warc on inputs that misbehave: a file-like object whose read() raises,
URLs served by a real HTTP server on 127.0.0.1 (counted, stalled, trickled),
named pipes, directories, and Ctrl-C (SIGINT to a real subprocess)."""

import io
import json
import os
import signal
import socket
import socketserver
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import crawlsift

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
GZ = SHARED / "warc" / "resiliparse_warcfile.warc.gz"
PLAIN = SHARED / "warc" / "warcio_example-iana.org-chunked.warc"


def urls(source, **kwargs):
    return [p.url for p in crawlsift.read_warc(source, threads=2, **kwargs)]


class Server:
    """A one-request-per-connection HTTP/1.1 server on 127.0.0.1 serving `data`
    at every path: it counts requests, honours `Range: bytes=N-`, and can
    stall (send `stall_at` body bytes, then nothing) or trickle (one byte
    every `trickle` seconds)."""

    def __init__(self, data: bytes, stall_at=None, trickle=None):
        self.data = data
        self.stall_at = stall_at
        self.trickle = trickle
        self.requests = 0
        self.stop = threading.Event()
        server = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self):
                head = []
                while True:
                    line = self.rfile.readline(65536)
                    if not line or line in (b"\r\n", b"\n"):
                        break
                    head.append(line.decode("latin-1"))
                server.requests += 1
                start = 0
                for line in head[1:]:
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "range":
                        start = int(value.strip().removeprefix("bytes=").rstrip("-"))
                body = server.data[start:]
                status = "206 Partial Content" if start else "200 OK"
                extra = f"Content-Range: bytes {start}-{len(server.data) - 1}/{len(server.data)}\r\n" if start else ""
                self.wfile.write(
                    f"HTTP/1.1 {status}\r\nContent-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n".encode()
                )
                try:
                    if server.stall_at is not None:
                        self.wfile.write(body[: server.stall_at])
                        self.wfile.flush()
                        server.stop.wait(30)
                    elif server.trickle is not None:
                        for i in range(len(body)):
                            if server.stop.wait(server.trickle):
                                return
                            self.wfile.write(body[i : i + 1])
                            self.wfile.flush()
                    else:
                        self.wfile.write(body)
                except OSError:
                    pass  # the client went away

        class Threading(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Threading(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/{GZ.name}"

    def close(self):
        self.stop.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def serve():
    servers = []

    def start(data: bytes, **kwargs) -> Server:
        server = Server(data, **kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


class Flaky(io.RawIOBase):
    """A binary stream over `data` whose read() raises ConnectionResetError
    once `fail_at` bytes were read; it counts the calls made after that (and
    ends after 20 of them, so that a caller looping on it still returns)."""

    def __init__(self, data: bytes, fail_at: int):
        self.data = io.BytesIO(data)
        self.fail_at = fail_at
        self.calls_after_failure = 0
        self.name = "flaky.warc.gz"

    def readable(self):
        return True

    def read(self, n=-1):
        position = self.data.tell()
        if position >= self.fail_at:
            self.calls_after_failure += 1
            if self.calls_after_failure > 20:
                return b""
            raise ConnectionResetError(f"peer reset after {position} bytes")
        if n is None or n < 0:
            n = self.fail_at - position
        return self.data.read(min(n, self.fail_at - position))


def test_a_raising_read_is_raised_to_the_caller_with_its_offset():
    data = GZ.read_bytes()
    all_urls = urls(io.BytesIO(data))
    fail_at = len(data) // 2
    source = Flaky(data, fail_at)
    pages = []
    with pytest.raises(ConnectionResetError) as raised:
        for page in crawlsift.read_warc(source, threads=2):
            pages.append(page.url)
    assert source.calls_after_failure == 1, "read() called again after it raised"
    assert str(raised.value) == f"peer reset after {fail_at} bytes"
    notes = getattr(raised.value, "__notes__", [])
    assert any(f"read() of flaky.warc.gz at byte offset {fail_at}" in n for n in notes), notes
    # The pages before the failure were yielded, in order.
    assert 0 < len(pages) < len(all_urls)
    assert pages == all_urls[: len(pages)]


def test_a_url_is_requested_once(serve):
    server = serve(GZ.read_bytes())
    assert urls(server.url) == urls(GZ)
    assert server.requests == 1


def test_a_named_pipe_is_read_once_as_a_stream(tmp_path):
    fifo = tmp_path / "pipe.warc.gz"
    os.mkfifo(fifo)

    def write():
        try:
            with open(fifo, "wb") as pipe:
                pipe.write(GZ.read_bytes())
        except BrokenPipeError:
            pass  # the reader closed it (opened twice): the test fails on the result

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    script = "import crawlsift, json, sys; print(json.dumps([p.url for p in crawlsift.read_warc(sys.argv[1])]))"
    try:
        out = subprocess.run(
            [sys.executable, "-c", script, str(fifo)], capture_output=True, timeout=60, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail("read_warc on a named pipe hung")
    finally:
        # Unblock the writer if nobody opened the pipe.
        try:
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        except OSError:
            pass
    assert out.returncode == 0, out.stderr.decode()
    assert json.loads(out.stdout) == urls(GZ)


def test_a_directory_is_named_as_one(tmp_path):
    with pytest.raises(IsADirectoryError) as raised:
        crawlsift.read_warc(tmp_path)
    message = str(raised.value)
    assert str(tmp_path) in message and "is a directory" in message, message


def test_http_min_rate_fails_a_trickling_url(serve, monkeypatch):
    server = serve(GZ.read_bytes(), trickle=0.1)
    # The environment sets no minimum; the keyword sets one.
    monkeypatch.setenv("CRAWLSIFT_HTTP_MIN_RATE", "0")
    monkeypatch.setenv("CRAWLSIFT_HTTP_TIMEOUT", "1")
    monkeypatch.setenv("CRAWLSIFT_HTTP_RETRIES", "0")
    started = time.monotonic()
    with pytest.raises(OSError) as raised:
        urls(server.url, http_min_rate=100)
    assert time.monotonic() - started < 10
    message = str(raised.value)
    assert server.url in message and "below the minimum rate of 100 bytes/s" in message, message


INTERRUPTED = """
import sys, crawlsift
print("reading", flush=True)
for page in crawlsift.read_warc(sys.argv[1], threads=2):
    print("page", flush=True)
print("done", flush=True)
"""


def interrupt(source: str, env=None) -> tuple:
    """Runs INTERRUPTED on `source`, sends SIGINT 1 s after it starts reading:
    (seconds from SIGINT to exit, return code, stdout, stderr)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED, source],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    try:
        assert proc.stdout.readline() == b"reading\n"
        time.sleep(1.0)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
        took = time.monotonic() - sent
    finally:
        proc.kill()
        out, err = proc.communicate()
    return took, proc.returncode, out.decode(), err.decode()


@pytest.mark.parametrize("stall_at", [0, 3000], ids=["before-the-first-byte", "mid-record"])
def test_ctrl_c_interrupts_a_stalled_url(serve, stall_at):
    server = serve(GZ.read_bytes(), stall_at=stall_at)
    took, code, out, err = interrupt(server.url, {"CRAWLSIFT_HTTP_TIMEOUT": "60"})
    assert took < 2, f"exit {took:.1f} s after SIGINT"
    assert "KeyboardInterrupt" in err, err
    assert "done" not in out


def test_ctrl_c_interrupts_a_pipe_without_data(tmp_path):
    fifo = tmp_path / "pipe.warc.gz"
    os.mkfifo(fifo)
    # A writer that holds the pipe open and writes nothing.
    holder = os.open(fifo, os.O_RDWR)
    try:
        took, code, out, err = interrupt(str(fifo))
    finally:
        os.close(holder)
    assert took < 2, f"exit {took:.1f} s after SIGINT"
    assert "KeyboardInterrupt" in err, err
    assert "done" not in out
