#!/usr/bin/env bash
# Whole-mine time of pc-mine against the LASER-style NumPy + python3-faiss
# reference (bench/mine-reference.py, exact IndexFlatIP) in the same run, on
# N x N synthetic 256-d vectors (half of the targets are noisy copies of
# sources, the rest random; seeded), one thread and two. pc-mine runs Flat
# (the same exact neighbours) and its default index for N. Prints one TSV row
# per run: n  threads  tool  index  rep  seconds  cpu_seconds  peak_rss_mb  pairs;
# then medians and the reference/pc-mine ratios per thread count, of wall
# time and of CPU time (user + system: on shared cores wall time charges a
# run for whatever else was scheduled).
#
#   bench/mine-scale.sh [BIN [N [REPS]]]   (default: build/release/tools 100000 1)
# Environment: THREADS (default "1 2"), INDEXES (pc-mine's; default "Flat default").
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
PY
printf 'n\tthreads\ttool\tindex\trep\tseconds\tcpu_seconds\tpeak_rss_mb\tpairs\n'
timed() {  # threads tool index rep command...
  local j=$1 tool=$2 ix=$3 rep=$4
  shift 4
  /usr/bin/time -f '%e %U %S %M' -o "$W/t" "$@" > /dev/null 2>&1
  read -r s u sy kb < "$W/t"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%d\t%s\n' "$N" "$j" "$tool" "$ix" "$rep" "$s" "$(echo "$u + $sy" | bc)" $((kb / 1024)) \
    "$(($(wc -l < "$W/out") - 1))"
}
for rep in $(seq "$REPS"); do
  for j in ${THREADS:-1 2}; do
    # faiss.omp_set_num_threads does not bound OpenBLAS's own threads.
    timed $j reference Flat $rep sh -c "OPENBLAS_NUM_THREADS=$j /usr/bin/python3 $ROOT/bench/mine-reference.py $W/x.txt $W/y.txt $W/x.npy $W/y.npy $W/out $j && sed -i '1i header' $W/out"
    for ix in ${INDEXES:-Flat default}; do
      opt=()
      [ "$ix" = default ] || opt=(--index "$ix")
      timed $j pc-mine $ix $rep "$BIN/pc-mine" mine -q -j$j "${opt[@]}" --src "$W/x.txt" --trg "$W/y.txt" \
        --src-npy "$W/x.npy" --trg-npy "$W/y.npy" -o "$W/out"
    done
  done
done | tee "$W/rows"
/usr/bin/python3 - "$W/rows" <<'PY'
import statistics, sys
rows = [l.split("\t") for l in open(sys.argv[1])]
t, c = {}, {}
for n, j, tool, ix, rep, s, cpu, rss, pairs in rows:
    t.setdefault((j, tool, ix), []).append(float(s))
    c.setdefault((j, tool, ix), []).append(float(cpu))
med = lambda d, key: statistics.median(d[key])
for j in sorted({k[0] for k in t}):
    rt, rc = med(t, (j, "reference", "Flat")), med(c, (j, "reference", "Flat"))
    for ix in sorted({k[2] for k in t if k[0] == j and k[1] == "pc-mine"}):
        mt, mc = med(t, (j, "pc-mine", ix)), med(c, (j, "pc-mine", ix))
        print(f"# threads {j}: reference {rt:.1f} s ({rc:.1f} s CPU), pc-mine {ix} {mt:.1f} s ({mc:.1f} s CPU): "
              f"wall {rt / mt:.2f}x, CPU {rc / mc:.2f}x")
PY
