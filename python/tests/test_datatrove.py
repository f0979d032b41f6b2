"""crawlsift.datatrove in real datatrove pipelines (LocalPipelineExecutor)."""

from __future__ import annotations

import gzip
import json

import pytest

pytest.importorskip("datatrove", reason="datatrove is installed by .ci/run")

from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.readers import WarcReader  # noqa: E402
from datatrove.pipeline.writers import JsonlWriter  # noqa: E402

import crawlsift  # noqa: E402
from crawlsift.datatrove import CrawlsiftExtractor, CrawlsiftWarcReader  # noqa: E402

WARC = "dolma_sample-0000.warc.gz"


def written(folder) -> list[dict]:
    rows = []
    for path in sorted(folder.rglob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f)
    return rows


def test_crawlsift_warc_reader_pipeline(tmp_path, shared, cli_rows):
    """CrawlsiftWarcReader -> JsonlWriter writes one document per page the CLI extracts."""
    WARCS = shared / "warc"
    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[CrawlsiftWarcReader(str(WARCS), glob_pattern=WARC), JsonlWriter(str(out))],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    docs = written(out)
    want = cli_rows(WARCS / WARC)
    assert len(want) > 10
    assert [d["id"] for d in docs] == [r["warc_record_id"] for r in want]
    assert [d["text"] for d in docs] == [r["text"] for r in want]
    for doc, row in zip(docs, want):
        meta = doc["metadata"]
        assert (meta["url"], meta["warc_date"], meta["offset"]) == (row["url"], row["warc_date"], row["offset"])
        # The page metadata rides along in the document's metadata.
        for field in ("author", "date_published", "date_modified", "site_name", "description", "canonical_url"):
            assert meta[field] == row[field], field
    stats = json.loads((tmp_path / "logs" / "stats.json").read_text())
    reader_stats = next(s for s in stats if "crawlsift WARC" in s["name"])
    assert reader_stats["stats"]["records"]["total"] >= len(want)


@pytest.mark.parametrize("expand", [False, True], ids=["struct", "expanded"])
def test_parquet_writer_takes_the_readers_schema(tmp_path, shared, cli_rows, expand):
    """CrawlsiftWarcReader -> datatrove's ParquetWriter with ``reader.parquet_schema()``:
    every page of the CLI written, its fields as the CLI gives them, across batches in
    which a field is null on some pages and set on others (author, markdown, signals)."""
    pq = pytest.importorskip("pyarrow.parquet")
    from datatrove.pipeline.writers import ParquetWriter

    warc = shared / "warc" / WARC
    reader = CrawlsiftWarcReader(str(warc.parent), glob_pattern=warc.name, markdown=True, signals=True, minhash=True)
    schema = reader.parquet_schema(expand_metadata=expand)
    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[reader, ParquetWriter(str(out), schema=schema, batch_size=7, expand_metadata=expand)],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    table = pq.ParquetDataset(str(out)).read()
    assert table.schema.names == schema.names
    docs = table.to_pylist()
    want = cli_rows("--markdown", "--signals", "--minhash", warc)
    assert len(want) > 20
    assert [d["id"] for d in docs] == [r["warc_record_id"] for r in want]
    assert [d["text"] for d in docs] == [r["text"] for r in want]
    nulls = {field: 0 for field in ("author", "date_published", "markdown")}
    for doc, row in zip(docs, want):
        meta = doc if expand else doc["metadata"]
        for field in ("url", "offset", "author", "date_published", "markdown", "page_type", "lang"):
            assert meta[field] == row[field], field
        assert meta["minhash"] == row["minhash"]
        assert meta["signals"] == row["signals"]
        assert meta["filters"] == row["filters"]
        for field in nulls:
            nulls[field] += meta[field] is None
    # The case the schema is for: a field missing on some pages and present on others.
    assert 0 < nulls["author"] < len(docs), nulls


def test_a_page_without_text_is_counted_not_lost(tmp_path):
    """datatrove drops a document with no text; the reader counts it, so the step's
    records are its documents, the pages without text and the skipped records."""
    from conftest import warc_response

    article = (
        "<html><head><title>A page</title></head><body><article>"
        + "<p>A paragraph of an article, long enough to be its main text, and nothing else.</p>" * 5
        + "</article></body></html>"
    ).encode()
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "pages.warc.gz").write_bytes(
        warc_response("http://example.com/a", article)
        + warc_response("http://example.com/empty", b"<html><body><div></div></body></html>")
        + warc_response("http://example.com/b", article)
    )
    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[CrawlsiftWarcReader(str(tmp_path / "in")), JsonlWriter(str(out))],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    assert [d["metadata"]["url"] for d in written(out)] == ["http://example.com/a", "http://example.com/b"]
    stats = json.loads((tmp_path / "logs" / "stats.json").read_text())
    counts = {k: v["total"] if isinstance(v, dict) else v for k, v in next(s for s in stats if "crawlsift WARC" in s["name"])["stats"].items()}
    assert counts["documents_without_text"] == 1, counts
    assert counts["records"] == counts["documents"] + counts["documents_without_text"], counts


def test_crawlsift_extractor_after_datatrove_warc_reader(tmp_path, shared, cli_rows):
    """datatrove's WarcReader -> CrawlsiftExtractor -> JsonlWriter: each document's text is
    crawlsift's extraction of the HTML datatrove read."""
    WARCS = shared / "warc"
    pytest.importorskip("warcio")
    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[WarcReader(str(WARCS), glob_pattern=WARC), CrawlsiftExtractor(), JsonlWriter(str(out))],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    docs = written(out)
    assert len(docs) > 10
    by_id = {r["warc_record_id"]: r for r in cli_rows(WARCS / WARC)}
    same = sum(1 for d in docs if d["id"] in by_id and by_id[d["id"]]["text"] == d["text"])
    assert all("author" in d["metadata"] and "date_published" in d["metadata"] for d in docs)
    # datatrove decodes the HTML itself (UTF-8, else cchardet) and hands crawlsift a str,
    # so a page whose charset the two decide differently may differ; nearly all agree.
    assert same >= 0.9 * len(docs), (same, len(docs))


def extractor_run(tmp_path, extractor, name):
    """datatrove's WarcReader -> extractor -> JsonlWriter on the dolma sample: the documents written."""
    out = tmp_path / name
    LocalPipelineExecutor(
        pipeline=[WarcReader(str(WARCS_DIR[0]), glob_pattern=WARC), extractor, JsonlWriter(str(out))],
        tasks=1,
        logging_dir=str(tmp_path / f"logs-{name}"),
    ).run()
    return {d["id"]: d for d in written(out)}


WARCS_DIR = []


def test_pages_under_the_confidence_threshold_go_to_the_fallback(tmp_path, shared):
    """Each document carries its page type and confidence; exactly those under
    ``fallback_below`` get the fallback's text: a real second datatrove extractor
    (crawlsift's whole-page baseline, ``plain``) or a plain callable."""
    pytest.importorskip("warcio")
    WARCS_DIR[:] = [shared / "warc"]
    alone = extractor_run(tmp_path, CrawlsiftExtractor(), "alone")
    confidences = sorted(d["metadata"]["confidence"] for d in alone.values())
    assert len(confidences) > 10
    assert all(0 <= c <= 1 for c in confidences)
    assert all(d["metadata"]["page_type"] in crawlsift_types() for d in alone.values())
    assert not any(d["metadata"]["fallback"] for d in alone.values())
    # A threshold between the pages' confidences: some pages are routed, not all.
    below = confidences[len(confidences) // 2]
    plain = CrawlsiftExtractor(algorithm="plain")
    routed = extractor_run(tmp_path, CrawlsiftExtractor(fallback=plain, fallback_below=below), "routed")
    for doc_id, doc in routed.items():
        low = alone[doc_id]["metadata"]["confidence"] < below if doc_id in alone else True
        assert doc["metadata"]["fallback"] == low, doc_id
        if doc_id in alone and not low:
            assert doc["text"] == alone[doc_id]["text"]
    sent = [d for d in routed.values() if d["metadata"]["fallback"]]
    assert 0 < len(sent) < len(routed)
    # The whole-page baseline gives more text than the main text it replaces.
    longer = sum(len(d["text"]) > len(alone[d["id"]]["text"]) for d in sent if d["id"] in alone)
    assert longer >= 0.8 * len(sent), (longer, len(sent))
    # A plain callable, given the document's HTML.
    seen = []
    mark = extractor_run(
        tmp_path,
        CrawlsiftExtractor(fallback=lambda html: seen.append(html) or "FALLBACK " + str(len(html)), fallback_below=below),
        "callable",
    )
    assert len(seen) == sum(d["metadata"]["fallback"] for d in mark.values()) > 0
    assert all("<" in html for html in seen)
    assert all(d["text"].startswith("FALLBACK ") == d["metadata"]["fallback"] for d in mark.values())


def crawlsift_types():
    return {"article", "forum", "product", "listing", "collection", "documentation", "service"}


def test_unknown_algorithm_fails_at_construction():
    with pytest.raises(ValueError):
        CrawlsiftExtractor(algorithm="no-such-algorithm")
    assert crawlsift.extract("<p>x</p>").text is not None


def test_page_timeout_in_both_steps(tmp_path, slow_page_warc):
    """`page_timeout=` reaches crawlsift in both steps: the page over the budget is
    counted (`failed_timeout` in the reader, `timeout` in the extractor) and dropped,
    the pages around it go on."""
    pytest.importorskip("warcio")
    from conftest import TINY_BUDGET

    folder = str(slow_page_warc.parent)
    urls = ["http://example.com/first", "http://example.com/last"]

    def step_stats(logs, name):
        stats = json.loads((logs / "stats.json").read_text())
        return next(s for s in stats if name in s["name"])["stats"]

    for step, name, counter in [
        (lambda: [CrawlsiftWarcReader(folder, glob_pattern="*.warc.gz", page_timeout=TINY_BUDGET)],
         "crawlsift WARC", "failed_timeout"),
        (lambda: [WarcReader(folder, glob_pattern="*.warc.gz"), CrawlsiftExtractor(page_timeout=TINY_BUDGET)],
         "crawlsift", "timeout"),
    ]:
        out, logs = tmp_path / name / "out", tmp_path / name / "logs"
        LocalPipelineExecutor(
            pipeline=[*step(), JsonlWriter(str(out))], tasks=1, logging_dir=str(logs)
        ).run()
        assert [d["metadata"]["url"] for d in written(out)] == urls
        count = step_stats(logs, name)[counter]  # a counter of 1 is written as a bare number
        assert (count["total"] if isinstance(count, dict) else count) == 1
    with pytest.raises(ValueError, match="page timeout"):
        CrawlsiftExtractor(page_timeout=-1)
    with pytest.raises(ValueError, match="page timeout"):
        CrawlsiftWarcReader(folder, page_timeout=-1)
