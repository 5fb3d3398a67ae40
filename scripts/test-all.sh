#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run) and as README command 2 runs
# it after scripts/setup-deps.sh. Four builds, each in its own folder:
#   test  gcc, warnings as errors: every unit, CLI, man-page, include,
#         install, crash and integration test
#   asan  the unit and CLI suite under AddressSanitizer + UBSan
#   fuzz  clang + libFuzzer: each fuzz target a few seconds on its seed corpus
#   tsan  ThreadSanitizer on the multi-threaded tests (EM, ingest, split,
#         training, translation, the ordered pipeline)
# Stages can be chosen: scripts/test-all.sh asan fuzz
set -euo pipefail
cd "$(dirname "$0")/.."
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(test asan fuzz tsan)
for s in "${stages[@]}"; do
  start=$(date +%s)
  echo "=== test-all: $s"
  cmake --workflow --preset "$s"
  echo "=== test-all: $s passed in $(( $(date +%s) - start )) s"
done
