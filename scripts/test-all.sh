#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run) and as README command 2 runs
# it after scripts/setup-deps.sh. Three builds, each in its own folder:
#   test      gcc, warnings as errors: every unit, CLI, man-page, include,
#             install, crash and integration test
#   sanitize  clang, every library and tool under AddressSanitizer + UBSan
#             (and libFuzzer's edge coverage): the same suite but the crash
#             and signal tests, two minutes-long training runs and the rows
#             that repeat a run to compare outputs (-j1/-j2, resume,
#             shards: run by test and tsan), and each libFuzzer target 1 s
#             on its seed corpus
#   tsan      gcc, ThreadSanitizer, against a oneTBB built with it: the
#             multi-threaded tests (EM, ingest, split, tmx, eval, train,
#             translate) and the probe that shows races are seen
# Another stage by name: asan (the gcc ASan + UBSan build): scripts/test-all.sh asan
set -euo pipefail
cd "$(dirname "$0")/.."
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(test sanitize tsan)
for s in "${stages[@]}"; do
  start=$(date +%s)
  echo "=== test-all: $s"
  cmake --workflow --preset "$s"
  echo "=== test-all: $s passed in $(( $(date +%s) - start )) s"
done
