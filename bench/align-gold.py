#!/usr/bin/python3
"""Gold sentence alignments from real text in document order, for pc-align.

    align-gold.py DOCS.jsonl SRC TRG OUT_DIR [--seed N]
    align-gold.py --tsv BITEXT.tsv SRC TRG OUT_DIR [--seed N] [--doc-size 50]

DOCS.jsonl is pc-ingest's output for the sample site (data/samples/site): the
Debian Reference's chapters, whose translations (po4a) keep the English
paragraph structure, so paragraph i of a page translates paragraph i of the
English page. A page is used when its paragraph count equals the English
page's; pairs whose two sides are the same string (commands, file listings,
numbers) are left out, so what remains is translated running text.

With --tsv, the pairs of a bitext (scripts/make-package-split.sh's valid or
test files: catalogue strings of packages that gave no training pair) are cut
into documents of --doc-size consecutive pairs, in the file's order. That is
not the catalogues' own order (the split picks pairs by hash, and .mo files
sort their strings anyway), so it is a second, harder regime (short strings
with no context), not running text.

Each page pair becomes one document pair with the edits of issue 18, drawn
with a seeded generator, per unit: 5% of source units lose their translation
(a source deletion), 5% of target units lose their source (a target
deletion), 5% of positions join two consecutive translations into one target
unit (2-1), 3% join two source units (1-2). Writes OUT_DIR/pairs.jsonl
(doc-pair JSONL) and OUT_DIR/gold.N.txt (Vecalign format, one per pair), and
prints the counts.
"""
import argparse
import json
import os
import random


def pages(docs_path, src, trg):
    docs = {}
    for line in open(docs_path, encoding="utf-8"):
        d = json.loads(line)
        docs[d["url"]] = d
    out = []
    for url in sorted(docs):
        if f"/{src}/" not in url:
            continue
        other = url.replace(f"/{src}/", f"/{trg}/")
        if other not in docs:
            continue
        s = docs[url]["text"].split("\n")
        t = docs[other]["text"].split("\n")
        if len(s) != len(t):
            print(f"skipped {url}: {len(s)} paragraphs against {len(t)}")
            continue
        pairs = [(a.strip(), b.strip()) for a, b in zip(s, t) if a.strip() and b.strip() and a.strip() != b.strip()]
        out.append((url, other, pairs))
    return out


def chunks(tsv, size, src, trg):
    rows = [l.rstrip("\n").split("\t") for l in open(tsv, encoding="utf-8")]
    if rows and rows[0][:2] == ["src_text", "trg_text"]:
        rows = rows[1:]
    pairs = [(r[0], r[1]) for r in rows if len(r) >= 2 and r[0].strip() and r[1].strip() and r[0] != r[1]]
    return [(f"{tsv}#{i // size}/{src}", f"{tsv}#{i // size}/{trg}", pairs[i:i + size]) for i in range(0, len(pairs), size)]


def edit(pairs, rng, p_del_src=0.05, p_del_trg=0.05, p_21=0.05, p_12=0.03):
    src, trg, gold = [], [], []
    i = 0
    counts = {"1-1": 0, "1-0": 0, "0-1": 0, "2-1": 0, "1-2": 0}
    while i < len(pairs):
        s, t = pairs[i]
        r = rng.random()
        two = i + 1 < len(pairs)
        if r < p_del_src:
            gold.append(([len(src)], []))
            src.append(s)
            counts["1-0"] += 1
        elif r < p_del_src + p_del_trg:
            gold.append(([], [len(trg)]))
            trg.append(t)
            counts["0-1"] += 1
        elif r < p_del_src + p_del_trg + p_21 and two:
            s2, t2 = pairs[i + 1]
            gold.append(([len(src), len(src) + 1], [len(trg)]))
            src += [s, s2]
            trg.append(t + " " + t2)
            counts["2-1"] += 1
            i += 1
        elif r < p_del_src + p_del_trg + p_21 + p_12 and two:
            s2, t2 = pairs[i + 1]
            gold.append(([len(src)], [len(trg), len(trg) + 1]))
            src.append(s + " " + s2)
            trg += [t, t2]
            counts["1-2"] += 1
            i += 1
        else:
            gold.append(([len(src)], [len(trg)]))
            src.append(s)
            trg.append(t)
            counts["1-1"] += 1
        i += 1
    return src, trg, gold, counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("docs")
    ap.add_argument("src")
    ap.add_argument("trg")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tsv", action="store_true", help="DOCS is a bitext TSV, cut into documents")
    ap.add_argument("--doc-size", type=int, default=50)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    total = {}
    units = 0
    with open(os.path.join(a.out, "pairs.jsonl"), "w", encoding="utf-8") as f:
        docs = chunks(a.docs, a.doc_size, a.src, a.trg) if a.tsv else pages(a.docs, a.src, a.trg)
        for n, (su, tu, pairs) in enumerate(docs):
            src, trg, gold, counts = edit(pairs, rng)
            units += len(pairs)
            for k, v in counts.items():
                total[k] = total.get(k, 0) + v
            f.write(json.dumps({"src_url": su, "trg_url": tu, "src_lang": a.src, "trg_lang": a.trg,
                                "src_sentences": src, "trg_sentences": trg, "docalign_score": 1.0,
                                "docalign_method": "url"}, ensure_ascii=False) + "\n")
            with open(os.path.join(a.out, f"gold.{n}.txt"), "w") as g:
                for s, t in gold:
                    g.write(f"{s}:{t}\n")
    print(f"{a.src}-{a.trg}: {n + 1} document pairs, {units} translated pairs, beads {total}")


main()
