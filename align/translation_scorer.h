// The translation-scorer interface: how well a translation model explains a
// target sentence given its source (forced decoding). align defines it; the
// implementation on pc-nmt models lives in mt/ (mt/decode/forced_score.h) and
// reaches pc-clean's scorers through this interface, as the neural sentence
// encoders do through align/encoder.h, so neither align nor filter includes mt.
#pragma once

#include <string>
#include <string_view>

namespace align {

class TranslationScorer {
 public:
  virtual ~TranslationScorer() = default;

  struct Score {
    double logprob = 0;  // natural log of P(target tokens and end of sentence | source)
    int tokens = 0;      // target tokens scored, the end of sentence included; 0: no score
  };

  // The model's forced-decoding score of `trg` as a translation of `src`.
  // tokens 0 when either side has no tokens. Safe to call from several
  // threads at once; a pair's score does not depend on other calls (so not
  // on batching or the thread count). Throws corpus::Error on invalid UTF-8.
  virtual Score score(std::string_view src, std::string_view trg) const = 0;

  // What the model is, for logs and provenance.
  virtual std::string describe() const = 0;
};

}  // namespace align
