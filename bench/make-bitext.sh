#!/usr/bin/env bash
# make-bitext.sh SIZE_MB OUT.tsv — a large TSV bitext made from the sample
# bitext (data/samples/bitext/*.tsv), each copy of a row tagged with its copy
# number so lines differ. Deterministic.
set -euo pipefail
mb=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
target=$((mb * 1000 * 1000))
{
  printf 'src_text\ttrg_text\n'
  awk -F'\t' -v target="$target" 'FNR > 1 { row[n++] = $0 }
    END { copy = 0; bytes = 0
      while (bytes < target) { copy++
        for (i = 0; i < n && bytes < target; i++) {
          split(row[i], f, "\t"); line = f[1] " (" copy ")\t" f[2] " (" copy ")"
          print line; bytes += length(line) + 1 } } }' "$here"/../data/samples/bitext/*.tsv
} >"$out"
