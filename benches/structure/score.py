#!/usr/bin/env python3
"""Structure fidelity of crawlsift's and trafilatura's Markdown on the shared
datasets (issue 40, item 3); see README.md beside this file.

Usage: score.py [--crawlsift BIN] [--tools crawlsift,trafilatura] [--datasets a,b]
                [--datasets-root DIR] [--out DIR] [--jobs N] [--examples N]

Each tool's Markdown is cached per page in OUT/md/<tool>/<dataset>/<id>.md,
re-made only when the tool changes (crawlsift: the binary's SHA-256;
trafilatura: its version and options). Prints a Markdown table and writes
OUT/table.md, OUT/results.json and OUT/failures/<tool>.md (failing examples per kind).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import structure as st

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TRAFILATURA_OPTIONS = dict(output_format="markdown", include_tables=True, include_formatting=True)


def page_ids(dataset: Path) -> list[str]:
    return sorted(p.name[: -len(".html.gz")] for p in (dataset / "html").glob("*.html.gz"))


def read_html(dataset: Path, page: str) -> bytes:
    return gzip.decompress((dataset / "html" / f"{page}.html.gz").read_bytes())


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# ------------------------------------------------------------ tool outputs


def cached(out: Path, tool: str, dataset: str, identity: str) -> bool:
    stamp = out / "md" / tool / f"{dataset}.stamp"
    return stamp.exists() and stamp.read_text() == identity


def mark(out: Path, tool: str, dataset: str, identity: str) -> None:
    (out / "md" / tool / f"{dataset}.stamp").write_text(identity)


def run_crawlsift(binary: Path, dataset: Path, ids: list[str], out: Path, markdown: bool) -> dict:
    """`crawlsift html --json [--markdown]` over the dataset in batches; writes
    the Markdown to OUT/md/crawlsift and the text to OUT/pred/crawlsift-text."""
    md_dir = out / "md" / "crawlsift" / dataset.name
    text_dir = out / "pred" / "crawlsift-text" / dataset.name
    for d in (md_dir, text_dir):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
    started = time.perf_counter()
    cpu = 0.0
    for start in range(0, len(ids), 300):
        batch = ids[start : start + 300]
        cmd = [str(binary), "html", "--json"] + (["--markdown"] if markdown else [])
        cmd += [str(dataset / "html" / f"{page}.html.gz") for page in batch]
        before = os.times()
        done = subprocess.run(cmd, capture_output=True, check=False)
        after = os.times()
        cpu += (after.children_user - before.children_user) + (after.children_system - before.children_system)
        if done.returncode != 0:
            sys.stderr.write(done.stderr.decode("utf-8", "replace"))
        for line in done.stdout.decode("utf-8").splitlines():
            obj = json.loads(line)
            page = Path(obj["path"]).name[: -len(".html.gz")]
            (text_dir / f"{page}.txt").write_text(obj["text"], encoding="utf-8")
            if markdown:
                (md_dir / f"{page}.md").write_text(obj.get("markdown") or "", encoding="utf-8")
    # A page the command failed on scores as an empty output, as a peer's error does.
    missing = [page for page in ids if not (text_dir / f"{page}.txt").exists()]
    for page in missing:
        (text_dir / f"{page}.txt").write_text("", encoding="utf-8")
        if markdown:
            (md_dir / f"{page}.md").write_text("", encoding="utf-8")
    return {"wall_s": time.perf_counter() - started, "cpu_s": cpu, "failed_pages": len(missing)}


def _trafilatura_page(task):
    import trafilatura

    path, target = task
    raw = gzip.decompress(Path(path).read_bytes())
    begin = time.process_time()
    try:
        md = trafilatura.extract(raw, **TRAFILATURA_OPTIONS) or ""
    except Exception as err:  # a peer's failure is an empty output, counted
        sys.stderr.write(f"trafilatura: {path}: {err!r}\n")
        md = ""
    spent = time.process_time() - begin
    Path(target).write_text(md, encoding="utf-8")
    return spent


def run_trafilatura(dataset: Path, ids: list[str], out: Path, jobs: int) -> dict:
    md_dir = out / "md" / "trafilatura" / dataset.name
    shutil.rmtree(md_dir, ignore_errors=True)
    md_dir.mkdir(parents=True)
    tasks = [(str(dataset / "html" / f"{p}.html.gz"), str(md_dir / f"{p}.md")) for p in ids]
    started = time.perf_counter()
    with multiprocessing.Pool(jobs) as pool:
        cpu = sum(pool.imap_unordered(_trafilatura_page, tasks, chunksize=8))
    return {"wall_s": time.perf_counter() - started, "cpu_s": cpu}


# ----------------------------------------------------------------- scoring

# Set in each worker by _init.
_CTX: dict = {}


def _init(ctx):
    _CTX.update(ctx)


def _score_page(task):
    """One page: its structures, and for each tool which it carries; writes the
    tools' stripped Markdown for the F1."""
    dataset, page = task
    root = Path(_CTX["datasets_root"]) / dataset
    out = Path(_CTX["out"])
    html = read_html(root, page).decode("utf-8", "replace")
    gold_text = (root / "gold" / f"{page}.txt").read_text(encoding="utf-8", errors="replace")
    gold = st.Gold(gold_text)
    structures = st.html_structures(html, gold)
    gold_md_path = root / "markdown" / f"{page}.md"
    gold_md = st.parse_markdown(gold_md_path.read_text(encoding="utf-8")) if gold_md_path.exists() else None
    second = st.gold_markdown_structures(gold_md) if gold_md is not None else []
    result = {"dataset": dataset, "page": page, "tools": {}}
    tools = list(_CTX["tools"]) + (["gold-md"] if gold_md is not None else [])
    for tool in tools:
        if tool == "gold-md":
            md = gold_md
        else:
            path = out / "md" / tool / dataset / f"{page}.md"
            if not path.exists():
                continue
            md = st.parse_markdown(path.read_text(encoding="utf-8"))
        pred = out / "pred" / f"{tool}-md" / dataset / f"{page}.txt"
        pred.parent.mkdir(parents=True, exist_ok=True)
        pred.write_text(md.plain, encoding="utf-8")
        views = {"html": structures}
        if tool != "gold-md":
            views["gold_md"] = second
        per_tool = {}
        for view, found in views.items():
            # Per kind: counted, carried, and not carried whose text is not
            # in the Markdown at all (lost by the selection, not the rendering).
            counts = {k: [0, 0, 0] for k in st.REPORTED}
            failures = []
            for s in found:
                ok = st.carried(s, md)
                selected = ok or st.in_text(s, md)
                counts[s.kind][0] += 1
                counts[s.kind][1] += ok
                counts[s.kind][2] += not selected
                if s.kind == "table":
                    gfm = md.has_table(s.rows, gfm_only=True)
                    counts["table_gfm"][0] += 1
                    counts["table_gfm"][1] += gfm
                    counts["table_gfm"][2] += not (gfm or selected)
                if not ok:
                    failures.append(
                        {"kind": s.kind, "shown": s.shown, "near": st.near(md, s), "in_text": selected}
                    )
            per_tool[view] = {"counts": counts, "failures": failures}
        result["tools"][tool] = per_tool
    return result


def run_eval(binary: Path, out: Path, labels: list[str], datasets: list[Path]) -> dict:
    """Mean word-level F1 per dataset and label with `crawlsift eval --pred`."""
    cmd = [str(binary), "eval", "--format", "json", "-j", "2"]
    for label in labels:
        cmd += ["--pred", str(out / "pred" / label), "--label", label]
    cmd += [str(d) for d in datasets]
    done = subprocess.run(cmd, capture_output=True, check=True)
    scores = {}
    for row in json.loads(done.stdout):
        scores.setdefault(row["algorithm"], {})[row["dataset"]] = row["mean_f1"]
    return scores


def fmt(matched: int, total: int) -> str:
    return f"{matched / total:.3f} ({matched}/{total})" if total else "–"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--crawlsift", default=os.environ.get("CRAWLSIFT"), help="crawlsift binary ($CRAWLSIFT)")
    ap.add_argument("--tools", default="crawlsift,trafilatura")
    ap.add_argument("--datasets", default="", help="comma-separated names (default: all)")
    ap.add_argument("--datasets-root", default=str(REPO.parent / "shared" / "datasets"))
    ap.add_argument("--out", default=str(HERE / "out"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--examples", type=int, default=10, help="failing examples per tool and kind")
    args = ap.parse_args()

    root = Path(args.datasets_root).resolve()
    out = Path(args.out).resolve()
    names = [n for n in args.datasets.split(",") if n] or sorted(
        d.name for d in root.iterdir() if (d / "html").is_dir()
    )
    datasets = [root / n for n in names]
    tools = [t for t in args.tools.split(",") if t]
    binary = Path(args.crawlsift).resolve() if args.crawlsift else None
    if binary is None or not binary.exists():
        sys.exit("score.py: give the crawlsift binary (--crawlsift or $CRAWLSIFT); it also scores the F1")
    has_markdown = "--markdown" in subprocess.run(
        [str(binary), "html", "--help"], capture_output=True, text=True
    ).stdout
    if not has_markdown and "crawlsift" in tools:
        print(f"score.py: {binary} has no `html --markdown`: crawlsift's text only", file=sys.stderr)

    # 1. Tool outputs, cached.
    timings = {}
    ids = {d.name: page_ids(d) for d in datasets}
    for tool in tools:
        if tool == "crawlsift":
            identity = f"{sha256(binary)} markdown={has_markdown}"
        elif tool == "trafilatura":
            import trafilatura

            identity = f"trafilatura {trafilatura.__version__} {sorted(TRAFILATURA_OPTIONS.items())}"
        else:
            sys.exit(f"score.py: unknown tool {tool}")
        for d in datasets:
            if cached(out, tool, d.name, identity):
                continue
            print(f"score.py: {tool} on {d.name} ({len(ids[d.name])} pages)", file=sys.stderr)
            if tool == "crawlsift":
                timings[f"{tool}/{d.name}"] = run_crawlsift(binary, d, ids[d.name], out, has_markdown)
            else:
                timings[f"{tool}/{d.name}"] = run_trafilatura(d, ids[d.name], out, args.jobs)
            mark(out, tool, d.name, identity)
    md_tools = [t for t in tools if t != "crawlsift" or has_markdown]

    # 2. Structures and what each Markdown carries, page by page.
    for tool in md_tools + ["gold-md"]:
        for d in datasets:
            target = out / "pred" / f"{tool}-md" / d.name
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir(parents=True)
    started = time.perf_counter()
    ctx = {"datasets_root": str(root), "out": str(out), "tools": md_tools}
    tasks = [(d.name, p) for d in datasets for p in ids[d.name]]
    with multiprocessing.Pool(args.jobs, initializer=_init, initargs=(ctx,)) as pool:
        pages = list(pool.imap(_score_page, tasks, chunksize=4))
    timings["scoring"] = {"wall_s": time.perf_counter() - started}

    # 3. Word-level F1 of the stripped Markdown, and of crawlsift's text.
    labels = [f"{t}-md" for t in md_tools] + (["crawlsift-text"] if "crawlsift" in tools else [])
    f1 = run_eval(binary, out, labels, datasets)
    # The stripping checked on the annotators' Markdown against their text.
    with_gold_md = [d for d in datasets if (d / "markdown").is_dir()]
    if with_gold_md:
        f1.update(run_eval(binary, out, ["gold-md-md"], with_gold_md))

    # 4. Micro-averaged recall per dataset, tool, view and kind.
    totals: dict = {}
    failures: dict = {}
    for page in pages:
        for tool, views in page["tools"].items():
            for view, got in views.items():
                slot = totals.setdefault(tool, {}).setdefault(view, {}).setdefault(
                    page["dataset"], {k: [0, 0, 0] for k in st.REPORTED}
                )
                for kind, (n, ok, unselected) in got["counts"].items():
                    slot[kind][0] += n
                    slot[kind][1] += ok
                    slot[kind][2] += unselected
                for fail in got["failures"]:
                    bucket = failures.setdefault(tool, {}).setdefault(view, {}).setdefault(fail["kind"], [])
                    bucket.append({"dataset": page["dataset"], "page": page["page"], **fail})
    results = {
        "crawlsift": str(binary),
        "crawlsift_markdown": has_markdown,
        "datasets": names,
        "recall": totals,
        "f1": f1,
        "timings": timings,
    }
    (out / "results.json").write_text(json.dumps(results, indent=1))
    write_failures(out, failures, args.examples)
    (out / "table.md").write_text(table(results, names) + "\n", encoding="utf-8")
    print(table(results, names))
    return 0


def write_failures(out: Path, failures: dict, per_kind: int) -> None:
    """OUT/failures/<tool>.md: failing examples per view and kind, spread over
    pages (one per page first), with what the Markdown had near them."""
    target = out / "failures"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for tool, views in failures.items():
        lines = [f"# {tool}: structures its Markdown does not carry", ""]
        for view, kinds in views.items():
            for kind, fails in kinds.items():
                lost = sum(1 for fail in fails if not fail["in_text"])
                lines.append(f"## {view} view, {kind}: {len(fails)} not carried, {lost} of them not in the text at all")
                seen, picked = set(), []
                step = max(1, len(fails) // (per_kind * 3))
                for fail in fails[::step]:
                    if fail["page"] not in seen:
                        seen.add(fail["page"])
                        picked.append(fail)
                    if len(picked) == per_kind:
                        break
                for fail in picked:
                    where = "its text is in the Markdown" if fail["in_text"] else "its text is not in the Markdown"
                    lines.append(f"- `{fail['dataset']}/{fail['page']}` ({where}): `{fail['shown'][:300]!r}`")
                    lines.append(f"  - Markdown near it: `{fail['near'][:400]!r}`" if fail["near"] else "  - its text is on no Markdown line")
                lines.append("")
        (target / f"{tool}.md").write_text("\n".join(lines), encoding="utf-8")


def table(results: dict, names: list[str]) -> str:
    """The results as Markdown: recall per kind (HTML view), F1, then the
    gold-Markdown view."""
    rows = []
    header = "| tool | dataset | " + " | ".join(st.REPORTED) + " | F1 stripped MD | F1 text |"
    rows += [header, "|" + "---|" * (len(st.REPORTED) + 4)]
    recall, f1 = results["recall"], results["f1"]
    for tool in [t for t in recall if t != "gold-md"] + [t for t in recall if t == "gold-md"]:
        for name in names:
            counts = recall[tool].get("html", {}).get(name)
            if counts is None:
                continue
            cells = [fmt(ok, n) for n, ok in (counts[k][:2] for k in st.REPORTED)]
            scores = [f1.get(f"{tool}-md", {}).get(name), f1.get(f"{tool}-text", {}).get(name)]
            cells += [f"{x:.4f}" if x is not None else "–" for x in scores]
            rows.append(f"| {tool} | {name} | " + " | ".join(cells) + " |")
    if "crawlsift-text" in f1 and "crawlsift" not in recall:
        for name in names:
            rows.append(f"| crawlsift (text only) | {name} | " + " | ".join("–" for _ in st.REPORTED)
                        + f" | – | {f1['crawlsift-text'][name]:.3f} |")
    rows += ["", "Not carried because the text is not in the Markdown at all (lost by the selection, not the rendering), of those counted:", ""]
    rows += ["| tool | dataset | " + " | ".join(st.KINDS) + " |", "|" + "---|" * (len(st.KINDS) + 2)]
    for tool in recall:
        for name in names:
            counts = recall[tool].get("html", {}).get(name)
            if counts is not None:
                rows.append(f"| {tool} | {name} | " + " | ".join(f"{c[2]}/{c[0]}" for c in (counts[k] for k in st.KINDS)) + " |")
    second = [
        (tool, name, counts)
        for tool, views in recall.items()
        for name, counts in views.get("gold_md", {}).items()
        if sum(c[0] for c in counts.values())
    ]
    if second:
        rows += ["", "Gold-Markdown view (structures of the annotators' Markdown carried by the tool's):", ""]
        rows += ["| tool | dataset | " + " | ".join(st.REPORTED) + " |", "|" + "---|" * (len(st.REPORTED) + 2)]
        for tool, name, counts in second:
            rows.append(f"| {tool} | {name} | " + " | ".join(fmt(ok, n) for n, ok in (counts[k][:2] for k in st.REPORTED)) + " |")
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
