#!/usr/bin/env bash
# pc-ingest benchmark (issue 4): MB/s of .warc.gz per thread on a WARC of the
# whole Debian Reference (pr01, ch01-ch12) in all ten languages of the Debian
# packages (en fr de es ja id it pt zh-cn zh-tw), made by crawling a local
# server (tests/crawl/serve_site.py) that serves the site of
# scripts/make-sample-site.py built into a temporary folder.
#
# Runs, interleaved in one driver run (first = baseline):
#   BASELINE=/path/to/pc-ingest   an older pc-ingest binary (optional), -j1
#   pc-ingest -j1, pc-ingest -j2  (boilerplate removal + per-paragraph LID)
#   WARC2TEXT=/path/to/warc2text  (optional) warc2text --jsonl, with and
#                                 without --multilang; it is not built here:
#                                 build it by hand from github.com/bitextor/warc2text
# and checks that -j1 and -j2 (and the baseline, when given) write the same bytes.
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

SITE_LANGS="en fr de es ja id it pt zh-cn zh-tw" \
SITE_CHAPTERS="pr01 ch01 ch02 ch03 ch04 ch05 ch06 ch07 ch08 ch09 ch10 ch11 ch12" \
  /usr/bin/python3 "$root/scripts/make-sample-site.py" "$tmp/site"
/usr/bin/python3 "$root/tests/crawl/serve_site.py" --root "$tmp/site" --port-file "$tmp/port" --log "$tmp/requests.log" &
server_pid=$!
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.05; done
[ -s "$tmp/port" ] || { echo "bench: the local server did not start" >&2; exit 1; }
"$bin/tools/pc-crawl" -q --delay 0 -o "$tmp/site.warc.gz" "http://127.0.0.1:$(cat "$tmp/port")/"
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=
warc=$tmp/site.warc.gz
records=$(zcat "$warc" | grep -a -c '^WARC-Type: ')
responses=$(zcat "$warc" | grep -a -c '^WARC-Type: response')
echo "WARC: $(stat -c %s "$warc") bytes gzipped, $(zcat "$warc" | wc -c) bytes plain, $records records ($responses responses)"

runs=()
if [ -n "${BASELINE:-}" ]; then
  runs+=(--run "baseline pc-ingest -j1" "$BASELINE -q -j1 $warc > $tmp/base.jsonl")
fi
runs+=(--run "pc-ingest -j1" "$pc -q -j1 $warc > $tmp/j1.jsonl")
runs+=(--run "pc-ingest -j2" "$pc -q -j2 $warc > $tmp/j2.jsonl")
if [ -n "${WARC2TEXT:-}" ]; then
  /usr/bin/python3 "$here/warc-to-1.0.py" "$warc" "$tmp/site10.warc.gz"  # warc2text reads WARC/1.0 only
  runs+=(--run "warc2text --jsonl (1 process)" "$WARC2TEXT -s --jsonl --stdout $tmp/site10.warc.gz > $tmp/w2t.jsonl")
  runs+=(--run "warc2text --jsonl --multilang" "$WARC2TEXT -s --jsonl --stdout --multilang $tmp/site10.warc.gz > $tmp/w2tm.jsonl")
else
  echo "  WARC2TEXT not set: warc2text left out"
fi
$drv --name "pc-ingest, Debian Reference in 10 languages (.warc.gz)" --repeat "$repeat" --bytes-from "$warc" \
  --records "$records" "${runs[@]}"
cmp "$tmp/j1.jsonl" "$tmp/j2.jsonl" && echo "  -j1 and -j2 outputs are byte-identical ($(wc -l <"$tmp/j1.jsonl") documents)"
if [ -n "${BASELINE:-}" ]; then
  if cmp -s "$tmp/base.jsonl" "$tmp/j1.jsonl"; then
    echo "  baseline and candidate outputs are byte-identical"
  else
    echo "  baseline and candidate outputs differ"
  fi
fi
"$pc" -j1 "$warc" 2>&1 >/dev/null | tail -n 3 | sed 's/^/  /'
