#!/usr/bin/python3
"""LASER-style mining reference (source/mine_bitexts.py's definitions, NumPy +
python3-faiss, exact IndexFlatIP, ratio margin, max retrieval), for timing
against pc-mine on the same inputs:

    mine-reference.py SRC.txt TRG.txt SRC.npy TRG.npy OUT.tsv THREADS [K [FACTORY NPROBE]]

Like pc-mine it reads the sentences and vectors, L2-normalises, searches both
directions, scores the candidates and writes src_text, trg_text, score.
FACTORY (default Flat) is any FAISS index_factory string over inner
products; an index that needs training is trained on the indexed side, on
a seeded sample of 262,144 rows when it has more (pc-mine's default sample
size); NPROBE (default 16, pc-mine's) sets an IVF index's nprobe.
"""
import sys

import faiss
import numpy as np


def main():
    src_f, trg_f, xs_f, ys_f, out_f, threads = sys.argv[1:7]
    k = int(sys.argv[7]) if len(sys.argv) > 7 else 4
    factory = sys.argv[8] if len(sys.argv) > 8 else "Flat"
    nprobe = int(sys.argv[9]) if len(sys.argv) > 9 else 16
    faiss.omp_set_num_threads(int(threads))
    src = open(src_f, encoding="utf-8").read().split("\n")[:-1]
    trg = open(trg_f, encoding="utf-8").read().split("\n")[:-1]
    x = np.load(xs_f).astype(np.float32)
    y = np.load(ys_f).astype(np.float32)
    faiss.normalize_L2(x)
    faiss.normalize_L2(y)

    def knn(a, b, kk):
        if factory == "Flat":
            idx = faiss.IndexFlatIP(a.shape[1])
        else:
            idx = faiss.index_factory(a.shape[1], factory, faiss.METRIC_INNER_PRODUCT)
            if not idx.is_trained:
                sample = b
                if b.shape[0] > 262144:
                    rows = np.sort(np.random.default_rng(1).choice(b.shape[0], 262144, replace=False))
                    sample = b[rows]
                idx.train(sample)
            faiss.extract_index_ivf(idx).nprobe = nprobe
        idx.add(b)
        return idx.search(a, kk)

    x2y_sim, x2y_ind = knn(x, y, min(y.shape[0], k))
    y2x_sim, y2x_ind = knn(y, x, min(x.shape[0], k))
    x2y_mean, y2x_mean = x2y_sim.mean(axis=1), y2x_sim.mean(axis=1)

    def score_candidates(a, b, ind, fwd_mean, bwd_mean):
        scores = np.zeros(ind.shape)
        for i in range(scores.shape[0]):
            for j in range(scores.shape[1]):
                kk = ind[i, j]
                scores[i, j] = a[i].dot(b[kk]) / ((fwd_mean[i] + bwd_mean[kk]) / 2)
        return scores

    fwd_scores = score_candidates(x, y, x2y_ind, x2y_mean, y2x_mean)
    bwd_scores = score_candidates(y, x, y2x_ind, y2x_mean, x2y_mean)
    fwd_best = x2y_ind[np.arange(x.shape[0]), fwd_scores.argmax(axis=1)]
    bwd_best = y2x_ind[np.arange(y.shape[0]), bwd_scores.argmax(axis=1)]
    indices = np.stack((np.concatenate((np.arange(x.shape[0]), bwd_best)),
                        np.concatenate((fwd_best, np.arange(y.shape[0])))), axis=1)
    scores = np.concatenate((fwd_scores.max(axis=1), bwd_scores.max(axis=1)))
    seen_src, seen_trg = set(), set()
    with open(out_f, "w", encoding="utf-8") as f:
        for i in np.argsort(-scores):
            s, t = indices[i]
            if s not in seen_src and t not in seen_trg:
                seen_src.add(s)
                seen_trg.add(t)
                f.write(f"{src[s]}\t{trg[t]}\t{scores[i]:.6f}\n")


if __name__ == "__main__":
    main()
