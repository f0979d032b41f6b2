#!/usr/bin/env python3
"""Run one peer extractor over one crawlsift dataset and time it.

Usage: extract.py TOOL DATASET_DIR OUT_DIR

TOOL is one of: trafilatura, resiliparse, readability, justext, boilerpy3.
For every DATASET_DIR/html/<id>.html.gz writes OUT_DIR/<dataset>/<id>.txt
(main text, UTF-8; an empty file when the tool raised) and prints one JSON
line: tool, dataset, pages, errors, html_bytes, cpu_seconds, mb_per_s_core.

Input: each tool gets the raw page bytes where its API takes bytes and does
its own charset handling (trafilatura, readability-lxml, jusText);
resiliparse gets bytes_to_str(raw, detect_encoding(raw)), its documented way
to decode bytes; boilerpy3 only takes str, so the page is decoded with the
charset the dataset's profile.jsonl declares (if Python knows it), else as
UTF-8 with replacement characters. That decoding step counts as extraction
time for every tool, since all of them must do it on real input.

Timing: time.process_time() around the decode + extract call only; gunzip,
file reading and writing are outside. MB/s per core = html_bytes / 1e6 /
cpu_seconds (the process is single-threaded).
"""

import codecs
import gzip
import json
import sys
import time
from pathlib import Path

# ISO 639-1 code -> jusText stoplist name, for the languages jusText ships.
# Codes with no stoplist (zh, ja, ...) fall back to English.
JUSTEXT_LANG = {
    "af": "Afrikaans", "ar": "Arabic", "bg": "Bulgarian", "ca": "Catalan",
    "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German",
    "el": "Greek", "en": "English", "es": "Spanish", "et": "Estonian",
    "eu": "Basque", "fa": "Persian", "fi": "Finnish", "fr": "French",
    "ga": "Irish", "gl": "Galician", "he": "Hebrew", "hi": "Hindi",
    "hr": "Croatian", "hu": "Hungarian", "hy": "Armenian", "id": "Indonesian",
    "is": "Icelandic", "it": "Italian", "ka": "Georgian", "kk": "Kazakh",
    "ko": "Korean", "la": "Latin", "lb": "Luxembourgish", "lt": "Lithuanian",
    "lv": "Latvian", "mk": "Macedonian", "ms": "Malay", "nb": "Norwegian_Bokmal",
    "nl": "Dutch", "nn": "Norwegian_Nynorsk", "no": "Norwegian_Bokmal",
    "pl": "Polish", "pt": "Portuguese", "ro": "Romanian", "ru": "Russian",
    "sk": "Slovak", "sl": "Slovenian", "sq": "Albanian", "sr": "Serbian",
    "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "te": "Telugu",
    "tl": "Tagalog", "tr": "Turkish", "uk": "Ukrainian", "ur": "Urdu",
    "uz": "Uzbek", "vi": "Vietnamese",
}


def read_jsonl(path):
    """Map id -> object of a dataset's jsonl side file (empty if absent)."""
    out = {}
    if path.exists():
        with path.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    obj = json.loads(line)
                    out[obj["id"]] = obj
    return out


def python_codec(label):
    """The Python codec for a charset label, or None if Python has none."""
    if not label:
        return None
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def decode_declared(raw, page):
    """Decode with the page's declared charset, else UTF-8 with replacement."""
    codec = python_codec(page.get("declared_charset")) or "utf-8"
    return raw.decode(codec, "replace")


def justext_language(page, stoplists):
    """jusText stoplist name for the page: meta lang, then profile lang, else English."""
    for lang in (page.get("meta_lang"), page.get("lang")):
        if not lang:
            continue
        if lang in stoplists:  # daniel_dev's meta.jsonl spells names out ("Polish")
            return lang
        name = JUSTEXT_LANG.get(lang.split("-")[0].lower())
        if name in stoplists:
            return name
    return "English"


def make_extractor(tool):
    """Return f(raw_bytes, page_info) -> main text for the named tool."""
    if tool == "trafilatura":
        import trafilatura

        def run(raw, page):
            return trafilatura.extract(raw) or ""

    elif tool == "resiliparse":
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding
        from resiliparse.parse.html import HTMLTree

        def run(raw, page):
            tree = HTMLTree.parse(bytes_to_str(raw, detect_encoding(raw)))
            return extract_plain_text(tree, main_content=True)

    elif tool == "readability":
        import lxml.html
        from readability import Document

        def run(raw, page):
            summary = Document(raw).summary()
            return lxml.html.fromstring(summary).text_content() if summary.strip() else ""

    elif tool == "justext":
        import justext

        stoplists = justext.get_stoplists()
        cache = {}

        def run(raw, page):
            lang = justext_language(page, stoplists)
            if lang not in cache:
                cache[lang] = justext.get_stoplist(lang)
            paragraphs = justext.justext(raw, cache[lang])
            return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    elif tool == "boilerpy3":
        from boilerpy3 import extractors

        extractor = extractors.ArticleExtractor(raise_on_failure=True)

        def run(raw, page):
            return extractor.get_content(decode_declared(raw, page))

    else:
        raise SystemExit(
            f"unknown tool {tool!r}; use trafilatura, resiliparse, readability, justext or boilerpy3"
        )
    return run


def main(argv):
    if len(argv) != 4:
        raise SystemExit(__doc__)
    tool, dataset_dir, out_dir = argv[1], Path(argv[2]), Path(argv[3])
    html_dir = dataset_dir / "html"
    if not html_dir.is_dir():
        raise SystemExit(f"{html_dir} is not a directory; pass a dataset dir holding html/<id>.html.gz")
    dataset = dataset_dir.resolve().name
    profile = read_jsonl(dataset_dir / "profile.jsonl")
    meta = read_jsonl(dataset_dir / "meta.jsonl")
    extract = make_extractor(tool)
    target = out_dir / dataset
    target.mkdir(parents=True, exist_ok=True)

    pages = errors = html_bytes = 0
    cpu = 0.0
    for path in sorted(html_dir.glob("*.html.gz")):
        page_id = path.name[: -len(".html.gz")]
        raw = gzip.decompress(path.read_bytes())
        page = dict(profile.get(page_id, {}))
        page["meta_lang"] = meta.get(page_id, {}).get("lang")
        start = time.process_time()
        try:
            text = extract(raw, page)
        except Exception as err:  # every failure counts as an error and an empty output
            text = ""
            errors += 1
            print(f"{tool}: {path}: {type(err).__name__}: {err}", file=sys.stderr)
        cpu += time.process_time() - start
        (target / f"{page_id}.txt").write_text(text, encoding="utf-8", errors="replace")
        pages += 1
        html_bytes += len(raw)

    print(json.dumps({
        "tool": tool,
        "dataset": dataset,
        "pages": pages,
        "errors": errors,
        "html_bytes": html_bytes,
        "cpu_seconds": round(cpu, 3),
        "mb_per_s_core": round(html_bytes / 1e6 / cpu, 2) if cpu > 0 else None,
    }), flush=True)


if __name__ == "__main__":
    main(sys.argv)
