#!/usr/bin/python3
"""Reads pc-mine's files for bench/mine-ivf-recall.sh:

    mine-knn-compare.py recall FLAT.knn APPROX.knn   top-1 and recall@k of APPROX against FLAT (tab-separated)
    mine-knn-compare.py lists SHARD.idx              list sizes of an IVF shard file

A .knn file is what `pc-mine search` writes (align/mine/knn.h): "PCKNN001",
uint64 queries, uint32 k, uint32 0, uint64 indexed, int64 ids[queries*k],
float32 sims[queries*k]. A shard file holds FAISS's serialisation after
pc-mine's header; its inverted lists start at FAISS's "ilar" tag (nlist,
code size, then "full" and every list's size, or "sprs" and (list, size)
pairs). Ties in cosine may be ordered differently by the two indexes: a tied
neighbour found counts as found only under its own id.
"""
import struct
import sys

import numpy as np


def knn(path):
    b = open(path, "rb").read()
    if b[:8] != b"PCKNN001":
        sys.exit(f"{path}: not a pc-mine top-k list file")
    q, k, _, _ = struct.unpack("<QIIQ", b[8:32])
    return np.frombuffer(b, np.int64, q * k, 32).reshape(q, k)


def list_sizes(path):
    b = open(path, "rb").read()
    i = b.find(b"ilar")
    if i < 0:
        sys.exit(f"{path}: no FAISS inverted lists (not an IVF index)")
    nlist, _ = struct.unpack("<QQ", b[i + 4:i + 20])
    tag, (n,) = b[i + 20:i + 24], struct.unpack("<Q", b[i + 24:i + 32])
    if tag == b"full":
        return np.frombuffer(b, np.uint64, n, i + 32).astype(np.int64)
    pairs = np.frombuffer(b, np.uint64, 2 * n, i + 32).reshape(-1, 2).astype(np.int64)
    s = np.zeros(nlist, np.int64)
    s[pairs[:, 0]] = pairs[:, 1]
    return s


if sys.argv[1] == "recall":
    a, b = knn(sys.argv[2]), knn(sys.argv[3])
    top1 = np.mean(a[:, 0] == b[:, 0])
    rec = np.mean([len(set(x) & set(y)) / len(x) for x, y in zip(a, b)])
    print(f"{top1:.4f}\t{rec:.4f}")
else:
    s = list_sizes(sys.argv[2])
    print(f"lists {len(s)}, empty {int(np.sum(s == 0))}, mean {s.mean():.1f}, median {np.median(s):.0f}, "
          f"largest {s.max()}, rows in lists over 4x the mean {s[s > 4 * s.mean()].sum() / s.sum():.3f}")
