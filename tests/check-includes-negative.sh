#!/usr/bin/env bash
# The include check must refuse an include against the arrows: a throwaway
# tree with the real rules and one core source that includes the crawler.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/docs" "$t/libcorpus/core" "$t/libcorpus/web" "$t/tests"
cp "$src/docs/architecture.md" "$t/docs/"
printf '#pragma once\n' > "$t/libcorpus/web/crawler.h"
printf '#include "libcorpus/core/ok.h"\n' > "$t/libcorpus/core/ok.cpp"
printf '#pragma once\n' > "$t/libcorpus/core/ok.h"
# A clean throwaway tree passes ...
/usr/bin/python3 "$src/tests/check-includes.py" --root "$t" >/dev/null
# ... and the same tree with core -> web fails, naming the file and the rule.
printf '#include <string>\n#include "libcorpus/web/crawler.h"\n' > "$t/libcorpus/core/bad.cpp"
if out=$(/usr/bin/python3 "$src/tests/check-includes.py" --root "$t"); then
  echo "the include check accepted core -> web"; exit 1
fi
echo "$out"
grep -q 'libcorpus/core/bad.cpp:2: part core includes "libcorpus/web/crawler.h" of part web' <<<"$out"
