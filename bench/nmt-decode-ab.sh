#!/usr/bin/env bash
# Two builds of pc-nmt translating the same text at batch size 1, in the same
# run: greedy and parallel modes, the builds and modes alternating, REPEAT
# rounds, medians. For a change to the decoding engine: baseline and
# candidate under the same load, and each mode against its own build's
# greedy. Every output must equal the baseline's greedy output.
# Usage: bench/nmt-decode-ab.sh BASE_BUILD CAND_BUILD MODEL TEXT [REPEAT]
# Environment: MODES ["greedy:pad:1 hybrid:ngram:2 hybrid:ngram:4 hybrid:ngram:8"]
#   (mode:draft:block), J [1] (threads), POOL [none]: --ngram-pool FILE for
#   the rows whose draft is train-ngram (building it is not in decode_ms).
# decode_ms: the sum of --stats' per-sentence times (model load and
# tokenising excluded), median over the rounds; vs_base_greedy: the
# baseline's greedy decode_ms over this row's; speedup: the same build's
# greedy over this row's; pass_cost: ms per decoder pass over greedy's.
set -euo pipefail
base=$1
cand=$2
model=$3
text=$4
repeat=${5:-7}
modes=${MODES:-greedy:pad:1 hybrid:ngram:2 hybrid:ngram:4 hybrid:ngram:8}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pc-decode-ab.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
for r in $(seq "$repeat"); do
  for side in base cand; do
    dir=$base
    [ "$side" = cand ] && dir=$cand
    for mm in $modes; do
      IFS=: read -r mode draft block <<<"$mm"
      pool=()
      [ "$draft" != train-ngram ] || pool=(--ngram-pool "${POOL:?train-ngram needs POOL=FILE}")
      "$dir/tools/pc-nmt" translate -q -j "${J:-1}" --batch-size 1 -m "$model" --decode "$mode" --draft "$draft" \
        --block "$block" "${pool[@]}" --stats "$tmp/st.tsv" "$text" >"$tmp/$side.$mm.out"
      awk -F'\t' -v s="$side" -v m="$mm" 'NR > 1 { ms += $5; p += $2; t += $3 } END { print s, m, ms, p, t }' \
        "$tmp/st.tsv" >>"$tmp/raw"
    done
  done
done
for f in "$tmp"/*.out; do
  cmp -s "$f" "$tmp/base.greedy:pad:1.out" || { echo "$(basename "$f"): output differs from the baseline's greedy" >&2; exit 1; }
done
echo "# $(date -u +%FT%TZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $repeat rounds, -j${J:-1}, batch size 1"
echo "# base: $base ($("$base/tools/pc-nmt" --version 2>/dev/null | head -1)); cand: $cand ($("$cand/tools/pc-nmt" --version 2>/dev/null | head -1))"
echo "# every output identical to the baseline's greedy output"
awk '
  { key = $1 " " $2; v[key] = v[key] " " $3; p[key] = $4; t[key] = $5; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
  function med(s,   a, k, i, j, x) {
    k = split(s, a, " ")
    for (i = 2; i <= k; ++i) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; --j) { x = a[j]; a[j] = a[j - 1]; a[j - 1] = x }
    return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  END {
    printf "side\tmode:draft:block\tdecode_ms\tvs_base_greedy\tspeedup\ttokens_per_pass\tpass_cost\n"
    bg = med(v["base greedy:pad:1"])
    for (i = 1; i <= n; ++i) {
      key = order[i]; split(key, kk, " "); g = "" kk[1] " greedy:pad:1"
      m = med(v[key]); gm = med(v[g])
      printf "%s\t%s\t%.1f\t%.3f\t%.3f\t%.3f\t%.3f\n", kk[1], kk[2], m, bg / m, gm / m, t[key] / p[key], (m / p[key]) / (gm / p[g])
    }
  }' "$tmp/raw"
