#!/usr/bin/python3
"""Retrieval P@1 of sentence vectors: row i of SRC.npy and row i of TRG.npy
are translations; each source is ranked against every target by dot product
(the vectors are unit length, so cosine) or pc-mine's ratio margin, and the
other way round (bench/p_at_1.py says how ties, margins and counting work).

    bench/embed-p-at-1.py SRC.npy TRG.npy [--margin K] [--pairs TSV]
        ->  "p1_fwd p1_bwd" on stdout"""
import numpy as np

from p_at_1 import options, p_at_1

p = options(__doc__.split("\n")[0])
p.add_argument("src")
p.add_argument("trg")
a = p.parse_args()
s, t = np.load(a.src).astype(np.float32), np.load(a.trg).astype(np.float32)
if s.shape != t.shape:
    raise SystemExit("embed-p-at-1: %s and %s differ in shape: %s vs %s" % (a.src, a.trg, s.shape, t.shape))
print("%.4f %.4f" % p_at_1(s @ t.T, a.margin, a.pairs))
