#!/usr/bin/python3
"""Retrieval P@1 of two encoders combined: each side's vector is the lexical
one and W times the neural one, concatenated (both unit length, so the
combined cosine is (cos_lex + W^2 cos_neural) / (1 + W^2)).

    bench/embed-combine.py LEX_SRC.npy LEX_TRG.npy NEU_SRC.npy NEU_TRG.npy W... [--margin K] [--pairs TSV]
        -> one line "W p1_fwd p1_bwd" per weight on stdout

Ranking and counting as bench/embed-p-at-1.py (bench/p_at_1.py)."""
import numpy as np

from p_at_1 import options, p_at_1

p = options(__doc__.split("\n")[0])
p.add_argument("npy", nargs=4)
p.add_argument("weights", nargs="+")
a = p.parse_args()
ls, lt, ns, nt = (np.load(f).astype(np.float32) for f in a.npy)
lex, neu = ls @ lt.T, ns @ nt.T
for w in a.weights:
    w2 = float(w) ** 2
    print("%s %.4f %.4f" % ((w,) + p_at_1((lex + w2 * neu) / (1 + w2), a.margin, a.pairs)))
