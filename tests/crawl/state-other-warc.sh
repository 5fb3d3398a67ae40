#!/usr/bin/env bash
# A state file belongs to one WARC: resuming it with -o naming another file,
# or the same file rewritten since, is an error (exit 1, one line) that leaves
# the WARC and the state as they were. Before, the other WARC was cut to the
# length the state recorded. pc-crawl comes from PATH; the site is
# data/samples/site.
set -euo pipefail
source "$(dirname "$0")/server.sh"
site=$(cd "$crawl_tests/../../data/samples/site" && pwd)
start_server "$site"
cd "$work"

pc-crawl -q --delay 0 --max-pages 3 --state s.state -o a.warc.gz "$base/" || fail "first crawl exited $?"
pc-crawl -q --delay 0 -o b.warc.gz "$base/" || fail "second crawl exited $?"
[ "$(stat -c %s b.warc.gz)" -gt "$(stat -c %s a.warc.gz)" ] || fail "b.warc.gz is not longer than a.warc.gz"
cp b.warc.gz b.orig && cp s.state s.orig

expect_refused() {  # what pattern WARC
  local what=$1 pattern=$2 warc=$3 rc=0
  cp "$warc" warc.orig
  pc-crawl -q --delay 0 --state s.state -o "$warc" "$base/" 2>err || rc=$?
  [ "$rc" = 1 ] || { cat err; fail "$what: exit $rc, not 1"; }
  [ "$(wc -l <err)" = 1 ] || { cat err; fail "$what: the error is not one line"; }
  grep -qE "$pattern" err || { cat err; fail "$what: no /$pattern/ in the error"; }
  cmp -s "$warc" warc.orig || fail "$what: the WARC was changed"
  cmp -s s.state s.orig || fail "$what: the state file was changed"
  echo "ok: $what: $(cat err)"
}
expect_refused "another WARC" "b\.warc\.gz: the state file belongs to another WARC, .*/a\.warc\.gz" b.warc.gz
# The same name, but a longer file with other bytes before the recorded length.
cp a.warc.gz a.orig && cp b.warc.gz a.warc.gz
expect_refused "the WARC rewritten" "a\.warc\.gz: the WARC's bytes before offset [0-9]+ are not those the state file recorded" a.warc.gz
rm a.warc.gz
rc=0
pc-crawl -q --delay 0 --state s.state -o a.warc.gz "$base/" 2>err || rc=$?
[ "$rc" = 1 ] && grep -q 'a.warc.gz: No such file' err && [ ! -e a.warc.gz ] || { cat err; fail "a missing WARC: exit $rc"; }
echo "ok: the WARC gone: $(cat err)"
# The right WARC resumes.
cp a.orig a.warc.gz
pc-crawl -q --delay 0 --state s.state -o a.warc.gz "$base/" || fail "resuming with the state's own WARC exited $?"
[ "$(stat -c %s a.warc.gz)" -gt "$(stat -c %s a.orig)" ] || fail "the resumed crawl added nothing"
echo "ok: a state file resumes only its own WARC"
