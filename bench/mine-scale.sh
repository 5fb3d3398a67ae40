#!/usr/bin/env bash
# Whole-mine time of pc-mine against the LASER-style NumPy + python3-faiss
# reference (bench/mine-reference.py, exact IndexFlatIP) in the same run, on
# N x N synthetic 256-d vectors (half of the targets are noisy copies of
# sources, the rest random; seeded), one thread and two. pc-mine runs Flat
# (the same exact neighbours) and its default index for N.
#
# The BLAS of each side: OpenBLAS 0.3.21 picks its kernels by CPU model, and
# on a CPU it does not know it falls back to SSE3 (Prescott) kernels; pc-mine
# then runs its products on paracorp's AVX-512 kernel. So each side runs
# twice: as OpenBLAS detects the CPU ("reference", "pc-mine"), and, where the
# CPU has AVX-512, with OPENBLAS_CORETYPE=SkylakeX ("reference-skylakex",
# "pc-mine-skylakex"), where both sides' products are OpenBLAS's AVX-512
# sgemm: the same BLAS on both sides. "pc-mine-openblas" (not run by default)
# is pc-mine with PARACORP_GEMM=openblas: OpenBLAS as detected. The header
# names what OpenBLAS detected.
#
# Prints one TSV row per run: n  threads  tool  index  rep  seconds
# cpu_seconds  peak_rss_mb  pairs  f1 (against the n/2 planted pairs); then medians and the reference/pc-mine
# ratios per thread count, of wall time and of CPU time (user + system: on
# shared cores wall time charges a run for whatever else was scheduled).
# Runs alternate (each rep runs every variant once).
#
#   bench/mine-scale.sh [BIN [N [REPS]]]   (default: build/release/tools 100000 1)
# Environment: THREADS (default "1 2"), INDEXES (pc-mine's; default "Flat default"),
# TOOLS (default "reference pc-mine reference-skylakex pc-mine-skylakex"; the
# -skylakex ones are dropped without AVX-512; pc-mine-openblas runs Flat only),
# REF_INDEX (the reference's FAISS factory, default Flat; e.g. IVF4096,Flat
# with nprobe 16, pc-mine's default at 1M).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${1:-$ROOT/build/release/tools}
N=${2:-100000}
REPS=${3:-1}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
/usr/bin/python3 - "$W" "$N" <<'PY'
import sys
import numpy as np
w, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(1)
x = rng.standard_normal((n, 256), dtype=np.float32)
y = rng.standard_normal((n, 256), dtype=np.float32)
perm = rng.permutation(n)[: n // 2]
y[: n // 2] = x[perm] + 0.5 * rng.standard_normal((n // 2, 256), dtype=np.float32)
np.save(f"{w}/x.npy", x)
np.save(f"{w}/y.npy", y)
open(f"{w}/x.txt", "w").write("".join(f"s{i}\n" for i in range(n)))
open(f"{w}/y.txt", "w").write("".join(f"t{i}\n" for i in range(n)))
open(f"{w}/gold.tsv", "w").write("".join(f"s{perm[i]}\tt{i}\n" for i in range(n // 2)))
PY
grep -qw avx512f /proc/cpuinfo || SKX=no
TOOLS=${TOOLS:-reference pc-mine reference-skylakex pc-mine-skylakex}
[ "${SKX:-}" = no ] && TOOLS=$(echo $TOOLS | tr ' ' '\n' | grep -v skylakex | tr '\n' ' ')
echo "# OpenBLAS as detected: $(OPENBLAS_VERBOSE=2 /usr/bin/python3 -c 'import numpy; numpy.ones((64,64)) @ numpy.ones((64,64))' 2>&1 | sed -n 's/^Core: //p' | head -1); cpu: $(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -1)"
printf 'n\tthreads\ttool\tindex\trep\tseconds\tcpu_seconds\tpeak_rss_mb\tpairs\tf1\n'
timed() {  # threads tool index rep command...
  local j=$1 tool=$2 ix=$3 rep=$4
  shift 4
  if ! /usr/bin/time -f '%e %U %S %M' -o "$W/t" "$@" > /dev/null 2> "$W/err"; then
    echo "mine-scale: $tool $ix failed:" >&2
    tail -5 "$W/err" >&2
    exit 1
  fi
  read -r s u sy kb < "$W/t"
  # F1 of the pairs out (first line: a header) against the n/2 planted pairs.
  f1=$(awk -F'\t' 'NR == FNR { g[$1 "\t" $2] = 1; n++; next } FNR > 1 { o++; c += (($1 "\t" $2) in g) }
    END { p = o ? c / o : 0; r = c / n; printf "%.4f", p + r ? 2 * p * r / (p + r) : 0 }' "$W/gold.tsv" "$W/out")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%d\t%s\t%s\n' "$N" "$j" "$tool" "$ix" "$rep" "$s" "$(echo "$u + $sy" | bc)" $((kb / 1024)) \
    "$(($(wc -l < "$W/out") - 1))" "$f1"
}
for rep in $(seq "$REPS"); do
  for j in ${THREADS:-1 2}; do
    for tool in $TOOLS; do
      case $tool in
        reference | reference-skylakex)
          core=
          [ $tool = reference-skylakex ] && core="OPENBLAS_CORETYPE=SkylakeX"
          # faiss.omp_set_num_threads does not bound OpenBLAS's own threads.
          ref=${REF_INDEX:-Flat}
          timed $j $tool $ref $rep sh -c "$core OPENBLAS_NUM_THREADS=$j /usr/bin/python3 $ROOT/bench/mine-reference.py $W/x.txt $W/y.txt $W/x.npy $W/y.npy $W/out $j 4 $ref 16 && sed -i '1i header' $W/out" ;;
        pc-mine*)
          envs=(PARACORP_GEMM=)
          indexes=${INDEXES:-Flat default}
          [ $tool = pc-mine-openblas ] && envs=(PARACORP_GEMM=openblas) && indexes=Flat
          [ $tool = pc-mine-skylakex ] && envs+=(OPENBLAS_CORETYPE=SkylakeX)
          for ix in $indexes; do
            opt=()
            [ "$ix" = default ] || opt=(--index "$ix")
            # --length-weight 0 --number-weight 0: LASER's margins, as the reference computes them.
            timed $j $tool $ix $rep env "${envs[@]}" "$BIN/pc-mine" mine -q -j$j "${opt[@]}" --length-weight 0 --number-weight 0 --src "$W/x.txt" \
              --trg "$W/y.txt" --src-npy "$W/x.npy" --trg-npy "$W/y.npy" -o "$W/out"
          done ;;
      esac
    done
  done
done | tee "$W/rows"
/usr/bin/python3 - "$W/rows" <<'PY'
import statistics, sys
rows = [l.split("\t") for l in open(sys.argv[1])]
t, c = {}, {}
n = 0
for nn, j, tool, ix, rep, s, cpu, rss, pairs, f1 in rows:
    n = int(nn)
    t.setdefault((j, tool, ix), []).append(float(s))
    c.setdefault((j, tool, ix), []).append(float(cpu))
med = lambda d, key: statistics.median(d[key])
for j in sorted({k[0] for k in t}):
    # Each pc-mine run against the reference of the same OpenBLAS core type.
    for ref, rix in sorted({k[1:] for k in t if k[0] == j and k[1].startswith("reference")}):
        rt, rc = med(t, (j, ref, rix)), med(c, (j, ref, rix))
        same = lambda tool: ref == "reference" + ("-skylakex" if tool.endswith("-skylakex") else "")
        for tool, ix in sorted({k[1:] for k in t if k[0] == j and k[1].startswith("pc-mine") and same(k[1])}):
            mt, mc = med(t, (j, tool, ix)), med(c, (j, tool, ix))
            # Queries: both directions' (2 n), over the whole run's wall time.
            print(f"# threads {j}: {ref} {rix} {rt:.1f} s ({rc:.1f} s CPU, {2 * n / rt:.0f} queries/s), "
                  f"{tool} {ix} {mt:.1f} s ({mc:.1f} s CPU, {2 * n / mt:.0f} queries/s): "
                  f"wall {rt / mt:.2f}x, CPU {rc / mc:.2f}x")
PY
