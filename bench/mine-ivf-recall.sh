#!/usr/bin/env bash
# How much of Flat's neighbour lists an IVF index finds, by nprobe, on one
# language's BUCC-style test set left by bench/mine-bucc.sh (WORK/LANG/test.*):
# the target side is indexed (Flat and each IVF factory, one shard, `pc-mine
# index`), the source sentences are the queries (`pc-mine search`), and each
# IVF list is held to Flat's: the share of queries whose nearest is found
# (top1) and the share of the k = 4 nearest found (recall@4). Also the list
# sizes of each IVF index (empty lists, mean, median, largest).
#
#   bench/mine-ivf-recall.sh [BIN [WORK [LANG]]]   (default: build/release/tools, -, de)
# Environment: FACTORIES (default "IVF256,Flat"), NPROBES (default "4 8 16 32 64 128").
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${1:-$ROOT/build/release/tools}
D=${2:?WORK folder of bench/mine-bucc.sh}/${3:-de}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$BIN/pc-mine" index -q -j1 --index Flat --sentences "$D/test.trg.txt" --npy "$D/test.trg.npy" --shards 1 -o "$T/Flat"
"$BIN/pc-mine" search -q -j1 --sentences "$D/test.src.txt" --npy "$D/test.src.npy" -o "$T/Flat.knn" "$T/Flat.0.idx"
printf 'factory\tnprobe\ttop1\trecall@4\n'
for f in ${FACTORIES:-IVF256,Flat}; do
  n=${f%%,*}
  "$BIN/pc-mine" index -q -j1 --index "$f" --sentences "$D/test.trg.txt" --npy "$D/test.trg.npy" --shards 1 -o "$T/$n" 2>/dev/null
  /usr/bin/python3 "$ROOT/bench/mine-knn-compare.py" lists "$T/$n.0.idx" | sed "s/^/# $f: /"
  for p in ${NPROBES:-4 8 16 32 64 128}; do
    "$BIN/pc-mine" search -q -j1 --nprobe "$p" --sentences "$D/test.src.txt" --npy "$D/test.src.npy" -o "$T/$n.knn" "$T/$n.0.idx"
    printf '%s\t%s\t%s\n' "$f" "$p" "$(/usr/bin/python3 "$ROOT/bench/mine-knn-compare.py" recall "$T/Flat.knn" "$T/$n.knn")"
  done
done
