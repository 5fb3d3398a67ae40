#!/usr/bin/env python3
"""A stand-in for Bicleaner's hard rules (bicleaner_hardrules is not packaged
for Debian 12 and there is no network here): a few of its rules written the
way bicleaner-hardrules writes them (per-pair Python functions on the two
strings, regexes from the re module), run over the same TSV as pc-clean so
pairs/s can be compared in the same run. Not Bicleaner itself.

    clean-bicleaner-standin.py BITEXT.tsv [MAX_PAIRS] > kept.tsv

Rules: no_empty, not_too_long (1024 chars), not_too_short (3 chars for
Latin), length_ratio (2, in characters), no_identical, no_literals,
no_only_symbols (alpha share 0.1), no_only_numbers (0.5), no_urls,
no_breadcrumbs, no_unicode_noise, no_space_noise, no_repeated_words.
"""
import re
import sys
import time

regex_url = re.compile(r'(?:(?:https?|ftp)://|www\.)\S+', re.I)
regex_breadcrumbs1 = re.compile(r"([ ][-/»][ ]|[|<>→←]|[ ][:][:][ ])")
regex_breadcrumbs2 = re.compile(r"[\U00000800-\U0010ffff]")
regex_unicode_noise = re.compile(r"[\x80-\uFFFF]")
regex_alpha = re.compile(r"[^\W\d_]")
regex_numbers = re.compile(r"[\d]")
regex_spaces = re.compile(r"\s")
regex_repeated = re.compile(r"\b(\w+)(?:\W+\1\b){3,}")
literals = ("Re:", "{{", "%s", "}}", "+++", "***", '=\"')


def c_no_empty(l, r): return l.strip() != "" and r.strip() != ""
def c_not_too_long(l, r): return len(l) < 1024 and len(r) < 1024
def c_not_too_short(l, r): return len(l) >= 3 and len(r) >= 3
def c_length_ratio(l, r):
    a, b = len(l), len(r)
    return a and b and max(a, b) / min(a, b) <= 2
def c_identical(l, r): return l.casefold() != r.casefold()
def c_no_literals(l, r): return not any(x in l or x in r for x in literals)
def c_only_symbols(l, r):
    return all(len(regex_alpha.findall(s)) / max(1, len(s.replace(" ", ""))) > 0.1 for s in (l, r))
def c_only_numbers(l, r):
    return all(len(regex_numbers.findall(s)) / max(1, len(s.replace(" ", ""))) < 0.5 for s in (l, r))
def c_no_urls(l, r): return sum(len(u) for u in regex_url.findall(l)) < 0.5 * len(l)
def c_no_breadcrumbs(l, r): return len(regex_breadcrumbs1.findall(l)) < 3 and len(regex_breadcrumbs1.findall(r)) < 3
def c_unicode_noise(l, r): return len(regex_unicode_noise.findall(l)) / max(1, len(l)) < 0.5
def c_space_noise(l, r): return all(len(regex_spaces.findall(s)) / max(1, len(s)) < 0.5 for s in (l, r))
def c_repeated(l, r): return not regex_repeated.search(l) and not regex_repeated.search(r)


RULES = [c_no_empty, c_not_too_long, c_not_too_short, c_length_ratio, c_identical, c_no_literals, c_only_symbols,
         c_only_numbers, c_no_urls, c_no_breadcrumbs, c_unicode_noise, c_space_noise, c_repeated]


def main():
    path = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else None
    n = kept = 0
    t0 = time.perf_counter()
    out = sys.stdout
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            if limit is not None and n >= limit:
                break
            n += 1
            l, r = line.rstrip("\n").split("\t")[:2]
            if all(rule(l, r) for rule in RULES):
                kept += 1
                out.write(line)
    dt = time.perf_counter() - t0
    print(f"standin: {n} pairs, {kept} kept, {dt:.2f} s, {n / dt:.0f} pairs/s", file=sys.stderr)


if __name__ == "__main__":
    main()
