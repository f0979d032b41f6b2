"""The inputs of an engine job, chosen as ``crawlsift extract`` chooses them.

Used by :mod:`crawlsift.ray` and :mod:`crawlsift.daft`: a list of WARC paths or
URLs, a directory (its ``*.warc`` and ``*.warc.gz`` files, sorted, not
recursive: ``crawlsift extract DIR``), or a paths list (one entry a line, blank
lines skipped, gzip recognised by its magic bytes: ``--paths``) whose relative
entries are joined to ``base_url`` (``--base-url``).
"""

from __future__ import annotations

import gzip
import io
import os
import urllib.request
from typing import Iterable, List, Optional, Union

PathLike = Union[str, "os.PathLike[str]"]

#: Names of files that are WARC files, not paths lists, when one path is given.
WARC_SUFFIXES = (".warc", ".warc.gz", ".warc.zst", ".warc.lz4")


def is_url(text: str) -> bool:
    """``http://`` or ``https://`` (what the CLI streams over HTTP)."""
    lower = text[:8].lower()
    return lower.startswith("http://") or lower.startswith("https://")


def with_base(entry: str, base_url: Optional[str]) -> str:
    """``entry`` under ``base_url`` (a URL or a directory) unless ``entry`` is
    a URL or an absolute path: the CLI's ``--base-url`` rule."""
    if base_url is None or is_url(entry) or os.path.isabs(entry):
        return entry
    if is_url(base_url):
        while entry.startswith("./"):
            entry = entry[2:]
        return base_url.rstrip("/") + "/" + entry
    return os.path.join(base_url, entry)


def read_paths(listing: PathLike, base_url: Optional[str] = None) -> List[str]:
    """The entries of a paths list (a file or an ``http(s)://`` URL; gzipped or
    not), each joined to ``base_url`` by :func:`with_base`."""
    name = os.fspath(listing)
    if is_url(name):
        with urllib.request.urlopen(name) as response:  # noqa: S310 - http(s) only, checked above
            data = response.read()
    else:
        with open(name, "rb") as f:
            data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    entries = []
    for line in io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"):
        line = line.strip()
        if line:
            entries.append(with_base(line, base_url))
    return entries


def warcs_in(directory: PathLike) -> List[str]:
    """The ``*.warc``, ``*.warc.gz``, ``*.warc.zst`` and ``*.warc.lz4`` entries
    of ``directory`` that are not directories, sorted; ``ValueError`` when there
    are none (the CLI's rule)."""
    directory = os.fspath(directory)
    found = sorted(
        os.path.join(directory, name)
        for name in os.listdir(directory)
        if name.endswith(WARC_SUFFIXES) and not os.path.isdir(os.path.join(directory, name))
    )
    if not found:
        raise ValueError(
            f"the input directory {directory} holds no WARC files (*.warc, *.warc.gz, *.warc.zst, *.warc.lz4); "
            "give WARC files, or a directory that holds some"
        )
    return found


def resolve(paths: Union[PathLike, Iterable[PathLike]], base_url: Optional[str] = None) -> List[str]:
    """The list of inputs ``paths`` stands for.

    - a list (or any iterable) of paths or URLs: those, a directory among them
      replaced by its WARC files;
    - one path or URL naming a ``.warc``/``.warc.gz`` file: that file;
    - one directory: its WARC files;
    - any other single path or URL: a paths list (``warc.paths``,
      ``warc.paths.gz``), its relative entries joined to ``base_url``.

    ``base_url`` is only for a paths list, as ``--base-url`` needs ``--paths``.
    Local paths are made absolute here, so that workers whose working
    directory differs open the same files.
    """
    if isinstance(paths, (str, os.PathLike)):
        single = os.fspath(paths)
        if is_url(single):
            if single.split("?", 1)[0].endswith(WARC_SUFFIXES):
                return _only_without_base([single], base_url)
            return read_paths(single, base_url)
        if os.path.isdir(single):
            return _only_without_base([os.path.abspath(p) for p in warcs_in(single)], base_url)
        if single.endswith(WARC_SUFFIXES):
            return _only_without_base([os.path.abspath(single)], base_url)
        return [entry if is_url(entry) else os.path.abspath(entry) for entry in read_paths(single, base_url)]
    if base_url is not None:
        raise ValueError("base_url applies to the entries of a paths list: give the paths list, not a list of paths")
    inputs: List[str] = []
    for item in paths:
        item = os.fspath(item)
        if is_url(item):
            inputs.append(item)
        elif os.path.isdir(item):
            inputs.extend(os.path.abspath(p) for p in warcs_in(item))
        else:
            inputs.append(os.path.abspath(item))
    return inputs


def check_read_options(options: dict) -> None:
    """Raises ``TypeError`` or ``ValueError`` for options that
    :func:`crawlsift.read_warc_batches` refuses (an unknown name, algorithm or
    rule set), before a job starts rather than in each of its tasks."""
    import crawlsift

    crawlsift.read_warc_batches(io.BytesIO(b""), **options).close()


def _only_without_base(inputs: List[str], base_url: Optional[str]) -> List[str]:
    if base_url is not None:
        raise ValueError("base_url applies to the entries of a paths list (warc.paths), not to a WARC file or directory")
    return inputs
