#!/usr/bin/python3
"""Writes pc-align's golden-test fixtures from data/samples/bitext/en-de.tsv.

Three document pairs of consecutive catalogue pairs (rows 2001-2060, which the
golden rows' encoders also see in training: these fixtures test the tool's
plumbing, the accuracy figures in docs/align.md come from bench/ on held-out
text), with known edits: a source sentence dropped from the target side, a
target sentence without source, a 2-1 and a 1-2 merge. Writes pairs.jsonl and
gold.N.txt (Vecalign's format, one per pair). Deterministic.
"""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(here, "../../../data/samples/bitext/en-de.tsv"), encoding="utf-8")][1:]
rows = rows[2000:2060]


def doc(pairs, edits):
    """edits: {index: kind} with kind in del_src, del_trg, merge21, merge12."""
    src, trg, gold = [], [], []
    i = 0
    while i < len(pairs):
        kind = edits.get(i)
        s, t = pairs[i]
        if kind == "del_src":  # the source sentence has no translation
            gold.append(([len(src)], []))
            src.append(s)
            i += 1
        elif kind == "del_trg":
            gold.append(([], [len(trg)]))
            trg.append(t)
            i += 1
        elif kind == "merge21":  # two source sentences, their translations joined
            s2, t2 = pairs[i + 1]
            gold.append(([len(src), len(src) + 1], [len(trg)]))
            src += [s, s2]
            trg.append(t + " " + t2)
            i += 2
        elif kind == "merge12":
            s2, t2 = pairs[i + 1]
            gold.append(([len(src)], [len(trg), len(trg) + 1]))
            src.append(s + " " + s2)
            trg += [t, t2]
            i += 2
        else:
            gold.append(([len(src)], [len(trg)]))
            src.append(s)
            trg.append(t)
            i += 1
    return src, trg, gold


docs = [
    doc(rows[0:20], {4: "del_src", 9: "merge21", 15: "del_trg"}),
    doc(rows[20:40], {3: "merge12", 11: "del_src"}),
    doc(rows[40:60], {}),
]
with open(os.path.join(here, "pairs.jsonl"), "w", encoding="utf-8") as f:
    for n, (src, trg, _) in enumerate(docs):
        f.write(json.dumps({"src_url": f"http://example.com/en/doc{n}.html", "trg_url": f"http://example.com/de/doc{n}.html",
                            "src_lang": "en", "trg_lang": "de", "src_sentences": src, "trg_sentences": trg,
                            "docalign_score": 1.0, "docalign_method": "url"}, ensure_ascii=False) + "\n")
for n, (_, _, gold) in enumerate(docs):
    with open(os.path.join(here, f"gold.{n}.txt"), "w") as f:
        for s, t in gold:
            f.write(f"{s}:{t}\n")
sys.exit(0)
