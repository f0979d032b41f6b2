"""crawlsift: main-text extraction from HTML pages and WARC archives.

The work is done in Rust (the ``crawlsift`` crate) by the extension module
``crawlsift._crawlsift``; this package re-exports it:

- :func:`extract`: the main text of one HTML page (``bytes`` or ``str``);
- :func:`read_warc`: the extracted pages of a WARC file (a path or a binary
  file-like object), with the pipeline of ``crawlsift extract``;
- :func:`read_warc_batches`: the same pages as ``pyarrow.RecordBatch`` objects
  with the Parquet output's columns, built in Rust (no Python object per
  page); a directory's WARC files too;
- :func:`extract_batch`: a column of HTML pages (a pyarrow array) into a
  ``pyarrow.RecordBatch``, a row per page;
- :func:`write_parquet`: pages to a Parquet file with the columns of
  ``crawlsift extract --format parquet``;
- :class:`Page`, :class:`Extraction`, :class:`WarcReader`,
  :class:`WarcBatches`: what they return;
- :class:`WarcWarning`: a damaged record, reported while reading goes on;
- :data:`COLUMNS`: the page schema, ``(name, Spark type, nullable)`` per
  field in order, the attributes of :class:`Page` and the first columns of
  the Parquet output; :data:`DEFAULT_ALGORITHM`,
  :data:`DEFAULT_MAX_RECORD_BYTES`, :data:`DEFAULT_PAGE_TIMEOUT`: the
  defaults of every entry point.

The engines have modules of their own, imported on demand:
:mod:`crawlsift.spark`, :mod:`crawlsift.datatrove`, :mod:`crawlsift.ray`
(Ray Data) and :mod:`crawlsift.daft`.
"""

from ._crawlsift import (
    ALGORITHMS,
    COLUMNS,
    DEFAULT_ALGORITHM,
    DEFAULT_MAX_RECORD_BYTES,
    DEFAULT_PAGE_TIMEOUT,
    Extraction,
    Page,
    WarcBatches,
    WarcReader,
    WarcWarning,
    __version__,
    extract,
    extract_batch,
    read_warc,
    read_warc_batches,
    write_parquet,
)

__all__ = [
    "ALGORITHMS",
    "COLUMNS",
    "DEFAULT_ALGORITHM",
    "DEFAULT_MAX_RECORD_BYTES",
    "DEFAULT_PAGE_TIMEOUT",
    "Extraction",
    "Page",
    "WarcBatches",
    "WarcReader",
    "WarcWarning",
    "__version__",
    "extract",
    "extract_batch",
    "read_warc",
    "read_warc_batches",
    "write_parquet",
]
