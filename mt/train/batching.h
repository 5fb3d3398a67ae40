// Token-based batching with length buckets.
//
// Each epoch, examples are put in a seeded random order, then sorted by
// (target length, source length) — a stable sort, so equal lengths stay in
// random order — and cut into batches of at most `max_tokens` padded tokens
// (sentences x the longer side, EOS/BOS included). The batch order is then
// shuffled with the same seed. Everything is a function of (seed, epoch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mt {

struct Corpus {
  std::vector<std::vector<int32_t>> src, trg;  // token ids without BOS/EOS
  size_t size() const { return src.size(); }
};

// Batches of example indices for `epoch`; shuffle=false keeps the sorted
// order (validation).
std::vector<std::vector<uint32_t>> make_batches(const Corpus& c, int64_t max_tokens, uint64_t seed, int64_t epoch,
                                                bool shuffle);

// Splits one batch into `parts` contiguous pieces of about equal padded size
// (some may be empty when the batch is small).
std::vector<std::vector<uint32_t>> split_batch(const Corpus& c, const std::vector<uint32_t>& batch, int parts);

}  // namespace mt
