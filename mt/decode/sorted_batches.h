// The batching every decoding mode shares: sources cut to the model's
// max_len - 1 tokens, sorted by length so a batch holds sentences of similar
// length, batches decoded on all threads, results written at each
// sentence's input index (so the order and the output never depend on the
// thread count).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "mt/model/config.h"

namespace mt {

// Calls decode(sources, indices) once per batch of at most batch_size
// sentences, possibly concurrently; indices[i] is sources[i]'s input index.
void for_sorted_batches(const Config& cfg, const std::vector<std::vector<int32_t>>& src, int batch_size,
                        const std::function<void(const std::vector<const std::vector<int32_t>*>& sources,
                                                 const std::vector<size_t>& indices)>& decode);

}  // namespace mt
