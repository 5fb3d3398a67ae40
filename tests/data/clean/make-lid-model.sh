#!/usr/bin/env bash
# make-lid-model.sh SAMPLES_BITEXT_DIR [ftz] — a small fastText language-ID model
# for pc-clean's --lid-model rows, made in the current folder with Debian's
# fasttext command: lid.txt (lines 2-2500 of the sample bitexts: English
# sources, French, German and Spanish targets), lid.bin (dimension 8,
# character 2-4-grams, one thread, seeded: the same file on every run) and
# with ftz also lid.ftz (the same model quantised, its n-grams pruned to
# 5000). Lines 2501-3001 stay out of it, for
# the rows to test on. About a second.
set -euo pipefail
s=$1
{
  for p in fr de es; do sed -n 2,2500p "$s/en-$p.tsv" | cut -f2 | sed "s/^/__label__$p /"; done
  sed -n 2,2500p "$s/en-fr.tsv" | cut -f1 | sed 's/^/__label__en /'
} >lid.txt
fasttext supervised -input lid.txt -output lid -minn 2 -maxn 4 -dim 8 -epoch 5 -bucket 20000 -thread 1 -seed 1 -verbose 0
rm -f lid.vec
[ "${2:-}" != ftz ] || fasttext quantize -input lid.txt -output lid -qnorm -cutoff 5000 -verbose 0
