#!/usr/bin/env bash
# Installs the build into a temporary prefix and runs an installed tool.
set -euo pipefail
build=$1
p=$(mktemp -d)
trap 'rm -rf "$p"' EXIT
cmake --install "$build" --prefix "$p" >/dev/null
for t in "$build"/tools/pc-*; do
  [ -x "$t" ] || continue
  n=$(basename "$t")
  [ -x "$p/bin/$n" ] || { echo "not installed: bin/$n"; exit 1; }
  [ -f "$p/share/man/man1/$n.1" ] || { echo "no man page installed for $n"; exit 1; }
done
[ -f "$p/share/man/man7/paracorp.7" ] || { echo "paracorp.7 not installed"; exit 1; }
"$p/bin/pc-tmx" --version | head -1 | grep -q '^pc-tmx '
echo "installed into $p: $(ls "$p/bin" | tr '\n' ' ')"
