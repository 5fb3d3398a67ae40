// Greedy decoding with a KV cache, a batch of sentences at a time.
//
// The encoder runs once per batch; each decoder layer keeps the keys and
// values of the tokens produced so far (self-attention) and of the source
// (cross-attention), so a step costs one row per sentence through every
// weight matrix — the few-row product of tensor.h. A sentence that finishes
// leaves the batch (DecoderCache::compact), so later passes run only the
// unfinished ones: on package-split test sources at batch 32, half of the
// rows a pass of the whole batch ran were finished sentences'.
#pragma once

#include <cstdint>
#include <vector>

#include "mt/model/config.h"
#include "mt/model/transformer.h"

namespace mt {

class PlaceholderQuota;
class PackedWeights;

struct DecodeOptions {
  int batch_size = 32;          // sentences decoded together
  double max_len_factor = 2.0;  // output tokens <= factor * source tokens + 10, and <= config max_len
  // With a model trained with --protect-placeholders: each source placeholder
  // symbol exactly as often in the output (placeholder_quota.h); null: free.
  const PlaceholderQuota* quota = nullptr;
  // Weights packed once for many calls on the same parameters (a stream
  // translated chunk by chunk); null: each call packs its own
  // (packed_weights.h). Only for the params it was made for.
  PackedWeights* packed = nullptr;
};

// The most output tokens (EOS included) for a source of src_len tokens
// (EOS included), by max_len_factor and the model's max_len.
int output_limit(const Config& cfg, const DecodeOptions& opt, int src_len);

// How one sentence was decoded.
struct SentenceStats {
  int passes = 0;     // decoder passes its batch ran while the sentence was not finished
  int tokens = 0;     // tokens it produced, EOS included
  double ms = 0;      // its batch's decoding time divided by the batch's sentences
};

// Translates token sequences (without EOS); returns token sequences without
// BOS/EOS, in input order. Sources longer than max_len - 1 are cut. With
// `stats`, fills one entry per sentence.
std::vector<std::vector<int32_t>> greedy_translate(const Config& cfg, const float* params,
                                                   const std::vector<std::vector<int32_t>>& src,
                                                   const DecodeOptions& opt,
                                                   std::vector<SentenceStats>* stats = nullptr);

}  // namespace mt
