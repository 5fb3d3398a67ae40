#!/usr/bin/python3
"""Agreement of pc-ingest's one-pass language ID with two passes.

Usage: ingest-langid-agree.py TWO_PASS.jsonl ONE_PASS.jsonl
Both outputs of the same input (same documents, same texts). Prints the
share of documents with the same `lang` (and the same `lang_score`) and of
paragraphs with the same `para_langs` label, and the disagreements by kind:
und -> a language, a language -> und, a language -> another (marked "page's"
when the one-pass label is the document's language), then by label pair with
an example paragraph.
"""
import collections
import json
import sys

two = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
one = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8")]
if [d["url"] for d in two] != [d["url"] for d in one]:
    sys.exit("not the same documents")
same_lang = sum(a["lang"] == b["lang"] for a, b in zip(two, one))
same_score = sum(a["lang"] == b["lang"] and a["lang_score"] == b["lang_score"] for a, b in zip(two, one))
paras = agree = 0
kinds, pairs, example = collections.Counter(), collections.Counter(), {}
doc_kinds = collections.Counter()
for a, b in zip(two, one):
    if a["lang"] != b["lang"]:
        doc_kinds[f'{a["lang"]} -> {b["lang"]}'] += 1
    for p, q, text in zip(a["para_langs"], b["para_langs"], a["text"].split("\n")):
        paras += 1
        if p == q:
            agree += 1
            continue
        kind = "und -> a language" if p == "und" else "a language -> und" if q == "und" else "a language -> another"
        if q == b["lang"]:
            kind += " (the page's)"
        kinds[kind] += 1
        pairs[f"{p} -> {q}"] += 1
        example.setdefault(f"{p} -> {q}", text[:70])
n = len(two)
print(f"  documents: {same_lang}/{n} same lang ({100 * same_lang / max(1, n):.2f}%), "
      f"{same_score} also the same lang_score; paragraphs: {agree}/{paras} same label "
      f"({100 * agree / max(1, paras):.2f}%)")
for k, v in doc_kinds.most_common():
    print(f"    document {k}: {v}")
for k, v in kinds.most_common():
    print(f"    {v:6d} {k}")
for k, v in pairs.most_common(10):
    print(f"    {v:6d}   {k}   e.g. {example[k]!r}")
