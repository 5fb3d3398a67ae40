#!/usr/bin/python3
"""Scores doc-pair JSONL of the sample site against its gold pairing.

The site (data/samples/site) has the same 13 pages under /LANG/ in every
language; a pair is correct when both URLs end in the same page name, and
the gold is every page name that both sides have (/private/ is English only).

  site_pairs.py PAIRS.jsonl [GOLD_PAIRS]    (GOLD_PAIRS default 13)
prints: pairs N correct C url U content K precision P recall R
"""
import json
import sys


def page(url):
    parts = url.rstrip("/").split("/")
    return None if "private" in parts else parts[-1]


def main():
    gold = int(sys.argv[2]) if len(sys.argv) > 2 else 13
    n = correct = url = content = 0
    for line in open(sys.argv[1], encoding="utf-8"):
        d = json.loads(line)
        assert isinstance(d["src_sentences"], list) and isinstance(d["trg_sentences"], list)
        n += 1
        url += d["docalign_method"] == "url"
        content += d["docalign_method"] == "content"
        a, b = page(d["src_url"]), page(d["trg_url"])
        correct += a is not None and a == b
    p = correct / n if n else 0.0
    print(f"pairs {n} correct {correct} url {url} content {content} precision {p:.3f} recall {correct / gold:.3f}")


if __name__ == "__main__":
    main()
