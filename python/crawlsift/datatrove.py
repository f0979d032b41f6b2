"""crawlsift as datatrove pipeline steps (Hugging Face's library behind FineWeb).

- :class:`CrawlsiftWarcReader` reads WARC files and yields ``Document``s straight
  from crawlsift's Rust pipeline: one document per extracted HTML page, with the
  URL, date, record id, offset and the other JSONL fields in ``metadata``.
  It replaces datatrove's ``WarcReader`` *and* extractor step.
- :class:`CrawlsiftExtractor` is a drop-in for datatrove's ``Trafilatura`` step in
  pipelines that read WARCs with datatrove's own ``WarcReader``: it replaces
  each document's HTML by its main text.

Example::

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.writers import JsonlWriter
    from crawlsift.datatrove import CrawlsiftWarcReader

    LocalPipelineExecutor(
        pipeline=[CrawlsiftWarcReader("s3://commoncrawl/crawl-data/CC-MAIN-2024-10/segments/",
                                 glob_pattern="*/warc/*.warc.gz"),
                  JsonlWriter("out/")],
        tasks=8,
    ).run()
"""

from __future__ import annotations

from typing import Callable

from datatrove.data import DocumentsPipeline
from datatrove.io import DataFileLike, DataFolderLike
from datatrove.pipeline.extractors.base import BaseExtractor
from datatrove.pipeline.readers.base import BaseDiskReader
from datatrove.utils.logging import logger

import crawlsift

#: JSONL fields kept in a document's metadata: the page schema
#: (:data:`crawlsift.COLUMNS`) but ``text`` (the document's text) and
#: ``warc_record_id`` (its id).
METADATA_FIELDS = tuple(name for name, _, _ in crawlsift.COLUMNS if name not in ("text", "warc_record_id"))

#: Fields added to the metadata with ``signals=True`` / ``minhash=True``.
SIGNAL_FIELDS = ("signals", "filters", "exact_key")
MINHASH_FIELDS = ("minhash",)
#: The field added to the metadata with ``markdown=True``.
MARKDOWN_FIELDS = ("markdown",)
#: What the page says about itself, which :class:`CrawlsiftExtractor` adds to
#: the metadata (the reader has them among :data:`METADATA_FIELDS`).
PAGE_METADATA_FIELDS = ("author", "date_published", "date_modified", "site_name", "description", "canonical_url")


class CrawlsiftWarcReader(BaseDiskReader):
    """Reads WARC files (``.warc``, ``.warc.gz``; local, remote through fsspec,
    or ``http(s)://`` URLs) and yields one ``Document`` per extracted HTML page.

    Local files are read by crawlsift directly (memory-mapped, parallel); other
    filesystems are streamed through fsspec's file object. Records that are
    not pages, and damaged stretches, are counted in the step's stats
    (``records``, ``skipped_<reason>``, ``failed_<reason>``).

    Args:
        data_folder: a path, URL or datatrove ``DataFolder`` holding the WARCs.
        paths_file: a file listing the WARCs (relative to ``data_folder``).
        algorithm: crawlsift's extraction algorithm (default ``addanag-plus``).
        threads: crawlsift's worker threads per task (default 1: the executor's
            tasks set the parallelism).
        max_record_bytes: larger records are skipped (counted ``too_large``).
        signals: put ``signals``, ``filters`` and ``exact_key`` in the
            metadata (``lang`` and ``lang_score`` are always there).
        minhash: put ``minhash`` in the metadata.
        filter: drop the pages failing these rule sets (``"gopher,c4,fineweb"``),
            counted as ``skipped_filter:<rule set>:<rule>``.
        markdown: put ``markdown``, the main content as Markdown (the same
            regions as the text), in the metadata.
        page_timeout: CPU seconds one page's extraction may take (``0``: no
            limit), as ``crawlsift extract --page-timeout``; a page over it
            is counted as ``failed_timeout`` and the file goes on.
        glob_pattern: which files of ``data_folder`` to read (default: every
            ``*.warc`` and ``*.warc.gz``).
        Other arguments are those of datatrove's readers.
    """

    name = "🕷 crawlsift WARC"
    _requires_dependencies = []

    def __init__(
        self,
        data_folder: DataFolderLike,
        paths_file: DataFileLike | None = None,
        algorithm: str = crawlsift.DEFAULT_ALGORITHM,
        threads: int | None = 1,
        max_record_bytes: int = crawlsift.DEFAULT_MAX_RECORD_BYTES,
        limit: int = -1,
        skip: int = 0,
        file_progress: bool = False,
        doc_progress: bool = False,
        adapter: Callable | None = None,
        text_key: str = "text",
        id_key: str = "id",
        default_metadata: dict | None = None,
        recursive: bool = True,
        glob_pattern: str | None = None,
        shuffle_files: bool = False,
        signals: bool = False,
        minhash: bool = False,
        filter: str | None = None,
        markdown: bool = False,
        page_timeout: float = crawlsift.DEFAULT_PAGE_TIMEOUT,
    ):
        super().__init__(
            data_folder,
            paths_file,
            limit,
            skip,
            file_progress,
            doc_progress,
            adapter,
            text_key,
            id_key,
            default_metadata,
            recursive,
            glob_pattern,
            shuffle_files,
        )
        # An unknown algorithm or rule set, or a negative timeout, fails here, not in a task.
        crawlsift.extract(b"", algorithm=algorithm, filter=filter, page_timeout=page_timeout)
        self.algorithm = algorithm
        self.page_timeout = page_timeout
        self.threads = threads
        self.max_record_bytes = max_record_bytes
        self.signals = signals
        self.minhash = minhash
        self.filter = filter
        self.markdown = markdown
        self.fields = (
            METADATA_FIELDS
            + (MARKDOWN_FIELDS if markdown else ())
            + (SIGNAL_FIELDS if signals else ())
            + (MINHASH_FIELDS if minhash else ())
        )

    def parquet_schema(self, expand_metadata: bool = False):
        """The ``pyarrow.Schema`` of this reader's documents as datatrove's
        ``ParquetWriter`` writes them: ``text``, ``id`` and ``metadata``, a struct of
        :attr:`fields`, ``file_path`` and ``default_metadata``'s keys (those as
        top-level columns with ``expand_metadata=True``). Pass it on:
        ``ParquetWriter("out/", schema=reader.parquet_schema())``. Without it the
        writer infers its schema from the first document, in which a field the page
        does not state (no author) is a column of nulls, and the first later page
        that states it fails the task."""
        import pyarrow as pa

        from ._schema import page_schema

        pages = page_schema(signals=self.signals, minhash=self.minhash, markdown=self.markdown)
        # A page's ``filters`` dict is the Arrow pages' ``filter_<rule set>`` columns.
        filters = [f.with_name(f.name[len("filter_") :]) for f in pages if f.name.startswith("filter_")]
        fields = [
            pa.field("filters", pa.struct(filters)) if name == "filters" else pages.field(name)
            for name in self.fields
        ]
        fields.append(pa.field("file_path", pa.string()))
        for name, value in (self.default_metadata or {}).items():
            if name not in self.fields and name != "file_path":
                fields.append(pa.field(name, pa.array([value]).type))
        head = [pa.field("text", pa.string()), pa.field("id", pa.string())]
        if expand_metadata:
            return pa.schema(head + fields)
        return pa.schema(head + [pa.field("metadata", pa.struct(fields))])

    def _source(self, filepath: str):
        """What ``crawlsift.read_warc`` reads: a local path or URL when crawlsift can open
        it itself (a ``paths_file`` may list URLs), else an fsspec file object (closed
        by the caller)."""
        if filepath.startswith(("http://", "https://")):
            return filepath, None
        resolved = self.data_folder.resolve_paths(filepath)
        protocol = getattr(self.data_folder, "protocol", None)
        if isinstance(protocol, (tuple, list)):
            protocol = protocol[0]
        if protocol in (None, "file", "local"):
            return resolved, None
        if protocol in ("http", "https"):
            return resolved, None
        f = self.data_folder.open(filepath, "rb", compression=None)
        return f, f

    def read_file(self, filepath: str) -> DocumentsPipeline:
        """The documents of one WARC. A WARC that cannot be opened or read is
        logged with its name and counted (``files_failed``), one with damaged
        records too (``files_damaged``): the task goes on with its other files."""
        try:
            source, to_close = self._source(filepath)
        except OSError as e:
            self._broken(filepath, "files_failed", e)
            return
        reader = None
        try:
            reader = crawlsift.read_warc(
                source,
                algorithm=self.algorithm,
                threads=self.threads,
                max_record_bytes=self.max_record_bytes,
                signals=self.signals,
                minhash=self.minhash,
                filter=self.filter,
                markdown=self.markdown,
                page_timeout=self.page_timeout,
            )
            for index, page in enumerate(reader):
                with self.track_time():
                    row = page.to_dict()
                    data = {
                        "text": row["text"],
                        "id": row["warc_record_id"],
                        "metadata": {k: row.get(k) for k in self.fields},
                    }
                    document = self.get_document_from_dict(data, filepath, index)
                if document:
                    yield document
                    _maybe_fail(filepath)
                else:
                    # datatrove drops a document with no text (a page whose main
                    # text is empty): counted, so records = documents + these +
                    # skipped + failed.
                    self.stat_update("documents_without_text")
        except OSError as e:
            self._broken(filepath, "files_failed", e)
            return
        finally:
            if to_close is not None:
                to_close.close()
        stats = reader.stats
        self.stat_update("records", value=stats["read"])
        for kind in ("skipped", "failed"):
            for reason, n in stats[kind].items():
                self.stat_update(f"{kind}_{reason}", value=n)
        if stats.get("problems"):
            self._broken(filepath, "files_damaged", stats["problems"][0])

    def _broken(self, filepath: str, counter: str, why) -> None:
        from datatrove.utils.logging import logger

        logger.warning(f"crawlsift: broken input {filepath}: {why}")
        self.stat_update(counter)


#: Environment variable for the retry test: ``SUBSTRING=MARKER`` makes the
#: process exit after the first document of a file whose path contains
#: SUBSTRING, once (while the file MARKER does not exist; it is created).
FAIL_ONCE_ENV = "CRAWLSIFT_DATATROVE_FAIL_ONCE"


def _maybe_fail(filepath: str) -> None:
    import os

    spec = os.environ.get(FAIL_ONCE_ENV)
    if not spec:
        return
    needle, _, marker = spec.partition("=")
    if needle and marker and needle in filepath:
        try:
            open(marker, "x").close()
        except FileExistsError:
            return
        os._exit(17)


class CrawlsiftExtractor(BaseExtractor):
    """Replaces each document's HTML (``doc.text``) by its main text, with crawlsift.

    A drop-in for datatrove's ``Trafilatura`` step after datatrove's own
    ``WarcReader``. crawlsift neither hangs nor crashes on bad input, so it runs in
    the pipeline's own process (no sandbox process; crawlsift's own
    ``page_timeout`` stops a document's extraction, on its CPU time);
    documents whose text comes out empty are dropped, as with ``Trafilatura``.

    The document's metadata gains ``lang`` and ``lang_score`` of the
    extracted text, the page metadata (``author``, ``date_published``,
    ``date_modified``, ``site_name``, ``description``, ``canonical_url``;
    ``None`` when the page does not state them), the page's ``page_type`` and
    the extraction's ``confidence`` (its expected F1; both ``None`` for the
    algorithms other than addanag-plus), and ``fallback`` (whether
    ``fallback`` gave the text); with ``signals=True`` ``signals``, ``filters``,
    ``exact_key``; with ``minhash=True`` ``minhash``; with ``markdown=True``
    ``markdown``, the main content as Markdown). With ``filter``
    (``"gopher,c4,fineweb"``) documents failing those rule sets are dropped,
    counted as ``filtered``.

    Args:
        algorithm: crawlsift's extraction algorithm (default ``addanag-plus``).
        title: put the page title on the first line, as Common Crawl's WET
            files do (default False: the main text only).
        timeout: datatrove's extractor argument, unused: crawlsift stops a
            page itself, after ``page_timeout``.
        signals, minhash, filter, markdown: as ``crawlsift extract --signals
            --minhash --filter --markdown``.
        page_timeout: CPU seconds one document's extraction may take (``0``:
            no limit), as ``crawlsift extract --page-timeout``.
        fallback: another extractor for the pages crawlsift is least sure
            of: a datatrove extractor (its ``extract``) or any callable from
            the HTML to the text, such as a model-based extractor. Used for
            the pages whose ``confidence`` is under ``fallback_below``
            (counted as ``fallback``); their text is its text.
        fallback_below: the confidence under which ``fallback`` is used
            (default 0.7: about the least sure 10 % of pages, whose mean F1
            is about .6 against about .9 for the others; ACCURACY.md §11).
    """

    name = "⛏ crawlsift"
    _requires_dependencies = []

    def __init__(
        self,
        algorithm: str = crawlsift.DEFAULT_ALGORITHM,
        title: bool = False,
        timeout: float = 1,
        signals: bool = False,
        minhash: bool = False,
        filter: str | None = None,
        markdown: bool = False,
        page_timeout: float = crawlsift.DEFAULT_PAGE_TIMEOUT,
        fallback: BaseExtractor | Callable[[str], str] | None = None,
        fallback_below: float = 0.7,
    ):
        super().__init__(timeout)
        # validates the names and the timeout now
        crawlsift.extract(b"", algorithm=algorithm, filter=filter, page_timeout=page_timeout)
        self.algorithm = algorithm
        self.page_timeout = page_timeout
        self.title = title
        self.signals = signals
        self.minhash = minhash
        self.filter = filter
        self.markdown = markdown
        self.fallback = fallback
        self.fallback_below = fallback_below

    def _extract(self, html: str):
        """crawlsift's result for the HTML ``html``; ``None`` when ``filter`` drops it."""
        return crawlsift.extract(
            html,
            algorithm=self.algorithm,
            signals=self.signals,
            minhash=self.minhash,
            filter=self.filter,
            markdown=self.markdown,
            page_timeout=self.page_timeout,
        )

    def extract(self, text: str) -> str:
        """The main text of the HTML ``text`` ("" when ``filter`` drops it;
        ``TimeoutError`` past ``page_timeout``)."""
        result = self._extract(text)
        if result is None:
            return ""
        return self._text(result)

    def _text(self, result) -> str:
        if self.title and result.title:
            return result.title + "\n" + result.text
        return result.text

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        for doc in data:
            self.stat_update("total")
            with self.track_time():
                try:
                    result = self._extract(doc.text)
                except TimeoutError as e:
                    logger.warning(f"⏰ crawlsift: document {doc.id}: {e}; skipping it")
                    self.stat_update("timeout")
                    continue
                self.stat_update("extracted")
            if result is None:
                self.stat_update("filtered")
                continue
            routed = (
                self.fallback is not None
                and result.confidence is not None
                and result.confidence < self.fallback_below
            )
            if routed:
                self.stat_update("fallback")
                with self.track_time():
                    fallback = self.fallback
                    html = doc.text
                    doc.text = fallback.extract(html) if isinstance(fallback, BaseExtractor) else fallback(html)
            else:
                doc.text = self._text(result)
            doc.metadata["page_type"] = result.page_type
            doc.metadata["confidence"] = result.confidence
            doc.metadata["fallback"] = routed
            doc.metadata["lang"] = result.lang
            doc.metadata["lang_score"] = result.lang_score
            for field in PAGE_METADATA_FIELDS:
                doc.metadata[field] = getattr(result, field)
            if self.signals:
                doc.metadata["signals"] = result.signals
                doc.metadata["filters"] = result.filters
                doc.metadata["exact_key"] = result.exact_key
            if self.minhash:
                doc.metadata["minhash"] = result.minhash
            if self.markdown:
                doc.metadata["markdown"] = result.markdown
            if doc.text:
                self.stat_update("forwarded")
                self.update_doc_stats(doc)
                yield doc
            else:
                self.stat_update("dropped")
