#!/usr/bin/env bash
# The cost of a B-row decoder pass against a 1-row pass on a model file
# (bench/nmt_pass_cost.cpp), one thread, weights hot and streamed. Compiled here
# against a build folder's libraries (it is not a CMake target).
# Usage: bench/nmt-pass-cost.sh MODEL|PRESET:VOCAB [BUILD_DIR] [ROUNDS] [ALTERNATIONS] [BASELINE_BUILD_DIR]
#   (from the repository root)
#   e.g. bench/nmt-pass-cost.sh base:8000 build/release   (d=512, random weights)
# With ALTERNATIONS (a number), the pass is timed ALTERNATIONS times with the
# default kernels and as many with PARACORP_GEMM=openblas (the portable
# few-row kernel), one after the other (openblas, default, openblas, ...),
# and a table gives, per kernel, the median over the runs of each run's
# median: baseline and candidate under the same load. With BASELINE_BUILD_DIR
# (another build folder, e.g. of the commit before a kernel change), its
# default kernels run in each alternation too (openblas, baseline, default,
# ...), in a column of their own. BASELINE_SRC=DIR: that build's source
# tree (git worktree add DIR COMMIT), whose headers its bench is compiled
# with (needed when the change touches a header the bench includes). Every alternation also runs the default
# kernels with the weights packed once (PASS_COST_PACKED=1: what greedy,
# beam and the parallel modes run), the "packed" column, and with a baseline
# its packed pass too ("base packed"; "vs base": packed time over it).
set -euo pipefail
model=$1
build=${2:-build/release}
rounds=${3:-21}
alternations=${4:-}
baseline=${5:-}
root=$(pwd)
exe=$(mktemp "${TMPDIR:-/tmp}/pc-pass-cost.XXXXXX")
base_exe=$(mktemp "${TMPDIR:-/tmp}/pc-pass-cost-base.XXXXXX")
log=$(mktemp "${TMPDIR:-/tmp}/pc-pass-cost-log.XXXXXX")
trap 'rm -f "$exe" "$base_exe" "$log"' EXIT
# link bench/nmt_pass_cost.cpp against the libraries of build folder $1 into
# $2, with the headers of source tree $3 (default: this one)
link_against() {
  local src=${3:-$root}
  (cd "$1" && c++ -O2 -std=c++20 -DEIGEN_DONT_PARALLELIZE -I"$src" -isystem /usr/include/eigen3 "$src/bench/nmt_pass_cost.cpp" -o "$2" \
    mt/libmt.a align/libalign.a libcorpus/eval/libcorpus_eval.a libcorpus/linalg/libcorpus_linalg.a libcorpus/core/libcorpus_core.a -lfmt -ltbb -lgomp \
    -lboost_program_options -lexpat -lz -lzstd -llzma -lbz2 -licui18n -licuuc -licudata -lxxhash \
    /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so -lsentencepiece -lsentencepiece_train -lpthread)
}
link_against "$build" "$exe"
[ -z "$baseline" ] || link_against "$baseline" "$base_exe" "${BASELINE_SRC:-}"
if [ -z "$alternations" ]; then
  OPENBLAS_NUM_THREADS=1 "$exe" "$model" "$rounds"
  exit 0
fi
for ((i = 0; i < alternations; ++i)); do
  PARACORP_GEMM=openblas OPENBLAS_NUM_THREADS=1 "$exe" "$model" "$rounds" | sed 's/^/portable /' | tee -a "$log"
  [ -z "$baseline" ] || OPENBLAS_NUM_THREADS=1 "$base_exe" "$model" "$rounds" | sed 's/^/baseline /' | tee -a "$log"
  OPENBLAS_NUM_THREADS=1 "$exe" "$model" "$rounds" | sed 's/^/default  /' | tee -a "$log"
  PASS_COST_PACKED=1 OPENBLAS_NUM_THREADS=1 "$exe" "$model" "$rounds" | sed 's/^/packed   /' | tee -a "$log"
  [ -z "$baseline" ] || PASS_COST_PACKED=1 OPENBLAS_NUM_THREADS=1 "$base_exe" "$model" "$rounds" | sed 's/^/bpacked  /' | tee -a "$log"
done
# "KERNEL decoder pass MODE R rows: US us (X)" -> per KERNEL, MODE, R: the median US
echo "# medians over $alternations runs of $rounds rounds each; x: against the same kernel's 1-row pass; vs portable: time / the portable kernel's${baseline:+; baseline: the default kernels of $baseline}"
awk '$2 == "decoder" { key = $4 " " $5; v[$1 " " key] = v[$1 " " key] " " $7; keys[key] = 1 }
  function med(s,   a, n, i, j, t) {
    n = split(s, a, " ")
    for (i = 2; i <= n; ++i) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; --j) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return a[int((n + 1) / 2)]
  }
  END {
    printf "%-9s %4s %14s %7s", "weights", "rows", "portable us", "x"
    if (base) printf " %14s %7s", "baseline us", "x"
    printf " %14s %7s %10s", "default us", "x", "vs portable"
    if (base) printf " %11s", "vs baseline"
    printf " %14s %7s %10s", "packed us", "x", "vs default"
    if (base) printf " %15s %7s %11s", "base packed us", "x", "vs base"
    printf "\n"
    split("hot streamed", modes, " "); split("1 2 4 8 16", rows, " ")
    for (mi = 1; mi <= 2; ++mi) for (ri = 1; ri <= 5; ++ri) {
      k = modes[mi] " " rows[ri]; k1 = modes[mi] " 1"
      p = med(v["portable " k]); d = med(v["default " k]); p1 = med(v["portable " k1]); d1 = med(v["default " k1])
      printf "%-9s %4d %14.1f %6.2fx", modes[mi], rows[ri], p, p / p1
      if (base) { b = med(v["baseline " k]); b1 = med(v["baseline " k1]); printf " %14.1f %6.2fx", b, b / b1 }
      printf " %14.1f %6.2fx %9.2fx", d, d / d1, d / p
      if (base) printf " %10.2fx", d / b
      q = med(v["packed " k]); q1 = med(v["packed " k1])
      printf " %14.1f %6.2fx %9.2fx", q, q / q1, q / d
      if (base) { bq = med(v["bpacked " k]); bq1 = med(v["bpacked " k1]); printf " %15.1f %6.2fx %10.2fx", bq, bq / bq1, q / bq }
      printf "\n"
    }
  }' base="$baseline" "$log"
