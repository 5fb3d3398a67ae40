#!/usr/bin/env bash
# Word-based translation with IBM Model 1, scored by pc-eval.
# For each pair: the held-out test set is the committed sample
# data/samples/bitext/en-XX.tsv (3000 pairs); the training data is every other
# en-XX pair that scripts/make-sample-bitext.sh finds in this machine's gettext
# catalogues (a pair whose English or translation occurs in the test set is
# removed, so no test sentence is seen in training). Prints BLEU and chrF of
# `pc-ibm1 translate` (with and without --drop-null) and of copying the source
# (the floor any translation should beat).
# Usage: bench/eval-ibm1-translate.sh [BUILD_DIR] [PAIRS...]   e.g. build/release en-fr en-es
set -euo pipefail
build=${1:-build/release}
shift || true
pairs=${*:-en-fr en-de en-es}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=$(cd "$build" && pwd)/tools
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pc-eval-ibm1.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

BITEXT_OUT_DIR=$tmp/all BITEXT_MAX_PAIRS=10000000 "$root/scripts/make-sample-bitext.sh" >/dev/null 2>&1
printf '%-6s %8s %6s  %-22s %6s %6s\n' pair train test system BLEU chrF
for p in $pairs; do
  test=$root/data/samples/bitext/$p.tsv
  tail -n +2 "$test" | cut -f1 >"$tmp/$p.src"
  tail -n +2 "$test" | cut -f2 >"$tmp/$p.ref"
  # Training pairs: all catalogue pairs whose sides are not in the test set.
  awk -F'\t' 'NR == FNR { if (FNR > 1) { s[$1] = 1; t[$2] = 1 } next }
              FNR == 1 || !($1 in s) && !($2 in t)' "$test" "$tmp/all/$p.tsv" >"$tmp/$p.train.tsv"
  ntrain=$(($(wc -l <"$tmp/$p.train.tsv") - 1))
  ntest=$(wc -l <"$tmp/$p.src")
  "$bin/pc-ibm1" train -q -o "$tmp/$p.st" "$tmp/$p.train.tsv"
  "$bin/pc-ibm1" translate -q -m "$tmp/$p.st" "$tmp/$p.src" >"$tmp/$p.hyp"
  "$bin/pc-ibm1" translate -q -m "$tmp/$p.st" --drop-null "$tmp/$p.src" >"$tmp/$p.hyp-drop"
  for sys in "copy source:$tmp/$p.src" "pc-ibm1 translate:$tmp/$p.hyp" "pc-ibm1 --drop-null:$tmp/$p.hyp-drop"; do
    name=${sys%%:*}
    file=${sys#*:}
    scores=$("$bin/pc-eval" bleu,chrf -q --score-only -r "$tmp/$p.ref" "$file" | tr '\n' ' ')
    printf '%-6s %8s %6s  %-22s %6s %6s\n' "$p" "$ntrain" "$ntest" "$name" $scores
  done
done
echo "signatures: $("$bin/pc-eval" bleu,chrf -q -r "$tmp/$p.ref" "$tmp/$p.hyp" | sed -E 's/ = .*//' | tr '\n' ' ')"
