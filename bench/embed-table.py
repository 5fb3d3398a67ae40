#!/usr/bin/python3
"""Markdown tables for docs/embed.md from bench/embed-retrieval.sh output:

    bench/embed-table.py RESULTS.tsv...

Table 1: P@1 (en→X / X→en) by seed size for each encoder configuration of
set A and the dictionary rows; table 2: the remaining configurations (all
pairs), i.e. each post-processing step on and off, and the neural encoder
combined with the lexical one (bench/embed-neural.sh); with training seconds."""
import csv
import sys
from collections import OrderedDict

rows = []
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        rows += list(csv.DictReader(f, delimiter="\t"))
langs = list(OrderedDict.fromkeys(r["lang"] for r in rows))
cell = {(r["lang"], r["seed"], r["config"]): r for r in rows}


def fmt(r):
    return "%.3f / %.3f" % (float(r["p1_fwd"]), float(r["p1_bwd"])) if r else "–"


def secs(r):
    return "%.1f" % float(r["train_s"]) if r and r["train_s"] else "–"


print("| encoder | seed | " + " | ".join("en–%s P@1 | s" % l for l in langs) + " |")
print("|---|---|" + "---:|---:|" * len(langs))
for config in ("bags", "bags+chars", "lsa", "combined", "combined+dict", "neural"):
    for seed in ("2000", "10000", "all", "dict"):
        rs = [cell.get((l, seed, config)) for l in langs]
        if any(rs):
            print("| %s | %s | %s |" % (config, seed, " | ".join("%s | %s" % (fmt(r), secs(r)) for r in rs)))
print()
print("| configuration (all pairs) | " + " | ".join("en–%s P@1" % l for l in langs) + " |")
print("|---|" + "---:|" * len(langs))
seen = OrderedDict.fromkeys(r["config"] for r in rows if r["seed"] == "all" and ":" in r["config"])
for config in ["lsa"] + list(k for k in seen if k.startswith("lsa:")) + ["combined"] + \
        list(k for k in seen if k.startswith("combined:")) + list(k for k in seen if k.startswith("neural")):
    print("| %s | %s |" % (config, " | ".join(fmt(cell.get((l, "all", config))) for l in langs)))
