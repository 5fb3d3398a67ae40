#!/usr/bin/env python3
"""Copy-friendly training data for pc-nmt (issue 21): nmt-copy-data.py IN.tsv SHARE OUT.tsv

Writes IN.tsv (a src_text<TAB>trg_text bitext with a header) followed by
copies of the source side as target, "src<TAB>src", for SHARE of the pairs
(0.05: one pair in twenty), chosen by SHA-256 of the pair, so the same input
gives the same file. The copies teach the model that names, options, paths
and codes it has not seen are written out as they are.
"""
import hashlib
import sys


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    src_path, share, out_path = argv[0], float(argv[1]), argv[2]
    if not 0 <= share <= 1:
        sys.exit("nmt-copy-data: SHARE must be in [0, 1]")
    limit = int(share * 2**32)
    with open(src_path, encoding="utf-8", newline="\n") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0].split("\t")[:2] != ["src_text", "trg_text"]:
        sys.exit("nmt-copy-data: %s: expected a src_text<TAB>trg_text header" % src_path)
    copies = []
    for i, line in enumerate(lines[1:], start=2):
        cols = line.split("\t")
        if len(cols) < 2:
            sys.exit("nmt-copy-data: %s:%d: expected two columns" % (src_path, i))
        h = int.from_bytes(hashlib.sha256(line.encode("utf-8")).digest()[:4], "big")
        if h < limit:
            copies.append(cols[0] + "\t" + cols[0])
    with open(out_path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines + copies) + "\n")
    print("nmt-copy-data: %d pairs, %d copies added" % (len(lines) - 1, len(copies)), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
