#!/usr/bin/env bash
# How often pc-clean's orthography fixer (fix=ortho) changes real text, and
# what it changes: every singular msgid/msgstr pair of the installed gettext
# catalogues of each language given, through `pc-clean --chain fix=ortho`.
#   bench/clean-ortho.sh TOOLS_DIR LANG...     (e.g. build/release/tools ro ca nl uk ru el)
# Prints per language the pairs, the pairs changed, and up to 8 changed
# targets as "before => after" (LIMIT=N: up to N).
set -euo pipefail
tools=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for lang in "$@"; do
  /usr/bin/python3 "$here/../scripts/gettext_catalogues.py" pairs "$lang" >"$work/in.tsv"
  "$tools/pc-clean" -s en -t "$lang" --chain fix=ortho "$work/in.tsv" -o "$work/out.tsv" 2>"$work/err"
  pairs=$(($(wc -l <"$work/in.tsv") - 1))
  changed=$(paste "$work/in.tsv" "$work/out.tsv" | awk -F'\t' 'NR > 1 && ($1 != $3 || $2 != $4)' | wc -l)
  echo "$lang: $pairs pairs, $changed changed by fix=ortho"
  paste "$work/in.tsv" "$work/out.tsv" | awk -F'\t' -v limit="${LIMIT:-8}" 'NR > 1 && ($1 != $3 || $2 != $4) && c < limit { print "  " ($2 != $4 ? $2 " => " $4 : "[en] " $1 " => " $3); c++ }'
done
