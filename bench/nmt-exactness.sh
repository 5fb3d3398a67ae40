#!/usr/bin/env bash
# Parallel decoding gives greedy's output, token for token: every --decode
# mode, --draft source, --block and --candidates count against greedy at
# batch size 1, on a model and a text (one sentence a line). Prints one row
# per setting: lines, lines identical to greedy, tokens per pass; exits 1 on
# any difference. Usage:
#   [IBM1=MODEL] [POOL=TARGETS] [MODES="jacobi ..."] [SETTINGS="BLOCK:CANDIDATES ..."] bench/nmt-exactness.sh MODEL TEXT [BUILD_DIR]
set -euo pipefail
model=$1
text=$2
bin=$(cd "${3:-build/release}" && pwd)/tools/pc-nmt
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pc-exact.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
drafts="pad ngram"
"$bin" translate -q -m "$model" --decode jacobi --draft copy </dev/null 2>/dev/null && drafts="$drafts copy"
ibm1_opt=()
if [ -n "${IBM1:-}" ]; then drafts="$drafts ibm1"; ibm1_opt=(--ibm1 "$IBM1"); fi
# POOL: the training targets a line each, for the train-ngram draft (and more candidates).
if [ -n "${POOL:-}" ]; then drafts="$drafts train-ngram"; ibm1_opt+=(--ngram-pool "$POOL"); fi
"$bin" translate -q -j 2 --batch-size 1 -m "$model" "$text" > "$tmp/greedy"
lines=$(wc -l < "$tmp/greedy")
printf 'mode\tdraft\tblock\tcandidates\tlines\tidentical\ttokens_per_pass\n'
bad=0
for mode in ${MODES:-jacobi gs-jacobi hybrid}; do
  for draft in $drafts; do
    for bc in ${SETTINGS:-2:1 4:1 8:1 16:1 4:3 4:5 6:3 8:2}; do
      block=${bc%:*} cand=${bc#*:}
      "$bin" translate -q -j 2 -m "$model" --decode "$mode" --draft "$draft" --block "$block" --candidates "$cand" \
        "${ibm1_opt[@]}" --stats "$tmp/s" "$text" > "$tmp/out"
      same=$(awk 'NR == FNR { g[FNR] = $0; next } g[FNR] == $0' "$tmp/greedy" "$tmp/out" | wc -l)
      [ "$same" = "$lines" ] || bad=1
      tpp=$(awk -F'\t' 'NR > 1 { p += $2; t += $3 } END { printf "%.3f", p ? t / p : 0 }' "$tmp/s")
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$draft" "$block" "$cand" "$lines" "$same" "$tpp"
    done
  done
done
exit $bad
