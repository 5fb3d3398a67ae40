#!/usr/bin/python3
"""Retrieval P@1 of sentence vectors: row i of SRC.npy and row i of TRG.npy
are translations; each source is ranked against every target by dot product
(the vectors are unit length, so cosine) and the other way round.

    bench/embed-p-at-1.py SRC.npy TRG.npy      ->  "p1_fwd p1_bwd" on stdout

Ties go to the lowest row index (numpy argmax), so a zero vector never wins
by accident against a real match with a positive score."""
import sys

import numpy as np

a = np.load(sys.argv[1]).astype(np.float32)
b = np.load(sys.argv[2]).astype(np.float32)
if a.shape != b.shape:
    sys.exit("embed-p-at-1: %s and %s differ in shape: %s vs %s" % (sys.argv[1], sys.argv[2], a.shape, b.shape))
s = a @ b.T
gold = np.arange(len(a))
print("%.4f %.4f" % ((s.argmax(axis=1) == gold).mean(), (s.argmax(axis=0) == gold).mean()))
