#!/usr/bin/env bash
# pc-eval throughput: BLEU and chrF together (`pc-eval bleu,chrf`,
# one pass, 13a tokenizer, one reference) on N sentence pairs (default 1M),
# with one thread and with two, in sentence pairs per second, and peak RSS.
# A smaller run (N/10 pairs) shows that memory does not grow with the corpus.
# The pairs are made from data/samples/bitext/*.tsv: references are the
# target sides repeated, hypotheses a deterministic perturbation of them
# (dropped, swapped and replaced words). Nothing big is kept afterwards.
# Usage: bench/bench-eval.sh [PAIRS] [BUILD_DIR]   (run from the repository root)
set -euo pipefail
pairs=${1:-1000000}
build=${2:-build/release}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pc-bench-eval.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bin=$(cd "$build" && pwd)
drv="/usr/bin/python3 $here/driver.py --runner $bin/bench/bench_runrss"

# ref and hyp, `pairs` lines each.
cat "$root"/data/samples/bitext/en-*.tsv | awk -F'\t' 'NF >= 2 && $1 != "src_text" { print $2 }' > "$tmp/pool"
awk -v n="$pairs" '
  { pool[NR] = $0 } 
  END {
    srand(1);
    for (i = 0; i < n; ++i) {
      ref = pool[i % NR + 1];
      print ref > "'"$tmp"'/ref";
      m = split(ref, w, " ");
      r = rand();
      if (r < 0.3 && m > 2) { k = int(rand() * m) + 1; w[k] = "" }
      else if (r < 0.6 && m > 1) { k = int(rand() * (m - 1)) + 1; t = w[k]; w[k] = w[k + 1]; w[k + 1] = t }
      else if (r < 0.8) { k = int(rand() * m) + 1; w[k] = pool[int(rand() * NR) + 1] }
      h = "";
      for (j = 1; j <= m; ++j) if (w[j] != "") h = h (h == "" ? "" : " ") w[j];
      print h > "'"$tmp"'/hyp";
    }
  }' "$tmp/pool"
head -n $((pairs / 10)) "$tmp/ref" > "$tmp/ref.small"
head -n $((pairs / 10)) "$tmp/hyp" > "$tmp/hyp.small"
echo "pc-eval bench: $pairs pairs, $(stat -c %s "$tmp/hyp") + $(stat -c %s "$tmp/ref") bytes (hyp + ref)"

$drv --name "pc-eval bleu,chrf: $pairs pairs, 1 vs 2 threads" --repeat 3 --bytes-from "$tmp/hyp" --records "$pairs" \
  --run "bleu,chrf -j1" "$bin/tools/pc-eval bleu,chrf -q -j1 --width 6 -r $tmp/ref $tmp/hyp > $tmp/out1" \
  --run "bleu,chrf -j2" "$bin/tools/pc-eval bleu,chrf -q -j2 --width 6 -r $tmp/ref $tmp/hyp > $tmp/out2"
cmp "$tmp/out1" "$tmp/out2" && echo "  -j1 and -j2 print identical scores:" && sed 's/^/    /' "$tmp/out1"
$drv --name "pc-eval bleu,chrf: memory, $((pairs / 10)) vs $pairs pairs (-j1)" --repeat 1 \
  --run "$((pairs / 10)) pairs" "$bin/tools/pc-eval bleu,chrf -q -j1 -r $tmp/ref.small $tmp/hyp.small" \
  --run "$pairs pairs" "$bin/tools/pc-eval bleu,chrf -q -j1 -r $tmp/ref $tmp/hyp"
