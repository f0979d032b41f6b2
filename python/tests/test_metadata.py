"""The page metadata (author, dates, site name, description, canonical URL) in
crawlsift's Python API, compared with `crawlsift html --json` and `crawlsift
extract`, on real pages of ../shared."""

from __future__ import annotations

import gzip
import json

import crawlsift

FIELDS = ("author", "date_published", "date_modified", "site_name", "description", "canonical_url")
WARC = "dolma_sample-0000.warc.gz"


def test_extract_metadata_equals_the_cli(run_cli, shared):
    wcxb = shared / "datasets" / "wcxb_dev"
    gold = [json.loads(line) for line in (wcxb / "metadata.jsonl").read_text().splitlines()]
    ids = [g["id"] for g in gold if g.get("author") and g.get("publish_date")][:60]
    paths = [wcxb / "html" / f"{i}.html.gz" for i in ids]
    out = run_cli("html", "--json", *paths)
    assert out.returncode == 0, out.stderr.decode()
    want = {row["path"]: row for row in map(json.loads, out.stdout.decode().splitlines())}
    with_author = with_date = 0
    for path in paths:
        page = crawlsift.extract(gzip.open(path).read())
        for field in FIELDS:
            assert getattr(page, field) == want[str(path)][field], (path, field)
        with_author += page.author is not None
        with_date += page.date_published is not None
    # Every one of these pages has a gold author and date: most state them.
    assert with_author >= 40 and with_date >= 40, (with_author, with_date)


def test_metadata_of_a_crafted_page():
    html = (
        "<html><head><title>T</title>"
        '<meta property="og:site_name" content="The &amp; Times">'
        '<link rel="canonical" href="/news/a">'
        '<script type="application/ld+json">{"@context": "https://schema.org", "@graph": ['
        '{"@type": "WebSite", "name": "Times"},'
        '{"@type": "NewsArticle", "datePublished": "2025-09-04T10:30:00+02:00",'
        ' "author": [{"@type": "Person", "name": "Ann Lee"}, {"@type": "Person", "name": "Bo Chen"}]}]}'
        "</script></head><body><p>Text.</p></body></html>"
    )
    page = crawlsift.extract(html, url="https://example.org/x/y")
    assert page.author == "Ann Lee, Bo Chen"
    assert page.date_published == "2025-09-04T10:30:00+02:00"
    assert page.date_modified is None
    assert page.site_name == "The & Times"
    assert page.canonical_url == "https://example.org/news/a"
    bare = crawlsift.extract("<title>T</title><p>Nothing about itself.</p>")
    assert all(getattr(bare, field) is None for field in FIELDS)


def test_read_warc_metadata_equals_the_cli_jsonl(shared, cli_rows):
    path = shared / "warc" / WARC
    want = cli_rows(path)
    pages = list(crawlsift.read_warc(path, threads=2))
    assert len(pages) == len(want) > 10
    for page, row in zip(pages, want):
        for field in FIELDS:
            assert getattr(page, field) == row[field], field
    assert any(p.date_published or p.author or p.site_name for p in pages)
    # The schema the Spark and datatrove integrations follow has the fields.
    names = [name for name, _, _ in crawlsift.COLUMNS]
    assert all(field in names for field in FIELDS)
