#!/usr/bin/env bash
# pc-nmt training throughput against PyTorch (Debian's python3-torch)
# training the same architecture on batches of the same shape with the same
# thread count, in the same run (bench/driver.py, interleaved, medians).
# Target tokens per second = STEPS x B x T / median wall time (the wall time
# includes start-up: PyTorch's import, the engine's synthetic data).
# PyTorch runs with OpenBLAS forced (LD_LIBRARY_PATH to the openblas-pthread
# folder, whose libblas.so.3 is OpenBLAS): Debian's default libblas.so.3 may be
# the reference BLAS, about 14x slower. The BLAS each side used is printed.
# Usage: bench/bench-nmt.sh [ARCH] [B] [T] [STEPS] [THREADS] [BUILD_DIR]
set -euo pipefail
arch=${1:-small}
B=${2:-16}
T=${3:-32}
steps=${4:-10}
threads=${5:-2}
build=${6:-build/release}
V=8000
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$build" && pwd)
openblas=/usr/lib/x86_64-linux-gnu/openblas-pthread
echo "BLAS of PyTorch: $(LD_LIBRARY_PATH=$openblas /usr/bin/python3 "$here/nmt_torch_train.py" tiny 2 4 100 1 1 2>&1 >/dev/null)"
echo "BLAS of the engine: $("$bin/tools/pc-nmt" --version >/dev/null; ldd "$bin/bench/bench_nmt_train" | grep -i blas | tr -s ' \t' ' ')"
records=$((steps * B * T))
/usr/bin/python3 "$here/driver.py" --runner "$bin/bench/bench_runrss" --name "nmt-train-$arch-B$B-T$T-j$threads" \
  --repeat 3 --records "$records" \
  --run pytorch "LD_LIBRARY_PATH=$openblas /usr/bin/python3 $here/nmt_torch_train.py $arch $B $T $V $steps $threads" \
  --run pc-nmt "$bin/bench/bench_nmt_train $arch $B $T $V $steps $threads"
