# Sourced by kill-test.sh and determinism.sh: the tools' inputs and the local
# web server, in a temporary folder removed at exit.
#   make_inputs        writes the inputs under $in (a second or so)
#   start_server       serves data/samples/site on 127.0.0.1, sets $base
#   same A B           the outputs of two runs agree (see same-output.py)
set -u
crash_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src_dir=$(cd "$crash_dir/../.." && pwd)
samples=$src_dir/data/samples
tdata=$src_dir/tests/data
bin=$(cd "${1:?usage: $0 BIN_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pc-crash.XXXXXX")
in=$work/in
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
# The tiny Transformer of tests/cli/pc-nmt.tst: a step takes a few ms.
NMT_TINY=(--arch tiny --dim 16 --ffn-dim 32 --enc-layers 1 --dec-layers 1 --vocab-size 120 --batch-tokens 512 --warmup 2)
# The small lexical encoder of tests/cli/pc-embed.tst (176 dimensions): about a second to train.
EMBED_SMALL=(--buckets 64 --lsa-dim 16 --char-buckets 32)

# Byte-identical files need no Python (most outputs of most runs).
same() { cmp -s "$1" "$2" || /usr/bin/python3 "$crash_dir/same-output.py" same "$1" "$2"; }

make_inputs() {
  mkdir -p "$in"
  # Every sample bitext (five pairs, 15000 rows) three and nine times over:
  # enough rows for several batches of every pipeline.
  tail -q -n +2 "$samples"/bitext/en-*.tsv >"$in/all.tsv"
  for _ in 1 2 3; do cat "$in/all.tsv"; done >"$in/big.tsv"
  for _ in 1 2 3; do cat "$in/big.tsv"; done >"$in/huge.tsv"
  cut -f2 "$in/huge.tsv" | paste -d' ' - - - >"$in/para.txt"
  cut -f1 "$in/huge.tsv" >"$in/src.txt"
  for _ in $(seq 256); do cat "$tdata/split/docs.jsonl"; done >"$in/docs.jsonl"
  cut -f2 "$in/huge.tsv" >"$in/ref.txt"
  cut -f1 "$in/big.tsv" >"$in/src-big.txt"
  cut -f2 "$in/big.tsv" >"$in/ref-big.txt"
  "$bin/pc-tmx" -q -s en -t xx "$in/big.tsv" -o "$in/big.tmx"
  "$bin/pc-ibm1" train -q -o "$in/ibm1.st" "$samples/bitext/en-de.tsv"
  "$bin/pc-ibm1" align -q -m "$in/ibm1.st" --direction sym "$in/big.tsv" -o "$in/wa1.gold"
  "$bin/pc-ibm1" align -q -m "$in/ibm1.st" --direction fwd "$in/big.tsv" -o "$in/wa1.test"
  for _ in 1 2 3 4; do cat "$in/wa1.gold"; done >"$in/wa.gold"
  for _ in 1 2 3 4; do cat "$in/wa1.test"; done >"$in/wa.test"
  awk '{ printf "s-%06d\tt-%06d\n", NR, NR }' "$in/huge.tsv" >"$in/mine.gold"
  awk '{ printf "s-%06d\tt-%06d\t0.%d\n", NR, (NR % 7 ? NR : NR + 1), NR % 10 }' "$in/huge.tsv" >"$in/mine.cand"
  "$bin/pc-nmt" train "${NMT_TINY[@]}" --max-steps 4 -q -o "$in/nmt.st" "$tdata/nmt/train.tsv"
  for _ in 1 2 3 4 5 6 7 8; do cut -f1 "$tdata/nmt/train.tsv"; done >"$in/nmt-src.txt"
  "$bin/pc-embed" train -q "${EMBED_SMALL[@]}" -o "$in/enc.st" "$samples/bitext/en-de.tsv"
  "$bin/pc-embed" import -q -o "$in/bert.st" "$tdata/embed/wordpiece"
  head -3000 "$in/src-big.txt" >"$in/bert-src.txt"
}

start_server() {
  /usr/bin/python3 "$src_dir/tests/crawl/serve_site.py" --root "$samples/site" --port-file "$work/port" \
    --log "$work/requests.log" &
  server_pid=$!
  for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
  [ -s "$work/port" ] || { echo "FAIL: the test server did not start"; exit 1; }
  base="http://127.0.0.1:$(cat "$work/port")"
}
