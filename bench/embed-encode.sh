#!/usr/bin/env bash
# pc-embed encode throughput for each encoder kind: sentences/s with one and
# two threads, CPU seconds and peak RSS, on N sentences (the package split's
# en-de train English side repeated). The vectors go to /dev/null (the .npy
# writer writes devices directly), so the figure is encoding, not disk.
#
#   bench/embed-encode.sh [BIN [SPLIT_DIR [N]]]
#
# Environment:
#   KINDS      encoder kinds to time (default "lexical neural combined bert")
#   N_NEURAL   sentences for the neural, combined and bert kinds (default N):
#              the neural encoder runs about 1,000 sentences/s per thread,
#              so 1M of them is a quarter of an hour per run
#   NEURAL     a neural model to time (default: one trained here for 20
#              steps at the default architecture; speed does not depend on
#              the weights, only on the architecture and the pieces)
#   BASELINE   another build's tools folder: each run is timed for it and
#              for BIN alternately, and the ratio BIN / BASELINE of the
#              median sentences/s (wall) and of CPU seconds is printed
#   REPEAT     runs per side and thread count (default 1); medians are
#              printed
# The combined model joins the lexical model and NEURAL (pc-embed combine
# of BIN; a BASELINE that cannot open it is left out of that kind's rows).
# The bert kind is the
# tiny random-weight fixture tests/data/embed/wordpiece (d = 32). -j1 and -j2
# outputs are compared byte for byte on the first 20,000 sentences of each kind.
# Columns: kind side sentences dim threads seconds cpu_s sentences_per_s peak_rss_mb
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${1:-$ROOT/build/release/tools}
SPLIT=${2:-$ROOT/out/package-split}
N=${3:-1000000}
N_NEURAL=${N_NEURAL:-$N}
KINDS=${KINDS:-lexical neural combined bert}
REPEAT=${REPEAT:-1}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
[ -s "$SPLIT/en-de.train.tsv" ] || "$ROOT/scripts/make-package-split.sh" "$SPLIT" de >&2
"$BIN/pc-embed" train -q -o "$W/lexical.st" "$SPLIT/en-de.train.tsv"
if [ -n "${NEURAL:-}" ]; then
  cp "$NEURAL" "$W/neural.st"
else
  "$BIN/pc-embed" train -q --kind neural --max-steps 20 --valid-pairs 0 -o "$W/neural.st" "$SPLIT/en-de.train.tsv"
fi
"$BIN/pc-embed" combine -q -o "$W/combined.st" "$W/lexical.st" "$W/neural.st"
"$BIN/pc-embed" import -q -o "$W/bert.st" "$ROOT/tests/data/embed/wordpiece"
cut -f1 "$SPLIT/en-de.train.tsv" | tail -n +2 > "$W/one.txt"
big=$(( N > N_NEURAL ? N : N_NEURAL ))
: > "$W/s.txt"
while [ "$(wc -l < "$W/s.txt")" -lt "$big" ]; do cat "$W/one.txt" >> "$W/s.txt"; done
head -n "$N" "$W/s.txt" > "$W/n.txt"
head -n "$N_NEURAL" "$W/s.txt" > "$W/nn.txt"
dim() {
  head -1 "$W/one.txt" > "$W/1.txt"
  "$BIN/pc-embed" encode -q -m "$1" -o "$W/1.npy" "$W/1.txt"
  /usr/bin/python3 -c 'import numpy,sys; print(numpy.load(sys.argv[1]).shape[1])' "$W/1.npy"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

sides=cand
[ -n "${BASELINE:-}" ] && sides="base cand"
printf 'kind\tside\tsentences\tdim\tthreads\tseconds\tcpu_s\tsentences_per_s\tpeak_rss_mb\n'
for kind in $KINDS; do
  txt=$W/nn.txt n=$N_NEURAL
  [ "$kind" = lexical ] && txt=$W/n.txt n=$N
  d=$(dim "$W/$kind.st")
  ks=$sides
  if [ -n "${BASELINE:-}" ] && ! "$BASELINE/pc-embed" encode -q -m "$W/$kind.st" -o "$W/1.npy" "$W/1.txt" 2>/dev/null; then
    ks=cand
    echo "# $kind: the baseline cannot open this kind; candidate only"
  fi
  for j in 1 2; do
    for r in $(seq "$REPEAT"); do
      for side in $ks; do
        bin=$BIN
        [ "$side" = base ] && bin=$BASELINE
        model=$W/$kind.st
        /usr/bin/time -f '%e %U %S %M' -o "$W/t" "$bin/pc-embed" encode -q -j$j -m "$model" -o /dev/null "$txt"
        read -r s u sy kb < "$W/t"
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%.0f\t%.0f\n' "$kind" "$side" "$n" "$d" "$j" "$s" \
          "$(echo "$u + $sy" | bc -l)" "$(echo "$n / $s" | bc -l)" "$(echo "$kb / 1024" | bc -l)" | tee -a "$W/rows"
      done
    done
    if [ "$ks" != cand ]; then
      for col in 8 7; do
        b=$(awk -F'\t' -v k="$kind" -v j="$j" -v c="$col" '$1 == k && $2 == "base" && $5 == j { print $c }' "$W/rows" | median)
        c=$(awk -F'\t' -v k="$kind" -v j="$j" -v c="$col" '$1 == k && $2 == "cand" && $5 == j { print $c }' "$W/rows" | median)
        printf '# %s -j%s median %s: baseline %s, candidate %s, ratio %.3f\n' "$kind" "$j" \
          "$([ $col = 8 ] && echo sentences/s || echo cpu_s)" "$b" "$c" "$(echo "$c / $b" | bc -l)"
      done
    fi
  done
  head -n 20000 "$txt" > "$W/h.txt"
  "$BIN/pc-embed" encode -q -j1 -m "$W/$kind.st" -o "$W/a.npy" "$W/h.txt"
  "$BIN/pc-embed" encode -q -j2 -m "$W/$kind.st" -o "$W/b.npy" "$W/h.txt"
  cmp "$W/a.npy" "$W/b.npy" && echo "# $kind: -j1 and -j2 byte-identical .npy ($(wc -l < "$W/h.txt") sentences)"
done
