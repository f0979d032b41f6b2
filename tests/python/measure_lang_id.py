"""Language identifiers compared on the shared datasets' gold texts.

Prints accuracy per language (gold texts of >= 50 words; Chinese and Japanese
of any length) and speed in MB of text per second for: crawlsift (crawlsift-lang: whatlang 0.18 forked, as
`crawlsift html --json --algorithm plain` reports it), CLD2 (pycld2, Common
Crawl's labeller), and lingua (lingua-language-detector, the Python binding
of the lingua Rust crate), all languages, high- and low-accuracy modes.
crawlsift's speed here includes reading and extraction; examples/signals_speed.rs
times its identifier alone.

Run: .venv/bin/pip install ./python -r python/requirements-test.txt -c .ci/python-constraints.txt lingua-language-detector==2.1.1
     .venv/bin/python tests/python/measure_lang_id.py
"""

import collections
import time

import pycld2
from lingua import IsoCode639_1, LanguageDetectorBuilder

from test_filters_datatrove import DATASETS, MIN_WORDS, cld2_code, page_id, page_languages, run_crawlsift


def lingua_detector(low_accuracy):
    builder = LanguageDetectorBuilder.from_all_languages()
    if low_accuracy:
        builder = builder.with_low_accuracy_mode()
    detector = builder.build()

    def detect(text):
        lang = detector.detect_language_of(text)
        return None if lang is None else lang.iso_code_639_1.name.lower()

    return detect


def main():
    golds = []
    for dataset in sorted(DATASETS.iterdir()):
        if not (dataset / "profile.jsonl").exists():
            continue
        langs = page_languages(dataset)
        for g in sorted((dataset / "gold").iterdir()):
            known = langs.get(page_id(g))
            if known in (None, "-"):
                continue
            text = g.read_text(errors="replace")
            if len(text.split()) >= MIN_WORDS or known in ("zh", "ja"):
                golds.append((g, known, text))
    mb = sum(len(t.encode()) for _, _, t in golds) / 1e6

    results = {}
    start = time.perf_counter()
    pages = run_crawlsift([g for g, _, _ in golds], "--algorithm", "plain")
    results["crawlsift (crawlsift-lang)"] = ([p["lang"] for p in pages], time.perf_counter() - start)
    for name, detect in [
        ("cld2", lambda t: cld2_code(t)[0]),
        ("lingua", lingua_detector(False)),
        ("lingua low", lingua_detector(True)),
    ]:
        start = time.perf_counter()
        found = [detect(t) for _, _, t in golds]
        results[name] = (found, time.perf_counter() - start)

    total = collections.Counter(k for _, k, _ in golds)
    print(f"{len(golds)} gold texts, {mb:.1f} MB")
    print(f"{'lang':<6}{'pages':>6}" + "".join(f"{n:>17}" for n in results))
    for code, count in total.most_common():
        row = f"{code:<6}{count:>6}"
        for found, _ in results.values():
            hits = sum(f == k for f, (_, k, _) in zip(found, golds) if k == code)
            row += f"{hits / count:>17.1%}"
        print(row)
    row = f"{'all':<6}{len(golds):>6}"
    for found, _ in results.values():
        row += f"{sum(f == k for f, (_, k, _) in zip(found, golds)) / len(golds):>17.1%}"
    print(row)
    print(f"{'MB/s':<12}" + "".join(f"{mb / s:>17.1f}" for _, s in results.values()))


if __name__ == "__main__":
    main()
