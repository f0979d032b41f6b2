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
    WARCS = shared / "warc"
    """CrawlsiftWarcReader -> JsonlWriter writes one document per page the CLI extracts."""
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


def test_crawlsift_extractor_after_datatrove_warc_reader(tmp_path, shared, cli_rows):
    WARCS = shared / "warc"
    """datatrove's WarcReader -> CrawlsiftExtractor -> JsonlWriter: each document's text is
    crawlsift's extraction of the HTML datatrove read."""
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
