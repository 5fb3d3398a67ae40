// One side of a mining run: its sentences, one per line, and their vectors
// (a .npy with a row per line, or an encoder). Empty lines take no part, and
// identical sentences are searched once: each distinct non-empty sentence
// keeps the vector and the line number of its first occurrence, which the
// output reports as its id.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "align/encoder.h"

namespace align::mine {

struct Side {
  std::string name;                // the sentence file, for messages
  std::vector<std::string> texts;  // distinct non-empty sentences, first-occurrence order
  std::vector<uint64_t> lines;     // 1-based line of each one's first occurrence
  std::vector<float> vectors;      // texts.size() × dim, L2-normalised
  size_t dim = 0;
  uint64_t lines_read = 0, empty = 0, duplicates = 0;
  uint64_t rows() const { return texts.size(); }
  std::span<const float> row(uint64_t i) const { return {vectors.data() + i * dim, dim}; }
};

struct SideOptions {
  size_t max_line = size_t{32} << 20;
  bool allow_empty = false;  // a side with no sentence is an Error unless set
};

// Sentences with their .npy: a row count that differs from the line count is
// a corpus::ConfigError naming both files; a truncated or malformed .npy is
// npy::read's Error; invalid UTF-8 or a NUL is an Error at file:line; a side
// with no non-empty sentence is an Error.
Side read_side(const std::string& text_path, const std::string& npy_path, const SideOptions& opt);

// Sentences encoded by `enc` (as source or target language), in parallel
// batches whose rows do not depend on each other.
Side encode_side(const std::string& text_path, const SentenceEncoder& enc, SentenceEncoder::Side which,
                 const SideOptions& opt);

// L2-normalises each row of rows × dim in place (a zero row stays zero).
void normalize_rows(std::span<float> v, size_t dim);

}  // namespace align::mine
