#!/usr/bin/env bash
# Crawl the sample site from a local server, then ingest the WARC.
#   integration.sh BIN_DIR SITE_DIR
# Starts tests/crawl/serve_site.py on 127.0.0.1 on a free port (and always
# stops it), with injected faults, and checks in the server's request log:
# robots.txt obeyed, the delay kept, one in-scope redirect followed and one
# out-of-scope redirect refused, a 500, a timeout and a truncated body
# survived; then pc-ingest gives one document per page per language.
set -euo pipefail
bin=$1
site=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pc-crawl-it.XXXXXX")
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

/usr/bin/python3 "$here/serve_site.py" --root "$site" --port-file "$work/port" --log "$work/requests.log" \
  --status /error500=500 --slow /slow=3 --truncate /truncated \
  --redirect '/redirect-in=/en/index.html?via=redirect' --redirect /redirect-out=http://example.invalid/ &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || fail "the test server did not start"
port=$(cat "$work/port")
base="http://127.0.0.1:$port"
delay=0.02

"$bin/pc-crawl" -v --no-progress --delay $delay --timeout 1 --retries 1 --backoff 0.1 -o "$work/site.warc.gz" \
  "$base/" "$base/redirect-in" "$base/redirect-out" "$base/error500" "$base/slow" "$base/truncated" \
  2>"$work/crawl.err" || { cat "$work/crawl.err"; fail "pc-crawl exited $?"; }
summary=$(tail -1 "$work/crawl.err")
echo "$summary"

/usr/bin/python3 - "$work/requests.log" "$delay" <<'PY' || fail "request log checks"
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
paths = [r[2] for r in rows]
times = [float(r[0]) for r in rows]
delay = float(sys.argv[2])
assert rows, "no requests"
assert not [p for p in paths if p.startswith("/private/")], "a disallowed path was requested"
assert paths[0] == "/robots.txt", f"first request was {paths[0]}, not /robots.txt"
gaps = [b - a for a, b in zip(times, times[1:])]
assert min(gaps) >= delay, f"two requests {min(gaps):.4f} s apart, delay is {delay}"
assert "/en/index.html?via=redirect" in paths, "in-scope redirect not followed"
assert paths.count("/error500") == 2 and paths.count("/slow") == 2 and paths.count("/truncated") == 2, \
    "each failing path is tried twice (--retries 1)"
assert all(r[3].startswith("pc-crawl/") for r in rows), "User-Agent"
print(f"ok: {len(rows)} requests, smallest gap {min(gaps):.3f} s, /private/ never requested")
PY
grep -q '1 redirects out of scope' <<<"$summary" || fail "the out-of-scope redirect was not refused"
zcat "$work/site.warc.gz" | grep -a '^WARC-Target-URI: ' >"$work/uris" || fail "no records in the WARC"
! grep -q 'example.invalid' "$work/uris" || fail "example.invalid in the WARC"
grep -q '/en/ch02-s1.html' "$work/uris" || fail "a page is missing from the WARC"

"$bin/pc-ingest" -q "$work/site.warc.gz" -o "$work/docs.jsonl"
/usr/bin/python3 - "$work/docs.jsonl" "$site" <<'PY' || fail "documents per language"
import collections, glob, json, os, sys
got = collections.Counter(json.loads(l)["lang"] for l in open(sys.argv[1]))
want = {l: len(glob.glob(os.path.join(sys.argv[2], l, "*.html"))) for l in ("en", "fr", "de", "es", "ja")}
assert dict(got) == want, f"documents per language {dict(got)} != pages per language {want}"
print(f"ok: documents per language {dict(sorted(got.items()))}")
PY

# Resume: a crawl stopped by --max-pages carries on from its state file and
# ends with the same documents, each page fetched once.
"$bin/pc-crawl" -q --delay 0.01 --max-pages 20 --state "$work/state" -o "$work/r.warc.zst" "$base/"
grep -q '"warc"' "$work/state" || fail "no state saved"
"$bin/pc-crawl" -q --delay 0.01 --state "$work/state" -o "$work/r.warc.zst" "$base/"
zstdcat "$work/r.warc.zst" | grep -a -c '^WARC-Type: warcinfo' | grep -qx 1 || fail "resumed WARC has a second warcinfo"
"$bin/pc-ingest" -q "$work/r.warc.zst" -o "$work/r.jsonl"
[ "$(zstdcat "$work/r.warc.zst" | grep -a '^WARC-Target-URI: .*/fr/ch02-s3.html' | wc -l)" = 2 ] || fail "a page fetched twice (or never) across the resume"
cmp <(/usr/bin/python3 -c 'import json,sys; print(sorted(json.loads(l)["lang"] for l in open(sys.argv[1])))' "$work/r.jsonl") \
    <(/usr/bin/python3 -c 'import json,sys; print(sorted(json.loads(l)["lang"] for l in open(sys.argv[1])))' "$work/docs.jsonl") ||
  fail "the resumed crawl gives other documents"
# Connection limits: a second server answers every request after 0.1 s; the
# crawl starts from two hosts (127.0.0.1 and localhost, the same server) with
# --host-connections 2. The server's request spans show at most 2 requests
# at once to each host, 2 reached on a host, and more than 2 in all.
kill "$server_pid" 2>/dev/null || true
wait "$server_pid" 2>/dev/null || true
/usr/bin/python3 "$here/serve_site.py" --root "$site" --port-file "$work/port2" --log "$work/requests2.log" \
  --slow-all 0.1 --spans "$work/spans" &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/port2" ] && break; sleep 0.05; done
[ -s "$work/port2" ] || fail "the second test server did not start"
port2=$(cat "$work/port2")
"$bin/pc-crawl" -q --delay 0 --host-connections 2 --max-pages 24 -o "$work/c.warc.gz" \
  "http://127.0.0.1:$port2/" "http://localhost:$port2/" || fail "pc-crawl --host-connections 2 exited $?"
/usr/bin/python3 - "$work/spans" 2 <<'PY' || fail "connection limit checks"
import collections, sys
limit = int(sys.argv[2])
spans = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
def most_at_once(rows):
    events = sorted([(float(r[0]), 1) for r in rows] + [(float(r[1]), -1) for r in rows])
    now = peak = 0
    for _, d in events:
        now += d
        peak = max(peak, now)
    return peak
by_host = collections.defaultdict(list)
for r in spans:
    by_host[r[2].split(":")[0]].append(r)
peaks = {h: most_at_once(rows) for h, rows in by_host.items()}
assert set(peaks) == {"127.0.0.1", "localhost"}, f"hosts seen: {sorted(peaks)}"
assert max(peaks.values()) <= limit, f"more than {limit} requests at once to a host: {peaks}"
assert max(peaks.values()) == limit, f"never {limit} requests at once to a host: {peaks}"
total = most_at_once(spans)
assert total > limit, f"hosts not fetched concurrently (at most {total} requests at once)"
print(f"ok: at most {peaks} requests at once per host, {total} in all")
PY
# robots.txt redirected (twice, the second hop to another host name of the
# same server): its rules apply to the host first asked, so /secret/ is never
# requested although the home page links to it.
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=
rsite=$work/rsite
mkdir -p "$rsite/secret"
printf 'User-agent: *\nDisallow: /secret/\n' >"$rsite/robots-real.txt"
printf '<html><body><p><a href="/secret/a.html">secret</a> <a href="/open.html">open</a></p></body></html>' >"$rsite/index.html"
printf '<html><body><p>Open page.</p></body></html>' >"$rsite/open.html"
printf '<html><body><p>Secret page.</p></body></html>' >"$rsite/secret/a.html"
rm -f "$work/port3"
/usr/bin/python3 "$here/serve_site.py" --root "$rsite" --port-file "$work/port3" --log "$work/requests3.log" \
  --redirect /robots.txt=/robots-moved.txt --redirect "/robots-moved.txt=http://localhost:{port}/robots-real.txt" &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/port3" ] && break; sleep 0.05; done
[ -s "$work/port3" ] || fail "the third test server did not start"
port3=$(cat "$work/port3")
"$bin/pc-crawl" -q --delay 0 -o "$work/r.warc.gz" "http://127.0.0.1:$port3/" || fail "pc-crawl (robots redirect) exited $?"
cut -f3 "$work/requests3.log" >"$work/paths3"
grep -qx /robots-moved.txt "$work/paths3" || fail "the robots.txt redirect was not followed"
grep -qx /robots-real.txt "$work/paths3" || fail "the second robots.txt redirect was not followed"
grep -qx /open.html "$work/paths3" || fail "/open.html was not crawled"
if grep -q '^/secret/' "$work/paths3"; then fail "/secret/ was requested although the redirected robots.txt disallows it"; fi
echo "ok: redirected robots.txt obeyed"

echo "ok: crawl + ingest integration (and resume, connection limits, robots.txt redirects)"
