#!/usr/bin/python3
"""Boundary precision/recall/F1 and exact-paragraph accuracy of sentence
splitters on the gold set of data/samples/split-gold (made by
scripts/make-split-gold.py) and its hand-written hard cases (hard/).

Every system runs on the same paragraphs in the same run: pc-split, pc-split
--icu-only (the plain ICU BreakIterator), Lingua::Sentence (Debian
liblingua-sentence-perl, a Perl port of Moses' split-sentences.perl with its
non-breaking prefixes) for the languages it has lists for, and
Lingua::EN::Sentence (liblingua-en-sentence-perl) for English. A system that is
not installed is left out and said so.

A boundary is a character offset in the paragraph with white space removed;
only boundaries inside a paragraph count. A paragraph is exact when its
predicted boundaries equal the gold ones.

Usage: bench/eval-split.py [--all-icu] PC_SPLIT [GOLD_DIR] > table.md
(the plain ICU row is shown for en and de only, unless --all-icu)
"""
import os
import subprocess
import sys

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
PC = ARGS[0]
GOLD = ARGS[1] if len(ARGS) > 1 else os.path.join(os.path.dirname(__file__), "..", "data", "samples", "split-gold")
LANGS = ["en", "fr", "de", "es", "ru", "hi", "ar", "zh", "ja"]
NOSPACE = {"zh", "ja"}
MOSES_LANGS = {"ca", "cs", "da", "de", "el", "en", "es", "fi", "fr", "hu", "is", "it", "lt", "lv", "nl", "pl", "pt",
               "ro", "ru", "sk", "sl", "sv"}

PERL_MOSES = r'''
use utf8; use strict; binmode(STDIN, ":utf8"); binmode(STDOUT, ":utf8");
use Lingua::Sentence; my $s = Lingua::Sentence->new($ARGV[0]);
while (my $p = <STDIN>) { chomp $p; print $s->split($p); print "\n"; }
'''
PERL_EN = r'''
use utf8; use strict; binmode(STDIN, ":utf8"); binmode(STDOUT, ":utf8");
use Lingua::EN::Sentence qw(get_sentences);
while (my $p = <STDIN>) { chomp $p; my $r = get_sentences($p) || [];
  for my $x (@$r) { $x =~ s/\s+/ /g; $x =~ s/^ | $//g; print "$x\n" if length $x; } print "\n"; }
'''


def have_perl_module(mod):
    return subprocess.run(["perl", f"-M{mod}", "-e", "1"], capture_output=True).returncode == 0


def squash(s):
    return "".join(s.split())


def boundaries(sentences):
    out, pos = set(), 0
    for s in sentences[:-1]:
        pos += len(squash(s))
        out.add(pos)
    return out


def read_gold(path):
    paras = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                paras.append(line.split("\t"))
    return paras


def run_system(kind, lang, paras):
    joiner = "" if lang in NOSPACE else " "
    text = "".join(joiner.join(p) + "\n" for p in paras)
    if kind == "pc-split":
        cmd = [PC, "-q", "--keep-paragraphs", "-l", lang]
    elif kind == "ICU":
        cmd = [PC, "-q", "--keep-paragraphs", "--icu-only", "-l", lang]
    elif kind == "Lingua::Sentence":
        cmd = ["perl", "-e", PERL_MOSES, lang]
    else:
        cmd = ["perl", "-e", PERL_EN]
    r = subprocess.run(cmd, input=text.encode(), capture_output=True, check=True)
    out = r.stdout.decode()
    groups = out.split("\n\n")
    groups = [g.strip("\n").split("\n") if g.strip("\n") else [] for g in groups]
    while len(groups) > len(paras) and groups[-1] == []:
        groups.pop()
    if len(groups) != len(paras):
        raise SystemExit(f"{kind} {lang}: {len(groups)} paragraphs out for {len(paras)} in")
    return groups


def score(paras, groups):
    tp = fp = fn = exact = mismatch = 0
    for gold, pred in zip(paras, groups):
        if squash("".join(gold)) != squash("".join(pred)):
            mismatch += 1
        g, p = boundaries(gold), boundaries(pred)
        tp += len(g & p)
        fp += len(p - g)
        fn += len(g - p)
        exact += g == p
    prec = tp / (tp + fp) if tp + fp else 1.0
    rec = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return prec, rec, f1, exact / len(paras), mismatch


def main():
    systems = ["pc-split", "ICU"]
    missing = []
    if have_perl_module("Lingua::Sentence"):
        systems.append("Lingua::Sentence")
    else:
        missing.append("Lingua::Sentence (apt install liblingua-sentence-perl)")
    if have_perl_module("Lingua::EN::Sentence"):
        systems.append("Lingua::EN::Sentence")
    else:
        missing.append("Lingua::EN::Sentence (apt install liblingua-en-sentence-perl)")
    print("| set | lang | paragraphs | boundaries | system | P | R | F1 | exact paragraphs |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|")
    for subset, folder in (("catalogue", GOLD), ("hard", os.path.join(GOLD, "hard"))):
        for lang in LANGS:
            path = os.path.join(folder, f"{lang}.tsv")
            if not os.path.exists(path):
                continue
            paras = read_gold(path)
            nb = sum(len(p) - 1 for p in paras)
            for sysname in systems:
                if sysname == "Lingua::Sentence" and lang not in MOSES_LANGS:
                    continue
                if sysname == "Lingua::EN::Sentence" and lang != "en":
                    continue
                if sysname == "ICU" and lang not in ("en", "de") and "--all-icu" not in sys.argv:
                    continue
                groups = run_system(sysname, lang, paras)
                p, r, f1, ex, mism = score(paras, groups)
                note = f" ({mism} changed text)" if mism else ""
                print(f"| {subset} | {lang} | {len(paras)} | {nb} | {sysname}{note} | {p:.3f} | {r:.3f} | {f1:.3f} | {ex:.3f} |")
    for m in missing:
        print(f"\nnot run: {m}")


main()
