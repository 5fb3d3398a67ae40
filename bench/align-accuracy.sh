#!/usr/bin/env bash
# Sentence-alignment accuracy of pc-align on real text with known gold,
# strict and lax F1 as pc-eval align computes them (Vecalign's definitions).
#
# Gold (bench/align-gold.py, seed 1, the edits of issue 18: 5% deletions on
# each side, 5% 2-1, 3% 1-2):
#   site-XX   the sample site's pages (Debian Reference, running text), one
#             document pair per page, paragraphs as units
#   cat-XX    catalogue strings of held-out packages (make-package-split.sh:
#             en-fr valid, en-de/en-es test) in documents of 50 pairs
# Encoders: lexical, pc-embed train with its defaults on the package-split
# train file of the language pair only (no site text, no valid/test package).
# en-fr is the development pair: the --deletion auto rule and the
# --length-weight default were chosen on site-fr and cat-fr; en-de and en-es
# were run with those settings only after they were fixed.
#
# Rows: the default (auto penalty, length term 0.05, merge check); auto with
# embeddings alone (--length-weight 0); Vecalign's rule (percentile:0.2) and
# the prototype's best percentiles (0.03, 0.02); fixed penalties;
# Gale-Church. The merge check (a merged bead must match better per sentence
# pair than the smaller beads inside it) has no switch in pc-align: with
# BASELINE=DIR, DIR/pc-align (a build from before it, commit f07556f) gives
# the rows "previous default", "previous default, embeddings only" and
# Vecalign's own search and penalty (percentile:0.2, no length term).
#
# With HUNALIGN=PATH (hunalign, github.com/danielvarga/hunalign, built by
# hand; never part of this repository), rows for hunalign with an empty
# dictionary on raw sentences, on tokenised ones, and tokenised with its
# -realign (bench/align-hunalign.py runs it and converts its ladders).
#
# With NEURAL="OPTIONS" (pc-embed train --kind neural OPTIONS, e.g.
# "--max-time 660 --valid split/en-LANG.valid.tsv", LANG replaced by the
# target language), a row for the default settings with a neural encoder
# trained on the same train file, for the languages in NEURAL_LANGS
# (default "fr de es").
#
# Usage: [BASELINE=DIR] [HUNALIGN=PATH] [NEURAL=OPTIONS] bench/align-accuracy.sh [BUILD_DIR] [WORK_DIR]
# (from the repository root). Prints a TSV table: gold, setting, strict F1, lax F1.
set -euo pipefail
build=${1:-build/release}
work=${2:-$(mktemp -d /tmp/align-accuracy.XXXXXX)}
bin=$(cd "$build" && pwd)/tools
src=$(pwd)
baseline=${BASELINE:+$(cd "$BASELINE" && pwd)}
hunalign=${HUNALIGN:+$(realpath "$HUNALIGN")}
mkdir -p "$work"
cd "$work"

[ -s split/en-fr.train.tsv ] || bash "$src/scripts/make-package-split.sh" split fr de es >&2
[ -s site.jsonl ] || "$bin/pc-ingest" -q "$src/data/samples/site" > site.jsonl
for l in fr de es; do
  [ -s enc-$l.st ] || "$bin/pc-embed" train -q -s en -t $l -o enc-$l.st split/en-$l.train.tsv
  if [ -n "${NEURAL:-}" ] && [[ " ${NEURAL_LANGS:-fr de es} " == *" $l "* ]] && [ ! -s neural-$l.st ]; then
    # shellcheck disable=SC2086
    "$bin/pc-embed" train --kind neural -q -s en -t $l -o neural-$l.st ${NEURAL//LANG/$l} split/en-$l.train.tsv 2> neural-$l.err
  fi
  /usr/bin/python3 "$src/bench/align-gold.py" site.jsonl en $l site-$l >&2
done
/usr/bin/python3 "$src/bench/align-gold.py" --tsv split/en-fr.valid.tsv en fr cat-fr >&2
for l in de es; do /usr/bin/python3 "$src/bench/align-gold.py" --tsv split/en-$l.test.tsv en $l cat-$l >&2; done

# f1 GOLD DIR: strict and lax F1 of DIR/t.N.txt against GOLD/gold.N.txt
f1() {
  local g=$1 t=$2 n i
  n=$(ls $g/gold.*.txt | wc -l)
  local args=() tests=()
  for ((i = 0; i < n; i++)); do args+=(-g $g/gold.$i.txt); tests+=("$t/t.$i.txt"); done
  "$bin/pc-eval" align -q "${args[@]}" "${tests[@]}" | awk '$1=="strict"{s=$4} $1=="lax"{l=$4} END{printf "%s\t%s", s, l}'
}

# score GOLD ARGS...: strict and lax F1 of pc-align ARGS on GOLD ($align: the pc-align)
align=$bin/pc-align
score() {
  local g=$1 t
  shift
  t=$(mktemp -d "$work/t.XXXXXX")
  "$align" -q "$@" --format vecalign $g/pairs.jsonl | awk -v RS= -v d="$t" '{ print > (d "/t." (NR-1) ".txt") }'
  f1 $g "$t"
  rm -rf "$t"
}

# hun GOLD ARGS...: the same for hunalign (ARGS: bench/align-hunalign.py's)
hun() {
  local g=$1 t
  shift
  t=$(mktemp -d "$work/t.XXXXXX")
  /usr/bin/python3 "$src/bench/align-hunalign.py" "$hunalign" $g/pairs.jsonl "$t" "$@"
  f1 $g "$t"
  rm -rf "$t"
}

printf 'gold\tsetting\tstrict_f1\tlax_f1\n'
for g in site-fr cat-fr site-de cat-de site-es cat-es; do
  enc=enc-${g#*-}.st
  row() { printf '%s\t%s\t%s\n' "$g" "$1" "$(score $g "${@:2}")"; }
  row "default (auto, length 0.05, merge check)" --encoder $enc
  [ ! -s neural-${g#*-}.st ] || row "default, neural encoder (pc-embed --kind neural $NEURAL)" --encoder neural-${g#*-}.st
  if [ -n "$baseline" ]; then
    align=$baseline/pc-align
    row "previous default (auto, length 0.05, no merge check)" --encoder $enc
    row "previous default, embeddings only" --encoder $enc --length-weight 0
    row "Vecalign: percentile:0.2, embeddings only, no merge check" --encoder $enc --deletion percentile:0.2 --length-weight 0
    align=$bin/pc-align
  fi
  row "auto, embeddings only" --encoder $enc --length-weight 0
  for p in 0.2 0.03 0.02; do row "percentile:$p (Vecalign rule), length 0.05" --encoder $enc --deletion percentile:$p; done
  row "percentile:0.2, embeddings only" --encoder $enc --deletion percentile:0.2 --length-weight 0
  for c in 0.3 0.5 0.6 0.7 0.9; do row "fixed:$c, length 0.05" --encoder $enc --deletion fixed:$c; done
  row "Gale-Church (no encoder)" --method length
  if [ -n "$hunalign" ]; then
    printf '%s\t%s\t%s\n' $g "hunalign, empty dictionary, raw" "$(hun $g)"
    printf '%s\t%s\t%s\n' $g "hunalign, empty dictionary, tokenised" "$(hun $g --tok)"
    printf '%s\t%s\t%s\n' $g "hunalign, empty dictionary, tokenised, -realign" "$(hun $g --tok --realign)"
  fi
done
