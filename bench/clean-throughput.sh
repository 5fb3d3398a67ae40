#!/usr/bin/env bash
# clean-throughput.sh BIN_DIR WORK_DIR [PAIRS] — pc-clean pairs/s per thread
# and peak RSS (docs/clean.md) on PAIRS real-length pairs (default 10M) made
# by bench/make-bitext.sh from the sample catalogues (copies tagged so rows
# differ; about 91 bytes a pair), next to a Python stand-in for Bicleaner's
# hard rules (bench/clean-bicleaner-standin.py) on the first 200k pairs.
#  - rules only: the default chain without lid/script/alphabet (the sample mixes five
#    target languages), -j1 and -j2
#  - rules + lid + script + alphabet on 200k en-fr rows (-s en -t fr), -j1
#  - the rules with IBM1 scores and a threshold, on the first 200k pairs, -j1 and -j2
# pairs/s per thread is pairs over the CPU seconds pc-clean reports (user +
# system), which a machine shared with other jobs does not inflate; wall
# time is printed too.
# BASELINE=DIR (a folder holding another build's pc-clean): first the rules-only
# chain at -j1 on the first 200k pairs, baseline and candidate alternating,
# REPS times each (default 3), then their median CPU seconds, pairs/s per
# thread and the ratio. BASELINE_ONLY=1 stops after that comparison;
# BASELINE_ALL=1 makes it on all PAIRS pairs instead of the first 200k.
set -euo pipefail
bin=$1
work=$2
pairs=${3:-10000000}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
big=$work/big.tsv
if [ ! -f "$big" ] || [ "$(($(wc -l <"$big") - 1))" -lt "$pairs" ]; then
  bash "$here/make-bitext.sh" $(((pairs * 91 + 999999) / 1000000 + 10)) "$work/gen.tsv"
  head -n $((pairs + 1)) "$work/gen.tsv" >"$big"
  rm -f "$work/gen.tsv"
fi
awk 'NR <= 200001' "$big" >"$work/200k.tsv"
run() {  # label threads pairs args...
  local label=$1 j=$2 n=$3
  shift 3
  local t0 t1
  t0=$(date +%s.%N)
  "$bin/pc-clean" -j"$j" --no-progress "$@" >/dev/null 2>"$work/err"
  t1=$(date +%s.%N)
  local rss cpu
  rss=$(grep -oE 'peak RSS [0-9.]+ [KMG]B' "$work/err" | tail -1)
  cpu=$(grep -oE 'CPU [0-9.]+ s' "$work/err" | tail -1 | cut -d' ' -f2)
  awk -v l="$label" -v j="$j" -v n="$n" -v a="$t0" -v b="$t1" -v r="$rss" -v c="$cpu" \
    'BEGIN { s = b - a; printf "%-32s -j%d %9d pairs  wall %7.2f s  CPU %7.2f s  %8.0f pairs/s/thread (CPU)  %s\n", l, j, n, s, c, n / c, r }'
}
# The default chain without lid, script and alphabet (RULES=CHAIN to change it, e.g. for a
# baseline build that does not know an item).
rules=${RULES:-fix=all,len=1:1000,ratio=3,wratio=1.75:1.5:2:1.5,same,untranslated=0.8,alpha=0.3,url,numbers,placeholders,brackets,repeat=4,caps=0.9,debris,dedup=exact}
"$bin/pc-ibm1" train -q --lowercase -o "$work/en-fr.ibm1" "$here/../data/samples/bitext/en-fr.tsv"
awk -F'\t' 'NR == 1 || ($2 ~ /[àâçéèêëîïôûùœ]/ && n++ < 200000)' "$big" >"$work/fr.tsv"
nfr=$(($(wc -l <"$work/fr.tsv") - 1))
cpu_of() {  # BIN args...: CPU seconds of one pc-clean run
  local b=$1
  shift
  "$b/pc-clean" --no-progress "$@" 2>&1 >/dev/null | grep -oE 'CPU [0-9.]+ s' | tail -1 | cut -d' ' -f2
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
if [ -n "${BASELINE:-}" ]; then
  reps=${REPS:-3}
  cmp=$work/200k.tsv ncmp=200000
  [ -z "${BASELINE_ALL:-}" ] || cmp=$big ncmp=$pairs
  : >"$work/base.cpu"
  : >"$work/cand.cpu"
  for _ in $(seq "$reps"); do
    cpu_of "$BASELINE" -j1 --chain "$rules" "$cmp" >>"$work/base.cpu"
    cpu_of "$bin" -j1 --chain "$rules" "$cmp" >>"$work/cand.cpu"
  done
  b=$(median <"$work/base.cpu") c=$(median <"$work/cand.cpu")
  awk -v n="$ncmp" -v b="$b" -v c="$c" -v r="$reps" -v bl="$(tr '\n' ' ' <"$work/base.cpu")" -v cl="$(tr '\n' ' ' <"$work/cand.cpu")" 'BEGIN {
    printf "rules only -j1, %d pairs, median of %d alternating runs (CPU s: baseline %s| candidate %s)\n", n, r, bl, cl
    printf "  baseline  %.2f s CPU  %8.0f pairs/s/thread\n", b, n / b
    printf "  candidate %.2f s CPU  %8.0f pairs/s/thread  (%.2fx the baseline rate)\n", c, n / c, b / c }'
  [ -z "${BASELINE_ONLY:-}" ] || exit 0
fi
echo "input: $pairs pairs, $(du -m "$big" | cut -f1) MB"
run "rules only (default, no lid)" 1 "$pairs" "$big"
run "rules only (default, no lid)" 2 "$pairs" "$big"
run "rules + lid + script (fr rows)" 1 "$nfr" -s en -t fr "$work/fr.tsv"
run "rules + ibm1>=0.05" 1 200000 --ibm1 "$work/en-fr.ibm1" --chain "$rules,ibm1>=0.05" "$work/200k.tsv"
run "rules + ibm1>=0.05" 2 200000 --ibm1 "$work/en-fr.ibm1" --chain "$rules,ibm1>=0.05" "$work/200k.tsv"
python3 "$here/clean-bicleaner-standin.py" "$work/200k.tsv" >/dev/null
