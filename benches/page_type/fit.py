"""Fits addanag-plus's page-type and confidence models (ACCURACY.md §11).

Reads the CSV of `crates/eval/examples/page_cues.rs` (one row per dataset
page: its cues, its wcxb_dev `page_type` label, the extraction's F1), fits on
the even-indexed pages of each dataset (pages sorted by id), reports on the
odd ones, and writes the weights to
`crates/extract/src/algorithms/page_type/model.rs`.

    cargo run --release -p crawlsift-eval --example page_cues -- ../shared/datasets/* > cues.csv
    python3 benches/page_type/fit.py cues.csv [--write]

Needs numpy only. Deterministic: full-batch gradient descent from zero.
"""

import csv
import sys
from pathlib import Path

import numpy as np

TYPES = ["article", "forum", "product", "listing", "collection", "documentation", "service"]
MODEL = Path(__file__).resolve().parents[2] / "crates/extract/src/algorithms/page_type/model.rs"


def load(path):
    rows = list(csv.DictReader(open(path)))
    cols = [c for c in rows[0] if c.startswith("x")]
    x = np.array([[float(r[c]) for c in cols] for r in rows])
    return rows, x


def softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit_types(x, y, l2=3e-2, steps=6000, rate=0.5):
    n, d = x.shape
    w = np.zeros((d, 7))
    b = np.zeros(7)
    onehot = np.eye(7)[y]
    for _ in range(steps):
        p = softmax(x @ w + b)
        g = p - onehot
        w -= rate * (x.T @ g / n + l2 * w)
        b -= rate * g.mean(axis=0)
    return w, b


def ranks(v):
    order = np.argsort(v, kind="stable")
    r = np.empty(len(v))
    r[order] = np.arange(len(v))
    # Ties share their mean rank.
    for value in np.unique(v):
        same = v == value
        if same.sum() > 1:
            r[same] = r[same].mean()
    return r


def spearman(a, b):
    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def main():
    rows, x = load(sys.argv[1])
    even = np.array([int(r["index"]) % 2 == 0 for r in rows])
    f1 = np.array([float(r["f1"]) for r in rows])
    dataset = np.array([r["dataset"] for r in rows])
    labelled = np.array([r["label"] in TYPES for r in rows])

    train = even & labelled
    mean = x[train].mean(axis=0)
    scale = x[train].std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = (x - mean) / scale
    y = np.array([TYPES.index(r["label"]) if r["label"] in TYPES else 0 for r in rows])

    w, b = fit_types(z[train], y[train])
    probs = softmax(z @ w + b)
    pred = probs.argmax(axis=1)
    test = ~even & labelled
    print(f"page type: train {np.mean(pred[train] == y[train]):.3f} ({train.sum()}), "
          f"held-out {np.mean(pred[test] == y[test]):.3f} ({test.sum()})")
    print("| gold \\ predicted | " + " | ".join(TYPES) + " | right |")
    print("|---" * (len(TYPES) + 2) + "|")
    for k, t in enumerate(TYPES):
        sel = test & (y == k)
        counts = [int(np.sum(pred[sel] == j)) for j in range(7)]
        print(f"| {t} | " + " | ".join(map(str, counts)) + f" | {counts[k]}/{sel.sum()} |")

    # Confidence: least squares of F1 on the cues and the type
    # probabilities, every dataset's even pages.
    feats = np.hstack([z, probs])
    ridge = 10.0
    a = feats[even]
    coef = np.linalg.solve(a.T @ a + ridge * np.eye(a.shape[1]),
                           a.T @ (f1[even] - f1[even].mean()))
    bias = f1[even].mean()
    conf = np.clip(bias + feats @ coef, 0, 1)
    odd = ~even
    print(f"\nconfidence: Spearman held-out {spearman(conf[odd], f1[odd]):.3f} "
          f"(train {spearman(conf[even], f1[even]):.3f})")
    for name in sorted(set(dataset)) + ["all"]:
        sel = odd & ((dataset == name) if name != "all" else True)
        c, f = conf[sel], f1[sel]
        cut = np.quantile(c, 0.2)
        low = c <= cut
        print(f"  {name}: n {sel.sum()}, Spearman {spearman(c, f):.3f}, "
              f"low 20% F1 {f[low].mean():.3f} vs rest {f[~low].mean():.3f} "
              f"(gap {f[~low].mean() - f[low].mean():.3f})")
    sel = odd
    c, f = conf[sel], f1[sel]
    edges = np.quantile(c, np.linspace(0, 1, 11))
    print("\n| decile | confidence | mean confidence | mean F1 | pages |")
    print("|---|---|---|---|---|")
    for i in range(10):
        lo, hi = edges[i], edges[i + 1]
        s = (c >= lo) & ((c < hi) if i < 9 else (c <= hi))
        print(f"| {i + 1} | {lo:.2f}–{hi:.2f} | {c[s].mean():.3f} | {f[s].mean():.3f} | {s.sum()} |")

    if "--write" in sys.argv:
        fmt = lambda v: "[" + ", ".join(f"{float(e):.6}" for e in v) + "]"
        d = x.shape[1]
        MODEL.write_text(
            "//! The fitted weights of [`super`]'s models: written by\n"
            "//! `benches/page_type/fit.py`, not by hand.\n\n"
            "use super::CUES;\n\n"
            "/// Each cue's mean over the training pages.\n"
            f"pub(super) const MEAN: [f32; CUES] = {fmt(mean)};\n"
            "/// Each cue's standard deviation over the training pages (1 when it does not vary).\n"
            f"pub(super) const SCALE: [f32; CUES] = {fmt(scale)};\n"
            "/// The type model's intercepts, in `PageType::ALL`'s order.\n"
            f"pub(super) const TYPE_BIAS: [f32; 7] = {fmt(b)};\n"
            "/// The type model's weights of the standardised cues.\n"
            "pub(super) const TYPE_WEIGHTS: [[f32; CUES]; 7] = [\n"
            + "".join(f"    {fmt(w[:, k])},\n" for k in range(7))
            + "];\n"
            "/// The confidence model's intercept.\n"
            f"pub(super) const F1_BIAS: f32 = {bias:.6};\n"
            "/// The confidence model's weights of the standardised cues.\n"
            f"pub(super) const F1_WEIGHTS: [f32; CUES] = {fmt(coef[:d])};\n"
            "/// The confidence model's weights of the type probabilities.\n"
            f"pub(super) const F1_TYPE_WEIGHTS: [f32; 7] = {fmt(coef[d:])};\n"
        )
        print(f"\nwrote {MODEL}")


if __name__ == "__main__":
    main()
