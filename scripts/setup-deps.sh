#!/usr/bin/env bash
# Installs every Debian 12 package paracorp needs to build, test and benchmark.
# Idempotent: packages already present are left alone and apt is not run at all
# when nothing is missing. Works as root or through sudo.
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build pkg-config git
  # libcorpus: CLI, formatting, threads
  libboost-program-options-dev libfmt-dev libtbb-dev
  # libcorpus: compressed I/O (gzip, zstd, xz, bzip2)
  zlib1g-dev libzstd-dev liblzma-dev libbz2-dev
  # libcorpus: record formats (TMX via expat, JSONL via nlohmann-json)
  libexpat1-dev nlohmann-json3-dev
  # libcorpus: Unicode (UTF-8 validation helpers, normalisation later)
  libicu-dev
  # tests: unit tests, XML validation, compressors used to make fixtures
  doctest-dev libxml2-utils gzip zstd xz-utils bzip2 python3
  # mt engine and pc-nmt (issue 7): Eigen tensors, OpenBLAS products (linked
  # explicitly, pthread build), SentencePiece training and encoding
  libeigen3-dev libopenblas-dev libopenblas0-pthread libsentencepiece-dev
  # pc-nmt reference checks and benchmark baseline: PyTorch parity fixtures,
  # training throughput against PyTorch; Apertium en-es as an external baseline
  python3-numpy python3-torch apertium-eng-spa
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup-deps: not root and no sudo; install: ${missing[*]}" >&2; exit 1; }
  SUDO=(sudo)
fi
echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
