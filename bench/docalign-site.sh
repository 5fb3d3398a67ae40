#!/usr/bin/env bash
# Document-pair precision and recall on the sample site (data/samples/site):
# English against de, es, fr and ja, by URL and, with URL matching off, by
# content alone with each content score, at the default thresholds.
#   tfidf-copy   TF-IDF over untranslated words (no model)
#   tfidf-ibm1   TF-IDF over IBM1 word-by-word translations (pc-ibm1 train)
#   embed        mean sentence vectors of a lexical encoder (pc-embed train)
# Models are trained on the catalogue bitext data/samples/bitext (gettext
# catalogues of other packages; no sample-site text), with the sizes the
# sample pipeline uses.
# Margin: the lowest score of a correct pair minus the highest score of a
# wrong one, the wrong ones from a second run where the two sides share no
# page (English Chapter 2, index and /private/ against the target's Preface
# sections, threshold 0, so every pair made is wrong). A wide margin is a
# threshold that is easy to choose. "wrong made": the pairs the default
# threshold lets through in that second run (all of them false; up to 7).
# Usage: bench/docalign-site.sh [BUILD_DIR]   (run from the repository root)
set -euo pipefail
build=${1:-build/release}
bin=$(cd "$build" && pwd)/tools
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pc-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
score=$root/tests/data/docalign/site_pairs.py

"$bin/pc-ingest" -q "$root/data/samples/site" | "$bin/pc-split" -q > "$tmp/docs.jsonl"
# The disjoint sides of the margin run.
/usr/bin/python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
docs = [json.loads(l) for l in open(f"{tmp}/docs.jsonl", encoding="utf-8")]
with open(f"{tmp}/src-other.jsonl", "w", encoding="utf-8") as f:
    for d in docs:
        if d["lang"] == "en" and "/pr01-" not in d["url"]:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
for lang in ("de", "es", "fr", "ja"):
    with open(f"{tmp}/trg-pr01.{lang}.jsonl", "w", encoding="utf-8") as f:
        for d in docs:
            if d["lang"] == lang and "/pr01-" in d["url"]:
                f.write(json.dumps(d, ensure_ascii=False) + "\n")
PY

min_score() { /usr/bin/python3 -c 'import json,sys; s=[json.loads(l)["docalign_score"] for l in open(sys.argv[1])]; print(f"{min(s):.3f}" if s else "-")' "$1"; }
max_score() { /usr/bin/python3 -c 'import json,sys; s=[json.loads(l)["docalign_score"] for l in open(sys.argv[1])]; print(f"{max(s):.3f}" if s else "-")' "$1"; }

printf '| pair | method | pairs | correct | precision | recall | lowest correct | highest wrong | margin | wrong made |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
for l in de es fr ja; do
  "$bin/pc-ibm1" train -q -s en -t "$l" -o "$tmp/ibm1.$l" "$root/data/samples/bitext/en-$l.tsv"
  "$bin/pc-embed" train -q -s en -t "$l" --buckets 256 --char-buckets 128 -o "$tmp/enc.$l" \
    "$root/data/samples/bitext/en-$l.tsv"
  for m in url tfidf-copy tfidf-ibm1 embed; do
    case $m in
      url) args=(--method url) ;;
      tfidf-copy) args=(--method content --content tfidf) ;;
      tfidf-ibm1) args=(--method content --content tfidf --ibm1 "$tmp/ibm1.$l") ;;
      embed) args=(--method content --content embed --encoder "$tmp/enc.$l") ;;
    esac
    "$bin/pc-docalign" -q -s en -t "$l" "${args[@]}" "$tmp/docs.jsonl" > "$tmp/p"
    read -r _ n _ c _ _ _ _ _ p _ r < <(/usr/bin/python3 "$score" "$tmp/p")
    lo=$(min_score "$tmp/p")
    hi=- made=-
    if [ "$m" != url ]; then
      "$bin/pc-docalign" -q -s en -t "$l" "${args[@]}" --threshold 0 "$tmp/src-other.jsonl" "$tmp/trg-pr01.$l.jsonl" > "$tmp/w"
      hi=$(max_score "$tmp/w")
      made=$("$bin/pc-docalign" -q -s en -t "$l" "${args[@]}" "$tmp/src-other.jsonl" "$tmp/trg-pr01.$l.jsonl" | wc -l)
    fi
    margin=$(/usr/bin/python3 -c 'import sys; a, b = sys.argv[1:]; print("-" if "-" in (a, b) else f"{float(a) - float(b):.3f}")' "$lo" "$hi")
    printf '| en-%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$l" "$m" "$n" "$c" "$p" "$r" "$lo" "$hi" "$margin" "$made"
  done
done
