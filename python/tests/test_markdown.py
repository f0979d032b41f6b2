"""Markdown beside the text in crawlsift's Python API, Spark and datatrove steps,
compared with `crawlsift html --markdown` and `crawlsift extract --markdown`."""

from __future__ import annotations

import gzip
import json

import pytest

import crawlsift

WARC = "dolma_sample-0000.warc.gz"


@pytest.fixture(scope="module")
def pages(shared):
    paths = sorted((shared / "datasets" / "scrapinghub" / "html").glob("*.html.gz"))[:60]
    assert len(paths) == 60
    return [(p, gzip.decompress(p.read_bytes())) for p in paths]


def test_extract_markdown_equals_the_cli_and_leaves_the_text(run_cli, pages):
    out = run_cli("html", "--json", "--markdown", *[p for p, _ in pages])
    assert out.returncode == 0, out.stderr.decode()
    want = {row["path"]: row for row in map(json.loads, out.stdout.decode().splitlines())}
    with_structure = 0
    for path, raw in pages:
        plain = crawlsift.extract(raw)
        got = crawlsift.extract(raw, markdown=True)
        assert plain.markdown is None
        assert got.text == plain.text == want[str(path)]["text"], path
        assert got.markdown == want[str(path)]["markdown"], path
        with_structure += any(line.startswith(("#", "- ", "| ")) for line in got.markdown.splitlines())
    # News articles are mostly paragraphs; a third of them have a heading, list or table.
    assert with_structure >= len(pages) // 4, with_structure


def test_markdown_of_a_crafted_page():
    para = "<p>" + "This is a long sentence of the main text of the article, and it goes on. " * 4 + "</p>"
    html = (
        "<html><head><title>T</title></head><body><article><h2>Results</h2>"
        "<p>The 1st run of <code>f(x)</code> gave <a href='/r'>these</a> values, "
        "with <math alttext='x^2'><mi>x</mi></math> as the bound, "
        "and a long enough paragraph to be the main content of the page.</p>" + para
        + "<table><tr><th>n</th><th>time</th></tr><tr><td>1</td><td>2 s</td></tr></table>" + para
        + "<pre class='language-python'>def f(x):\n\treturn x</pre>" + para + "</article></body></html>"
    )
    got = crawlsift.extract(html, markdown=True, markdown_links=True, url="https://example.org/a/b")
    assert "## Results" in got.markdown
    assert "`f(x)`" in got.markdown and "$x^2$" in got.markdown
    assert "[these](https://example.org/r)" in got.markdown
    assert "| n | time |\n| --- | --- |\n| 1 | 2 s |" in got.markdown
    assert "```python\ndef f(x):\n\treturn x\n```" in got.markdown
    assert crawlsift.extract(html, markdown=True, algorithm="ccb").markdown is None
    with pytest.raises(ValueError, match="markdown"):
        crawlsift.extract(html, markdown_links=True)


def test_read_warc_markdown_equals_the_cli_jsonl(shared, cli_rows):
    path = shared / "warc" / WARC
    want = cli_rows("--markdown", path)
    pages = list(crawlsift.read_warc(path, markdown=True, threads=2))
    assert len(pages) == len(want) > 10
    for page, row in zip(pages, want):
        assert page.markdown == row["markdown"]
        assert page.to_dict() == row
    plain = list(crawlsift.read_warc(path, threads=2))
    assert [p.text for p in plain] == [p.text for p in pages]
    assert all(p.markdown is None and "markdown" not in p.to_dict() for p in plain)


def test_write_parquet_with_markdown_equals_the_cli_parquet(shared, run_cli, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    path = shared / "warc" / WARC
    done = run_cli("extract", "-q", "--markdown", "--format", "parquet", "-o", tmp_path / "cli", path)
    assert done.returncode == 0, done.stderr
    cli = pq.read_table(tmp_path / "cli" / "dolma_sample-0000.parquet")
    # After the table's fields, whose last is the extraction's confidence.
    assert cli.schema.names[cli.schema.names.index("confidence") + 1] == "markdown"
    written = crawlsift.write_parquet(crawlsift.read_warc(path, markdown=True), tmp_path / "py.parquet")
    py = pq.read_table(tmp_path / "py.parquet")
    assert written == py.num_rows == cli.num_rows > 10
    assert py.schema == cli.schema
    assert py.to_pylist() == cli.to_pylist()


def test_datatrove_steps_put_markdown_in_the_metadata(shared, cli_rows, tmp_path):
    pytest.importorskip("datatrove")
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.writers import JsonlWriter

    from crawlsift.datatrove import CrawlsiftExtractor, CrawlsiftWarcReader

    warcs = shared / "warc"
    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[CrawlsiftWarcReader(str(warcs), glob_pattern=WARC, markdown=True), JsonlWriter(str(out))],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    docs = []
    for path in sorted(out.rglob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            docs.extend(json.loads(line) for line in f)
    want = cli_rows("--markdown", warcs / WARC)
    assert [d["metadata"]["markdown"] for d in docs] == [r["markdown"] for r in want]
    assert [d["text"] for d in docs] == [r["text"] for r in want]

    # The extractor step, on the HTML of a crafted document.
    from datatrove.data import Document

    step = CrawlsiftExtractor(markdown=True)
    para = "<p>" + "A sentence of the main text of this page, long enough to count. " * 5 + "</p>"
    items = "<ul><li>The first item of a list in the text</li><li>The second item of a list in the text</li></ul>"
    html = "<article><h1>Head</h1>" + para + items + para + "</article>"
    (doc,) = list(step.run([Document(text=html, id="1")]))
    assert doc.metadata["markdown"].startswith("# Head\n\n")
    assert "- The first item of a list in the text\n- The second item" in doc.metadata["markdown"]
    assert "#" not in doc.text
