#!/usr/bin/env bash
# Core I/O benchmarks:
#  1. LineReader (plain and .zst) against `wc -l` / `zstdcat | wc -l`.
#  2. pc-tmx TSV->TMX and TMX->TSV throughput with peak RSS, on a generated
#     TSV of SIZE_MB (default 1000 = 1 GB), with 1 and 2 threads.
# Usage: bench/bench-io.sh [SIZE_MB] [BUILD_DIR]   (run from the repository root)
set -euo pipefail
size=${1:-1000}
build=${2:-build/release}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pc-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bin=$(cd "$build" && pwd)
drv="/usr/bin/python3 $here/driver.py --runner $bin/bench/bench_runrss"

"$here/make-bitext.sh" "$size" "$tmp/big.tsv"
zstd -q -T2 "$tmp/big.tsv" -o "$tmp/big.tsv.zst"
lines=$(wc -l <"$tmp/big.tsv")

$drv --name "line reader vs wc -l (plain)" --repeat 5 --bytes-from "$tmp/big.tsv" --records "$lines" \
  --run "wc -l" "wc -l $tmp/big.tsv" \
  --run "LineReader" "$bin/bench/bench_linecount $tmp/big.tsv"
$drv --name "line reader vs zstdcat | wc -l (.zst)" --repeat 5 --bytes-from "$tmp/big.tsv" --records "$lines" \
  --run "zstdcat | wc -l" "zstdcat $tmp/big.tsv.zst | wc -l" \
  --run "LineReader (.zst)" "$bin/bench/bench_linecount $tmp/big.tsv.zst"
$drv --name "pc-tmx TSV->TMX" --repeat 3 --bytes-from "$tmp/big.tsv" --records "$lines" \
  --run "cat (I/O floor)" "cat $tmp/big.tsv > $tmp/floor" \
  --run "pc-tmx -j1" "$bin/tools/pc-tmx -q -j1 -s en -t xx $tmp/big.tsv > $tmp/out1.tmx" \
  --run "pc-tmx -j2" "$bin/tools/pc-tmx -q -j2 -s en -t xx $tmp/big.tsv > $tmp/out2.tmx"
cmp "$tmp/out1.tmx" "$tmp/out2.tmx" && echo "  -j1 and -j2 outputs are byte-identical ($(stat -c %s "$tmp/out1.tmx") bytes)"
$drv --name "pc-tmx TMX->TSV" --repeat 3 --bytes-from "$tmp/out1.tmx" --records "$lines" \
  --run "cat (I/O floor)" "cat $tmp/out1.tmx > $tmp/floor" \
  --run "pc-tmx (expat)" "$bin/tools/pc-tmx -q $tmp/out1.tmx -o $tmp/back.tsv"
cmp "$tmp/back.tsv" "$tmp/big.tsv" && echo "  TMX->TSV restored the input byte for byte"
