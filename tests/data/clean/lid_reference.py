#!/usr/bin/python3
"""The lid rule's fastText half, recomputed with fastText's own Python
predict (python3-fasttext), against what pc-clean decided:

  lid_reference.py MODEL CLD2_ONLY.tsv WITH_MODEL.tsv SRC_LANG TRG_LANG

Both files are pc-clean --annotate --chain lid output of the same rows,
without and with --lid-model. A row must be rejected with the model exactly
when CLD2 rejected it or the model says a side is in another language: best
label another language with p >= 0.5, the expected language under p 0.02, a
side of 2 words or more, and English or the other side's language on a side
under 10 words not taken as evidence (filter/rules.cpp). Prints
"N rows: C by CLD2, F by the model, W with it" and exits 1 on any row that
differs."""
import csv
import sys

import fasttext

csv.field_size_limit(1 << 30)
fasttext.FastText.eprint = lambda *a, **k: None  # its load-time warning
model, cld2_only, with_model, sl, tl = sys.argv[1:6]
m = fasttext.load_model(model)


def rows(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def other_language(text, lang, other):
    words = len(text.split())
    if words < 2:
        return False
    labels, probs = m.predict(text, k=-1)
    g = [(l[len("__label__"):], float(p)) for l, p in zip(labels, probs)]
    top, p = g[0]
    if p < 0.5 or top == lang:
        return False
    if sum(q for l, q in g if l == lang) >= 0.02:
        return False
    return not (words < 10 and top in ("en", other))


a, b = rows(cld2_only), rows(with_model)
assert len(a) == len(b), "row counts differ"
bad = 0
n_c = n_f = n_w = 0
for i, (x, y) in enumerate(zip(a, b)):
    c = x["clean_reason"] == "lid"
    f = other_language(x["src_text"], sl, tl) or other_language(x["trg_text"], tl, sl)
    w = y["clean_reason"] == "lid"
    n_c += c
    n_f += f
    n_w += w
    if w != (c or f):
        bad += 1
        print("row %d: pc-clean %s, CLD2 %s, Python's fastText %s: %s" % (i + 1, w, c, f, x["trg_text"]), file=sys.stderr)
print("%d rows: %d by CLD2, %d by the model, %d with it" % (len(a), n_c, n_f, n_w))
sys.exit(1 if bad else 0)
