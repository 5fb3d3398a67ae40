#!/usr/bin/python3
"""Runs hunalign on doc-pair JSONL and writes its alignments in Vecalign format.

    align-hunalign.py HUNALIGN PAIRS.jsonl OUT_DIR [--tok] [--realign] [--write-only]

hunalign (github.com/danielvarga/hunalign, built by hand, never part of this
repository) reads one sentence per line and a dictionary; it is run here with
an empty dictionary, `-utf` (lengths in characters), on every document pair
of PAIRS.jsonl on its own. --tok gives it tokenised text instead of the raw
sentences: words and punctuation split apart (the regex \\w+|[^\\w\\s]),
case kept, one space between tokens, which is what hunalign expects (it
matches tokens, such as numbers and names, identical on both sides).
--realign adds hunalign's -realign (a dictionary built from a first pass).

hunalign's ladder (rungs i j: the first i source sentences match the first j
target sentences, from 0 0 to n m) becomes one bead per pair of consecutive
rungs, src[i0, i1) with trg[j0, j1); a bead with one empty side becomes one
deletion per sentence, as pc-align and the gold files write them. Writes
OUT_DIR/t.N.txt (N: the pair's line, from 0), which pc-eval align scores
against align-gold.py's gold.N.txt, and OUT_DIR/src.N.txt and trg.N.txt, the
files hunalign read (--write-only stops there, for timing hunalign alone).
"""
import argparse
import json
import os
import re
import subprocess

TOKEN = re.compile(r"\w+|[^\w\s]")


def line(s, tok):
    # One sentence a line: newlines inside a sentence would add lines.
    s = " ".join(s.split())
    return " ".join(TOKEN.findall(s)) if tok else s


def beads(ladder, n, m):
    rungs = []
    for l in ladder.splitlines():
        f = l.split("\t")
        if len(f) >= 2:
            rungs.append((int(f[0]), int(f[1])))
    if not rungs or rungs[0] != (0, 0) or rungs[-1] != (n, m):
        raise SystemExit(f"hunalign's ladder does not run from (0, 0) to ({n}, {m}): {rungs[:1]} ... {rungs[-1:]}")
    out = []
    for (i0, j0), (i1, j1) in zip(rungs, rungs[1:]):
        if i1 < i0 or j1 < j0:
            raise SystemExit(f"hunalign's ladder goes back: ({i0}, {j0}) then ({i1}, {j1})")
        if i1 > i0 and j1 > j0:
            out.append((list(range(i0, i1)), list(range(j0, j1))))
        else:
            out += [([i], []) for i in range(i0, i1)] + [([], [j]) for j in range(j0, j1)]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("hunalign")
    ap.add_argument("pairs")
    ap.add_argument("out")
    ap.add_argument("--tok", action="store_true")
    ap.add_argument("--realign", action="store_true")
    ap.add_argument("--write-only", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    empty = os.path.join(a.out, "empty.dic")
    open(empty, "w").close()
    for n, l in enumerate(open(a.pairs, encoding="utf-8")):
        d = json.loads(l)
        files = []
        for side in ("src", "trg"):
            p = os.path.join(a.out, f"{side}.{n}.txt")
            with open(p, "w", encoding="utf-8") as f:
                for s in d[f"{side}_sentences"]:
                    f.write(line(s, a.tok) + "\n")
            files.append(p)
        if a.write_only:
            continue
        cmd = [a.hunalign, "-utf"] + (["-realign"] if a.realign else [])
        r = subprocess.run(cmd + [empty] + files, capture_output=True, text=True, check=True)
        with open(os.path.join(a.out, f"t.{n}.txt"), "w") as f:
            for s, t in beads(r.stdout, len(d["src_sentences"]), len(d["trg_sentences"])):
                f.write(f"{s}:{t}\n")


main()
