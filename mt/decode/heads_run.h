// pc-nmt train-heads: draft heads for a model file, trained on the model's
// own greedy translations of source text (mt/decode/draft_heads_train.h).
#pragma once

#include <cstddef>
#include <functional>

#include "mt/decode/draft_heads_train.h"
#include "mt/decode/translate_stream.h"

namespace mt {

struct HeadsRunCounts {
  uint64_t lines = 0, sentences = 0, empty = 0;  // lines read; decoded (the first `max_sentences` with tokens)
};

// Reads sentences from `in` (check_text on each; placeholders masked as
// translate masks them) until `max_sentences` have tokens, translates them
// greedily as pc-nmt translate would (`decode`; the placeholder quota of a
// protecting model), and trains the heads on the outputs.
DraftHeads train_heads_on_text(const TranslationModel& model, SentenceSource& in, size_t max_sentences,
                               const DecodeOptions& decode, const DraftHeadsTrainOptions& o, HeadsRunCounts& counts,
                               DraftHeadsTrainReport* report = nullptr,
                               const std::function<void(int epoch, double loss)>& on_epoch = {});

}  // namespace mt
