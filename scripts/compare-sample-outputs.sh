#!/usr/bin/env bash
# Checks that two builds of the tools give byte-identical results on the main
# job (scripts/pipeline.mk): the baseline runs the whole pipeline, then the
# candidate runs it again on the baseline's WARC (a crawl's WARC holds dates and
# a random port, so both must read the same one), under the same output folder.
# TMX files are compared without the header's x-paracorp-commit prop (the two
# builds come from different commits); *.meta.json provenance and what holds
# times (the NMT decoding timings, --stats files, training logs, the training
# checkpoint, which carries that log) are not compared; the model itself is.
#   scripts/compare-sample-outputs.sh BASE_BIN NEW_BIN [OUT]
set -euo pipefail
base=$(realpath "$1") new=$(realpath "$2") out=${3:-out/compare}
sums() {
  (cd "$out" && find . -type f ! -name '*.meta.json' ! -name port ! -name requests.log ! -name '.done' \
    ! -path ./nmt/decode.txt ! -name '*.stats' ! -name '*.log.jsonl' ! -name '*.ckpt' | sort |
    while read -r f; do
      case $f in
        *.tmx.gz) printf '%s  %s\n' "$(zcat "$f" | grep -v 'x-paracorp-commit' | sha256sum | cut -c1-64)" "$f" ;;
        *) sha256sum "$f" ;;
      esac
    done)
}
rm -rf "$out"
make -s -f scripts/pipeline.mk BIN="$base" OUT="$out" >/dev/null
sums > "$out.base.sums"
find "$out" -mindepth 1 ! -name site.warc.gz ! -name 'site.warc.gz.meta.json' -delete 2>/dev/null || true
touch "$out/site.warc.gz"
make -s -f scripts/pipeline.mk BIN="$new" OUT="$out" >/dev/null
sums > "$out.new.sums"
echo "$(wc -l < "$out.base.sums") files compared ($out.base.sums vs $out.new.sums)"
if diff "$out.base.sums" "$out.new.sums"; then echo "identical"; else echo "DIFFERENT"; exit 1; fi
