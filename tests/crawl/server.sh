# Sourced by the crawl tests: `start_server ROOT [serve_site.py options]`
# starts tests/crawl/serve_site.py on 127.0.0.1 on a free port, serving ROOT,
# and sets $base (http://127.0.0.1:PORT) and $requests (its request log:
# UNIX_TIME, METHOD, PATH, USER_AGENT, tab-separated). The server is stopped
# when the sourcing script exits; $work is a temporary folder removed then.
crawl_tests=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pc-crawl-test.XXXXXX")
server_pid=
stop_server() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=
}
trap 'stop_server; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
start_server() {
  local root=$1
  shift
  rm -f "$work/port"
  requests=$work/requests.log
  /usr/bin/python3 "$crawl_tests/serve_site.py" --root "$root" --port-file "$work/port" --log "$requests" "$@" &
  server_pid=$!
  for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
  [ -s "$work/port" ] || fail "the test server did not start"
  base="http://127.0.0.1:$(cat "$work/port")"
}
