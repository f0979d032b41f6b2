"""The Arrow schema of the pages for a set of options, learnt by reading one
small page (the columns of ``crawlsift extract --format parquet``): the engine
modules give it to writers that would otherwise infer a schema from their first
rows, where an absent field reads as a column of nulls."""

from __future__ import annotations

import functools
import io
from typing import Any, Dict

import crawlsift

#: A one-page WARC (a response record holding a small HTML page): read to learn
#: the Arrow schema of the pages for a set of options.
_PROBE_HTML = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
    b"<html><head><title>crawlsift</title></head><body><p>The schema of the pages, "
    b"learnt from one page: crawlsift reads this record to find its columns.</p></body></html>"
)
_PROBE_WARC = (
    b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://example.com/\r\n"
    b"WARC-Date: 2024-01-01T00:00:00Z\r\n"
    b"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>\r\n"
    b"Content-Type: application/http; msgtype=response\r\n"
    b"Content-Length: " + str(len(_PROBE_HTML)).encode() + b"\r\n\r\n" + _PROBE_HTML + b"\r\n\r\n"
)


def schema_key(options: Dict[str, Any]) -> tuple:
    """The options that change the columns (a filter only drops rows), hashable."""
    return tuple(sorted((k, v) for k, v in options.items() if k in ("signals", "minhash", "markdown")))


@functools.lru_cache(maxsize=None)
def page_schema_of(key: tuple):
    """:func:`page_schema` for a :func:`schema_key`, read once per key."""
    reader = crawlsift.read_warc_batches(io.BytesIO(_PROBE_WARC), **dict(key))
    batches = list(reader)
    if not batches:
        raise RuntimeError("crawlsift gave no page for its schema probe")
    return batches[0].schema


def page_schema(**options: Any):
    """The Arrow schema (``pyarrow.Schema``) of the pages
    :func:`crawlsift.read_warc_batches` gives with ``options`` (the columns of
    ``crawlsift extract --format parquet``)."""
    return page_schema_of(schema_key(options))
