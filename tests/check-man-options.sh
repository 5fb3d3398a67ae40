#!/usr/bin/env bash
# Checks a man page against a tool's option table (TOOL --help-table):
# every option in the table appears in the page, and every option the page's
# OPTIONS section lists (on the tag line after .TP) is in the table.
# Man pages write options as \fB\-\-src\-lang\fR; roff escapes are removed first.
set -euo pipefail
tool=$1
page=$2
name=$(basename "$tool")
[ -f "$page" ] || { echo "FAIL: no man page $page"; exit 1; }
norm=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page")
table=$("$tool" --help-table | tail -n +2 | cut -f2 | sed 's/^--//' | sort -u)
listed=$(awk '/^\.SH OPTIONS/ {on=1; next} /^\.SH / {on=0} on && prev ~ /^\.TP/ {print} {prev=$0}' <<<"$norm" |
  grep -oE -- '--[a-z][a-z0-9-]*' | sed 's/^--//' | sort -u || true)
fail=0
for o in $table; do
  grep -qE -- "--$o([^a-z0-9-]|\$)" <<<"$norm" || { echo "FAIL: --$o is in $name's option table but not in $page"; fail=1; }
done
for o in $listed; do
  grep -qx -- "$o" <<<"$table" || { echo "FAIL: $page documents --$o, which $name does not have"; fail=1; }
done
[ -n "$listed" ] || { echo "FAIL: $page has no OPTIONS section with .TP entries"; fail=1; }
# A tool with subcommands: each command has its own options (the table's 7th
# column); the page names every command in a .SS heading or a .TP tag line.
for cmd in $("$tool" --help-table | tail -n +2 | cut -f7 | sort -u); do
  grep -qE -- "^(\.SS|\.B|\.TP|\.IP)?.*\b$cmd\b" <<<"$norm" || { echo "FAIL: $page does not describe the command $cmd"; fail=1; }
  for o in $("$tool" --help-table | awk -F'\t' -v c="$cmd" '$7 == c {print $2}' | sed 's/^--//'); do
    grep -qE -- "--$o([^a-z0-9-]|\$)" <<<"$norm" || { echo "FAIL: --$o of '$name $cmd' is not in $page"; fail=1; }
  done
done
[ $fail -eq 0 ] && echo "ok: $(wc -w <<<"$table") options of $name documented"
exit $fail
