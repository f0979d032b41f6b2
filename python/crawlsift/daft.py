"""Extract the main text of WARC archives with Daft (native runner, or on Ray).

Two class-based UDFs (``@daft.cls``: Daft builds one instance per worker, which
keeps crawlsift's engine and options for every batch it is given):

- :func:`warc_pages` over a column of WARC paths or URLs: per input, a struct of
  ``pages`` (a list of page structs with the columns of
  ``crawlsift extract --format parquet``, from :func:`crawlsift.read_warc_batches`),
  ``error`` (null, or why the input could not be read) and ``stats`` (the
  input's ``crawlsift extract --stats`` as JSON). ``unnest`` it into those
  three columns, ``explode`` the pages to rows;
- :func:`extract_html` over a column of HTML (bytes or strings): the columns
  of :func:`crawlsift.extract_batch`, a row per input row.

:func:`read_warcs` does the first for a list of paths, a directory or a
``warc.paths`` file and returns one row per page::

    import crawlsift.daft
    crawlsift.daft.read_warcs("warc.paths").write_parquet("pages/")

An input that cannot be read is not a failed query: its row has ``error`` set
and no pages (:func:`read_warcs` logs it).
"""

from __future__ import annotations

import functools
import json
import logging
import os
from typing import Any, Dict, Iterable, List, Optional, Union

import daft
import pyarrow as pa

import crawlsift

from . import _inputs
from ._schema import page_schema, page_schema_of as _page_schema, schema_key as _schema_key

log = logging.getLogger("crawlsift.daft")

__all__ = ["extract_html", "page_schema", "read_warcs", "warc_pages"]

def _struct_array(table: pa.Table) -> pa.StructArray:
    """The rows of ``table`` as one struct array (no copy when it has one chunk)."""
    table = table.combine_chunks()
    columns = [c.chunk(0) if c.num_chunks else pa.array([], c.type) for c in table.columns]
    return pa.StructArray.from_arrays(columns, fields=list(table.schema))


def _struct_of(schema: pa.Schema) -> pa.StructType:
    return pa.struct(list(schema))


def _warc_result_type(schema: pa.Schema) -> pa.StructType:
    return pa.struct(
        [
            pa.field("pages", pa.large_list(pa.field("item", _struct_of(schema)))),
            pa.field("error", pa.string()),
            pa.field("stats", pa.string()),
        ]
    )


@functools.lru_cache(maxsize=None)
def _warc_pages_class(key: tuple):
    """The ``@daft.cls`` UDF reading WARC paths, for the columns ``key`` asks."""
    result_type = _warc_result_type(_page_schema(key))
    dtype = daft.DataType.from_arrow_type(result_type)

    @daft.cls(name_override="crawlsift.warc_pages")
    class WarcPages:
        """Reads each WARC path or URL of a batch with crawlsift (one instance per worker)."""

        def __init__(self, options: Dict[str, Any]) -> None:
            self.options = options
            self.schema = pa.schema(result_type.field("pages").type.value_type)

        @daft.method.batch(return_dtype=dtype, unnest=True, batch_size=1)
        def read(self, paths: daft.Series) -> pa.Array:
            tables, errors, stats, offsets = [], [], [], [0]
            for source in paths.to_pylist():
                table, error, file_stats = self._read_one(source)
                tables.append(table)
                errors.append(error)
                stats.append(json.dumps(file_stats) if file_stats is not None else None)
                offsets.append(offsets[-1] + table.num_rows)
            values = _struct_array(pa.concat_tables(tables) if tables else self.schema.empty_table())
            pages = pa.LargeListArray.from_arrays(pa.array(offsets, pa.int64()), values)
            return pa.StructArray.from_arrays(
                [pages, pa.array(errors, pa.string()), pa.array(stats, pa.string())], fields=list(result_type)
            )

        def _read_one(self, source: Optional[str]):
            """The pages of one input as a table, why it could not be read (or
            None), its statistics. Pages before a failure are kept."""
            batches: List[pa.RecordBatch] = []
            if source is None:
                return self.schema.empty_table(), "no path (null)", None
            try:
                reader = crawlsift.read_warc_batches(source, **self.options)
                batches.extend(reader)
                return pa.Table.from_batches(batches, schema=self.schema), None, reader.stats
            except Exception as e:  # noqa: BLE001 - one input's failure is counted, not fatal
                log.error("crawlsift.daft: %s", e if source in str(e) else f"{source}: {e}")
                return pa.Table.from_batches(batches, schema=self.schema), f"{type(e).__name__}: {e}", None

    return WarcPages


def warc_pages(paths: daft.Expression, **options: Any) -> daft.Expression:
    """A Daft expression: for each WARC path or URL in ``paths``, the struct of
    ``pages``, ``error`` and ``stats`` (``unnest=True``: three columns when
    selected). ``options`` are :func:`crawlsift.read_warc_batches`'s;
    ``threads`` defaults to 1 (Daft's workers set the parallelism). One input
    is read at a time per worker; its pages are held in memory as one row."""
    options = {"threads": 1, **options}
    _inputs.check_read_options(options)
    udf = _warc_pages_class(_schema_key(options))(options)
    return udf.read(paths)


def read_warcs(
    paths: Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]],
    *,
    base_url: Optional[str] = None,
    **options: Any,
) -> daft.DataFrame:
    """One row per page of the WARC files ``paths`` (a list, a directory, one
    WARC, or a ``warc.paths(.gz)`` file or URL whose relative entries are
    joined to ``base_url``, as ``crawlsift extract --paths --base-url``), with
    the columns of ``crawlsift extract --format parquet``.

    A lazy DataFrame: inputs that cannot be read give no rows (their errors
    are logged when it runs); for the per-input ``error`` and ``stats``
    columns use :func:`warc_pages` yourself.
    """
    inputs = _inputs.resolve(paths, base_url)
    df = daft.from_pydict({"warc_path": inputs})
    df = df.select(warc_pages(df["warc_path"], **options))
    df = df.explode("pages")
    df = df.where(df["pages"].not_null())
    return df.select(df["pages"].unnest())


@functools.lru_cache(maxsize=None)
def _extract_class(key: tuple, with_url: bool):
    options = dict(key)
    probe = crawlsift.extract_batch(pa.array([b"<p>crawlsift</p>"]), pa.array(["http://example.com/"]) if with_url else None, **options)
    result_type = _struct_of(probe.schema)
    dtype = daft.DataType.from_arrow_type(result_type)

    @daft.cls(name_override="crawlsift.extract_html")
    class ExtractHtml:
        """Extracts a column of HTML with crawlsift (one instance per worker)."""

        def __init__(self, options: Dict[str, Any]) -> None:
            self.options = options
            crawlsift.extract_batch(pa.array([b"<p>crawlsift</p>"]), **options)

        @daft.method.batch(return_dtype=dtype, unnest=True)
        def extract(self, html: daft.Series, url: Optional[daft.Series] = None) -> pa.Array:
            urls = url.to_arrow() if url is not None else None
            batch = crawlsift.extract_batch(html.to_arrow(), urls, **self.options)
            return pa.StructArray.from_arrays(batch.columns, fields=list(batch.schema))

    return ExtractHtml


def extract_html(html: daft.Expression, url: Optional[daft.Expression] = None, **options: Any) -> daft.Expression:
    """A Daft expression: the columns of :func:`crawlsift.extract_batch` for each
    page of the HTML column ``html`` (bytes or strings), links resolved against
    ``url`` when given (``unnest=True``: one column each when selected).
    ``options`` are :func:`crawlsift.extract_batch`'s; ``threads`` defaults to 1."""
    options = {"threads": 1, **options}
    key = tuple(sorted(options.items(), key=lambda kv: kv[0]))
    key = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in key)
    udf = _extract_class(key, url is not None)(options)
    return udf.extract(html, url) if url is not None else udf.extract(html)
