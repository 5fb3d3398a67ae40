#!/usr/bin/env bash
# pc-split benchmarks:
#  1. MB/s per thread on SIZE_MB (default 100) of mixed-language paragraphs
#     from the gettext catalogues (20 languages, bench/make-split-text.py):
#     plain text with -j1 and -j2, and the same paragraphs as documents JSONL
#     (each document split with its own language), against `cat` as the I/O floor.
#  2. Baselines on English, on a smaller slice because they are slow:
#     Lingua::Sentence (Perl port of Moses' split-sentences.perl) and
#     Lingua::EN::Sentence, with pc-split -j1 on the same bytes.
#  3. Boundary accuracy table (bench/eval-split.py) on data/samples/split-gold.
# Usage: bench/bench-split.sh [SIZE_MB] [BUILD_DIR] [BASELINE_MB]   (run from the repository root)
set -euo pipefail
size=${1:-100}
build=${2:-build/release}
base_mb=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pc-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bin=$(cd "$build" && pwd)
drv="/usr/bin/python3 $here/driver.py --runner $bin/bench/bench_runrss"
pc=$bin/tools/pc-split

/usr/bin/python3 "$here/make-split-text.py" "$size" "$tmp/mix"
paras=$(wc -l <"$tmp/mix.txt")
docs=$(wc -l <"$tmp/mix.jsonl")

$drv --name "pc-split, ${size} MB mixed-language text" --repeat 3 --bytes-from "$tmp/mix.txt" --records "$paras" \
  --run "cat (I/O floor)" "cat $tmp/mix.txt > $tmp/floor" \
  --run "pc-split text -j1" "$pc -q -j1 -l en $tmp/mix.txt > $tmp/t1" \
  --run "pc-split text -j2" "$pc -q -j2 -l en $tmp/mix.txt > $tmp/t2"
cmp "$tmp/t1" "$tmp/t2" && echo "  -j1 and -j2 outputs are byte-identical ($(wc -l <"$tmp/t1") sentences)"
$drv --name "pc-split, same paragraphs as JSONL documents (language per document)" --repeat 3 \
  --bytes-from "$tmp/mix.jsonl" --records "$docs" \
  --run "cat (I/O floor)" "cat $tmp/mix.jsonl > $tmp/floor" \
  --run "pc-split jsonl -j1" "$pc -q -j1 $tmp/mix.jsonl > $tmp/j1" \
  --run "pc-split jsonl -j2" "$pc -q -j2 $tmp/mix.jsonl > $tmp/j2"
cmp "$tmp/j1" "$tmp/j2" && echo "  -j1 and -j2 outputs are byte-identical"

head -c $((base_mb * 1000 * 1000)) "$tmp/mix.en.txt" | sed '$d' > "$tmp/en.txt"
en_lines=$(wc -l <"$tmp/en.txt")
runs=(--run "pc-split -j1 -l en" "$pc -q -j1 -l en $tmp/en.txt > $tmp/e1")
if perl -MLingua::Sentence -e 1 2>/dev/null; then
  runs+=(--run "Lingua::Sentence (Moses port)" "perl -MLingua::Sentence -CSD -ne 'BEGIN { \$s = Lingua::Sentence->new(\"en\") } chomp; print \$s->split(\$_)' $tmp/en.txt > $tmp/e2")
else
  echo "  Lingua::Sentence not installed (liblingua-sentence-perl): left out"
fi
if perl -MLingua::EN::Sentence -e 1 2>/dev/null; then
  head -c 1000000 "$tmp/en.txt" | sed '$d' > "$tmp/en1.txt"
  $drv --name "English, 1 MB: pc-split vs Lingua::EN::Sentence" --repeat 3 --bytes-from "$tmp/en1.txt" \
    --records "$(wc -l <"$tmp/en1.txt")" \
    --run "pc-split -j1 -l en" "$pc -q -j1 -l en $tmp/en1.txt > $tmp/e3" \
    --run "Lingua::EN::Sentence" "perl -MLingua::EN::Sentence=get_sentences -CSD -ne 'chomp; my \$r = get_sentences(\$_) || []; print \"\$_\\n\" for @\$r' $tmp/en1.txt > $tmp/e4"
else
  echo "  Lingua::EN::Sentence not installed (liblingua-en-sentence-perl): left out"
fi
$drv --name "English, ${base_mb} MB: pc-split vs Moses-like baseline" --repeat 3 --bytes-from "$tmp/en.txt" \
  --records "$en_lines" "${runs[@]}"

echo
echo "Boundary accuracy on data/samples/split-gold:"
/usr/bin/python3 "$here/eval-split.py" "$pc"
