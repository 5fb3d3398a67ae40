#!/usr/bin/env bash
# Retrieval P@1 of pc-embed's lexical encoder on the package split of the
# gettext catalogues (scripts/make-package-split.sh): train on en-XX.train.tsv
# (first N pairs: 2k, 10k, all) and/or a FreeDict dictionary, encode the 1000
# test pairs, rank each source against all 1000 targets and back
# (bench/embed-p-at-1.py). One TSV row per run on stdout:
#   lang  seed  config  options  p1_fwd  p1_bwd  train_s
# train_s is pc-embed's own training time (reading the input excluded).
#
#   bench/embed-retrieval.sh [BIN [SPLIT_DIR [WORK]]]
#     BIN        folder of the built tools        (default: build/release/tools)
#     SPLIT_DIR  the split (made when missing)    (default: out/package-split)
#     WORK       scratch folder                   (default: a temporary one)
# Environment: LANGS (default "de es fr"), SETS (default "A B C D": A = blocks
# by seed size, B = the LSA block alone with each post-processing step on and
# off, C = dictionary alone and added, D = the combined encoder with each
# post-processing step off and with the earlier character n-grams).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${1:-$ROOT/build/release/tools}
SPLIT=${2:-$ROOT/out/package-split}
WORK=${3:-$(mktemp -d)}
LANGS=${LANGS:-de es fr}
SETS=${SETS:-A B C D}
mkdir -p "$WORK"
[ -s "$SPLIT/en-fr.test.tsv" ] || "$ROOT/scripts/make-package-split.sh" "$SPLIT" $LANGS >&2
declare -A DICT=([de]=deu [es]=spa [fr]=fra)

run() {  # lang seed config options...
  local lang=$1 seed=$2 config=$3
  shift 3
  local train=() 
  [ "$seed" = dict ] || train=("$SPLIT/en-$lang.train.tsv" --max-pairs "${seed/all/0}")
  local m="$WORK/m.st" log="$WORK/train.log"
  "$BIN/pc-embed" train -j2 -s en -t "$lang" -o "$m" "${train[@]}" "$@" 2>"$log"
  "$BIN/pc-embed" encode -q -j2 -m "$m" --column src_text --side src -o "$WORK/s.npy" "$SPLIT/en-$lang.test.tsv"
  "$BIN/pc-embed" encode -q -j2 -m "$m" --column trg_text --side trg -o "$WORK/t.npy" "$SPLIT/en-$lang.test.tsv"
  local p secs
  p=$(/usr/bin/python3 "$ROOT/bench/embed-p-at-1.py" "$WORK/s.npy" "$WORK/t.npy")
  secs=$(grep -oE 'training [0-9.]+ s' "$log" | grep -oE '[0-9.]+')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$lang" "$seed" "$config" "$*" ${p} "$secs"
}

# The measured configurations name their LSA size: it is off by default.
LSA=(--buckets 0 --char-buckets 0 --lsa-dim 256)
WITH_LSA=(--lsa-dim 256)
printf 'lang\tseed\tconfig\toptions\tp1_fwd\tp1_bwd\ttrain_s\n'
for lang in $LANGS; do
  if [[ $SETS == *A* ]]; then
    for seed in 2000 10000 all; do
      run "$lang" "$seed" combined "${WITH_LSA[@]}"
      run "$lang" "$seed" bags --lsa-dim 0 --char-buckets 0
      run "$lang" "$seed" bags+chars --lsa-dim 0
      run "$lang" "$seed" lsa "${LSA[@]}"
    done
  fi
  if [[ $SETS == *B* ]]; then
    run "$lang" all lsa:none "${LSA[@]}" --no-center --no-whiten --no-cca
    run "$lang" all lsa:center "${LSA[@]}" --no-whiten --no-cca
    run "$lang" all lsa:center+whiten "${LSA[@]}" --no-cca
    run "$lang" all lsa:center+cca "${LSA[@]}" --no-whiten
    run "$lang" all lsa:whiten+cca "${LSA[@]}" --no-center
    run "$lang" all lsa:center+whiten+cca+top2 "${LSA[@]}" --remove-top 2
  fi
  if [[ $SETS == *D* ]]; then
    run "$lang" all combined:no-cca "${WITH_LSA[@]}" --no-cca
    run "$lang" all combined:no-whiten "${WITH_LSA[@]}" --no-whiten
    run "$lang" all combined:no-center "${WITH_LSA[@]}" --no-center
    run "$lang" all combined:top2 "${WITH_LSA[@]}" --remove-top 2
    run "$lang" all combined:chars-unseen-0.2 "${WITH_LSA[@]}" --char-words unseen --char-weight 0.2
  fi
  if [[ $SETS == *C* ]]; then
    run "$lang" dict combined "${WITH_LSA[@]}" --dict "/usr/share/dictd/freedict-eng-${DICT[$lang]}.index"
    run "$lang" all combined+dict "${WITH_LSA[@]}" --dict "/usr/share/dictd/freedict-eng-${DICT[$lang]}.index"
  fi
done
