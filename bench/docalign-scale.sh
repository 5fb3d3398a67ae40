#!/usr/bin/env bash
# pc-docalign content matching on growing document sets: the sample site's
# 13 English and 13 French pages copied K times (each copy under its own
# /copyK/ path, URL matching off), K = 1, 4, 16, 64, with tfidf (IBM1) and
# embed (lexical encoder); median wall time and peak RSS of 3 runs, and the
# ratio of each size's time to the size before. Both scores compare every
# free source document with every free target document, so time grows with
# n_src x n_trg: a 4x larger set should cost about 16x at large n.
# Usage: bench/docalign-scale.sh [BUILD_DIR]   (run from the repository root)
set -euo pipefail
build=${1:-build/release}
bin=$(cd "$build" && pwd)/tools
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pc-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$bin/pc-ingest" -q "$root/data/samples/site" | "$bin/pc-split" -q > "$tmp/docs.jsonl"
"$bin/pc-ibm1" train -q -s en -t fr -o "$tmp/ibm1" "$root/data/samples/bitext/en-fr.tsv"
"$bin/pc-embed" train -q -s en -t fr --buckets 256 --char-buckets 128 -o "$tmp/enc" "$root/data/samples/bitext/en-fr.tsv"
for k in 1 4 16 64; do
  /usr/bin/python3 - "$tmp" "$k" <<'PY'
import json, sys
tmp, k = sys.argv[1], int(sys.argv[2])
docs = [json.loads(l) for l in open(f"{tmp}/docs.jsonl", encoding="utf-8")]
with open(f"{tmp}/k{k}.jsonl", "w", encoding="utf-8") as f:
    for c in range(k):
        for d in docs:
            if d["lang"] in ("en", "fr") and "/private/" not in d["url"]:
                e = dict(d, url=d["url"].replace("/site/", f"/site/copy{c}/"))
                f.write(json.dumps(e, ensure_ascii=False) + "\n")
PY
done

printf '| score | docs per side | median s | peak RSS MB | time ratio to previous |\n|---|---|---|---|---|\n'
for m in tfidf embed; do
  prev=
  for k in 1 4 16 64; do
    case $m in
      tfidf) args=(--content tfidf --ibm1 "$tmp/ibm1") ;;
      embed) args=(--content embed --encoder "$tmp/enc") ;;
    esac
    : > "$tmp/times"
    for r in 1 2 3; do
      /usr/bin/time -f '%e %M' -a -o "$tmp/times" "$bin/pc-docalign" -q -s en -t fr --method content "${args[@]}" \
        "$tmp/k$k.jsonl" > /dev/null
    done
    read -r med rss < <(sort -n "$tmp/times" | sed -n 2p)
    ratio=$([ -n "$prev" ] && /usr/bin/python3 -c "import sys; print(f'{float(sys.argv[1]) / max(float(sys.argv[2]), 0.01):.1f}')" "$med" "$prev" || echo -)
    printf '| %s | %d | %s | %d | %s |\n' "$m" $((13 * k)) "$med" $((rss / 1024)) "$ratio"
    prev=$med
  done
done
