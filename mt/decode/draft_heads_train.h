// Training draft heads (mt/decode/draft_heads.h) on a model's own greedy
// outputs, the model frozen (Medusa-1's recipe, with self-distillation): the
// sources are decoded greedily, the outputs run through the decoder once more
// teacher-forced to get each position's top row, and head k learns to give
// the output token k places after the one the row gave (cross-entropy over
// the shortlist, Adam). What the heads learn is only a guess; the parallel
// pass that verifies it keeps the output greedy's.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "mt/decode/draft_heads.h"
#include "mt/decode/greedy.h"

namespace mt {

struct DraftHeadsTrainOptions {
  int heads = 2;
  int hidden = 0;        // 0: the model's dim
  int shortlist = 2048;  // the most frequent output pieces (ties to the lower id), at most the vocabulary
  int epochs = 4;
  int batch = 512;  // positions a step
  float lr = 1e-3f;
  uint64_t seed = 1;
};

struct DraftHeadsTrainReport {
  int64_t positions = 0;        // training positions (every output token and EOS)
  double shortlist_cover = 0;   // share of the output tokens in the shortlist
  std::vector<double> loss;     // mean loss of each epoch (all heads summed)
};

// `outputs`: the model's greedy outputs of `src` (no EOS), as greedy_translate
// gives them. Deterministic for a seed, whatever the threads.
DraftHeads train_draft_heads(const Config& cfg, const float* params, const std::vector<std::vector<int32_t>>& src,
                             const std::vector<std::vector<int32_t>>& outputs, const DecodeOptions& opt,
                             const DraftHeadsTrainOptions& o, DraftHeadsTrainReport* report = nullptr,
                             const std::function<void(int epoch, double loss)>& on_epoch = {});

}  // namespace mt
