#!/usr/bin/env bash
# A Flat mine's product block (bench/gemm_block.cpp) on paracorp's AVX-512
# kernel and on OpenBLAS, once with the kernels OpenBLAS picks for this CPU and
# once with OPENBLAS_CORETYPE=SkylakeX (its AVX-512 kernels; only where the
# CPU has AVX-512), alternating for REPS runs. One thread.
#   bench/gemm-block.sh [BUILD [REPS]]   (default: build/release 3)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${1:-$ROOT/build/release}/bench/bench_gemm_block
REPS=${2:-3}
echo "# cpu: $(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -1)"
for r in $(seq "$REPS"); do
  printf 'detected\t'
  "$BIN" 5
  if grep -qw avx512f /proc/cpuinfo; then
    printf 'SkylakeX\t'
    OPENBLAS_CORETYPE=SkylakeX "$BIN" 5
  fi
done
