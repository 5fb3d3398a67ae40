#!/usr/bin/python3
"""Retrieval P@1 of two encoders combined: each side's vector is the lexical
one and W times the neural one, concatenated (both unit length, so the
combined cosine is (cos_lex + W^2 cos_neural) / (1 + W^2)).

    bench/embed-combine.py LEX_SRC.npy LEX_TRG.npy NEU_SRC.npy NEU_TRG.npy W...
        -> one line "W p1_fwd p1_bwd" per weight on stdout

Ranking as bench/embed-p-at-1.py (dot product, ties to the lowest row)."""
import sys

import numpy as np

ls, lt, ns, nt = (np.load(p).astype(np.float32) for p in sys.argv[1:5])
gold = np.arange(len(ls))
for w in sys.argv[5:]:
    w2 = float(w) ** 2
    s = (ls @ lt.T + w2 * (ns @ nt.T)) / (1 + w2)
    print("%s %.4f %.4f" % (w, (s.argmax(axis=1) == gold).mean(), (s.argmax(axis=0) == gold).mean()))
