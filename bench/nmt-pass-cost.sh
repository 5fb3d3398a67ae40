#!/usr/bin/env bash
# The cost of a B-row decoder pass against a 1-row pass on a model file
# (bench/nmt_pass_cost.cpp), one thread, weights hot and streamed. Compiled here
# against a build folder's libraries (it is not a CMake target).
# Usage: bench/nmt-pass-cost.sh MODEL|PRESET:VOCAB [BUILD_DIR] [ROUNDS]   (from the repository root)
#   e.g. bench/nmt-pass-cost.sh base:8000 build/release   (d=512, random weights)
set -euo pipefail
model=$1
build=${2:-build/release}
root=$(pwd)
exe=$(mktemp "${TMPDIR:-/tmp}/pc-pass-cost.XXXXXX")
trap 'rm -f "$exe"' EXIT
cd "$build"
c++ -O2 -std=c++20 -DEIGEN_DONT_PARALLELIZE -I"$root" -isystem /usr/include/eigen3 "$root/bench/nmt_pass_cost.cpp" -o "$exe" \
  mt/libmt.a libcorpus/eval/libcorpus_eval.a libcorpus/core/libcorpus_core.a -lfmt -ltbb -lgomp \
  -lboost_program_options -lexpat -lz -lzstd -llzma -lbz2 -licui18n -licuuc -licudata -lxxhash \
  /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so -lsentencepiece -lsentencepiece_train -lpthread
OPENBLAS_NUM_THREADS=1 "$exe" "$model" "${3:-21}"
