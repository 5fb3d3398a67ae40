// A tokenised bitext held in memory as word ids, for EM training.
//
// Vocabulary ids are assigned in byte order of the words, with id 0 the NULL
// word (the empty string, which no token can be), so a vocabulary written to a
// model file can be searched by binary search where it is mapped. Pairs with an
// empty side (after tokenisation) or, with max_len, a side longer than
// max_len tokens are left out of training and counted.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "align/ibm1_rows.h"
#include "libcorpus/core/counts.h"

namespace align {

struct Vocab {
  static constexpr uint32_t kNull = 0;
  static constexpr uint32_t kUnknown = UINT32_MAX;
  std::vector<std::string> words;  // words[0] == "" (NULL); then sorted by bytes
  std::vector<uint64_t> counts;    // occurrences in the training pairs (0 for NULL)
  uint32_t size() const { return static_cast<uint32_t>(words.size()); }
  uint32_t find(std::string_view w) const;  // kUnknown when absent
};

// Sentences as id arrays, back to back.
struct Side {
  std::vector<uint32_t> ids;
  std::vector<uint64_t> start{0};  // sentence s is ids[start[s], start[s+1])
  size_t size() const { return start.size() - 1; }
  std::span<const uint32_t> sentence(size_t s) const {
    return {ids.data() + start[s], static_cast<size_t>(start[s + 1] - start[s])};
  }
};

struct CorpusIds {
  Vocab src_vocab, trg_vocab;
  Side src, trg;
  std::vector<uint64_t> row;  // input row (0-based) of each training pair
  uint64_t rows_in = 0;       // rows read
  uint64_t empty_skipped = 0; // pairs with an empty side after tokenisation
  uint64_t long_skipped = 0;  // pairs with a side over max_len tokens
  uint64_t bad_skipped = 0;   // rows that failed the checks (skip_bad)
  size_t pairs() const { return row.size(); }
  // The summary counters of a training corpus, in the order tools report them
  // ("skipped (bad)" also when zero if `skip_bad`).
  corpus::OrderedCounts counts(bool skip_bad) const {
    corpus::OrderedCounts c;
    c.set("pairs in", rows_in);
    if (empty_skipped) c.set("empty side (skipped)", empty_skipped);
    if (long_skipped) c.set("over --max-len (skipped)", long_skipped);
    if (bad_skipped || skip_bad) c.set("skipped (bad)", bad_skipped);
    c.set("pairs trained", pairs());
    return c;
  }
};

struct LoadOptions {
  RowOptions rows;
  uint32_t max_len = 0;  // 0: no limit
};

CorpusIds load_corpus(corpus::BitextLines& in, const LoadOptions& opt,
                      const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace align
