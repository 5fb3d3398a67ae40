#!/usr/bin/env bash
# Checkpoint averaging on the package split (issue 21): for a run trained with
# `pc-nmt train --keep-checkpoints K`, averages the last N kept points for each
# N in AVERAGE_NS, scores each average on the VALID pairs (greedy chrF and
# BLEU, pc-eval), picks the N with the best valid chrF, and only then scores
# the best-validated single model (MODEL) and that average on the TEST pairs,
# greedy and beam 4, with the paired bootstrap between them.
# Usage: bench/nmt-average.sh MODEL SPLIT_DIR LANG OUT_DIR [BUILD_DIR]
#   MODEL.step-S files beside MODEL (train --keep-checkpoints); AVERAGE_NS
#   (default "1 2 4 6 8"; 1 is the last kept point alone).
# Writes OUT_DIR/{valid.tsv,test.tsv,avg*.safetensors,hyp.*}; nothing into the repository.
set -euo pipefail
model=$1 split=$2 lang=$3 out=$4
bin=$(cd "${5:-build/release}" && pwd)/tools
mkdir -p "$out"
stem=${model%.*}
ext=${model##*.}
mapfile -t kept < <(ls "$stem".step-*."$ext" | sed "s|^$stem\.step-\([0-9]*\)\.$ext\$|\1|" | sort -n)
[ ${#kept[@]} -gt 0 ] || { echo "nmt-average: no $stem.step-*.$ext files (train with --keep-checkpoints)" >&2; exit 2; }
echo "kept steps: ${kept[*]}"
side() { awk -F'\t' -v c="$2" 'NR > 1 { print $c }' "$1"; }
side "$split/en-$lang.valid.tsv" 1 >"$out/valid.en"
side "$split/en-$lang.valid.tsv" 2 >"$out/valid.$lang"
side "$split/en-$lang.test.tsv" 1 >"$out/test.en"
side "$split/en-$lang.test.tsv" 2 >"$out/test.$lang"
score() { "$bin/pc-eval" chrf,bleu -q --score-only -r "$1" "$2" | paste -sd '\t'; }
best_n= best_chrf=-1
printf 'model\tvalid chrF\tvalid BLEU\n' | tee "$out/valid.tsv"
printf 'best-validated\t%s\n' "$("$bin/pc-nmt" translate -q -j1 -m "$model" "$out/valid.en" | score "$out/valid.$lang" -)" |
  tee -a "$out/valid.tsv"
for n in ${AVERAGE_NS:-1 2 4 6 8}; do
  [ "$n" -le ${#kept[@]} ] || continue
  files=()
  for s in "${kept[@]: -$n}"; do files+=("$stem.step-$s.$ext"); done
  "$bin/pc-nmt" average -q -o "$out/avg$n.safetensors" "${files[@]}"
  "$bin/pc-nmt" translate -q -j1 -m "$out/avg$n.safetensors" "$out/valid.en" >"$out/hyp.valid.avg$n"
  line=$(score "$out/valid.$lang" "$out/hyp.valid.avg$n")
  printf 'avg%s (steps %s-%s)\t%s\n' "$n" "${kept[${#kept[@]}-n]}" "${kept[-1]}" "$line" | tee -a "$out/valid.tsv"
  chrf=$(cut -f1 <<<"$line")
  if awk -v a="$chrf" -v b="$best_chrf" 'BEGIN { exit !(a > b) }'; then best_n=$n best_chrf=$chrf; fi
done
echo "chosen on valid: avg$best_n"
printf 'model\tsearch\ttest chrF\ttest BLEU\n' | tee "$out/test.tsv"
for m in best "avg$best_n"; do
  file=$model; [ "$m" = best ] || file=$out/$m.safetensors
  "$bin/pc-nmt" translate -q -j1 -m "$file" "$out/test.en" >"$out/hyp.$m.greedy"
  "$bin/pc-nmt" translate -q -j1 -m "$file" --beam 4 "$out/test.en" >"$out/hyp.$m.beam4"
  for s in greedy beam4; do
    printf '%s\t%s\t%s\n' "$m" "$s" "$(score "$out/test.$lang" "$out/hyp.$m.$s")" | tee -a "$out/test.tsv"
  done
done
for s in greedy beam4; do
  "$bin/pc-eval" chrf,bleu -q --paired-bs -r "$out/test.$lang" "$out/hyp.best.$s" "$out/hyp.avg$best_n.$s" |
    tee "$out/paired-bs.$s.txt"
done
