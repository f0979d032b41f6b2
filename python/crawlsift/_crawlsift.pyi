"""Type stubs of the extension module crawlsift._crawlsift (re-exported by crawlsift)."""

import os

import pyarrow
from types import TracebackType
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, final, Protocol, Tuple, Type, Union

__version__: str
ALGORITHMS: Tuple[str, ...]
"""The names `algorithm=` accepts."""
DEFAULT_ALGORITHM: str
"""``"addanag-plus"``."""
DEFAULT_MAX_RECORD_BYTES: int
DEFAULT_PAGE_TIMEOUT: float
"""16 MiB: records (or HTTP bodies once decoded) larger than this are skipped as ``too_large``."""
COLUMNS: List[Tuple[str, str, bool]]
"""The page schema: ``(name, Spark type, nullable)`` for each field every page has, in order
(the attributes of :class:`Page`, the JSONL keys and the first Parquet columns)."""

class _BinaryReadable(Protocol):
    def read(self, size: int = ..., /) -> bytes: ...

class WarcWarning(UserWarning):
    """A damaged stretch of a WARC file (file, offset, record number); reading went on past it."""

@final
class Extraction:
    """The result of :func:`extract`."""

    @property
    def text(self) -> str:
        """The main text: paragraphs separated by newlines."""
    @property
    def title(self) -> str:
        """The page's ``<title>``, entities decoded, whitespace collapsed."""
    @property
    def encoding(self) -> str:
        """The encoding the page was decoded from (WHATWG name, e.g. ``"UTF-8"``)."""
    @property
    def algorithm(self) -> str:
        """The algorithm's name."""
    @property
    def url(self) -> Optional[str]:
        """The ``url`` given to :func:`extract`, if any."""
    @property
    def lang(self) -> Optional[str]:
        """The text's language: ISO 639-1 code, else 639-3; ``None`` when it has too few letters."""
    @property
    def lang_score(self) -> float:
        """Confidence of ``lang`` in [0, 1] (0 without a language)."""
    @property
    def author(self) -> Optional[str]:
        """The page's author as it states it (JSON-LD, ``<meta>``, byline), several joined
        with ``", "``; ``None`` when it states none."""
    @property
    def date_published(self) -> Optional[str]:
        """When the page was first published, ISO 8601 (``"2025-09-04"``, or with time and
        offset); ``None`` when it states none that parses."""
    @property
    def date_modified(self) -> Optional[str]:
        """When the page was last modified, as ``date_published``."""
    @property
    def site_name(self) -> Optional[str]:
        """The site's or publisher's name; ``None`` when the page states none."""
    @property
    def description(self) -> Optional[str]:
        """The page's own summary (``og:description``, ``<meta name=description>``)."""
    @property
    def canonical_url(self) -> Optional[str]:
        """The page's canonical URL (``<link rel=canonical>``, ``og:url``), resolved against the URL."""
    @property
    def signals(self) -> Optional[Dict[str, Dict[str, Any]]]:
        """With ``signals=True``: the raw values per rule set (the JSONL ``signals`` object); else ``None``."""
    @property
    def filters(self) -> Optional[Dict[str, Optional[str]]]:
        """With ``signals=True``: per rule set (``gopher_quality``, ``gopher_repetition``,
        ``c4``, ``fineweb``) ``None`` when the page passes, else the first rule it fails."""
    @property
    def exact_key(self) -> Optional[str]:
        """With ``signals=True``: xxHash64 of the normalised text, 16 hex digits."""
    @property
    def minhash(self) -> Optional[List[int]]:
        """With ``minhash=True``: the 112 MinHash values (``None`` for texts of fewer than 5 words)."""
    @property
    def page_type(self) -> Optional[str]:
        """What kind of page it is: ``article``, ``forum``, ``product``, ``listing``,
        ``collection``, ``documentation`` or ``service``; ``None`` for the algorithms
        other than addanag-plus."""
    @property
    def confidence(self) -> Optional[float]:
        """The extraction's expected word-level F1 in [0, 1], to send the least sure pages
        to another extractor; ``None`` for the algorithms other than addanag-plus."""
    @property
    def markdown(self) -> Optional[str]:
        """With ``markdown=True``: the main content as Markdown (headings, lists, GFM tables,
        fenced code, math as LaTeX), the same regions as ``text``; ``None`` otherwise and
        for the element-based algorithms."""

@final
class Page:
    """One extracted page of a WARC file: the fields of a ``crawlsift extract`` JSONL row."""

    @property
    def url(self) -> str: ...
    @property
    def warc_record_id(self) -> str: ...
    @property
    def warc_date(self) -> str: ...
    @property
    def warc_filename(self) -> str:
        """The input's file name (``"-"`` for a file-like object without a ``name``)."""
    @property
    def offset(self) -> int:
        """Byte offset of the record in the input (of its gzip member for ``.warc.gz``)."""
    @property
    def length(self) -> Optional[int]:
        """Bytes of the record in the input; ``None`` when it shares a gzip member."""
    @property
    def truncated(self) -> Optional[str]:
        """Why the page is only part of the record: its ``WARC-Truncated`` reason (e.g. ``"length"``), ``"segment"`` (segments missing from the input) or ``"partial"`` (a 206 response); ``None`` when whole."""
    @property
    def http_status(self) -> Optional[int]: ...
    @property
    def content_type(self) -> Optional[str]: ...
    @property
    def charset(self) -> str:
        """The encoding the page was decoded from (detected, not just declared)."""
    @property
    def title(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def lang(self) -> Optional[str]:
        """The text's language: ISO 639-1 code, else 639-3; ``None`` when it has too few letters."""
    @property
    def lang_score(self) -> float:
        """Confidence of ``lang`` in [0, 1] (0 without a language)."""
    @property
    def author(self) -> Optional[str]:
        """The page's author as it states it (JSON-LD, ``<meta>``, byline), several joined
        with ``", "``; ``None`` when it states none."""
    @property
    def date_published(self) -> Optional[str]:
        """When the page was first published, ISO 8601 (``"2025-09-04"``, or with time and
        offset); ``None`` when it states none that parses."""
    @property
    def date_modified(self) -> Optional[str]:
        """When the page was last modified, as ``date_published``."""
    @property
    def site_name(self) -> Optional[str]:
        """The site's or publisher's name; ``None`` when the page states none."""
    @property
    def description(self) -> Optional[str]:
        """The page's own summary (``og:description``, ``<meta name=description>``)."""
    @property
    def canonical_url(self) -> Optional[str]:
        """The page's canonical URL (``<link rel=canonical>``, ``og:url``), resolved against the URL."""
    @property
    def signals(self) -> Optional[Dict[str, Dict[str, Any]]]:
        """With ``signals=True``: the raw values per rule set (the JSONL ``signals`` object); else ``None``."""
    @property
    def filters(self) -> Optional[Dict[str, Optional[str]]]:
        """With ``signals=True``: per rule set (``gopher_quality``, ``gopher_repetition``,
        ``c4``, ``fineweb``) ``None`` when the page passes, else the first rule it fails."""
    @property
    def exact_key(self) -> Optional[str]:
        """With ``signals=True``: xxHash64 of the normalised text, 16 hex digits."""
    @property
    def minhash(self) -> Optional[List[int]]:
        """With ``minhash=True``: the 112 MinHash values (``None`` for texts of fewer than 5 words)."""
    @property
    def page_type(self) -> Optional[str]:
        """What kind of page it is: ``article``, ``forum``, ``product``, ``listing``,
        ``collection``, ``documentation`` or ``service``; ``None`` for the algorithms
        other than addanag-plus."""
    @property
    def confidence(self) -> Optional[float]:
        """The extraction's expected word-level F1 in [0, 1], to send the least sure pages
        to another extractor; ``None`` for the algorithms other than addanag-plus."""
    @property
    def markdown(self) -> Optional[str]:
        """With ``markdown=True``: the main content as Markdown (headings, lists, GFM tables,
        fenced code, math as LaTeX), the same regions as ``text``; ``None`` otherwise and
        for the element-based algorithms."""
    def to_dict(self) -> Dict[str, Any]:
        """The page as a dict, equal to the JSON object of ``crawlsift extract``'s JSONL row."""

@final
class WarcReader(Iterator[Page]):
    """The iterator :func:`read_warc` returns: the pages of a WARC file, in file order."""

    def __iter__(self) -> "WarcReader": ...
    def __next__(self) -> Page: ...
    @property
    def stats(self) -> Optional[Dict[str, Any]]:
        """Per-input statistics once every page was taken, as ``crawlsift extract --stats``
        writes them (``file``, ``bytes``, ``read``, ``extracted``, ``skipped``,
        ``failed``, ``problems``, ``error``, ``output``); ``None`` before the end."""
    def close(self) -> None:
        """Stops reading and waits for the threads to end (Ctrl-C interrupts the wait)."""
    def __enter__(self) -> "WarcReader": ...
    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None: ...

def extract(
    html: Union[bytes, str],
    *,
    content_type: Optional[str] = None,
    url: Optional[str] = None,
    algorithm: str = "addanag-plus",
    signals: bool = False,
    minhash: bool = False,
    filter: Union[str, Sequence[str], None] = None,
    page_timeout: float = DEFAULT_PAGE_TIMEOUT,
    markdown: bool = False,
    markdown_links: bool = False,
    markdown_images: bool = False,
) -> Optional[Extraction]:
    """Extracts the main text of one HTML page (the GIL is released meanwhile).

    ``bytes`` are decoded as ``crawlsift html`` decodes a file (byte-order mark, the
    charset of ``content_type``, ``<meta>``, detection); ``str`` is taken as
    decoded. The result has ``lang`` and ``lang_score``; ``signals=True`` adds
    ``signals``, ``filters`` and ``exact_key``, ``minhash=True`` ``minhash``.
    With ``filter`` (``"gopher,c4,fineweb"`` or a list of rule-set names, as
    ``crawlsift extract --filter``) a page failing one of them gives ``None``.
    ``page_timeout`` is the CPU time in seconds the extraction may take
    (``0``: no limit), as ``--page-timeout``: past it the extraction is
    stopped and ``TimeoutError`` raised.
    ``markdown=True`` adds ``markdown``: the same regions as Markdown (``None``
    for the element-based algorithms); ``markdown_links=True`` keeps links as
    ``[text](url)`` resolved against ``url``, ``markdown_images=True`` gives
    images as their alt text.
    Raises ``ValueError`` for an unknown algorithm or rule set or a negative
    ``page_timeout``."""

def read_warc(
    source: Union[str, "os.PathLike[str]", _BinaryReadable],
    *,
    algorithm: str = "addanag-plus",
    threads: Optional[int] = None,
    max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES,
    signals: bool = False,
    minhash: bool = False,
    filter: Union[str, Sequence[str], None] = None,
    lang: bool = True,
    http_min_rate: Optional[int] = None,
    page_timeout: float = DEFAULT_PAGE_TIMEOUT,
    markdown: bool = False,
    markdown_links: bool = False,
    markdown_images: bool = False,
) -> WarcReader:
    """Iterates the extracted pages of a WARC file (``.warc`` or ``.warc.gz``)
    with the pipeline of ``crawlsift extract``.

    ``signals``, ``minhash`` and ``filter`` are ``crawlsift extract``'s
    ``--signals``, ``--minhash`` and ``--filter``: pages dropped by
    ``filter`` are counted in ``stats["skipped"]`` as ``filter:<rule set>:<rule>``.
    ``lang=False`` is ``--no-lang``: no language identification (``lang`` is
    ``None``, ``lang_score`` 0), about 6 % less CPU than with it.
    ``page_timeout`` is the CPU time in seconds one page's extraction may
    take (``0``: no limit), as ``--page-timeout``: a page over it is stopped,
    counted in ``stats["failed"]`` as ``timeout`` and reported as
    :class:`WarcWarning` with its record and offset; the file goes on.
    ``markdown=True`` is ``--markdown``: each page's ``markdown``
    (``markdown_links``, ``markdown_images`` as ``--markdown-links``,
    ``--markdown-images``).

    ``source`` is a path (``"-"`` is stdin; a named pipe is read as a
    stream), an ``http(s)://`` URL, or a binary file-like object. A path or
    URL is opened (requested) once, here: one that cannot be opened raises
    ``OSError`` here (``IsADirectoryError`` for a directory). An input that
    is not WARC raises ``OSError`` at the end of the iteration. When a
    file-like object's ``read()`` raises, the iteration raises that same
    exception after the pages before it, with a note giving the byte
    offset. Damaged records are counted in ``stats`` and reported as
    :class:`WarcWarning`. Ctrl-C raises ``KeyboardInterrupt`` within a
    fraction of a second, also while no page arrives.

    A URL is read as ``crawlsift extract`` reads one, configured by the
    ``CRAWLSIFT_HTTP_*`` environment variables. ``http_min_rate`` (bytes per
    second; default ``CRAWLSIFT_HTTP_MIN_RATE``, else 1024; 0 for none) is
    the slowest a connection may deliver, averaged over
    ``CRAWLSIFT_HTTP_TIMEOUT`` (60 s), before it is dropped and resumed as a
    failed try."""


def write_parquet(pages: Iterable[Page], path: Union[str, "os.PathLike[str]"]) -> int:
    """Writes ``pages`` to a Parquet file with the columns of ``crawlsift extract --format parquet``
    (zstd, row groups written as they fill); returns the number of rows. The first
    page decides the optional columns (``--markdown``, ``--signals``, ``--minhash``). The file is
    written as ``.NAME.partial`` beside ``path`` and renamed once complete: on any
    failure nothing is left at ``path`` (nor the temporary file)."""

@final
class WarcBatches(Iterator["pyarrow.RecordBatch"]):
    """The iterator :func:`read_warc_batches` returns: ``pyarrow.RecordBatch``
    objects of the pages of its input, in input order."""

    def __iter__(self) -> "WarcBatches": ...
    def __next__(self) -> "pyarrow.RecordBatch": ...
    @property
    def stats(self) -> Optional[Dict[str, Any]]:
        """The run's statistics once every batch was taken, as :attr:`WarcReader.stats`;
        for a directory the counts summed over its files, with ``files`` listing each
        file's. ``None`` before the end."""
    def close(self) -> None:
        """Stops reading and waits for the threads to end (Ctrl-C interrupts the wait)."""
    def __enter__(self) -> "WarcBatches": ...
    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None: ...

def read_warc_batches(
    source: Union[str, "os.PathLike[str]", _BinaryReadable],
    *,
    batch_rows: int = 8192,
    algorithm: str = "addanag-plus",
    threads: Optional[int] = None,
    max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES,
    signals: bool = False,
    minhash: bool = False,
    filter: Union[str, Sequence[str], None] = None,
    lang: bool = True,
    http_min_rate: Optional[int] = None,
    page_timeout: float = DEFAULT_PAGE_TIMEOUT,
    markdown: bool = False,
    markdown_links: bool = False,
    markdown_images: bool = False,
) -> WarcBatches:
    """The pages :func:`read_warc` yields, as ``pyarrow.RecordBatch`` objects of at
    most ``batch_rows`` rows, built in Rust (arrow-rs) and handed over through the
    Arrow C data interface: no Python object per page.

    ``source`` and the options are :func:`read_warc`'s; ``source`` may also be a
    directory, whose ``*.warc``, ``*.warc.gz``, ``*.warc.zst`` and ``*.warc.lz4`` files are read in name order. The
    columns are those of ``crawlsift extract --format parquet`` with the same options,
    with the types ``pyarrow.parquet`` reads them as. A batch holds one input's pages
    (and at most 32 MiB of text). The GIL is released while pages are extracted;
    Ctrl-C raises ``KeyboardInterrupt``. After the last batch, ``stats`` holds the
    counts; an input that could not be read raises ``OSError`` after the batches
    before it, a file-like object's ``read()`` error is raised as it was."""

def extract_batch(
    html: Any,
    url: Any = None,
    *,
    algorithm: str = "addanag-plus",
    threads: Optional[int] = None,
    signals: bool = False,
    minhash: bool = False,
    filter: Union[str, Sequence[str], None] = None,
    page_timeout: float = DEFAULT_PAGE_TIMEOUT,
    markdown: bool = False,
    markdown_links: bool = False,
    markdown_images: bool = False,
) -> "pyarrow.RecordBatch":
    """Extracts every row of a column of HTML pages into one ``pyarrow.RecordBatch``,
    a row per input row in order.

    ``html`` is a pyarrow ``Array`` or ``ChunkedArray`` of binary values (pages as
    bytes, their charset found as :func:`extract` finds it) or strings, or any object
    with ``__arrow_c_array__``; ``url`` an optional array of the same length (links
    resolve against it; kept as the ``url`` column). Columns: ``url``, ``charset``,
    ``title``, ``text``, ``algorithm``, ``lang``, ``lang_score``, the page metadata
    (``author``, ``date_published``, ``date_modified``, ``site_name``,
    ``description``, ``canonical_url``), the optional ones asked for (as :func:`read_warc_batches`), then ``error``: null for an extracted
    page, else ``null_html``, ``timeout`` or ``filter:<rule set>:<rule>``, the row's
    other columns null. ``threads`` workers (all cores when None) extract with the
    GIL released."""

def run_cli(args: Sequence[str]) -> int:
    """Runs the ``crawlsift`` command line ``args`` (the program name first) as the
    binary does, writing to the process's stdout and stderr, and returns its exit
    code. The ``crawlsift`` command of the wheel (``crawlsift._cli``) calls it."""
