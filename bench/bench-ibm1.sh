#!/usr/bin/env bash
# IBM Model 1 benchmarks, on real catalogue bitext (all en-X pairs
# that scripts/make-sample-bitext.sh finds under /usr/share/locale, made into
# a temporary folder; >= 100k pairs on a Debian 12 machine with the usual
# locales):
#  1. pc-ibm1 train, 5 EM iterations, -j1 against -j2: wall time, pairs/s,
#     peak RSS, the thread-scaling ratio, and seconds per EM iteration (both
#     directions) from pc-ibm1's own per-iteration timing (median of 2..5).
#     The two models must be byte-identical.
#  2. With FAST_ALIGN=/path/to/fast_align (built by hand from
#     github.com/clab/fast_align; never committed): the same data and
#     whitespace tokens, one thread each, plain IBM Model 1 (no -d). Seconds
#     per iteration = (T(-I 5) - T(-I 1)) / 4 for both tools, so loading and
#     the final alignment pass cancel out. fast_align trains one direction,
#     pc-ibm1 both.
# Usage: bench/bench-ibm1.sh [BUILD_DIR] [REPEAT]   (run from the repository root)
set -euo pipefail
build=${1:-build/release}
repeat=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pc-bench-ibm1.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bin=$(cd "$build" && pwd)
drv="/usr/bin/python3 $here/driver.py --runner $bin/bench/bench_runrss"
ibm1=$bin/tools/pc-ibm1

BITEXT_OUT_DIR=$tmp/bitext BITEXT_MAX_PAIRS=10000000 "$here/../scripts/make-sample-bitext.sh" >/dev/null 2>&1
cat "$tmp"/bitext/en-*.tsv | grep -v $'^src_text\ttrg_text$' >"$tmp/all.tsv"
pairs=$(wc -l <"$tmp/all.tsv")
echo "data: $pairs real pairs from $(ls "$tmp"/bitext/en-*.tsv | wc -l) gettext catalogue files (en-X)"

median_iteration() {  # stderr of pc-ibm1 train -> median seconds of iterations 2..
  grep -oE '^pc-ibm1: iteration [0-9]+: .*\(([0-9.]+) s\)' "$1" | tail -n +2 | sed -E 's/.*\(([0-9.]+) s\)$/\1/' |
    sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

$drv --name "pc-ibm1 train (ICU tokens, 5 iterations, both directions)" --repeat "$repeat" \
  --bytes-from "$tmp/all.tsv" --records "$pairs" --json "$tmp/r.json" \
  --run "pc-ibm1 train -j1" "$ibm1 train -q -j1 -o $tmp/m1.st $tmp/all.tsv" \
  --run "pc-ibm1 train -j2" "$ibm1 train -q -j2 -o $tmp/m2.st $tmp/all.tsv"
cmp "$tmp/m1.st" "$tmp/m2.st" && echo "  -j1 and -j2 models are byte-identical ($(stat -c %s "$tmp/m1.st") bytes)"
for j in 1 2; do
  "$ibm1" train -j$j -o "$tmp/m.st" "$tmp/all.tsv" 2>"$tmp/e$j"
  s=$(median_iteration "$tmp/e$j")
  echo "  -j$j: $s s per EM iteration (both directions), $(awk -v p="$pairs" -v s="$s" 'BEGIN { printf "%.0f", p / s }') pairs/s per iteration"
done
s1=$(median_iteration "$tmp/e1"); s2=$(median_iteration "$tmp/e2")
echo "  EM iteration scaling -j1 -> -j2: $(awk -v a="$s1" -v b="$s2" 'BEGIN { printf "%.2fx", a / b }')"

if [ -n "${FAST_ALIGN:-}" ]; then
  awk -F'\t' '{ print $1 " ||| " $2 }' "$tmp/all.tsv" >"$tmp/all.fa"
  $drv --name "fast_align vs pc-ibm1, whitespace tokens, one thread" --repeat "$repeat" \
    --bytes-from "$tmp/all.tsv" --records "$pairs" --json "$tmp/fa.json" \
    --run "fast_align -I 1" "OMP_NUM_THREADS=1 $FAST_ALIGN -i $tmp/all.fa -I 1 2>/dev/null" \
    --run "fast_align -I 5" "OMP_NUM_THREADS=1 $FAST_ALIGN -i $tmp/all.fa -I 5 2>/dev/null" \
    --run "pc-ibm1 -I 1" "$ibm1 train -q -j1 --tokenize whitespace --iterations 1 -o $tmp/w.st $tmp/all.tsv" \
    --run "pc-ibm1 -I 5" "$ibm1 train -q -j1 --tokenize whitespace --iterations 5 -o $tmp/w.st $tmp/all.tsv"
  /usr/bin/python3 - "$tmp/fa.json" "$pairs" <<'PY'
import json, sys
r = {x["label"]: x["median_s"] for x in json.loads(open(sys.argv[1]).read().splitlines()[-1])["results"]}
pairs = int(sys.argv[2])
fa = (r["fast_align -I 5"] - r["fast_align -I 1"]) / 4
pc = (r["pc-ibm1 -I 5"] - r["pc-ibm1 -I 1"]) / 4
print(f"  seconds per EM iteration, one thread: fast_align {fa:.3f} (one direction, {pairs / fa:.0f} pairs/s), "
      f"pc-ibm1 {pc:.3f} (both directions, {pairs / pc:.0f} pairs/s)")
print(f"  pc-ibm1 speed-up per iteration: {fa / pc:.2f}x with both directions, {2 * fa / pc:.2f}x per direction")
print(f"  whole run with 5 iterations: fast_align {r['fast_align -I 5']:.2f} s, pc-ibm1 {r['pc-ibm1 -I 5']:.2f} s "
      f"({r['fast_align -I 5'] / r['pc-ibm1 -I 5']:.2f}x)")
PY
fi
