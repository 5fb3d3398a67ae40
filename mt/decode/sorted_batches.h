// The batching every decoding mode shares: sources cut to the model's
// max_len - 1 tokens, sorted by length so a batch holds sentences of similar
// length, batches decoded on all threads, results written at each
// sentence's input index (so the order and the output never depend on the
// thread count). Batches are decoded longest first, and each thread keeps
// one DecodeWorkspace for all the batches it decodes, from call to call
// while the model's shape stays the same: the model's buffers and the KV
// cache are allocated, and their pages touched, once per thread instead of
// once per batch (with a fresh model each batch, zero-filling and page
// faults of those buffers took a third of greedy decoding's time at d=256,
// batch 32).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "mt/model/config.h"
#include "mt/model/transformer.h"
#include "mt/tensor/packed_weights.h"

namespace mt {

// A thread's model (its activation buffers) and KV cache, reused batch
// after batch: start_decoding sets every part of the cache a batch reads,
// and every buffer of a pass is written before it is read.
struct DecodeWorkspace {
  explicit DecodeWorkspace(const Config& cfg) : model(cfg) {}
  Transformer<float> model;
  DecoderCache<float> cache;
};

// Calls decode(workspace, sources, indices) once per batch of at most
// batch_size sentences, possibly concurrently, with the calling thread's
// workspace; indices[i] is sources[i]'s input index. The model's weight
// matrices run packed where the products run on AVX-512 (packed_weights.h):
// from `kept` (the caller's, for these params) or, when null, packed for this
// call, shared by its threads and dropped at its end.
void for_sorted_batches(const Config& cfg, const float* params, PackedWeights* kept,
                        const std::vector<std::vector<int32_t>>& src, int batch_size,
                        const std::function<void(DecodeWorkspace& workspace,
                                                 const std::vector<const std::vector<int32_t>*>& sources,
                                                 const std::vector<size_t>& indices)>& decode);

}  // namespace mt
