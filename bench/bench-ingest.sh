#!/usr/bin/env bash
# pc-ingest benchmark: MB/s of .warc.gz per thread, on two WARCs
# made by crawling the local test server (tests/crawl/serve_site.py):
#
#  1. "debian-reference": /usr/share/debian-reference served as the ten
#     debian-reference-* packages install it (index, pr01, ch01-ch12 and apa
#     as one page each per language, the PDF and .txt.gz of each language,
#     images, CSS), crawled with every content type it serves accepted: about
#     20 MB gzipped and ~370 records, the WARC the issue describes. Most of its
#     bytes are PDFs that both tools skip by MIME type.
#  2. "sectioned site": the same ten languages cut into one page per section
#     with site navigation (scripts/make-sample-site.py, as data/samples/site
#     but whole): 4.5 MB gzipped, ~1870 records, HTML only.
#
# Runs, interleaved per WARC in one driver run (first = baseline):
#   BASELINE=/path/to/pc-ingest   an older pc-ingest binary (optional), -j1
#   pc-ingest -j1, pc-ingest -j2  (boilerplate removal + per-paragraph LID,
#                                 the streaming HTML extractor)
#   pc-ingest -j1 --html-parser gumbo  (gumbo's tree instead), with a check
#                                 that both write the same documents
#   pc-ingest -j1 --lang-id two-pass  (a CLD2 call per paragraph too), with
#                                 the labels' agreement (ingest-langid-agree.py)
#   WARCS=DIR                     (optional) keep the two crawled WARCs in DIR
#                                 (reference.warc.gz, site.warc.gz) and reuse
#                                 them when they are there (profiling, reruns)
#   WARC2TEXT=/path/to/warc2text  (optional) warc2text --jsonl, with and
#                                 without --multilang; it is not built here:
#                                 build it by hand from github.com/bitextor/warc2text
#                                 (docs/ingest.md says how)
# and checks that -j1 and -j2 write the same bytes (and says whether the
# baseline does). Then bench_ingest_floor times the libraries pc-ingest must
# call (gumbo, CLD2 per paragraph and per document) and the WARC reading on
# their own, on the same pages and texts: the floor under any pc-ingest.
# Usage: [BASELINE=...] [WARC2TEXT=...] bench/bench-ingest.sh [REPEAT] [BUILD_DIR]
#   (run from the repository root; needs the debian-reference-* packages of
#   scripts/setup-deps.sh)
set -euo pipefail
repeat=${1:-5}
build=${2:-build/release}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pc-bench-ingest.XXXXXX")
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
bin=$(cd "$build" && pwd)
drv="/usr/bin/python3 $here/driver.py --runner $bin/bench/bench_runrss"
pc=$bin/tools/pc-ingest
reference=/usr/share/debian-reference
[ -f "$reference/index.en.html" ] || { echo "bench: $reference is missing (apt install debian-reference)" >&2; exit 1; }

# crawl SITE_ROOT OUT.warc.gz [pc-crawl options...]
crawl() {
  local site=$1 out=$2
  shift 2
  rm -f "$tmp/port"
  /usr/bin/python3 "$root/tests/crawl/serve_site.py" --root "$site" --port-file "$tmp/port" --log "$tmp/requests.log" &
  server_pid=$!
  for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
  [ -s "$tmp/port" ] || { echo "bench: the local server did not start" >&2; exit 1; }
  "$bin/tools/pc-crawl" -q --delay 0 "$@" -o "$out" "http://127.0.0.1:$(cat "$tmp/port")/"
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}

# bench_warc LABEL WARC [TARGET_MB_PER_S]
bench_warc() {
  local label=$1 warc=$2 records responses
  records=$(zcat "$warc" | grep -a -c '^WARC-Type: ')
  responses=$(zcat "$warc" | grep -a -c '^WARC-Type: response')
  echo "WARC $label: $(stat -c %s "$warc") bytes gzipped, $(zcat "$warc" | wc -c) bytes plain, $records records ($responses responses)"
  local runs=()
  if [ -n "${BASELINE:-}" ]; then
    runs+=(--run "baseline pc-ingest -j1" "$BASELINE -q -j1 $warc > $tmp/base.jsonl")
  fi
  runs+=(--run "pc-ingest -j1" "$pc -q -j1 $warc > $tmp/j1.jsonl")
  runs+=(--run "pc-ingest -j1 --html-parser gumbo" "$pc -q -j1 --html-parser gumbo $warc > $tmp/gumbo.jsonl")
  runs+=(--run "pc-ingest -j1 --lang-id two-pass" "$pc -q -j1 --lang-id two-pass $warc > $tmp/two.jsonl")
  runs+=(--run "pc-ingest -j2" "$pc -q -j2 $warc > $tmp/j2.jsonl")
  if [ -n "${WARC2TEXT:-}" ]; then
    /usr/bin/python3 "$here/warc-to-1.0.py" "$warc" "$tmp/w10.warc.gz"  # warc2text reads WARC/1.0 only
    runs+=(--run "warc2text --jsonl (1 process)" "$WARC2TEXT -s --jsonl --stdout $tmp/w10.warc.gz > $tmp/w2t.jsonl")
    runs+=(--run "warc2text --jsonl --multilang" "$WARC2TEXT -s --jsonl --stdout --multilang $tmp/w10.warc.gz > $tmp/w2tm.jsonl")
  else
    echo "  WARC2TEXT not set: warc2text left out"
  fi
  $drv --name "pc-ingest, $label (.warc.gz)" --repeat "$repeat" --bytes-from "$warc" --records "$records" "${runs[@]}" \
    --threads "pc-ingest -j2" 2
  cmp "$tmp/j1.jsonl" "$tmp/j2.jsonl" && echo "  -j1 and -j2 outputs are byte-identical ($(wc -l <"$tmp/j1.jsonl") documents)"
  if cmp -s "$tmp/j1.jsonl" "$tmp/gumbo.jsonl"; then
    echo "  the streaming extractor and --html-parser gumbo write byte-identical outputs"
  else
    echo "  the streaming extractor and --html-parser gumbo differ: $(wc -l <"$tmp/j1.jsonl") vs $(wc -l <"$tmp/gumbo.jsonl") documents"
  fi
  if [ -n "${BASELINE:-}" ]; then
    if cmp -s "$tmp/base.jsonl" "$tmp/j1.jsonl"; then
      echo "  baseline and candidate outputs are byte-identical"
    else
      echo "  baseline and candidate outputs differ: $(wc -l <"$tmp/base.jsonl") vs $(wc -l <"$tmp/j1.jsonl") documents," \
        "$(/usr/bin/python3 -c 'import json,sys; print(sum(len(json.loads(l)["text"]) for l in open(sys.argv[1])))' "$tmp/base.jsonl")" \
        "vs $(/usr/bin/python3 -c 'import json,sys; print(sum(len(json.loads(l)["text"]) for l in open(sys.argv[1])))' "$tmp/j1.jsonl")" \
        "characters of text"
    fi
  fi
  echo "  one CLD2 pass per document (default) against two (--lang-id two-pass):"
  /usr/bin/python3 "$here/ingest-langid-agree.py" "$tmp/two.jsonl" "$tmp/j1.jsonl"
  "$pc" -j1 "$warc" 2>&1 >/dev/null | tail -n 1 | sed 's/^/  /'
  # The libraries' own share: gumbo, CLD2 (both passes) and reading the WARC,
  # timed alone on what pc-ingest hands them (bench/ingest_floor.cpp).
  "$bin/bench/bench_ingest_floor" "$warc" "$tmp/j1.jsonl" "$repeat" ${3:-} | sed 's/^/  /'
}

warcs=${WARCS:-$tmp}
mkdir -p "$warcs"
if [ ! -s "$warcs/reference.warc.gz" ]; then
  crawl "$reference" "$warcs/reference.warc.gz" --max-body 100M \
    --accept text/html,text/css,text/plain,application/pdf,application/gzip,image/png,image/jpeg,image/gif,image/svg+xml
fi
bench_warc "debian-reference as installed, 10 languages" "$warcs/reference.warc.gz" 27  # the issue's warc2text figure

if [ ! -s "$warcs/site.warc.gz" ]; then
  SITE_LANGS="en fr de es ja id it pt zh-cn zh-tw" \
    SITE_CHAPTERS="pr01 ch01 ch02 ch03 ch04 ch05 ch06 ch07 ch08 ch09 ch10 ch11 ch12" \
    /usr/bin/python3 "$root/scripts/make-sample-site.py" "$tmp/site"
  crawl "$tmp/site" "$warcs/site.warc.gz"
fi
bench_warc "sectioned site, 10 languages" "$warcs/site.warc.gz"
