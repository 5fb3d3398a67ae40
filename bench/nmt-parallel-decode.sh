#!/usr/bin/env bash
# Parallel decoding against greedy, in the same run: pc-nmt translate at batch
# size 1 with greedy and with each --decode mode, --draft and --block, with
# one thread and with two. Every mode's output must equal greedy's (the
# script stops otherwise). Per row:
#   wall      median wall time of REPEAT interleaved runs (the process: model
#             load and tokenising included, the same for every row)
#   speedup   greedy's wall / this row's wall (same thread count)
#   decode_ms sum of --stats ms (decoding only: model load, tokenising and
#             building the pool excluded), median of the REPEAT runs
#   decode_speedup  greedy's decode_ms / this row's (same thread count; at
#             -j2 a sentence's latency, as sentences overlap)
#   passes/token, tokens/pass   from --stats (tokens with EOS)
#   pass_cost this row's decode ms per pass / greedy's (the encoder's time
#             included, spread over fewer passes): what a B-row pass
#             costs against a one-row pass (-j1 rows only; at -j2 sentences
#             overlap and the sums are not wall time)
#   cand      --candidates: chains of guesses verified in one pass (a tree of
#             1 + cand*(block-1) rows; rows over 16 are left out)
# Usage: [BLOCKS="2 4 8"] [CANDIDATES="1 3"] [MODES="jacobi gs-jacobi hybrid"]
#        [DRAFTS="pad copy ngram"] [IBM1=MODEL] [POOL=FILE] [HEADS=FILE]
#        bench/nmt-parallel-decode.sh MODEL TEXT [REPEAT] [BUILD_DIR]
#   (run from the repository root; TEXT is one sentence a line; IBM1 adds the
#   ibm1 draft and passes --ibm1 to every row; POOL, the training targets a
#   line each, adds the train-ngram draft and passes --ngram-pool to the
#   rows that use it: train-ngram, and candidates above 1; HEADS, draft heads
#   of the model (pc-nmt train-heads), adds the heads draft, passing
#   --draft-heads to its rows)
set -euo pipefail
model=$1
text=$2
repeat=${3:-3}
build=${4:-build/release}
bin=$(cd "$build" && pwd)/tools/pc-nmt
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pc-bench-jacobi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1

configs="greedy:pad:1:1"
drafts=${DRAFTS:-pad copy ngram}
# IBM1 and POOL add their drafts unless DRAFTS names them already.
[ -n "${IBM1:-}" ] && [[ " $drafts " != *" ibm1 "* ]] && drafts="$drafts ibm1"
[ -n "${POOL:-}" ] && [[ " $drafts " != *" train-ngram "* ]] && drafts="$drafts train-ngram"
[ -n "${HEADS:-}" ] && [[ " $drafts " != *" heads "* ]] && drafts="$drafts heads"
for mode in ${MODES:-jacobi gs-jacobi hybrid}; do
  for draft in $drafts; do
    for block in ${BLOCKS:-2 4 8}; do
      for cand in ${CANDIDATES:-1}; do
        [ $((1 + cand * (block - 1))) -le 16 ] && configs="$configs $mode:$draft:$block:$cand"
      done
    done
  done
done
ibm1_opt=()
[ -n "${IBM1:-}" ] && ibm1_opt=(--ibm1 "$IBM1")
# --draft copy needs one vocabulary: leave it out for a model with two.
if "$bin" translate -q -m "$model" --decode jacobi --draft copy </dev/null 2>/dev/null; then :; else
  configs=$(tr ' ' '\n' <<<"$configs" | grep -v ':copy:' | tr '\n' ' ')
fi

now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf 'threads\tmode\tdraft\tblock\tcand\twall_s\tspeedup\tdecode_ms\tdecode_speedup\tpasses_per_token\ttokens_per_pass\tpass_cost\tidentical\n'
for j in 1 2; do
  for r in $(seq "$repeat"); do
    for c in $configs; do
      IFS=: read -r mode draft block cand <<<"$c"
      pool_opt=()
      # The pool only where a row uses it (the train-ngram draft; candidates
      # beyond the first come from it): building it from a training set's
      # targets takes about a second, which would otherwise be in every row's
      # wall time.
      if [ -n "${POOL:-}" ] && [ "$mode" != greedy ] && { [ "$draft" = train-ngram ] || [ "$cand" -gt 1 ]; }; then
        pool_opt=(--ngram-pool "$POOL")
      fi
      [ "$draft" = heads ] && pool_opt+=(--draft-heads "$HEADS")
      t0=$(now)
      "$bin" translate -q -j "$j" --batch-size 1 -m "$model" --decode "$mode" --draft "$draft" --block "$block" \
        --candidates "$cand" "${ibm1_opt[@]}" "${pool_opt[@]}" --stats "$tmp/$c.$j.stats" "$text" > "$tmp/$c.$j.out"
      echo "$(now) - $t0" | bc -l >> "$tmp/$c.$j.wall"
      awk -F'\t' 'NR > 1 { ms += $5 } END { print ms }' "$tmp/$c.$j.stats" >> "$tmp/$c.$j.ms"
    done
  done
  g_wall=$(median < "$tmp/greedy:pad:1:1.$j.wall")
  g_ms=$(median < "$tmp/greedy:pad:1:1.$j.ms")
  # Greedy's median time over its passes (the passes are the same every run),
  # as each row's pass_cost takes its own median: not the last run's time.
  g_ms_per_pass=$(awk -F'\t' -v med_ms="$g_ms" 'NR > 1 { p += $2 } END { print med_ms / p }' "$tmp/greedy:pad:1:1.$j.stats")
  for c in $configs; do
    IFS=: read -r mode draft block cand <<<"$c"
    cmp -s "$tmp/$c.$j.out" "$tmp/greedy:pad:1:1.$j.out" && same=yes || { echo "$c -j$j: output differs from greedy" >&2; exit 1; }
    wall=$(median < "$tmp/$c.$j.wall")
    ms=$(median < "$tmp/$c.$j.ms")
    awk -F'\t' -v j="$j" -v mode="$mode" -v draft="$draft" -v block="$block" -v cand="$cand" -v wall="$wall" -v gw="$g_wall" \
      -v gmp="$g_ms_per_pass" -v gms="$g_ms" -v med_ms="$ms" -v same="$same" '
      NR > 1 { ms += $5; p += $2; t += $3 }
      END {
        cost = (j == 1) ? sprintf("%.3f", (med_ms / p) / gmp) : "-"
        printf "%s\t%s\t%s\t%s\t%s\t%.3f\t%.3f\t%.1f\t%.3f\t%.3f\t%.3f\t%s\t%s\n", j, mode, draft, block, cand, wall, gw / wall, med_ms, gms / med_ms, p / t, t / p, cost, same
      }' "$tmp/$c.$j.stats"
  done
done
