#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run) and as README command 2 runs
# it after scripts/setup-deps.sh. Two builds, each in its own folder:
#   test      gcc, warnings as errors: every unit, CLI, man-page, include,
#             install, crash and integration test
#   sanitize  clang, every library and tool under AddressSanitizer + UBSan:
#             the same suite but the SIGKILL tests and two minutes-long
#             training runs, and each libFuzzer target 5 s on its seed corpus
# Other stages by name: asan (the gcc sanitizer build), tsan (ThreadSanitizer
# on the multi-threaded tests): scripts/test-all.sh asan tsan
set -euo pipefail
cd "$(dirname "$0")/.."
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(test sanitize)
for s in "${stages[@]}"; do
  start=$(date +%s)
  echo "=== test-all: $s"
  cmake --workflow --preset "$s"
  echo "=== test-all: $s passed in $(( $(date +%s) - start )) s"
done
