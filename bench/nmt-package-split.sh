#!/usr/bin/env bash
# A trained pc-nmt model on the package split's held-out test pairs (issue 21):
# BLEU and chrF (pc-eval, sacreBLEU's definitions) for greedy and beam 4 next to
# copy-the-source, word-by-word `pc-ibm1 translate` (trained on the same train
# split) and Apertium (-u; Debian's apertium-eng-LANG, when installed), the
# paired bootstrap against Apertium, placeholder mismatches (pc-nmt --stats's
# last column, for a model trained with --protect-placeholders) and names kept
# verbatim (bench/nmt-names-kept.py).
#   split: scripts/make-package-split.sh (train/valid/test BY SOFTWARE PACKAGE)
# Usage: bench/nmt-package-split.sh MODEL SPLIT_DIR LANG OUT_DIR [BUILD_DIR]
#   MODEL missing: trained first with the default recipe, one hour on the machine's threads:
#   pc-nmt train --recipe cpu-1h --valid SPLIT_DIR/en-LANG.valid.tsv
#   --protect-placeholders --seed 1 on SPLIT_DIR/en-LANG.train.tsv.
#   SPLIT_DIR/en-LANG.test-placeholders.tsv present (SPLIT_PLACEHOLDER_TEST=1):
#   placeholder mismatches and scores on it too, with and without the quota.
# Writes OUT_DIR/{test.en,test.LANG,hyp.*,scores.tsv}; nothing into the repository.
set -euo pipefail
model=$1
split=$2
lang=$3
out=$4
build=${5:-build/release}
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$build" && pwd)/tools
mkdir -p "$out"
if [ ! -e "$model" ]; then
  "$bin/pc-nmt" train --recipe cpu-1h --valid "$split/en-$lang.valid.tsv" --protect-placeholders --seed 1 \
    --meta "$out/train-meta.json" -o "$model" "$split/en-$lang.train.tsv"
fi
test=$split/en-$lang.test.tsv
awk -F'\t' 'NR > 1 { print $1 }' "$test" >"$out/test.en"
awk -F'\t' 'NR > 1 { print $2 }' "$test" >"$out/test.$lang"
"$bin/pc-nmt" translate -q -j1 -m "$model" --stats "$out/greedy.stats" "$out/test.en" >"$out/hyp.greedy"
"$bin/pc-nmt" translate -q -j1 -m "$model" --beam 4 "$out/test.en" >"$out/hyp.beam4"
cp "$out/test.en" "$out/hyp.copy"
"$bin/pc-ibm1" train -q -o "$out/ibm1.st" "$split/en-$lang.train.tsv"
"$bin/pc-ibm1" translate -q -m "$out/ibm1.st" "$out/test.en" >"$out/hyp.ibm1"
systems="copy ibm1 greedy beam4"
if command -v apertium >/dev/null && apertium -u "eng-$([ "$lang" = es ] && echo spa || echo "$lang")" <"$out/test.en" >"$out/hyp.apertium" 2>/dev/null && [ -s "$out/hyp.apertium" ]; then
  systems="apertium $systems"
fi
{
  printf 'system\tBLEU\tchrF\n'
  for s in $systems; do
    printf '%s\t%s\n' "$s" "$("$bin/pc-eval" bleu,chrf -q --score-only -r "$out/test.$lang" "$out/hyp.$s" | paste -sd '\t')"
  done
} | tee "$out/scores.tsv"
if [ -s "$out/hyp.apertium" ]; then  # empty when Apertium lacks the pair
  "$bin/pc-eval" bleu,chrf -q --paired-bs -r "$out/test.$lang" "$out/hyp.apertium" "$out/hyp.greedy" "$out/hyp.beam4" | tee "$out/paired-bs.txt"
fi
# --stats: a header, then one row per sentence; the last column is ok/mismatch
# when the model protects placeholders.
awk -F'\t' 'NR == 1 { print "stats columns: " $0 } NR > 1 { n[$NF]++ } END { for (k in n) print "placeholders " k ": " n[k] }' "$out/greedy.stats"
/usr/bin/python3 "$here/nmt-names-kept.py" "$out/test.en" "$out/test.$lang" $(for s in $systems; do echo "$out/hyp.$s"; done)
ph=$split/en-$lang.test-placeholders.tsv
if [ -f "$ph" ]; then
  awk -F'\t' 'NR > 1 { print $1 }' "$ph" >"$out/ph.en"
  awk -F'\t' 'NR > 1 { print $2 }' "$ph" >"$out/ph.$lang"
  for q in quota free; do
    flag=; [ $q = free ] && flag=--free-placeholders
    "$bin/pc-nmt" translate -q -j1 -m "$model" $flag --stats "$out/ph.$q.stats" "$out/ph.en" >"$out/hyp.ph.$q"
    printf 'placeholder test, %s: %s mismatched of %s; BLEU chrF %s\n' "$q" \
      "$(awk -F'\t' 'NR > 1 && $NF == "mismatch"' "$out/ph.$q.stats" | wc -l)" \
      "$(awk -F'\t' 'NR > 1 && $NF != "-"' "$out/ph.$q.stats" | wc -l)" \
      "$("$bin/pc-eval" bleu,chrf -q --score-only -r "$out/ph.$lang" "$out/hyp.ph.$q" | paste -sd ' ')"
  done
fi
