#!/usr/bin/python3
"""Builds BUCC-style mining sets from a package split (scripts/make-package-split.sh):

    mine-bucc-sets.py SPLIT.tsv GOLD_N OUT_PREFIX [PAIRS.tsv...]

SPLIT.tsv (src_text, trg_text) holds pairs of packages that gave no training
pairs. The first GOLD_N pairs are the gold; of the rest, the first half gives
source-only distractors (their translations are left out) and the second half
target-only ones, so each side has the gold hidden among the distractors. A
sentence that occurs twice on a side is kept once. A distractor is dropped
when a translation of it is on the other side: a pair of SPLIT.tsv or of
PAIRS.tsv (the other splits) joins the two texts. Catalogues repeat short
strings across packages ("Cancel" / "Abbrechen"), so without this the set holds
real pairs that the gold does not list, and mining them counts as false
positives. Texts are joined after case folding with only their letters and
digits kept, so "Undefined" / "Undefiniert" also drops the distractor
"undefined" when "Undefiniert" is on the other side (before this, 2026-12-06,
about a fifth of the false positives of a 30-row sample of en-de were such
variants: "List" / "LISTE", "write" / "schreiben"). Each side is shuffled with
a fixed seed. Writes OUT_PREFIX.src.txt, OUT_PREFIX.trg.txt (one sentence per
line) and OUT_PREFIX.gold.tsv (1-based line numbers: SRC<TAB>TRG).
"""
import random
import sys


def key(text):
    """The text as the join sees it: case folded, letters and digits only."""
    return "".join(c for c in text.casefold() if c.isalnum())


def main():
    split, gold_n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(split, encoding="utf-8") as f:
        rows = [l.rstrip("\n").split("\t") for l in f][1:]
    fwd, bwd = {}, {}  # every known pair, both ways
    for path in [split] + sys.argv[4:]:
        with open(path, encoding="utf-8") as f:
            for i, l in enumerate(f):
                if i == 0:
                    continue
                s, t = l.rstrip("\n").split("\t")[:2]
                fwd.setdefault(key(s), set()).add(key(t))
                bwd.setdefault(key(t), set()).add(key(s))
    gold, rest = rows[:gold_n], rows[gold_n:]
    half = len(rest) // 2
    src = [(s, i) for i, (s, _) in enumerate(gold)] + [(s, None) for s, _ in rest[:half]]
    trg = [(t, i) for i, (_, t) in enumerate(gold)] + [(t, None) for _, t in rest[half:]]
    trg_keys = {key(t) for t, _ in trg}
    src = [(s, g) for s, g in src if g is not None or not (fwd.get(key(s), set()) & trg_keys)]
    src_keys = {key(s) for s, _ in src}
    trg = [(t, g) for t, g in trg if g is not None or not (bwd.get(key(t), set()) & src_keys)]
    lines = {}
    for side, items in (("src", src), ("trg", trg)):
        seen, keep = set(), []
        for text, g in items:
            if text in seen:
                continue
            seen.add(text)
            keep.append((text, g))
        random.Random(17 if side == "src" else 18).shuffle(keep)
        with open(f"{out}.{side}.txt", "w", encoding="utf-8") as f:
            f.write("".join(t + "\n" for t, _ in keep))
        lines[side] = {g: n + 1 for n, (_, g) in enumerate(keep) if g is not None}
    with open(f"{out}.gold.tsv", "w", encoding="utf-8") as f:
        for g in range(gold_n):
            if g in lines["src"] and g in lines["trg"]:
                f.write(f"{lines['src'][g]}\t{lines['trg'][g]}\n")
    print(f"{out}: {len(lines['src'])} gold, {sum(1 for _ in open(out + '.src.txt'))} source and "
          f"{sum(1 for _ in open(out + '.trg.txt'))} target sentences", file=sys.stderr)


if __name__ == "__main__":
    main()
