"""Extract the main text of WARC archives with Ray Data.

Two pieces, one for each place crawlsift fits in a Ray Data job:

- :func:`read_warcs` (a :class:`WarcDatasource`): WARC files in, a
  :class:`ray.data.Dataset` of pages out, one read task per WARC, each
  streaming Arrow batches from :func:`crawlsift.read_warc_batches` (the
  pipeline of ``crawlsift extract``; the columns of
  ``crawlsift extract --format parquet``), so ``ds.write_parquet(dir)``
  writes the CLI's rows::

      import crawlsift.ray
      crawlsift.ray.read_warcs("warc.paths").write_parquet("pages/")

- :class:`Extract`: a callable class for ``ds.map_batches(Extract, ...)``
  over a dataset that already holds HTML (a column of bytes or strings),
  through :func:`crawlsift.extract_batch`; Ray builds one per actor.

A WARC that cannot be opened or read is counted and named, not a failed job:
each read task reports its input's statistics (``crawlsift extract --stats``
per file) to a small actor the datasource owns, and :meth:`WarcDatasource.stats`
(or :func:`stats` of the dataset :func:`read_warcs` returned) sums them once
the dataset has run. A read task that Ray retries reports again under the same
input number, so a retry is never counted twice.
"""

from __future__ import annotations

import copy
import logging
import os
import weakref
from typing import Any, Dict, Iterable, Iterator, List, Optional, Union

import pyarrow as pa
import ray
import ray.data
from ray.data.block import BlockMetadata
from ray.data.datasource import Datasource, ReadTask

import crawlsift

from . import _inputs

log = logging.getLogger("crawlsift.ray")

__all__ = ["Extract", "WarcDatasource", "read_warcs", "stats"]


@ray.remote(num_cpus=0)
class _Tally:
    """Per-input statistics reported by the read tasks, by input number (a
    retried task replaces its first attempt's report)."""

    def __init__(self) -> None:
        self.by_input: Dict[int, Dict[str, Any]] = {}

    def report(self, index: int, file_stats: Dict[str, Any]) -> None:
        self.by_input[index] = file_stats

    def reports(self) -> Dict[int, Dict[str, Any]]:
        return self.by_input


def _failed_stats(source: str, error: BaseException, extracted: int = 0) -> Dict[str, Any]:
    """The statistics of an input that could not be read, in the shape of
    ``crawlsift extract --stats`` (``error`` says why)."""
    return {
        "file": source,
        "bytes": None,
        "read": extracted,
        "extracted": extracted,
        "skipped": {},
        "failed": {},
        "problems": [],
        "error": f"{type(error).__name__}: {error}",
        "output": None,
    }


class WarcDatasource(Datasource):
    """A Ray Data datasource of the pages of WARC files: one read task per
    input, yielding the Arrow batches of :func:`crawlsift.read_warc_batches`.

    ``paths`` is a list of WARC paths or URLs, a directory (its ``*.warc``,
    ``*.warc.gz``, ``*.warc.zst`` and ``*.warc.lz4`` files), one WARC file, or a paths list (``warc.paths`` or
    ``warc.paths.gz``, a file or URL) whose relative entries are joined to
    ``base_url``, as ``crawlsift extract --paths FILE --base-url URL`` does.
    ``batch_rows`` is the most rows per batch; ``options`` are those of
    :func:`crawlsift.read_warc` (``algorithm``, ``signals``, ``minhash``,
    ``filter``, ``markdown``, ``lang``, ...). ``threads`` defaults to 1: Ray's
    task slots set the parallelism.

    Creating it starts (or joins) Ray: it owns the small actor the read tasks
    report their statistics to, read back by :meth:`stats`.
    """

    def __init__(
        self,
        paths: Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]],
        *,
        base_url: Optional[str] = None,
        batch_rows: int = 8192,
        **options: Any,
    ) -> None:
        super().__init__()
        self.inputs: List[str] = _inputs.resolve(paths, base_url)
        if batch_rows < 1:
            raise ValueError(f"batch_rows must be at least 1, got {batch_rows}")
        self.batch_rows = batch_rows
        self.options = {"threads": 1, **options}
        # An unknown option, algorithm or rule set fails here, not in every task.
        _inputs.check_read_options(self.options)
        self._tally = _Tally.remote()

    def get_name(self) -> str:
        return "ReadWarc"

    def estimate_inmemory_data_size(self) -> Optional[int]:
        sizes = [self._local_size(source) for source in self.inputs]
        if any(size is None for size in sizes):
            return None
        return sum(sizes)  # type: ignore[arg-type]

    @staticmethod
    def _local_size(source: str) -> Optional[int]:
        if _inputs.is_url(source):
            return None
        try:
            return os.path.getsize(source)
        except OSError:
            return None

    def get_read_tasks(self, parallelism: int, per_task_row_limit: Optional[int] = None, data_context=None) -> List[ReadTask]:
        """One task per input, whatever ``parallelism`` asks: a WARC is read by
        one pipeline from its start (its gzip members are not indexed)."""
        # What each task carries: the datasource without its list of inputs.
        reader = copy.copy(self)
        reader.inputs = []
        tasks = []
        for index, source in enumerate(self.inputs):
            metadata = BlockMetadata(
                num_rows=None,
                size_bytes=self._local_size(source),
                input_files=[source],
                exec_stats=None,
            )
            tasks.append(
                ReadTask(
                    _read_fn(reader, index, source),
                    metadata,
                    per_task_row_limit=per_task_row_limit,
                )
            )
        return tasks

    def read_batches(self, source: str) -> Iterator[pa.RecordBatch]:
        """The batches of one input; the iterator's ``stats`` once exhausted.
        (The one place a read task touches the input: a subclass may wrap it.)"""
        return crawlsift.read_warc_batches(source, batch_rows=self.batch_rows, **self.options)

    def read_task(self, index: int, source: str) -> Iterator[pa.Table]:
        """Runs in a Ray task: yields the pages of ``source`` as Arrow tables,
        then reports its statistics. Any failure of the input is counted, not
        raised."""
        rows = 0
        reader = None
        try:
            reader = self.read_batches(source)
            for batch in reader:
                rows += batch.num_rows
                yield pa.Table.from_batches([batch])
            file_stats = reader.stats
        except Exception as e:  # noqa: BLE001 - one input's failure is counted, not fatal
            log.error("crawlsift.ray: %s", e if source in str(e) else f"{source}: {e}")
            file_stats = _failed_stats(source, e, rows)
        else:
            for problem in (file_stats or {}).get("problems", [])[:10]:
                log.warning("crawlsift.ray: %s", problem)
        ray.get(self._tally.report.remote(index, file_stats))

    def dataset(self, *, ray_remote_args: Optional[Dict[str, Any]] = None) -> ray.data.Dataset:
        """The dataset of these inputs' pages (what :func:`read_warcs` returns;
        :func:`stats` of it is :meth:`stats`), one read task per input.

        It asks Ray Data for one block count per input: left to itself, Ray
        Data wants more blocks than there are read tasks (200, or twice the
        CPUs) and splits each task's output to get them, which keeps the read
        from fusing with the operator after it: with ``write_parquet``, every
        page would then cross the object store into a write task of its own
        (PERF.md, §16). Fused, a read task writes its input's pages itself.
        """
        dataset = ray.data.read_datasource(
            self, ray_remote_args=ray_remote_args, override_num_blocks=max(1, len(self.inputs))
        )
        _SOURCES[dataset] = self
        return dataset

    def stats(self) -> Dict[str, Any]:
        """What the read tasks reported so far (all of it once the dataset has
        run): the summed counts of ``crawlsift extract --stats`` and the
        inputs that failed, by name.

        Keys: ``files`` (inputs), ``reported`` (inputs whose task finished),
        ``files_failed`` and ``failed_files`` (``{"file", "error"}`` of each
        input that could not be opened or read), ``files_damaged``
        (``{"file", "failed", "problems"}`` of each input read with damaged
        records, e.g. cut short), ``read``, ``extracted``, ``skipped`` and
        ``failed`` (by reason), and ``per_file`` (each input's statistics, in
        input order). ``read == extracted + sum(skipped) + sum(failed)``.
        """
        reports = ray.get(self._tally.reports.remote())
        per_file = [reports[i] for i in sorted(reports)]
        summary: Dict[str, Any] = {
            "files": len(self.inputs),
            "reported": len(per_file),
            "files_failed": 0,
            "failed_files": [],
            "files_damaged": [],
            "read": 0,
            "extracted": 0,
            "skipped": {},
            "failed": {},
            "per_file": per_file,
        }
        for s in per_file:
            if s.get("error"):
                summary["files_failed"] += 1
                summary["failed_files"].append({"file": s["file"], "error": s["error"]})
            elif s.get("failed") or s.get("problems"):
                summary["files_damaged"].append(
                    {"file": s["file"], "failed": s.get("failed", {}), "problems": s.get("problems", [])}
                )
            summary["read"] += s.get("read", 0)
            summary["extracted"] += s.get("extracted", 0)
            for kind in ("skipped", "failed"):
                for reason, n in (s.get(kind) or {}).items():
                    summary[kind][reason] = summary[kind].get(reason, 0) + n
        return summary


def _read_fn(datasource: WarcDatasource, index: int, source: str):
    def read() -> Iterator[pa.Table]:
        return datasource.read_task(index, source)

    return read


_SOURCES: "weakref.WeakKeyDictionary[ray.data.Dataset, WarcDatasource]" = weakref.WeakKeyDictionary()


def read_warcs(
    paths: Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]],
    *,
    base_url: Optional[str] = None,
    batch_rows: int = 8192,
    ray_remote_args: Optional[Dict[str, Any]] = None,
    **options: Any,
) -> ray.data.Dataset:
    """The pages of WARC files as a Ray Data dataset (one read task per WARC).

    ``paths``, ``base_url``, ``batch_rows`` and ``options`` are those of
    :class:`WarcDatasource`; ``ray_remote_args`` go to
    :func:`ray.data.read_datasource` (e.g. ``{"max_retries": 5}``). The
    columns are those of ``crawlsift extract --format parquet`` with the same
    options, so ``read_warcs(...).write_parquet(dir)`` writes the CLI's rows.
    After the dataset has run, :func:`stats` of the returned dataset gives
    the counts and the inputs that failed.
    """
    source = WarcDatasource(paths, base_url=base_url, batch_rows=batch_rows, **options)
    return source.dataset(ray_remote_args=ray_remote_args)
    return dataset


def stats(dataset: ray.data.Dataset) -> Dict[str, Any]:
    """:meth:`WarcDatasource.stats` of the dataset :func:`read_warcs` returned
    (call it after the dataset, or one derived from it, has run)."""
    try:
        return _SOURCES[dataset].stats()
    except KeyError:
        raise ValueError("stats() takes the dataset crawlsift.ray.read_warcs returned") from None


class Extract:
    """A callable class for :meth:`ray.data.Dataset.map_batches` over a column
    of HTML (bytes or strings)::

        ds.map_batches(
            crawlsift.ray.Extract,
            fn_constructor_kwargs={"html_column": "html", "url_column": "url"},
            batch_format="pyarrow",
            concurrency=2,
        )

    Each batch gains the columns of :func:`crawlsift.extract_batch` (one
    extraction per row, null where a row has no HTML or its page gives none);
    an input column of the same name is replaced, and ``html_column`` is
    dropped unless ``keep_html``. ``options`` are those of
    :func:`crawlsift.extract_batch` (``algorithm``, ``signals``, ...; ``threads``
    defaults to 1), checked once per actor, when Ray builds it.
    """

    def __init__(
        self,
        *,
        html_column: str = "html",
        url_column: Optional[str] = "url",
        keep_html: bool = False,
        **options: Any,
    ) -> None:
        self.html_column = html_column
        self.url_column = url_column
        self.keep_html = keep_html
        # One engine thread per actor: Ray's actors set the parallelism.
        self.options = {"threads": 1, **options}
        # Loads the engine once per actor, and fails here on a bad option.
        crawlsift.extract_batch(pa.array([b"<p>crawlsift</p>"]), **self.options)

    def __call__(self, batch: pa.Table) -> pa.Table:
        if isinstance(batch, pa.RecordBatch):
            batch = pa.Table.from_batches([batch])
        html = batch.column(self.html_column).combine_chunks()
        url = None
        if self.url_column is not None and self.url_column in batch.column_names:
            url = batch.column(self.url_column).combine_chunks()
        extracted = crawlsift.extract_batch(html, url, **self.options)
        out = batch
        if not self.keep_html:
            out = out.drop_columns([self.html_column])
        for name in extracted.schema.names:
            if name in out.column_names:
                out = out.drop_columns([name])
        for i, field in enumerate(extracted.schema):
            out = out.append_column(field, extracted.column(i))
        return out
