#!/usr/bin/env bash
# clean-noise.sh BIN_DIR WORK_DIR [LANG...] — pc-clean's noise benchmark
# (docs/clean.md): package-split test pairs with injected noise of each kind,
# recall per kind and the share of clean pairs kept, for the default chain
# and with IBM1 / encoder scores and the order model trained on the split's
# train pairs (other packages). Default LANGs: fr de es.
# CHAIN=SPEC runs that chain instead of the default one (both runs).
# LID_MODEL=FILE gives both runs a fastText language-ID model (--lid-model;
# bench/lid-train.sh trains one on the catalogues of other packages).
# MODEL_SPLIT=DIR trains the IBM1 model, the encoder and the order model on
# DIR/en-LANG.train.tsv instead of WORK_DIR/split's: a split of the same
# installed packages made with SPLIT_EXTRA_TRAIN (more train pairs, the same
# test and valid pairs). The noise is always made from WORK_DIR/split.
# NMT_MODELS=DIR adds a translation model's forced-decoding score to the
# scored run (--nmt DIR/en-LANG.safetensors, pc-nmt train on other
# packages) and its rows to the report.
set -euo pipefail
bin=$1
work=$2
shift 2
langs=${*:-fr de es}
chain=()
[ -z "${CHAIN:-}" ] || chain=(--chain "$CHAIN")
[ -z "${LID_MODEL:-}" ] || chain+=(--lid-model "$LID_MODEL")
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
[ -f "$work/split/en-fr.test.tsv" ] || bash "$here/../scripts/make-package-split.sh" "$work/split" de es fr >&2
msplit=${MODEL_SPLIT:-$work/split}
for l in $langs; do
  cmp -s "$work/split/en-$l.test.tsv" "$msplit/en-$l.test.tsv" || { echo "$msplit has other test pairs" >&2; exit 1; }
  others=$(printf '%s\n' fr de es | grep -vx "$l" | tr '\n' ' ')
  python3 "$here/clean-noise.py" make "$work/split" "$l" $others >"$work/noise-$l.tsv"
  "$bin/pc-ibm1" train -q --lowercase -s en -t "$l" -o "$work/en-$l.ibm1" "$msplit/en-$l.train.tsv"
  "$bin/pc-embed" train -q -s en -t "$l" -o "$work/en-$l.enc" "$msplit/en-$l.train.tsv"
  "$bin/pc-clean" -q -s en -t "$l" "${chain[@]}" --annotate "$work/noise-$l.tsv" >"$work/default-$l.tsv"
  nmt=()
  scores="ibm1_score cos_score order_score clean_score clean_score,order_score"
  if [ -n "${NMT_MODELS:-}" ]; then
    nmt=(--nmt "$NMT_MODELS/en-$l.safetensors")
    scores="$scores nmt_score nmt_score,order_score"
  fi
  "$bin/pc-clean" -q -s en -t "$l" "${chain[@]}" --annotate --ibm1 "$work/en-$l.ibm1" --encoder "$work/en-$l.enc" \
    --order-lm "$msplit/en-$l.train.tsv" "${nmt[@]}" "$work/noise-$l.tsv" >"$work/scored-$l.tsv"
  echo "== en-$l: default chain"
  python3 "$here/clean-noise.py" report "$work/default-$l.tsv"
  for s in $scores; do
    echo "== en-$l: default chain + $s threshold (clean kept >= 97%)"
    python3 "$here/clean-noise.py" report "$work/scored-$l.tsv" --score "$s" --min-clean 0.97
  done
  for s in order_score clean_score; do
    echo "== en-$l: default chain + $s threshold (clean kept >= 95%)"
    python3 "$here/clean-noise.py" report "$work/scored-$l.tsv" --score "$s" --min-clean 0.95
  done
done
