#!/usr/bin/env bash
# pc-embed encode throughput: sentences/s with one and two threads and peak
# RSS, for a lexical encoder trained on the package split's en-de train set,
# on N sentences (the train set's English side repeated; default 1,000,000).
# The vectors go to /dev/null (the .npy writer writes devices directly), so
# the figure is encoding, not disk; -j1 and -j2 outputs are also compared
# byte for byte on the first 100,000 sentences.
#
#   bench/embed-encode.sh [BIN [SPLIT_DIR [N]]]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${1:-$ROOT/build/release/tools}
SPLIT=${2:-$ROOT/out/package-split}
N=${3:-1000000}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
[ -s "$SPLIT/en-de.train.tsv" ] || "$ROOT/scripts/make-package-split.sh" "$SPLIT" de >&2
"$BIN/pc-embed" train -q -o "$W/m.st" "$SPLIT/en-de.train.tsv"
cut -f1 "$SPLIT/en-de.train.tsv" | tail -n +2 > "$W/one.txt"
: > "$W/s.txt"
while [ "$(wc -l < "$W/s.txt")" -lt "$N" ]; do cat "$W/one.txt" >> "$W/s.txt"; done
head -n "$N" "$W/s.txt" > "$W/n.txt"
dim=$(/usr/bin/python3 -c 'import json,struct,sys; d=open(sys.argv[1],"rb").read(); n=struct.unpack("<Q",d[:8])[0]; print(json.loads(json.loads(d[8:8+n])["__metadata__"]["config"])["dim"])' "$W/m.st")
printf 'sentences\tdim\tthreads\tseconds\tsentences_per_s\tpeak_rss_mb\n'
for j in 1 2; do
  /usr/bin/time -f '%e %M' -o "$W/t" "$BIN/pc-embed" encode -q -j$j -m "$W/m.st" -o /dev/null "$W/n.txt"
  read -r s kb < "$W/t"
  printf '%s\t%s\t%s\t%s\t%.0f\t%.0f\n' "$N" "$dim" "$j" "$s" "$(echo "$N / $s" | bc -l)" "$(echo "$kb / 1024" | bc -l)"
done
head -n 100000 "$W/n.txt" > "$W/h.txt"
"$BIN/pc-embed" encode -q -j1 -m "$W/m.st" -o "$W/a.npy" "$W/h.txt"
"$BIN/pc-embed" encode -q -j2 -m "$W/m.st" -o "$W/b.npy" "$W/h.txt"
cmp "$W/a.npy" "$W/b.npy" && echo "-j1 and -j2: byte-identical .npy" >&2
