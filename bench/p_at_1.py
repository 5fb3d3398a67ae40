"""Retrieval P@1 shared by bench/embed-p-at-1.py and bench/embed-combine.py.

S is the similarity matrix (row i = source i, column j = target j; row i and
column i are translations). Each source picks its best target and each
target its best source; ties go to the lowest index (numpy argmax), so a zero
vector never wins by accident against a real match with a positive score.

Scoring: cosine (margin 0), or pc-mine's ratio margin with k neighbours:
S[i,j] / ((mean of row i's k best + mean of column j's k best) / 2), as
Artetxe & Schwenk (2019) and pc-mine --margin ratio.

Counting: by row (the pick is right only when it is row i itself), or by text
(--pairs TSV: right when the picked sentence and the query are a pair of the
gold, so a target string that occurs on two rows, which has one vector, is
right from either row; a sentence with two gold translations is right with
either). Counting by row caps P@1 below 1 when strings repeat."""
import argparse

import numpy as np


def options(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--pairs", help="the pairs' TSV (header, src_text and trg_text first): count by text")
    p.add_argument("--margin", type=int, default=0, metavar="K",
                   help="rank by pc-mine's ratio margin over K neighbours (0: cosine) [0]")
    return p


def ratio_margin(s, k):
    if k <= 0:
        return s
    rs = np.sort(s, axis=1)[:, -k:].mean(axis=1)
    rt = np.sort(s, axis=0)[-k:, :].mean(axis=0)
    return s / ((rs[:, None] + rt[None, :]) / 2)


def read_pairs(path, n):
    with open(path, encoding="utf-8") as f:
        rows = [line.split("\t")[:2] for line in f.read().split("\n")[1:] if line]
    if len(rows) != n:
        raise SystemExit("p_at_1: %s has %d pairs, the vectors %d rows" % (path, len(rows), n))
    return [r[0] for r in rows], [r[1] for r in rows]


def p_at_1(s, margin=0, pairs=None):
    """(fwd, bwd) P@1 of similarity matrix s."""
    m = ratio_margin(s, margin)
    fwd, bwd = m.argmax(axis=1), m.argmax(axis=0)
    n = len(fwd)
    if pairs is None:
        gold = np.arange(n)
        return (fwd == gold).mean(), (bwd == gold).mean()
    src, trg = read_pairs(pairs, n)
    gold = set(zip(src, trg))
    return (sum((src[i], trg[fwd[i]]) in gold for i in range(n)) / n,
            sum((src[bwd[j]], trg[j]) in gold for j in range(n)) / n)
