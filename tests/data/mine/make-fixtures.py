#!/usr/bin/python3
"""Writes pc-mine's reference fixtures: two small sides of sentences with
their embeddings, and what LASER-style mining gives on them for every margin
and retrieval mode with an exact (Flat) index.

The margin definitions are those of LASER's source/mine_bitexts.py
(Artetxe & Schwenk 2019), written out here with NumPy and python3-faiss:
  knn:      faiss.IndexFlatIP over L2-normalised rows, k = min(k, rows)
  means:    x2y_mean = mean cosine of x's k neighbours, y2x_mean likewise
  score:    margin(x.dot(y), (x2y_mean[x] + y2x_mean[y]) / 2) with
            absolute a, distance a - b, ratio a / b
  best:     each row's first argmax over its candidate list
  fwd/bwd/intersect/max as mine_bitexts' "mine" mode; max: both best lists
            concatenated, sorted by score (descending, stable), taken greedily
            so that no sentence is used twice.
pc-mine's own conventions, applied identically here: blank lines take no
part and identical sentences are searched once (first occurrence; ids are
1-based line numbers); candidate lists are re-sorted by the exact cosine
(float64 dot, then id); a pair whose two sentences are the same text is never
kept (under max it does not take its sentences); the threshold keeps
score >= X; scores print with 6 decimals.

Run from anywhere: /usr/bin/python3 tests/data/mine/make-fixtures.py
"""
import os

import faiss
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
K = 4
DIM = 16


def make_sides(rng):
    """Sentences and vectors: 40 translated pairs (the target a noisy copy of
    the source), near-duplicate families that make hubs, distractors, a blank
    line, a repeated sentence on each side and one sentence on both sides."""
    src, trg, xs, ys = [], [], [], []
    base = rng.standard_normal((40, DIM)).astype(np.float32)
    for i in range(40):
        src.append(f"source sentence {i}")
        xs.append(base[i])
        trg.append(f"Zielsatz {i}")
        ys.append(base[i] + 0.35 * rng.standard_normal(DIM).astype(np.float32))
    hub = rng.standard_normal(DIM).astype(np.float32)
    for i in range(8):
        src.append(f"source near duplicate {i}")
        xs.append(hub + 0.5 * rng.standard_normal(DIM).astype(np.float32))
        trg.append(f"Ziel Beinahe-Duplikat {i}")
        ys.append(hub + 0.5 * rng.standard_normal(DIM).astype(np.float32))
    for i in range(10):
        src.append(f"source distractor {i}")
        xs.append(rng.standard_normal(DIM).astype(np.float32))
    for i in range(18):
        trg.append(f"Ziel Ablenkung {i}")
        ys.append(rng.standard_normal(DIM).astype(np.float32))
    same = rng.standard_normal(DIM).astype(np.float32)
    src.append("OK")
    xs.append(same)
    trg.append("OK")
    ys.append(same + 0.01 * rng.standard_normal(DIM).astype(np.float32))
    # A repeated sentence (same vector, as an encoder gives) and a blank line.
    src.insert(5, src[3])
    xs.insert(5, xs[3])
    trg.insert(7, trg[2])
    ys.insert(7, ys[2])
    src.insert(11, "")
    xs.insert(11, np.zeros(DIM, np.float32))
    trg.insert(20, "   ")
    ys.insert(20, np.zeros(DIM, np.float32))
    return src, trg, np.stack(xs).astype(np.float32), np.stack(ys).astype(np.float32)


def distinct(sents, vecs):
    keep, seen = [], set()
    for i, s in enumerate(sents):
        if not s.strip(" \t\r") or s in seen:
            continue
        seen.add(s)
        keep.append(i)
    x = vecs[keep].astype(np.float64)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return [sents[i] for i in keep], [i + 1 for i in keep], x


def knn(x, y, k):
    idx = faiss.IndexFlatIP(x.shape[1])
    idx.add(y.astype(np.float32))
    _, ind = idx.search(x.astype(np.float32), k)
    sims = np.zeros(ind.shape)
    for i in range(ind.shape[0]):
        c = sorted(((-float(x[i].dot(y[j])), int(j)) for j in ind[i]))
        ind[i] = [j for _, j in c]
        sims[i] = [-s for s, _ in c]
    return sims, ind


MARGINS = {"absolute": lambda a, b: a, "distance": lambda a, b: a - b, "ratio": lambda a, b: a / b}


def mine(src, trg, x, y, margin_name, retrieval, threshold=None):
    margin = MARGINS[margin_name]
    x2y_sim, x2y_ind = knn(x, y, min(y.shape[0], K))
    x2y_mean = x2y_sim.mean(axis=1)
    y2x_sim, y2x_ind = knn(y, x, min(x.shape[0], K))
    y2x_mean = y2x_sim.mean(axis=1)

    def score_candidates(a, b, ind, fwd_mean, bwd_mean):
        scores = np.zeros(ind.shape)
        for i in range(scores.shape[0]):
            for j in range(scores.shape[1]):
                k = ind[i, j]
                scores[i, j] = margin(a[i].dot(b[k]), (fwd_mean[i] + bwd_mean[k]) / 2)
        return scores

    fwd_scores = score_candidates(x, y, x2y_ind, x2y_mean, y2x_mean)
    bwd_scores = score_candidates(y, x, y2x_ind, y2x_mean, x2y_mean)
    fwd_best = x2y_ind[np.arange(x.shape[0]), fwd_scores.argmax(axis=1)]
    bwd_best = y2x_ind[np.arange(y.shape[0]), bwd_scores.argmax(axis=1)]
    same = lambda i, j: src[i] == trg[j]
    keep = lambda s: threshold is None or s >= threshold
    out = []
    if retrieval == "fwd":
        out = [(i, j, fwd_scores[i].max()) for i, j in enumerate(fwd_best)]
    elif retrieval == "bwd":
        out = [(i, j, bwd_scores[j].max()) for j, i in enumerate(bwd_best)]
    elif retrieval == "intersect":
        out = [(i, j, fwd_scores[i].max()) for i, j in enumerate(fwd_best) if bwd_best[j] == i]
    else:
        indices = np.stack((np.concatenate((np.arange(x.shape[0]), bwd_best)),
                            np.concatenate((fwd_best, np.arange(y.shape[0])))), axis=1)
        scores = np.concatenate((fwd_scores.max(axis=1), bwd_scores.max(axis=1)))
        seen_src, seen_trg = set(), set()
        for n in np.argsort(-scores, kind="stable"):
            i, j = indices[n]
            if i in seen_src or j in seen_trg or same(i, j):
                continue
            seen_src.add(i)
            seen_trg.add(j)
            if keep(scores[n]):
                out.append((i, j, scores[n]))
        return out
    return [(i, j, s) for i, j, s in out if not same(i, j) and keep(s)]


def main():
    rng = np.random.default_rng(17)
    src, trg, xs, ys = make_sides(rng)
    for name, lines in (("src.txt", src), ("trg.txt", trg)):
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            f.write("".join(s + "\n" for s in lines))
    np.save(os.path.join(HERE, "src.npy"), xs)
    np.save(os.path.join(HERE, "trg.npy"), ys)
    # For the bad-input rows: the source's row count in another dimension.
    np.save(os.path.join(HERE, "src-d8.npy"), rng.standard_normal((len(src), 8)).astype(np.float32))
    s_txt, s_ids, x = distinct(src, xs)
    t_txt, t_ids, y = distinct(trg, ys)
    runs = [(m, r, None) for m in MARGINS for r in ("max", "intersect", "fwd", "bwd")] + [("ratio", "max", 1.1)]
    for m, r, th in runs:
        name = f"expected-{m}-{r}" + (f"-{th}" if th is not None else "") + ".tsv"
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            f.write("src_text\ttrg_text\tmine_score\tsrc_id\ttrg_id\n")
            for i, j, s in mine(s_txt, t_txt, x, y, m, r, th):
                f.write(f"{s_txt[i]}\t{t_txt[j]}\t{s:.6f}\t{s_ids[i]}\t{t_ids[j]}\n")


if __name__ == "__main__":
    main()
