#!/usr/bin/python3
"""A multilingual seed bitext for one language pair's neural encoder: en-X's
train pairs, then the train pairs of the other languages of the package split
(en-Y), without any pair of a package that gives en-X test or valid pairs and
without any pair whose English side is an English side of en-X's test or valid
files. So the encoder for en-X sees more English wording (and other languages'
translations of it) but nothing of en-X's held-out packages.

    bench/embed-multilingual-train.py SPLIT X Y... > en-X.multi.tsv

SPLIT is scripts/make-package-split.sh's folder (with its *.train.packages).
Rows: src_text, trg_text; en-X first, then each Y in the order given. Counts
go to stderr."""
import sys


def rows(path):
    with open(path, encoding="utf-8") as f:
        next(f)
        return [line.rstrip("\n").split("\t") for line in f]


def main():
    split, x, others = sys.argv[1], sys.argv[2], sys.argv[3:]
    held_pkgs = set()
    with open("%s/en-%s.manifest.tsv" % (split, x), encoding="utf-8") as f:
        next(f)
        for line in f:
            name, pkg = line.split("\t")[:2]
            if name in ("test", "valid"):
                held_pkgs.add(pkg)
    held_en = {r[0] for name in ("test", "valid") for r in rows("%s/en-%s.%s.tsv" % (split, x, name))}
    out = sys.stdout
    out.write("src_text\ttrg_text\n")
    own = rows("%s/en-%s.train.tsv" % (split, x))
    for s, t in own:
        out.write(s + "\t" + t + "\n")
    print("en-%s: %d own train pairs" % (x, len(own)), file=sys.stderr)
    for y in others:
        pairs = rows("%s/en-%s.train.tsv" % (split, y))
        with open("%s/en-%s.train.packages" % (split, y), encoding="utf-8") as f:
            pkgs = [line.rstrip("\n") for line in f]
        if len(pkgs) != len(pairs):
            sys.exit("embed-multilingual-train: en-%s.train.packages has %d lines for %d pairs" % (y, len(pkgs), len(pairs)))
        kept = 0
        for (s, t), pkg in zip(pairs, pkgs):
            if pkg in held_pkgs or s in held_en:
                continue
            out.write(s + "\t" + t + "\n")
            kept += 1
        print("en-%s: %d of %d train pairs kept" % (y, kept, len(pairs)), file=sys.stderr)


main()
