#!/usr/bin/env bash
# Batched translation throughput of pc-nmt against PyTorch running the same
# model (issue 16): target tokens/s for greedy and beam search, same model
# file, same token ids, same batches (sorted by length, BATCH sentences),
# same threads, steady state (two batches decoded untimed first), model load
# and tokenisation outside the timed loop on both sides.
#   pc-nmt   bench_nmt_decode (bench/nmt_decode.cpp): mt::greedy_translate /
#            mt::beam_translate, as pc-nmt translate runs them
#   PyTorch  bench/nmt_torch_decode.py: Debian's python3-torch, the model's
#            tensors loaded from the same .safetensors, KV caches
# Usage: bench/nmt-decode-throughput.sh MODEL SOURCES [BUILD_DIR] [OUT_DIR]   (from the repository root)
# Environment: MODES ("greedy beam4"), THREADS ("1 2"), BATCH (32),
#   ALTERNATIONS (3: each side runs that many times, one after the other,
#   and the table gives medians), SIDES (all four below).
# Sides (the BLAS each used is in its log line):
#   pc-nmt         pc-nmt's own kernels where the CPU has AVX-512, as shipped
#   pc-nmt-skx     PARACORP_GEMM=openblas OPENBLAS_CORETYPE=SkylakeX: large
#                  products in OpenBLAS's AVX-512 kernels, portable few-row kernel
#   torch          PyTorch, OpenBLAS as it detects the CPU
#   torch-skx      PyTorch, OPENBLAS_CORETYPE=SkylakeX
#   pc-nmt-base    (with BASELINE=EXE, another build's bench_nmt_decode) the
#                  baseline of a change to the engine, as pc-nmt runs
# PyTorch runs torch.set_num_threads(THREADS) with OMP_WAIT_POLICY=PASSIVE and
# OpenBLAS on one thread: with OpenBLAS's own pool of THREADS threads as well,
# greedy at two threads ran 172 target tokens/s against about 1,300 at one
# (the two pools fight over two cores). pc-nmt's batches run on THREADS
# threads, each with one-threaded products. Writes its logs and
# outputs to OUT_DIR (default: a temporary folder), nothing into the repository.
set -euo pipefail
model=$(realpath "$1")
sources=$(realpath "$2")
build=$(realpath "${3:-build/release}")
out=${4:-$(mktemp -d "${TMPDIR:-/tmp}/pc-decode.XXXXXX")}
mkdir -p "$out"
out=$(realpath "$out")
here=$(cd "$(dirname "$0")" && pwd)
modes=${MODES:-greedy beam4}
threads=${THREADS:-1 2}
batch=${BATCH:-32}
alternations=${ALTERNATIONS:-3}
sides=${SIDES:-pc-nmt pc-nmt-skx torch torch-skx}
exe=$build/bench/bench_nmt_decode
[ -x "$exe" ] || { echo "nmt-decode-throughput: no $exe (build the bench targets)" >&2; exit 2; }

run_side() {  # SIDE MODE THREADS HYP -> one "rep 0: ..." line
  local side=$1 mode=$2 t=$3 hyp=$4
  case $side in
    pc-nmt) OPENBLAS_NUM_THREADS=1 "$exe" "$model" "$sources" "$mode" "$batch" "$t" 1 "$out/ids.txt" "$hyp" ;;
    pc-nmt-skx) PARACORP_GEMM=openblas OPENBLAS_CORETYPE=SkylakeX OPENBLAS_NUM_THREADS=1 \
      "$exe" "$model" "$sources" "$mode" "$batch" "$t" 1 "$out/ids.txt" "$hyp" ;;
    torch) OMP_WAIT_POLICY=PASSIVE OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$here/nmt_torch_decode.py" "$model" "$out/ids.txt" "$mode" "$batch" "$t" 1 "$hyp" ;;
    torch-skx) OMP_WAIT_POLICY=PASSIVE OPENBLAS_CORETYPE=SkylakeX OPENBLAS_NUM_THREADS=1 \
      /usr/bin/python3 "$here/nmt_torch_decode.py" "$model" "$out/ids.txt" "$mode" "$batch" "$t" 1 "$hyp" ;;
    pc-nmt-base) OPENBLAS_NUM_THREADS=1 "${BASELINE:?pc-nmt-base needs BASELINE=EXE}" "$model" "$sources" "$mode" "$batch" "$t" 1 \
      "$out/ids.base.txt" "$hyp" ;;
    *) echo "nmt-decode-throughput: unknown side $side" >&2; exit 2 ;;
  esac
}

# The ids the PyTorch side reads: written by one untimed pc-nmt run.
OPENBLAS_NUM_THREADS=1 "$exe" "$model" "$sources" greedy "$batch" 1 1 "$out/ids.txt" "$out/hyp.first" >/dev/null 2>"$out/first.log"
log=$out/runs.tsv
printf 'side\tmode\tthreads\trun\ttokens_per_s\twall_s\tcpu_s\ttokens\n' >"$log"
echo "# $(wc -l <"$out/ids.txt") sentences, batch $batch; model $model" | tee "$out/summary.txt"
for mode in $modes; do
  for t in $threads; do
    for ((a = 0; a < alternations; ++a)); do
      for side in $sides; do
        line=$(run_side "$side" "$mode" "$t" "$out/hyp.$side.$mode" 2>"$out/$side.$mode.$t.log")
        # rep 0: X target tokens/s (S s, CPU C s, T tokens)
        echo "$line" | awk -v s="$side" -v m="$mode" -v t="$t" -v a="$a" \
          '{ gsub(/[(),]/, ""); printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s, m, t, a, $3, $6, $9, $11 }' >>"$log"
      done
    done
  done
done
{
  echo "# BLAS and products of each side (last run's log):"
  for f in "$out"/*.log; do [ "$f" = "$out/first.log" ] || echo "#   $(basename "$f" .log): $(tail -n 1 "$f")"; done
  echo "# medians over $alternations runs; ratio: pc-nmt (shipped) tokens/s over the side's"
  awk -F'\t' -v sides_order="$sides" -v modes_order="$modes" -v threads_order="$threads" 'NR > 1 { k = $1 "\t" $2 "\t" $3; v[k] = v[k] " " $5; c[k] = c[k] " " $7 * 1; w[k] = w[k] " " $6 * 1 }
    function med(s,   a, n, i, j, x) {
      n = split(s, a, " ")
      for (i = 2; i <= n; ++i) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; --j) { x = a[j]; a[j] = a[j - 1]; a[j - 1] = x }
      return a[int((n + 1) / 2)]
    }
    END {
      printf "%-11s %-6s %7s %12s %9s %9s %8s\n", "side", "mode", "threads", "tokens/s", "wall s", "cpu s", "ratio"
      n = split(sides_order, order, " ")
      nm = split(modes_order, modes, " "); nt = split(threads_order, ths, " ")
      for (mi = 1; mi <= nm; ++mi) for (ti = 1; ti <= nt; ++ti) {
        base = med(v["pc-nmt\t" modes[mi] "\t" ths[ti]])
        for (si = 1; si <= n; ++si) {
          k = order[si] "\t" modes[mi] "\t" ths[ti]
          if (!(k in v)) continue
          x = med(v[k])
          printf "%-11s %-6s %7s %12.1f %9.2f %9.2f %7.2fx\n", order[si], modes[mi], ths[ti], x, med(w[k]), med(c[k]), (x > 0 && base > 0 ? base / x : 0)
        }
      }
    }' "$log"
  echo "# outputs identical to pc-nmt's (sentences), per side and mode:"
  for mode in $modes; do
    for side in $sides; do
      [ "$side" = pc-nmt ] || [ ! -f "$out/hyp.$side.$mode" ] ||
        echo "#   $side $mode: $(paste -d '|' "$out/hyp.pc-nmt.$mode" "$out/hyp.$side.$mode" | awk -F'|' '$1 == $2' | wc -l) of $(wc -l <"$out/hyp.pc-nmt.$mode")"
    done
  done
} | tee -a "$out/summary.txt"
