#!/usr/bin/env python3
"""Names kept verbatim: nmt-names-kept.py SRC REF HYP...

A name is a source token (punctuation stripped at its ends) that has a
capital letter after its first character or a digit mixed with letters
("GnuCash", "GIMP", "KDE", "mp3"), or that starts with a capital and is not
the sentence's first word ("Debian", "Ubuntu"), AND appears verbatim in the
reference: the words a translator kept. For each HYP file, prints the share
of those names that appear verbatim in the hypothesis line, and the count.
"""
import re
import sys

STRIP = "\"'()[]{}<>.,;:!?«»“”„"


def names(src, ref):
    out = []
    words = src.split()
    ref_tokens = set(w.strip(STRIP) for w in ref.split())
    for i, w in enumerate(words):
        w = w.strip(STRIP)
        if len(w) < 2 or not re.search(r"[^\W\d_]", w):
            continue
        inner_cap = any(c.isupper() for c in w[1:])
        mixed_digit = any(c.isdigit() for c in w)
        title = w[0].isupper() and i > 0
        if (inner_cap or mixed_digit or title) and w in ref_tokens:
            out.append(w)
    return out


def main(argv):
    src = open(argv[0], encoding="utf-8").read().split("\n")
    ref = open(argv[1], encoding="utf-8").read().split("\n")
    for path in argv[2:]:
        hyp = open(path, encoding="utf-8").read().split("\n")
        total = kept = 0
        for s, r, h in zip(src, ref, hyp):
            ht = set(w.strip(STRIP) for w in h.split())
            for n in names(s, r):
                total += 1
                kept += n in ht
        share = kept / total if total else float("nan")
        print(f"{path}\t{kept}/{total}\t{100 * share:.1f}%")


if __name__ == "__main__":
    main(sys.argv[1:])
