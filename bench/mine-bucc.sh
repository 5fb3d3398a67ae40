#!/usr/bin/env bash
# Mining F1 of pc-mine on BUCC-style sets built from the gettext catalogues,
# split by package (scripts/make-package-split.sh with SPLIT_TEST=9000
# SPLIT_VALID=4500): per language pair, test = 950 gold pairs of the test
# packages hidden among about 4000 source-only and 4000 target-only sentences
# of the same packages (which gave no training pairs), dev = 450 gold among
# about 2000 + 2000 of the valid packages (bench/mine-bucc-sets.py, GOLD_TEST,
# GOLD_DEV). A distractor with a known translation on the other side (a pair
# of any split) is left out, so every real pair of a set is in its gold: at
# least 4.1 distractors per gold pair remain. pc-embed's default encoder
# and a pc-ibm1 model are trained on the train packages' pairs. pc-mine keeps
# every pair (max retrieval, ratio margin, no threshold); pc-eval mining gives
# the best F1 over thresholds, and F1 at the threshold that is best on dev.
# One TSV row per run on stdout:
#   lang  config  index  dev_threshold  test_f1_at_dev_threshold  test_best_f1  test_best_threshold  mine_s  dev_best_f1
# (dev_best_f1 is what a setting is chosen by: the test columns are only read.)
#
#   bench/mine-bucc.sh [BIN [WORK]]
#     BIN   folder of the built tools  (default: build/release/tools)
#     WORK  scratch folder             (default: a temporary one; the split is made there)
# Environment: LANGS (default "de es fr"), CONFIGS (default "cos ibm1"),
# INDEXES (default "Flat"; e.g. "Flat IVF64,Flat HNSW32"), ENCODER (an encoder
# file to use instead of training pc-embed's default, "%L" standing for the
# language: e.g. WORK/combined-%L.st, trained on WORK/split/en-LANG.train.tsv
# only), NAME (the config column's prefix for that encoder), MINE_OPTS (more
# pc-mine options), SPLIT_EXTRA_TRAIN (make-package-split.sh's: a folder of
# scripts/fetch-extra-catalogues.sh, whose packages add train pairs only; the
# test and valid pairs are the same with and without it; the sets lose the
# few distractors whose translation only those pairs know).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${1:-$ROOT/build/release/tools}
WORK=${2:-$(mktemp -d)}
LANGS=${LANGS:-de es fr}
CONFIGS=${CONFIGS:-cos ibm1}
INDEXES=${INDEXES:-Flat}
mkdir -p "$WORK"
[ -s "$WORK/split/en-fr.test.tsv" ] ||
  SPLIT_TEST=9000 SPLIT_VALID=4500 "$ROOT/scripts/make-package-split.sh" "$WORK/split" $LANGS >&2

# F1 and threshold of pc-eval's "best" row, or F1 of its thresholded row.
best() { awk -F'\t' '$1 == "best" { print $8 "\t" $2 }'; }
at() { awk -F'\t' '$1 != "setting" && $1 != "best" { print $8 }'; }

printf 'lang\tconfig\tindex\tdev_threshold\ttest_f1_at_dev\ttest_best_f1\ttest_best_threshold\tmine_s\tdev_best_f1\n'
for L in $LANGS; do
  W=$WORK/$L
  mkdir -p "$W"
  all=("$WORK/split/en-$L.train.tsv" "$WORK/split/en-$L.valid.tsv" "$WORK/split/en-$L.test.tsv")
  /usr/bin/python3 "$ROOT/bench/mine-bucc-sets.py" "$WORK/split/en-$L.test.tsv" "${GOLD_TEST:-950}" "$W/test" "${all[@]}" 2>/dev/null
  /usr/bin/python3 "$ROOT/bench/mine-bucc-sets.py" "$WORK/split/en-$L.valid.tsv" "${GOLD_DEV:-450}" "$W/dev" "${all[@]}" 2>/dev/null
  if [ -n "${ENCODER:-}" ]; then
    cp "${ENCODER//%L/$L}" "$W/enc"
  else
    "$BIN/pc-embed" train -q -s en -t "$L" -o "$W/enc" "$WORK/split/en-$L.train.tsv"
  fi
  "$BIN/pc-ibm1" train -q -o "$W/ibm1" "$WORK/split/en-$L.train.tsv"
  for s in test dev; do
    "$BIN/pc-embed" encode -q -m "$W/enc" -o "$W/$s.src.npy" "$W/$s.src.txt"
    "$BIN/pc-embed" encode -q -m "$W/enc" --side trg -o "$W/$s.trg.npy" "$W/$s.trg.txt"
  done
  for cfg in $CONFIGS; do
    extra=()
    extra=(${MINE_OPTS:-})
    [ "$cfg" = cos ] || extra+=(--ibm1 "$W/ibm1" ${IBM1_OPTS:-})
    for ix in $INDEXES; do
      for s in dev test; do
        t0=$(date +%s.%N)
        "$BIN/pc-mine" mine -q --index "$ix" "${extra[@]}" --src "$W/$s.src.txt" --trg "$W/$s.trg.txt" \
          --src-npy "$W/$s.src.npy" --trg-npy "$W/$s.trg.npy" -o "$W/$s.mined.tsv"
        t1=$(date +%s.%N)
        tail -n +2 "$W/$s.mined.tsv" | awk -F'\t' '{ print $4 "\t" $5 "\t" $3 }' > "$W/$s.cand"
      done
      read -r dev_best dev_thr < <("$BIN/pc-eval" mining -q --gold "$W/dev.gold.tsv" "$W/dev.cand" | best)
      read -r test_best test_thr < <("$BIN/pc-eval" mining -q --gold "$W/test.gold.tsv" "$W/test.cand" | best)
      at_dev=$("$BIN/pc-eval" mining -q --gold "$W/test.gold.tsv" --threshold "$dev_thr" "$W/test.cand" | at)
      printf '%s\t%s\t%s\t%.4f\t%s\t%s\t%.4f\t%.2f\t%s\n' "$L" "${NAME:+$NAME+}$cfg" "$ix" "$dev_thr" "$at_dev" "$test_best" "$test_thr" \
        "$(echo "$t1 - $t0" | bc)" "$dev_best"
    done
  done
done
