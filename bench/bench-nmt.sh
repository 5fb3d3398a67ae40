#!/usr/bin/env bash
# pc-nmt training throughput against PyTorch (Debian's python3-torch), both
# training the same architecture (bench/nmt_torch_train.py says what is
# matched) on batches of the same shape with the same thread count, in the
# same run: the sides alternate, REPEAT runs each, medians and the ratio.
#
# Fair by construction (issue 21): each side reports target tokens/s from
# inside its training loop, over STEPS steps after WARMUP untimed ones (no
# interpreter start, import, model construction or data set-up). PyTorch
# runs with OPENBLAS_NUM_THREADS=$TORCH_BLAS_THREADS (default 1: Debian's
# torch is built with BLAS_INFO=generic, so torch.set_num_threads does not
# bound OpenBLAS's own pool, and 2 OpenMP + 2 OpenBLAS threads busy-wait on
# 2 cores) and, above one thread, OMP_WAIT_POLICY=PASSIVE. The engine runs
# OpenBLAS single-threaded inside its own thread pool. The BLAS and kernel
# each side used are printed.
#
# BASELINE=DIR adds a third row, DIR's bench_nmt_train (a build of another
# commit), to compare engine builds in the same run. Each pc-nmt row also
# prints a hash of its final weights: with a fixed SHARDS the hash must be
# the same at every thread count (checked when THREADS lists several).
#
# Usage: bench/bench-nmt.sh [ARCH] [B] [T] [STEPS] [THREADS] [BUILD_DIR]
#   ARCH    tiny, small (d=256), base (d=512), or DIM/HEADS/FFN/LAYERS [small]
#   B, T    sentences per batch and tokens per sentence, EOS included [128 32]
#   STEPS   timed steps per run [5]
#   THREADS thread counts, space-separated, e.g. "1 2" [2]
# Environment: WARMUP [2], REPEAT [3], SHARDS [4, pc-nmt train's default],
#   VOCAB [8000], TORCH_BLAS_THREADS [1], BASELINE [none], SIDES [pytorch pc-nmt],
#   TORCH_MALLOC [heap].
# TORCH_MALLOC=heap runs every PyTorch side with glibc's malloc keeping freed
# memory (GLIBC_TUNABLES mmap_max=0, trim_threshold 16 GiB). PyTorch's CPU
# allocator takes each large tensor from malloc, and with glibc's defaults
# every step's activations were new mmap'd pages: 1.2M page faults and a
# third of the CPU time in the kernel for 5 steps at d=256, which is
# start-up cost repeated, not training (2026-12-06: 1,177 -> 1,932 tokens/s,
# OpenBLAS SkylakeX, one thread). TORCH_MALLOC=glibc keeps glibc's defaults.
# SIDES may also name pytorch-blas (OPENBLAS_NUM_THREADS = the thread count,
# OMP_WAIT_POLICY=PASSIVE), pytorch-avx512 (OPENBLAS_CORETYPE=SkylakeX: the
# AVX-512 kernels OpenBLAS 0.3.21 does not choose on AMD Zen 4/5 itself) and
# pc-nmt-openblas (the engine with PARACORP_GEMM=openblas: OpenBLAS's
# products instead of its AVX-512 kernel).
set -euo pipefail
arch=${1:-small}
B=${2:-128}
T=${3:-32}
steps=${4:-5}
threads=${5:-2}
build=${6:-build/release}
warmup=${WARMUP:-2}
repeat=${REPEAT:-3}
shards=${SHARDS:-4}
V=${VOCAB:-8000}
torch_blas=${TORCH_BLAS_THREADS:-1}
torch_malloc=${TORCH_MALLOC:-heap}
case $torch_malloc in
  heap) torch_heap="GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=17179869184" ;;
  glibc) torch_heap="" ;;
  *) echo "bench-nmt.sh: TORCH_MALLOC is heap or glibc, not $torch_malloc" >&2; exit 2 ;;
esac
sides=${SIDES:-pytorch pc-nmt}
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$build" && pwd)/bench/bench_nmt_train
[ -x "$bin" ] || { echo "bench-nmt.sh: no $bin: build the bench_nmt_train target" >&2; exit 2; }
base_bin=
if [ -n "${BASELINE:-}" ]; then
  base_bin=$(cd "$BASELINE" && pwd)/bench/bench_nmt_train
  [ -x "$base_bin" ] || { echo "bench-nmt.sh: no $base_bin" >&2; exit 2; }
fi
openblas=/usr/lib/x86_64-linux-gnu/openblas-pthread
echo "# bench/bench-nmt.sh $arch $B $T $steps \"$threads\" $build  WARMUP=$warmup REPEAT=$repeat SHARDS=$shards VOCAB=$V TORCH_BLAS_THREADS=$torch_blas TORCH_MALLOC=$torch_malloc${BASELINE:+ BASELINE=$BASELINE}"
echo "# $(date -u +%FT%TZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# engine BLAS: $(ldd "$bin" | grep -i blas | tr -s ' \t' ' ')"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for j in $threads; do
  torch_env="$torch_heap OPENBLAS_NUM_THREADS=$torch_blas"
  [ "$j" -gt 1 ] && torch_env="$torch_env OMP_WAIT_POLICY=PASSIVE"
  for r in $(seq "$repeat"); do
    for side in $sides baseline; do
      case $side in
        pytorch) cmd="env LD_LIBRARY_PATH=$openblas $torch_env /usr/bin/python3 $here/nmt_torch_train.py $arch $B $T $V $steps $j $warmup" ;;
        pytorch-blas)  [ "$j" -gt 1 ] || continue  # OpenBLAS's own pool at the same thread count (its threads and torch's OpenMP ones, PASSIVE)
          cmd="env LD_LIBRARY_PATH=$openblas $torch_heap OPENBLAS_NUM_THREADS=$j OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 $here/nmt_torch_train.py $arch $B $T $V $steps $j $warmup" ;;
        pytorch-avx512)  # OpenBLAS's AVX-512 (SkylakeX) kernels, which it does not pick on AMD Zen 4/5 by itself
          cmd="env LD_LIBRARY_PATH=$openblas $torch_env OPENBLAS_CORETYPE=SkylakeX /usr/bin/python3 $here/nmt_torch_train.py $arch $B $T $V $steps $j $warmup" ;;
        pc-nmt-openblas) cmd="env PARACORP_GEMM=openblas $bin $arch $B $T $V $steps $j $warmup $shards" ;;
        pc-nmt) cmd="$bin $arch $B $T $V $steps $j $warmup $shards" ;;
        baseline) [ -n "$base_bin" ] || continue; cmd="$base_bin $arch $B $T $V $steps $j $warmup $shards" ;;
      esac
      [ "$r" = 1 ] && echo "# $side -j$j: $cmd"
      $cmd >"$out/run" 2>"$out/err" || { cat "$out/err" >&2; exit 1; }
      [ "$r" = 1 ] && sed 's/^/#   /' "$out/err"
      printf '%s\t%s\t%s\n' "$j" "$side" "$(tr '\n' '\t' <"$out/run")" >>"$out/all"
    done
  done
done
/usr/bin/python3 - "$out/all" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    j, side, rest = line.rstrip("\n").split("\t", 2)
    tps = float(rest.split()[0])
    cpu = float(re.search(r"CPU ([0-9.]+) s", rest).group(1))
    wall = float(re.search(r", ([0-9.]+) s, CPU", rest).group(1))
    h = re.search(r"weights ([0-9a-f]+)", rest)
    rows.setdefault((int(j), side), []).append((tps, cpu / wall, h.group(1) if h else "-"))
print("threads\tside\tmedian_tok_s\truns_tok_s\tcpu_per_wall\tratio_vs_pytorch\tweights")
for (j, side), v in sorted(rows.items()):
    med = statistics.median(t for t, _, _ in v)
    ref = rows.get((j, "pytorch"))
    ratio = f"{med / statistics.median(t for t, _, _ in ref):.2f}x" if ref else "-"
    hashes = sorted({h for _, _, h in v})
    print(f"{j}\t{side}\t{med:.1f}\t{','.join(f'{t:.0f}' for t, _, _ in v)}\t"
          f"{statistics.median(c for _, c, _ in v):.2f}\t{ratio}\t{','.join(hashes)}")
for side in ("pc-nmt", "baseline", "pc-nmt-openblas"):
    hs = {h for (j, s), v in rows.items() if s == side for _, _, h in v}
    js = sorted(j for (j, s) in rows if s == side)
    if len(js) > 1:
        print(f"# {side}: final weights {'identical' if len(hs) == 1 else 'DIFFERENT'} at -j{' and -j'.join(map(str, js))}")
PY
