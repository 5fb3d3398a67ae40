#!/usr/bin/env bash
# clean-noise-sets.sh BIN_DIR WORK_DIR [LANG...] — pc-clean's noise benchmark
# (bench/clean-noise.sh) on other sets of clean pairs than the test pairs,
# default chain only (no models), each kind's share as clean-noise.py reports it:
#   dev    the split's valid pairs (500 a language): where rule constants are chosen;
#   train  1000 of the split's train pairs (seed 7): a second development set;
#   extra  1000 pairs of the catalogues of packages that are not installed
#          (seed 11), when EXTRA_SPLIT names a split made with
#          SPLIT_EXTRA_TRAIN (scripts/make-package-split.sh): the pairs of its
#          train files that WORK_DIR/split's train files do not hold. No rule
#          was chosen on them, so they are a blind test of the chain.
# The wrong-language rows take the third language's translation from the
# set's split, as clean-noise.sh does. CHAIN=SPEC runs that chain instead.
# Default LANGs: fr de es. Standard tools and /usr/bin/python3 only.
set -euo pipefail
bin=$1
work=$2
shift 2
langs=${*:-fr de es}
chain=()
[ -z "${CHAIN:-}" ] || chain=(--chain "$CHAIN")
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
[ -f "$work/split/en-fr.test.tsv" ] || bash "$here/../scripts/make-package-split.sh" "$work/split" de es fr >&2

sample() {  # sample OUT IN SEED [EXCLUDE]: 1000 rows of IN (not in EXCLUDE), header kept
  /usr/bin/python3 - "$@" <<'EOF'
import random, sys
out, src, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = open(src, encoding="utf-8").read().split("\n")
skip = set(open(sys.argv[4], encoding="utf-8").read().split("\n")) if len(sys.argv) > 4 else set()
body = [r for r in rows[1:] if r and r not in skip]
random.Random(seed).shuffle(body)
open(out, "w", encoding="utf-8").write(rows[0] + "\n" + "\n".join(body[:1000]) + "\n")
EOF
}
sets=(dev train)
[ -z "${EXTRA_SPLIT:-}" ] || sets+=(extra)
for set in "${sets[@]}"; do
  dir=$work/set-$set
  mkdir -p "$dir"
  src=$work/split
  [ "$set" != extra ] || src=$EXTRA_SPLIT
  for l in fr de es; do
    for part in train valid; do ln -sf "$(cd "$src" && pwd)/en-$l.$part.tsv" "$dir/en-$l.$part.tsv"; done
    case $set in
      dev) cp "$src/en-$l.valid.tsv" "$dir/en-$l.test.tsv" ;;
      train) sample "$dir/en-$l.test.tsv" "$src/en-$l.train.tsv" 7 ;;
      extra) sample "$dir/en-$l.test.tsv" "$src/en-$l.train.tsv" 11 "$work/split/en-$l.train.tsv" ;;
    esac
  done
  for l in $langs; do
    others=$(printf '%s\n' fr de es | grep -vx "$l" | tr '\n' ' ')
    /usr/bin/python3 "$here/clean-noise.py" make "$dir" "$l" $others >"$dir/noise-$l.tsv"
    "$bin/pc-clean" -q -s en -t "$l" "${chain[@]}" --annotate "$dir/noise-$l.tsv" >"$dir/default-$l.tsv"
    echo "== $set en-$l: default chain"
    /usr/bin/python3 "$here/clean-noise.py" report "$dir/default-$l.tsv"
  done
done
