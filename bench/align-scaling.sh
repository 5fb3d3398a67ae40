#!/usr/bin/env bash
# pc-align's time and peak memory against document length: one document pair
# of 1k, 10k and 100k sentences per side, aligned with a lexical encoder
# (embedding: overlap encoding + recursive banded DP) and by length
# (Gale-Church, same recursion). Linear growth shows as ratios near 10 from
# one size to the next. Each size runs 3 times; the table has the medians.
#
# Text: package-split train pairs (make-package-split.sh en-de), repeated to
# 100k pairs, cut into one document per size with the issue's edits
# (bench/align-gold.py --tsv), so the documents are real strings with
# deletions and merges. The encoder is trained on the same train file.
#
# With BASELINE=DIR, DIR/pc-align (an older build) is timed too, as method
# "embedding (baseline)". With HUNALIGN=PATH (hunalign built by hand from
# github.com/danielvarga/hunalign, not part of this repository), hunalign
# with an empty dictionary on the same documents' sentences (written out by
# bench/align-hunalign.py --write-only; only hunalign's own run is timed). A
# run over 120 s is not repeated (hunalign's 100k document): that row is one
# run, not a median; hunalign is killed after HUNALIGN_TIMEOUT seconds
# (1800), which the row says.
#
# METHODS="length hunalign" times only those.
#
# Usage: [BASELINE=DIR] [HUNALIGN=PATH] bench/align-scaling.sh [BUILD_DIR] [WORK_DIR]
# (from the repository root)
set -euo pipefail
build=${1:-build/release}
work=${2:-$(mktemp -d /tmp/align-scaling.XXXXXX)}
bin=$(cd "$build" && pwd)/tools
src=$(pwd)
baseline=${BASELINE:+$(cd "$BASELINE" && pwd)}
hunalign=${HUNALIGN:+$(realpath "$HUNALIGN")}
mkdir -p "$work"
cd "$work"
[ -s split/en-de.train.tsv ] || bash "$src/scripts/make-package-split.sh" split de >&2
[ -s enc-de.st ] || "$bin/pc-embed" train -q -s en -t de -o enc-de.st split/en-de.train.tsv
if [ ! -s big.tsv ]; then
  { head -1 split/en-de.train.tsv; for i in 1 2 3 4 5; do tail -n +2 split/en-de.train.tsv; done; } | awk 'NR <= 100001' > big.tsv
fi
for n in 1000 10000 100000; do
  [ -s doc-$n/pairs.jsonl ] || { awk -v n=$((n + 1)) 'NR <= n' big.tsv > t-$n.tsv &&
    /usr/bin/python3 "$src/bench/align-gold.py" --tsv t-$n.tsv en de doc-$n --doc-size $n >&2; }
done

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
methods=(embedding length)
[ -n "$baseline" ] && methods+=(baseline)
[ -n "$hunalign" ] && methods+=(hunalign)
[ -n "${METHODS:-}" ] && read -r -a methods <<< "$METHODS"
if [ -n "$hunalign" ]; then
  for n in 1000 10000 100000; do
    [ -s hun-$n/trg.0.txt ] || /usr/bin/python3 "$src/bench/align-hunalign.py" "$hunalign" doc-$n/pairs.jsonl hun-$n --write-only
  done
fi
printf 'method\tsentences\tsrc_sents\ttime_s\tpeak_rss_mb\ttime_ratio\trss_ratio\n'
for method in "${methods[@]}"; do
  prev_t="" prev_m=""
  for n in 1000 10000 100000; do
    case $method in
      embedding) cmd=("$bin/pc-align" -q -j1 --encoder enc-de.st doc-$n/pairs.jsonl -o out.tsv) ;;
      baseline) cmd=("$baseline/pc-align" -q -j1 --encoder enc-de.st doc-$n/pairs.jsonl -o out.tsv) ;;
      length) cmd=("$bin/pc-align" -q -j1 --method length doc-$n/pairs.jsonl -o out.tsv) ;;
      hunalign) cmd=(timeout "${HUNALIGN_TIMEOUT:-1800}" sh -c "exec \"\$0\" -utf hun-$n/empty.dic hun-$n/src.0.txt hun-$n/trg.0.txt > out.ladder 2> hun.err" "$hunalign") ;;
    esac
    sents=$(/usr/bin/python3 -c "import json; d=json.loads(open('doc-$n/pairs.jsonl').readline()); print(len(d['src_sentences']))")
    : > runs
    killed=""
    for r in 1 2 3; do
      /usr/bin/time -f '%e %M' -o one "${cmd[@]}" || { [ $method = hunalign ] && killed=1; } || exit 1
      grep -v '^Command' one >> runs
      [ -n "$killed" ] && break
      awk '{ exit !($1 > 120) }' runs && break
    done
    if [ -n "$killed" ]; then
      printf '%s\t%s\t%s\t>%s (killed, unfinished)\t>%s\t-\t-\n' $method $n $sents \
        "$(cut -d' ' -f1 runs)" "$(cut -d' ' -f2 runs | awk '{ printf "%.1f", $1 / 1024 }')"
      break
    fi
    t=$(cut -d' ' -f1 runs | median)
    m=$(cut -d' ' -f2 runs | median | awk '{ printf "%.1f", $1 / 1024 }')
    tr=- mr=-
    [ -n "$prev_t" ] && tr=$(awk -v a=$t -v b=$prev_t 'BEGIN { printf "%.1f", a / b }') &&
      mr=$(awk -v a=$m -v b=$prev_m 'BEGIN { printf "%.1f", a / b }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' $method $n $sents $t $m $tr $mr
    prev_t=$t prev_m=$m
  done
done
