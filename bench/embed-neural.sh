#!/usr/bin/env bash
# Retrieval P@1 of pc-embed's neural encoder (train --kind neural) on the
# package split, beside the default lexical encoder and the two combined, as
# bench/embed-retrieval.sh measures the lexical one: train on the first N
# pairs of en-XX.train.tsv (held-out validation slice taken from them), encode
# the 1000 test pairs, rank each source against all 1000 targets and back.
# One TSV row per encoder (embed-retrieval.sh's columns, so
# bench/embed-table.py reads both):
#   lang  seed  config  options  p1_fwd  p1_bwd  train_s
# "neural+bags+chars:W" concatenates the lexical vector and W times the neural one
# (bench/embed-combine.py). The neural training log and plot stay in WORK
# (neural-LANG-SEED.st.log.jsonl, .svg) for the P@1 curve.
#
#   bench/embed-neural.sh [BIN [SPLIT_DIR [WORK]]]
# Environment: LANGS (default "es de fr"), SEEDS (default "all"; also 2000,
# 10000), NEURAL (extra training options, default "--max-time 1500"),
# WEIGHTS (default "0.3 0.5 0.7 1 1.3"), REUSE=1 keeps a model WORK already holds
# (its training time is read from WORK/neural-LANG-SEED.err), LEXICAL (extra
# options of the lexical encoder, default none), MARGIN (rank by pc-mine's
# ratio margin over K neighbours instead of cosine, default 0 = cosine),
# COUNT (row: right only when the pick is the query's own row, the default;
# text: right when the gold lists the two strings as a pair, see
# bench/p_at_1.py). "%L" in NEURAL stands for the language (--valid
# SPLIT/en-%L.valid.tsv). With MARGIN or COUNT set, the config column says so
# (e.g. "neural@margin4,text").
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${1:-$ROOT/build/release/tools}
SPLIT=${2:-$ROOT/out/package-split}
WORK=${3:-$(mktemp -d)}
LANGS=${LANGS:-es de fr}
SEEDS=${SEEDS:-all}
NEURAL=${NEURAL:---max-time 1500}
WEIGHTS=${WEIGHTS:-0.3 0.5 0.7 1 1.3}
LEXICAL=${LEXICAL:-}
MARGIN=${MARGIN:-0}
COUNT=${COUNT:-row}
TAG=
[ "$MARGIN" = 0 ] || TAG=margin$MARGIN
[ "$COUNT" = row ] || TAG=${TAG:+$TAG,}$COUNT
TAG=${TAG:+@$TAG}
mkdir -p "$WORK"
[ -s "$SPLIT/en-fr.test.tsv" ] || "$ROOT/scripts/make-package-split.sh" "$SPLIT" de es fr >&2

encode() {  # model prefix lang
  "$BIN/pc-embed" encode -q -j2 -m "$1" --column src_text --side src -o "$2.s.npy" "$SPLIT/en-$3.test.tsv"
  "$BIN/pc-embed" encode -q -j2 -m "$1" --column trg_text --side trg -o "$2.t.npy" "$SPLIT/en-$3.test.tsv"
}

printf 'lang\tseed\tconfig\toptions\tp1_fwd\tp1_bwd\ttrain_s\n'
for lang in $LANGS; do
  for seed in $SEEDS; do
    n=$WORK/neural-$lang-$seed l=$WORK/lexical-$lang-$seed
    train=("$SPLIT/en-$lang.train.tsv" --max-pairs "${seed/all/0}")
    score=(--margin "$MARGIN")
    [ "$COUNT" = row ] || score+=(--pairs "$SPLIT/en-$lang.test.tsv")
    if [ "${REUSE:-}" != 1 ] || [ ! -s "$n.st" ]; then
      # shellcheck disable=SC2086
      "$BIN/pc-embed" train --kind neural -j2 -s en -t "$lang" -o "$n.st" "${train[@]}" ${NEURAL//%L/$lang} 2>"$n.err"
    fi
    "$BIN/pc-embed" train -j2 -s en -t "$lang" -o "$l.st" "${train[@]}" $LEXICAL 2>"$l.err"
    encode "$n.st" "$n" "$lang"
    encode "$l.st" "$l" "$lang"
    ns=$(grep -oE 'training [0-9.]+ s' "$n.err" | tail -1 | grep -oE '[0-9.]+')
    ls_=$(grep -oE 'training [0-9.]+ s' "$l.err" | tail -1 | grep -oE '[0-9.]+')
    read -r f b < <(/usr/bin/python3 "$ROOT/bench/embed-p-at-1.py" "$n.s.npy" "$n.t.npy" "${score[@]}")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$lang" "$seed" "neural$TAG" "$NEURAL" "$f" "$b" "$ns"
    read -r f b < <(/usr/bin/python3 "$ROOT/bench/embed-p-at-1.py" "$l.s.npy" "$l.t.npy" "${score[@]}")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$lang" "$seed" "bags+chars$TAG" "$LEXICAL" "$f" "$b" "$ls_"
    # shellcheck disable=SC2086
    /usr/bin/python3 "$ROOT/bench/embed-combine.py" "$l.s.npy" "$l.t.npy" "$n.s.npy" "$n.t.npy" $WEIGHTS "${score[@]}" |
      while read -r w f b; do
        printf '%s\t%s\t%s\t\t%s\t%s\t%s\n' "$lang" "$seed" "neural+bags+chars$TAG:$w" "$f" "$b" "$(echo "$ns + $ls_" | bc)"
      done
  done
done
