#!/usr/bin/env bash
# robots.txt's Crawl-delay (1 s here) holds from the request right after
# robots.txt on, although --delay (0.2 s) is smaller: before, the first
# request after robots.txt came after --delay. Checked in the server's
# request log. pc-crawl comes from PATH.
set -euo pipefail
source "$(dirname "$0")/server.sh"
mkdir "$work/site"
printf 'User-agent: *\nCrawl-delay: 1\n' >"$work/site/robots.txt"
printf '<html><body><p><a href="/a.html">a</a></p></body></html>' >"$work/site/index.html"
printf '<html><body><p>Page a.</p></body></html>' >"$work/site/a.html"
start_server "$work/site"
pc-crawl -q --delay 0.2 -o "$work/x.warc" "$base/" || fail "pc-crawl exited $?"
stop_server
/usr/bin/python3 - "$requests" <<'PY' || fail "request log checks"
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
paths = [r[2] for r in rows]
assert paths == ["/robots.txt", "/", "/a.html"], f"requests: {paths}"
t = [float(r[0]) for r in rows]
gaps = [b - a for a, b in zip(t, t[1:])]
# The log times requests as they arrive, a few ms after pc-crawl sent them.
assert min(gaps) >= 0.95, "gaps " + ", ".join(f"{g:.3f}" for g in gaps) + " s; Crawl-delay is 1 s"
print("ok: gaps " + ", ".join(f"{g:.3f}" for g in gaps) + " s after robots.txt's Crawl-delay: 1")
PY
