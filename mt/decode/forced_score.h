// Forced decoding with a pc-nmt model: log P(target | source), the target
// run through the decoder as in training (teacher forcing), no dropout, no
// label smoothing. The pair score of pc-clean's `nmt` rule and nmt_score
// column (docs/clean.md), through align::TranslationScorer.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "align/translation_scorer.h"

namespace mt {

class ForcedScorer : public align::TranslationScorer {
 public:
  // Throws corpus::Error naming the file when it is no pc-nmt model, is
  // damaged, or holds no SentencePiece model.
  explicit ForcedScorer(const std::string& path);
  ~ForcedScorer() override;

  // With a model trained with --protect-placeholders, the placeholders of
  // both sides are masked as in training (the target's numbered like the
  // source's). Each side keeps at most max_len - 1 tokens, as decoding
  // does. One sentence a pass: a score never depends on other pairs.
  Score score(std::string_view src, std::string_view trg) const override;
  std::string describe() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mt
