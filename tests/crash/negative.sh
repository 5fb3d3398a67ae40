#!/usr/bin/env bash
# The crash checks can fail: with a pc-tmx that writes half a file under the
# final name before doing its work, kill-test.sh must report it; with a
# pc-split whose output depends on -j, determinism.sh must.
#   negative.sh BIN_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
real=$(cd "$1" && pwd)
fake=$(mktemp -d "${TMPDIR:-/tmp}/pc-crash-fake.XXXXXX")
trap 'rm -rf "$fake"' EXIT
for t in "$real"/pc-*; do ln -s "$t" "$fake/"; done
rm "$fake/pc-tmx" "$fake/pc-split"
cat >"$fake/pc-tmx" <<EOS
#!/usr/bin/env bash
out=; prev=; for a in "\$@"; do [ "\$prev" = -o ] && out=\$a; prev=\$a; done
printf 'half a file' >"\$out"
sleep 0.5
exec "$real/pc-tmx" "\$@"
EOS
cat >"$fake/pc-split" <<EOS
#!/usr/bin/env bash
out=; prev=; for a in "\$@"; do [ "\$prev" = -o ] && out=\$a; prev=\$a; done
"$real/pc-split" "\$@" || exit
case " \$* " in *" -j2 "*) echo extra >>"\$out" ;; esac
EOS
chmod +x "$fake/pc-tmx" "$fake/pc-split"
fail=0
out=$(ONLY='^pc-tmx.to-tsv$' bash "$here/kill-test.sh" "$fake" 2>&1) && { echo "FAIL: kill-test.sh passed a tool that writes half files:"; echo "$out"; fail=1; }
grep -q '^pc-tmx.to-tsv: FAIL: .*' <<<"$out" && grep -q 'left a half or wrong out.tsv' <<<"$out" ||
  { echo "FAIL: kill-test.sh did not name the half file:"; echo "$out"; fail=1; }
out=$(ONLY='^pc-split$' bash "$here/determinism.sh" "$fake" 2>&1) && { echo "FAIL: determinism.sh passed a tool whose output depends on -j:"; echo "$out"; fail=1; }
grep -q '^pc-split: FAIL: ' <<<"$out" && grep -q 'sentences.txt differs' <<<"$out" ||
  { echo "FAIL: determinism.sh did not name the file:"; echo "$out"; fail=1; }
[ "$fail" = 0 ] && echo "ok: both checks fail on a broken tool"
exit $fail
