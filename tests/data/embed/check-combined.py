#!/usr/bin/python3
"""Checks a combined encoder's vectors against its parts' (the rows of
tests/cli/pc-embed.tst): each row must be [lex ; W neural] / sqrt(|lex|^2 +
W^2 |neural|^2), the parts each at unit length or zero.

    check-combined.py LEX.npy NEURAL.npy COMBINED.npy W
        -> "max-abs-diff <= 1e-6" (or the difference) and the rows checked"""
import sys

import numpy as np

lex, neu, com = (np.load(p).astype(np.float64) for p in sys.argv[1:4])
w = float(sys.argv[4])
assert com.shape == (len(lex), lex.shape[1] + neu.shape[1]), (com.shape, lex.shape, neu.shape)
nl = np.linalg.norm(lex, axis=1, keepdims=True)
nn = np.linalg.norm(neu, axis=1, keepdims=True)
a = np.where(nl > 0, lex / np.maximum(nl, 1e-30), 0)
b = np.where(nn > 0, w * neu / np.maximum(nn, 1e-30), 0)
want = np.hstack([a, b])
whole = np.linalg.norm(want, axis=1, keepdims=True)
want = np.where(whole > 0, want / np.maximum(whole, 1e-30), 0)
diff = np.abs(want - com).max()
print("max-abs-diff <= 1e-6" if diff <= 1e-6 else "max-abs-diff %g" % diff)
print("rows %d, both parts %d, neural only %d, empty %d" % (
    len(com), int(((nl > 0) & (nn > 0)).sum()), int(((nl == 0) & (nn > 0)).sum()), int(((nl == 0) & (nn == 0)).sum())))
