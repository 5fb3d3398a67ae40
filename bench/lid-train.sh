#!/usr/bin/env bash
# lid-train.sh SPLIT_DIR OUT_DIR — a fastText language-ID model for pc-clean's
# lid rule (--lid-model), trained here on the gettext catalogues of the
# packages that are in no test or valid split of SPLIT_DIR
# (bench/lid-catalogue-data.py says what is held out). Needs Debian's
# fasttext package. Writes OUT_DIR/lid.txt (the training text), lid.bin and
# lid.ftz (quantised, what docs/clean.md measures). One training thread and a
# fixed seed; fastText's own training is not bitwise repeatable across
# thread counts, so the figures name this recipe:
#   fasttext supervised -minn 2 -maxn 4 -dim 16 -epoch 5 -lr 0.5 -bucket 500000 -loss softmax
set -euo pipefail
split=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v fasttext >/dev/null || { echo "lid-train: needs fasttext (apt-get install fasttext)" >&2; exit 1; }
mkdir -p "$out"
/usr/bin/python3 "$here/lid-catalogue-data.py" "$split" "$out/lid.txt"
fasttext supervised -input "$out/lid.txt" -output "$out/lid" -minn 2 -maxn 4 -dim 16 -epoch 5 -lr 0.5 \
  -bucket 500000 -loss softmax -thread 1 -seed 1 -verbose 0
fasttext quantize -input "$out/lid.txt" -output "$out/lid" -qnorm -cutoff 100000 -retrain -thread 1 -verbose 0
ls -l "$out/lid.bin" "$out/lid.ftz" >&2
