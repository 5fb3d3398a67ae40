// Training data for pc-nmt train: bitext TSV (DESIGN.md §4, columns
// src_text and trg_text) read into memory, then turned into token ids.
// Memory: the text of all pairs until the tokenizers are trained, then the
// ids (about 4 bytes per token).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mt/spm/spm.h"
#include "mt/train/batching.h"

namespace mt {

struct Bitext {
  std::vector<std::string> src, trg;
  uint64_t skipped_bad = 0;  // malformed rows skipped with skip_bad
};

// Reads TSV files ("-" = stdin); a malformed row, or a line longer than
// max_line bytes (read past, never held whole), is an Error with its location
// unless skip_bad.
Bitext read_bitext(const std::vector<std::string>& files, bool skip_bad, size_t max_line);

struct EncodedBitext {
  Corpus ids;
  std::vector<std::string> refs;  // target text of the kept pairs (when asked)
  uint64_t too_long = 0;          // pairs with a side over max_len - 1 tokens
  uint64_t empty = 0;             // pairs with an empty side
};

// Tokenises; pairs with a side longer than max_len - 1 tokens (room for
// EOS/BOS) or an empty side are counted and left out. A side over
// Tokenizer::max_text_bytes(max_len) bytes counts as too long without being
// encoded whole (see Tokenizer::encode_prefix).
EncodedBitext encode_bitext(const Bitext& b, const Tokenizer& src, const Tokenizer& trg, int max_len,
                            bool keep_refs);

}  // namespace mt
