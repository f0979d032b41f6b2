"""Language, signals, filters and duplicate keys in crawlsift's Python API, Spark and
datatrove steps, compared with `crawlsift extract --signals --minhash --filter`."""

from __future__ import annotations

import gzip
import json

import pytest

import crawlsift

WARCS = ["dolma_sample-0000.warc.gz", "resiliparse_warcfile.warc.gz"]
ANALYSIS = ("lang", "lang_score", "signals", "filters", "exact_key", "minhash")


@pytest.fixture
def cli_run(run_cli, tmp_path):
    """`crawlsift extract ARGS PATH`: (JSONL rows, the file's stats)."""

    def run(path, *args):
        stats = tmp_path / "stats.json"
        out = run_cli("extract", "--quiet", "--stats", stats, *args, path)
        assert out.returncode == 0, out.stderr.decode()
        rows = [json.loads(line) for line in out.stdout.decode().splitlines()]
        return rows, json.loads(stats.read_text())[0]

    return run


@pytest.mark.parametrize("name", WARCS)
def test_read_warc_pages_carry_the_cli_analysis(shared, cli_run, name):
    path = shared / "warc" / name
    want, _ = cli_run(path, "--signals", "--minhash")
    pages = list(crawlsift.read_warc(path, signals=True, minhash=True, threads=2))
    assert len(pages) == len(want) > 10
    for page, row in zip(pages, want):
        assert page.to_dict() == row
        assert (page.lang, page.lang_score, page.signals, page.filters, page.exact_key) == tuple(
            row[k] for k in ANALYSIS[:5]
        )
        assert page.minhash == row["minhash"]
    assert any(p.filters["c4"] for p in pages) and any(p.lang == "en" for p in pages)


def test_without_options_pages_have_only_the_language(shared, cli_run):
    path = shared / "warc" / WARCS[0]
    want, _ = cli_run(path)
    pages = list(crawlsift.read_warc(path))
    assert [p.to_dict() for p in pages] == want
    assert all(p.signals is None and p.filters is None and p.exact_key is None and p.minhash is None for p in pages)
    assert all("signals" not in p.to_dict() and "lang" in p.to_dict() for p in pages)


def test_lang_false_is_the_cli_no_lang(shared, cli_run):
    path = shared / "warc" / WARCS[0]
    want, _ = cli_run(path, "--no-lang")
    pages = list(crawlsift.read_warc(path, lang=False))
    assert [p.to_dict() for p in pages] == want
    assert pages and all(p.lang is None and p.lang_score == 0 for p in pages)
    with_lang = list(crawlsift.read_warc(path))
    assert [p.text for p in with_lang] == [p.text for p in pages]
    assert any(p.lang for p in with_lang)


@pytest.mark.parametrize("name", WARCS)
@pytest.mark.parametrize("filter", ["gopher,c4,fineweb", ["c4", "gopher_repetition"]])
def test_read_warc_filter_drops_and_counts_as_the_cli(shared, cli_run, name, filter):
    path = shared / "warc" / name
    cli_filter = filter if isinstance(filter, str) else ",".join(filter)
    want, want_stats = cli_run(path, "--filter", cli_filter)
    reader = crawlsift.read_warc(path, filter=filter)
    pages = list(reader)
    assert [p.to_dict() for p in pages] == want
    stats = reader.stats
    assert stats["skipped"] == want_stats["skipped"]
    dropped = sum(n for reason, n in stats["skipped"].items() if reason.startswith("filter:"))
    assert dropped > 0
    assert stats["read"] == stats["extracted"] + sum(stats["skipped"].values()) + sum(stats["failed"].values())


def test_extract_analysis_equals_crawlsift_html(run_cli, shared):
    every = sorted((shared / "datasets").glob("*/html/*"))
    pages = every[:: max(1, len(every) // 30)]  # about 30, from every dataset
    assert len(pages) > 10
    dropped = {"gopher,c4,fineweb": 0, "c4": 0}
    for path in pages:
        out = run_cli("html", "--json", "--signals", "--minhash", path)
        assert out.returncode == 0, out.stderr.decode()
        want = json.loads(out.stdout)
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        got = crawlsift.extract(raw, signals=True, minhash=True)
        assert got.text == want["text"]
        for k in ANALYSIS:
            assert getattr(got, k) == want.get(k), (path, k)
        # filter=... gives None exactly for the pages a rule set fails.
        for filter in dropped:
            sets = ["gopher_quality", "gopher_repetition", "c4", "fineweb"] if "," in filter else [filter]
            fails = any(want["filters"][s] for s in sets)
            assert (crawlsift.extract(raw, filter=filter) is None) == fails, (path, filter)
            dropped[filter] += fails
    assert 0 < dropped["c4"] <= dropped["gopher,c4,fineweb"], dropped
    assert dropped["c4"] < len(pages), dropped


def test_unknown_rule_sets_are_value_errors(shared):
    with pytest.raises(ValueError, match="fineweb"):
        crawlsift.read_warc(shared / "warc" / WARCS[0], filter="gopher,c5")
    with pytest.raises(ValueError, match="c5"):
        crawlsift.extract("<p>x</p>", filter=["c5"])
    with pytest.raises(TypeError):
        crawlsift.extract("<p>x</p>", filter=5)


def test_write_parquet_with_signals_equals_the_cli_parquet(shared, run_cli, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    path = shared / "warc" / WARCS[0]
    done = run_cli("extract", "-q", "--signals", "--minhash", "--format", "parquet", "-o", tmp_path / "cli", path)
    assert done.returncode == 0, done.stderr
    cli = pq.read_table(tmp_path / "cli" / "dolma_sample-0000.parquet")
    assert "filter_c4" in cli.schema.names and "minhash" in cli.schema.names
    written = crawlsift.write_parquet(crawlsift.read_warc(path, signals=True, minhash=True), tmp_path / "py.parquet")
    py = pq.read_table(tmp_path / "py.parquet")
    assert written == py.num_rows == cli.num_rows > 10
    assert py.schema == cli.schema
    assert py.to_pylist() == cli.to_pylist()


def test_spark_schema_is_the_cli_parquet_schema(shared, run_cli, tmp_path):
    """crawlsift.spark's columns with --signals --minhash name the CLI's Parquet columns,
    with the same nesting and nullability (minhash as signed long in Spark)."""
    pytest.importorskip("pyspark")
    pq = pytest.importorskip("pyarrow.parquet")
    import crawlsift.spark as dspark

    done = run_cli("extract", "-q", "--signals", "--minhash", "--format", "parquet", "-o", tmp_path,
                   shared / "warc" / "cc_whirlwind.warc.gz")
    assert done.returncode == 0, done.stderr
    arrow = pq.read_schema(next(tmp_path.glob("*.parquet")))
    spark = dspark.spark_schema(signals=True, minhash=True)
    assert [f.name for f in spark.fields] == arrow.names
    assert [f.nullable for f in spark.fields] == [f.nullable for f in arrow]
    signals = arrow.field("signals").type
    spark_signals = spark["signals"].dataType
    for group in spark_signals.fields:
        arrow_group = signals.field(group.name).type
        assert [f.name for f in group.dataType.fields] == [f.name for f in arrow_group]


def test_datatrove_steps_put_the_analysis_in_metadata(shared, cli_run, tmp_path):
    pytest.importorskip("datatrove")
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.writers import JsonlWriter

    from crawlsift.datatrove import CrawlsiftExtractor, CrawlsiftWarcReader

    folder = shared / "warc"
    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[CrawlsiftWarcReader(str(folder), glob_pattern=WARCS[0], signals=True, filter="fineweb"),
                  JsonlWriter(str(out))],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    docs = []
    for path in sorted(out.rglob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            docs.extend(json.loads(line) for line in f)
    want, _ = cli_run(folder / WARCS[0], "--signals", "--filter", "fineweb")
    assert [d["id"] for d in docs] == [r["warc_record_id"] for r in want]
    for doc, row in zip(docs, want):
        for k in ("lang", "lang_score", "signals", "filters", "exact_key"):
            assert doc["metadata"][k] == row[k]

    extractor = CrawlsiftExtractor(filter="c4", signals=True)

    class Doc:
        def __init__(self, text):
            self.text, self.metadata, self.id = text, {}, "x"

    good = "<html><body><article>" + "<p>The cat sat on the mat and looked at the garden. It was a fine day.</p>" * 6
    docs = list(extractor.run([Doc(good), Doc("<p>Too short</p>")]))
    assert len(docs) == 1
    assert docs[0].metadata["lang"] == "en" and docs[0].metadata["filters"]["c4"] is None
