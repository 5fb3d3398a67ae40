#!/usr/bin/python3
# check-vectors.py OUT.npy MODEL POOLING: the rows pc-embed encode wrote for
# the fixture sentences (expected.json "sentences", one a line) against the
# vectors the torch reference gave (expected.json "models"). Prints the
# largest absolute difference; exit 1 past 1e-4.
import json
import os
import sys

import numpy as np

npy, model, pooling = sys.argv[1:4]
here = os.path.dirname(os.path.abspath(__file__))
expected = json.load(open(os.path.join(here, "expected.json"), encoding="utf-8"))
want = np.array([row[pooling] for row in expected["models"][model]], dtype=np.float64)
got = np.load(npy).astype(np.float64)
if got.shape != want.shape:
    print(f"shape {got.shape}, expected {want.shape}")
    sys.exit(1)
diff = float(np.abs(got - want).max())
print(f"max-abs-diff {diff:.1e}" if diff > 1e-4 else "max-abs-diff <= 1e-4")
sys.exit(1 if diff > 1e-4 else 0)
