#!/usr/bin/python3
"""Independent NumPy reference for pc-ibm1 (tests/cli/pc-ibm1.tst).

    ibm1_reference.py MODEL.safetensors BITEXT.tsv ITERATIONS

Reads the model with a plain json+struct safetensors reader (checking the
layout rules Python's `safetensors` enforces: 8-byte header length, JSON header,
tensors contiguous from offset 0 with no holes and no trailing bytes), runs the
same EM (IBM Model 1, NULL word, uniform start, both directions) in float64 on
the same whitespace tokens, and compares every table entry. Exits 1 when the
model file is malformed, when the sets of entries differ, or when any
probability differs by more than 1e-6.
"""
import json
import struct
import sys

import numpy as np

DTYPES = {"U8": np.uint8, "U32": np.uint32, "U64": np.uint64, "F32": np.float32, "F64": np.float64,
          "I64": np.int64, "I32": np.int32}


def fail(msg):
    print("ibm1_reference: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def read_safetensors(path):
    data = open(path, "rb").read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n].decode("utf-8"))
    buf = data[8 + n:]
    meta = header.pop("__metadata__", {})
    spans, tensors = [], {}
    for name, t in header.items():
        b, e = t["data_offsets"]
        dt = np.dtype(DTYPES[t["dtype"]]).newbyteorder("<")
        count = int(np.prod(t["shape"])) if t["shape"] else 1
        if e - b != count * dt.itemsize:
            fail("%s: shape %s does not match %d bytes" % (name, t["shape"], e - b))
        spans.append((b, e))
        tensors[name] = np.frombuffer(buf, dtype=dt, count=count, offset=b).reshape(t["shape"])
    pos = 0
    for b, e in sorted(spans):
        if b != pos:
            fail("hole or overlap in the data buffer at %d" % pos)
        pos = e
    if pos != len(buf):
        fail("%d bytes after the last tensor" % (len(buf) - pos))
    return meta, tensors


def vocab(t, side):
    off, raw = t[side + ".vocab.offsets"], t[side + ".vocab.bytes"].tobytes()
    return [raw[off[i]:off[i + 1]].decode("utf-8") for i in range(len(off) - 1)]


def main():
    model, bitext, iterations = sys.argv[1], sys.argv[2], int(sys.argv[3])
    meta, t = read_safetensors(model)
    if meta.get("format") != "paracorp.ibm1" or meta.get("version") != "1":
        fail("metadata %r" % meta)
    cfg = json.loads(meta["config"])
    if cfg["tokenize"] != "whitespace" or cfg["lowercase"] or cfg["prune"] != 0 or cfg["iterations"] != iterations:
        fail("the model must be trained with --tokenize whitespace --prune 0 --iterations %d" % iterations)

    pairs = []
    with open(bitext, encoding="utf-8") as f:
        for k, line in enumerate(f):
            s, g = line.rstrip("\n").split("\t")
            if k == 0 and (s, g) == ("src_text", "trg_text"):
                continue
            s = [w for w in s.split(" ") if w]
            g = [w for w in g.split(" ") if w]
            if s and g:
                pairs.append((s, g))
    sv = [""] + sorted({w for s, _ in pairs for w in s})
    tv = [""] + sorted({w for _, g in pairs for w in g})
    sid = {w: i for i, w in enumerate(sv)}
    tid = {w: i for i, w in enumerate(tv)}
    keys = sorted({(sid[a], tid[b]) for s, g in pairs for a in set(s) for b in set(g)})
    kid = {k: i for i, k in enumerate(keys)}
    ksrc = np.array([k[0] for k in keys])
    ktrg = np.array([k[1] for k in keys])
    data = []
    for s, g in pairs:
        S = np.array([sid[w] for w in s])
        G = np.array([tid[w] for w in g])
        K = np.array([[kid[(a, b)] for b in G] for a in S])
        data.append((S, G, K))
    nnz, vs, vt = len(keys), len(sv), len(tv)
    tf = np.full(nnz, 1.0 / (vt - 1))
    tr = np.full(nnz, 1.0 / (vs - 1))
    nf = np.full(vt, 1.0 / (vt - 1))
    nr = np.full(vs, 1.0 / (vs - 1))
    nf[0] = nr[0] = 0
    for _ in range(iterations):
        cf, cr, cnf, cnr = np.zeros(nnz), np.zeros(nnz), np.zeros(vt), np.zeros(vs)
        for S, G, K in data:
            F = tf[K]
            d = nf[G] + F.sum(axis=0)
            np.add.at(cf, K, F / d)
            np.add.at(cnf, G, nf[G] / d)
            R = tr[K]
            d = nr[S] + R.sum(axis=1)
            np.add.at(cr, K, R / d[:, None])
            np.add.at(cnr, S, nr[S] / d)
        tf = cf / np.bincount(ksrc, weights=cf, minlength=vs)[ksrc]
        tr = cr / np.bincount(ktrg, weights=cr, minlength=vt)[ktrg]
        nf = cnf / cnf.sum()
        nr = cnr / cnr.sum()

    msv, mtv = vocab(t, "src"), vocab(t, "trg")
    if msv != sv or mtv != tv:
        fail("vocabularies differ (%d/%d source, %d/%d target words)" % (len(msv), len(sv), len(mtv), len(tv)))
    worst = 0.0
    for name, rows, given_of, gen_of, probs, nullp in (
            ("fwd", vs, ksrc, ktrg, tf, nf), ("rev", vt, ktrg, ksrc, tr, nr)):
        indptr, indices, values = t[name + ".indptr"], t[name + ".indices"], t[name + ".values"]
        if len(indptr) != rows + 1:
            fail("%s has %d rows, expected %d" % (name, len(indptr) - 1, rows))
        ref = {}
        for k in range(nnz):
            ref[(int(given_of[k]), int(gen_of[k]))] = probs[k]
        for w in range(1, len(nullp)):
            ref[(0, w)] = nullp[w]
        got = {}
        for r in range(rows):
            for k in range(int(indptr[r]), int(indptr[r + 1])):
                got[(r, int(indices[k]))] = float(values[k])
        if set(got) != set(ref):
            fail("%s: %d entries in the model, %d in the reference" % (name, len(got), len(ref)))
        diff = max(abs(got[k] - ref[k]) for k in ref)
        worst = max(worst, diff)
        if diff > 1e-6:
            fail("%s: largest difference %.3g > 1e-6" % (name, diff))
    print("ibm1_reference: %d pairs, %d table entries, largest difference %.3g (<= 1e-6)" %
          (len(pairs), 2 * nnz + vs + vt - 2, worst))


if __name__ == "__main__":
    main()
