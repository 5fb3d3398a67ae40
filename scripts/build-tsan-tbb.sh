#!/usr/bin/env bash
# Builds oneTBB under ThreadSanitizer for the tsan preset (CMakePresets.json).
#
# Debian's libtbb12 is not instrumented, so ThreadSanitizer cannot see the
# happens-before edges of its task queues and pipeline handoffs and reports
# every item passed between two pipeline stages as a race. Suppressing those
# would also hide paracorp's own races (every parallel stack runs through
# libtbb), so the tsan build links a libtbb built from Debian's own source of
# the same version (2021.8.0, the orig tarball of the onetbb source package)
# with -fsanitize=thread. About 30 s on 2 cores; done once per build folder.
#
#   scripts/build-tsan-tbb.sh [PREFIX]      (default build/tsan-deps/tbb)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-$PWD/build/tsan-deps/tbb}
if [ -f "$prefix/lib/cmake/TBB/TBBConfig.cmake" ]; then
  echo "build-tsan-tbb: $prefix is there"
  exit 0
fi
version=2021.8.0
tarball=onetbb_$version.orig.tar.xz
sha256=7e9111b8bb59c8800bf6d0b06afe7b0891937443d2dae1ee1101c8e2ede6a7ef
work=$(mktemp -d "${TMPDIR:-/tmp}/paracorp-tbb.XXXXXX")
trap 'rm -rf "$work"' EXIT
url=${PARACORP_TBB_URL:-http://deb.debian.org/debian/pool/main/o/onetbb/$tarball}
echo "build-tsan-tbb: fetching $url"
curl -fsSL --retry 3 -o "$work/$tarball" "$url" ||
  { echo "build-tsan-tbb: cannot fetch $url (PARACORP_TBB_URL=file:///path/$tarball uses a local copy)" >&2; exit 1; }
echo "$sha256  $work/$tarball" | sha256sum -c --quiet -
tar -C "$work" -xf "$work/$tarball"
# Tests, examples, the allocator and hwloc binding are not needed: only libtbb.
cmake -S "$work/oneTBB-$version" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTBB_SANITIZE=thread -DTBB_TEST=OFF -DTBBMALLOC_BUILD=OFF -DTBB_STRICT=OFF \
  -DTBB_DISABLE_HWLOC_AUTOMATIC_SEARCH=ON -DCMAKE_INSTALL_PREFIX="$prefix" > "$work/configure.log"
cmake --build "$work/build" -j"$(nproc)" > "$work/build.log" || { tail -30 "$work/build.log"; exit 1; }
cmake --install "$work/build" > /dev/null
echo "build-tsan-tbb: installed $prefix"
