#!/usr/bin/env bash
# Retrieval P@1 the way pc-mine retrieves: each source of a pair TSV (columns
# src_text, trg_text) ranked against all targets by pc-mine's margin score
# (exact Flat index, k neighbours, ratio margin by default), and back. Row i's
# gold is its own other side; a sentence that occurs on several rows is right
# when its pick is the other side of any of them (pc-mine merges duplicates).
# Prints "p1_fwd p1_bwd" on stdout, as bench/embed-p-at-1.py does for cosine.
#
#   bench/embed-margin-p-at-1.sh MODEL PAIRS.tsv [pc-mine scoring options...]
# e.g. bench/embed-margin-p-at-1.sh en-es.combined.st SPLIT/en-es.test.tsv -k 4 --length-weight 0
# Environment: BIN (folder of the built tools, default build/release/tools).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build/release/tools}
MODEL=$1 PAIRS=$2
shift 2
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
tail -n +2 "$PAIRS" | cut -f1 >"$W/src"
tail -n +2 "$PAIRS" | cut -f2 >"$W/trg"
"$BIN/pc-embed" encode -q -m "$MODEL" --side src -o "$W/src.npy" "$W/src"
"$BIN/pc-embed" encode -q -m "$MODEL" --side trg -o "$W/trg.npy" "$W/trg"
for way in fwd bwd; do
  "$BIN/pc-mine" mine -q --src "$W/src" --trg "$W/trg" --src-npy "$W/src.npy" --trg-npy "$W/trg.npy" \
    --index Flat --retrieval "$way" "$@" -o "$W/$way.tsv"
done
/usr/bin/python3 - "$W" <<'PY'
import os, sys
w = sys.argv[1]
def lines(name):
    with open(os.path.join(w, name), encoding="utf-8") as f:
        return f.read().split("\n")[:-1]
src, trg = lines("src"), lines("trg")
gold = set(zip(src, trg))
def p1(way):
    pick = {}
    for row in lines(way + ".tsv")[1:]:
        s, t = row.split("\t")[:2]
        pick[s if way == "fwd" else t] = (s, t)
    queries = src if way == "fwd" else trg
    return sum(pick.get(q) in gold for q in queries) / len(queries)
print("%.4f %.4f" % (p1("fwd"), p1("bwd")))
PY
