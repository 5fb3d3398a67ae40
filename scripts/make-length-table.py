#!/usr/bin/env python3
"""Expected length ratios per language against English, for pc-clean's wratio rule.

    scripts/make-length-table.py [--exclude MANIFEST.tsv ...] > table.inc

For every language under /usr/share/locale (SPLIT_LOCALEDIR) with at least
MIN_PAIRS catalogue pairs (read and filtered as scripts/gettext_catalogues.py
does for the sample bitext), prints one C++ initialiser row:

    {"LANG", WORDS, CHARS, PAIRS},

WORDS = mean of log((words_trg + 1) / (words_en + 1)), CHARS = mean of
log((chars_trg + 5) / (chars_en + 5)) over the pairs, the lowest and highest
10% left out (a median of word counts' ratios sticks to a few values): what a translation's
length is expected to be against its English source. The smoothing constants
are the rule's (filter/length_table.h). Packages named as test or valid in the
manifests of scripts/make-package-split.sh (--exclude) are left out, so the
table holds no statistic of the held-out pairs the noise benchmark uses.
"""
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gettext_catalogues import owning_packages, read_mo, normalise, strip_accel, why_rejected  # noqa: E402

LOCALEDIR = os.environ.get("SPLIT_LOCALEDIR", "/usr/share/locale")
MIN_PAIRS = 2000


def trimmed_mean(values):
    v = sorted(values)
    cut = len(v) // 10
    return statistics.fmean(v[cut:len(v) - cut])


def main(argv):
    excluded = set()
    for i, a in enumerate(argv):
        if a == "--exclude":
            with open(argv[i + 1], encoding="utf-8") as f:
                for line in f:
                    cols = line.rstrip("\n").split("\t")
                    if cols[0] in ("test", "valid"):
                        excluded.add(cols[1])
    for lang in sorted(os.listdir(LOCALEDIR)):
        d = os.path.join(LOCALEDIR, lang, "LC_MESSAGES")
        if not os.path.isdir(d) or lang.startswith("en"):
            continue
        mos = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".mo"))
        if not mos:
            continue
        owner = owning_packages(mos)
        seen, words, chars = set(), [], []
        for mo in mos:
            if owner.get(mo) in excluded:
                continue
            for _ctxt, msgid, msgstr in read_mo(mo):
                src = normalise(strip_accel(normalise(msgid)))
                trg = normalise(strip_accel(normalise(msgstr)))
                if why_rejected(src, trg) is not None or (src, trg) in seen:
                    continue
                seen.add((src, trg))
                words.append(math.log((len(trg.split()) + 1) / (len(src.split()) + 1)))
                chars.append(math.log((len(trg) + 5) / (len(src) + 5)))
        if len(words) >= MIN_PAIRS:
            print(f'    {{"{lang}", {trimmed_mean(words):.4f}, {trimmed_mean(chars):.4f}, {len(words)}}},')


if __name__ == "__main__":
    main(sys.argv[1:])
