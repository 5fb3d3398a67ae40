// A trained IBM Model 1 (both directions) and its model file.
//
// The file is one safetensors file (DESIGN.md §4) with __metadata__
// format "paracorp.ibm1", version "1" and config (JSON: tokenisation, training
// settings, languages, corpus size). Tensors:
//   src.vocab.offsets U64 [Vs+1]  word w is src.vocab.bytes[offsets[w], offsets[w+1])
//   src.vocab.bytes   U8  [..]    UTF-8 words back to back; word 0 is "" (NULL),
//                                 the others in byte order (binary-searchable)
//   src.vocab.counts  U64 [Vs]    training occurrences
//   trg.vocab.*                   the same for the target side
//   fwd.indptr  U64 [Vs+1]  CSR rows by source word (row 0 = NULL)
//   fwd.indices U32 [nnz]   target word ids, increasing within a row
//   fwd.values  F32 [nnz]   t(target | source)
//   rev.indptr/indices/values   rows by target word: t(source | target)
// Only pairs that co-occur in a training sentence pair have entries (the NULL
// rows hold every word); entries below the pruning threshold are left out.
// Loading maps the file and checks every table and every config key
// (ibm1_config.h), so a model in use is always consistent; a file of another
// kind or version is refused with a message that says what it is.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "align/tokenize.h"

namespace corpus::safetensors {
class File;
}

namespace align {

struct VocabView {
  std::span<const uint64_t> offsets;
  std::span<const uint8_t> bytes;
  std::span<const uint64_t> counts;
  uint32_t size() const { return static_cast<uint32_t>(counts.size()); }
  std::string_view word(uint32_t id) const {
    return {reinterpret_cast<const char*>(bytes.data()) + offsets[id], static_cast<size_t>(offsets[id + 1] - offsets[id])};
  }
  uint32_t find(std::string_view w) const;  // UINT32_MAX when absent (and for "")
};

struct TTable {
  std::span<const uint64_t> indptr;
  std::span<const uint32_t> indices;
  std::span<const float> values;
  uint32_t rows() const { return static_cast<uint32_t>(indptr.size() - 1); }
  std::span<const uint32_t> cols(uint32_t r) const {
    return indices.subspan(indptr[r], static_cast<size_t>(indptr[r + 1] - indptr[r]));
  }
  std::span<const float> vals(uint32_t r) const {
    return values.subspan(indptr[r], static_cast<size_t>(indptr[r + 1] - indptr[r]));
  }
  // t(col | row), 0 when the pair has no entry.
  float prob(uint32_t row, uint32_t col) const;
};

class Ibm1Model {
 public:
  static constexpr const char* kFormat = "paracorp.ibm1";
  static constexpr const char* kVersion = "1";

  VocabView src, trg;
  TTable fwd;  // t(trg | src), rows = source words
  TTable rev;  // t(src | trg), rows = target words
  nlohmann::ordered_json config;

  // The arrays a model built in memory owns (vocabularies and tables).
  struct Storage {
    std::vector<uint64_t> src_offsets, src_counts, trg_offsets, trg_counts;
    std::vector<uint8_t> src_bytes, trg_bytes;
    std::vector<uint64_t> fwd_indptr, rev_indptr;
    std::vector<uint32_t> fwd_indices, rev_indices;
    std::vector<float> fwd_values, rev_values;
  };
  // Points the views at `s` and keeps it.
  static Ibm1Model from_storage(std::shared_ptr<Storage> s, nlohmann::ordered_json config);

  static Ibm1Model load(const std::string& path);
  void save(const std::string& path) const;

  // The tokenisation the model was trained with (its config's tokenize and
  // lowercase; see ibm1_config.h). Throws corpus::Error for a bad config.
  TokenizerOptions tokenizer() const;

 private:
  std::string path_;  // the file it was loaded from, for messages
  std::shared_ptr<Storage> storage_;
  std::shared_ptr<corpus::safetensors::File> file_;
};

// Vocabulary arrays from words (word 0 must be "").
void pack_vocab(const std::vector<std::string>& words, const std::vector<uint64_t>& counts,
                std::vector<uint64_t>& offsets, std::vector<uint8_t>& bytes, std::vector<uint64_t>& counts_out);

}  // namespace align
