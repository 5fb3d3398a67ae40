#!/usr/bin/env bash
# Installs every Debian 12 package paracorp needs to build and test it, and with
# --bench also the baselines the benchmarks compare against.
# Idempotent: packages already present are left alone and apt is not run at all
# when nothing is missing. Works as root or through sudo.
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build pkg-config git
  # the tsan preset fetches Debian's oneTBB source to build it with ThreadSanitizer
  curl ca-certificates
  # libcorpus: CLI, formatting, threads
  libboost-program-options-dev libfmt-dev libtbb-dev
  # libcorpus: compressed I/O (gzip, zstd, xz, bzip2; gzip input inflated by ISA-L)
  zlib1g-dev libisal-dev libzstd-dev liblzma-dev libbz2-dev
  # libcorpus: record formats (TMX via expat, JSONL via nlohmann-json)
  libexpat1-dev nlohmann-json3-dev
  # libcorpus: Unicode (sentence BreakIterator, normalisation, character properties)
  libicu-dev
  # pc-crawl / pc-ingest: HTTP (libcurl), HTML (gumbo), charset detection
  # (uchardet; conversion by ICU), language ID (CLD2), tar/zip (libarchive),
  # digests (xxhash)
  libcurl4-openssl-dev libgumbo-dev libuchardet-dev libcld2-dev libarchive-dev libxxhash-dev
  # data/samples/site: the Debian Reference in English, French, German, Spanish, Japanese
  debian-reference-en debian-reference-fr debian-reference-de debian-reference-es debian-reference-ja
  # bench/bench-ingest.sh: the whole Debian Reference in all ten languages of
  # the debian-reference metapackage (the five above and these)
  debian-reference-id debian-reference-it debian-reference-pt debian-reference-zh-cn debian-reference-zh-tw
  # tests: unit tests, XML validation, compressors used to make fixtures
  doctest-dev libxml2-utils gzip zstd xz-utils bzip2 python3
  # tests/bench (pc-split): baselines run on the same gold set and
  # text: Lingua::EN::Sentence, and Lingua::Sentence (Perl port of Moses'
  # split-sentences.perl with its non-breaking prefixes)
  liblingua-en-sentence-perl liblingua-sentence-perl
  # pc-ibm1 tests: the NumPy reference EM (tests/align/ibm1_reference.py)
  python3-numpy
  # mt engine and pc-nmt: Eigen tensors, OpenBLAS products (linked
  # explicitly, pthread build), SentencePiece training and encoding
  libeigen3-dev libopenblas-dev libopenblas0-pthread libsentencepiece-dev
  # pc-mine: k-nearest-neighbour search (Flat, IVF, HNSW, PQ indexes)
  libfaiss-dev
  # pc-clean: the lid rule's optional fastText language-ID model (libfasttext);
  # the fasttext command trains the small models its tests load, and its
  # Python predict is the reference the rule's probabilities are checked against
  libfasttext-dev fasttext python3-fasttext
  # pc-clean: the spell rule's Hunspell (filter/spell.h) and the dictionaries
  # of the languages the sample data and the noise benchmark use
  libhunspell-dev hunspell-en-us hunspell-fr hunspell-de-de hunspell-es
  # tests/fuzz: clang with libFuzzer and its sanitizer runtimes (tests/fuzz, docs/fuzzing.md);
  # lld links the test, sanitize and tsan builds (CMakePresets.json), 3x faster than GNU ld
  clang libclang-rt-14-dev lld
)

# Baselines that only benchmarks and fixture generators use (`--bench`): large,
# so the build-and-test set-up (and CI) does without them.
BENCH_PACKAGES=(
  # pc-nmt: PyTorch parity fixtures (tests/data/nmt/make-parity-fixtures.py)
  # and the training-throughput baseline; Apertium en-es as an MT baseline
  python3-torch apertium-eng-spa
  # pc-mine: the LASER-style NumPy + FAISS reference (bench/mine-reference.py)
  # and the generator of its test fixtures (tests/data/mine/make-fixtures.py)
  python3-faiss
)
if [ "${1:-}" = "--bench" ]; then
  PACKAGES+=("${BENCH_PACKAGES[@]}")
elif [ -n "${1:-}" ]; then
  echo "usage: setup-deps.sh [--bench]" >&2
  exit 2
fi

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
