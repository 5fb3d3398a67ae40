// Pair scores for pc-clean: the IBM1 lexical score of a pc-ibm1 model in
// Bicleaner's q_max style, the cosine of a sentence encoder, the order score
// of a target-side bigram model (and the IBM1 links, order_score.h), and
// their combination clean_score. Thread-safe: per-thread tokenizers inside.
#pragma once

#include <memory>
#include <string_view>

#include "align/encoder.h"
#include "align/ibm1_model.h"
#include "align/translation_scorer.h"
#include "filter/order_score.h"
#include "filter/rules.h"

namespace filter {

class PairScorer {
 public:
  // Either may be null; the scorer keeps pointers (they must outlive it).
  // `floor` replaces IBM1 probabilities below it (unknown words, unseen pairs).
  PairScorer(const align::Ibm1Model* ibm1, const align::SentenceEncoder* encoder, double floor = 1e-4);
  ~PairScorer();
  // The order score (order_score.h) from the target-side model `trg` and the
  // source-side `src` (may be null; both kept as pointers), with the link
  // term when there is an IBM1 model.
  void set_order(const OrderLm* trg, const OrderLm* src, const OrderOptions& o = {}) {
    order_lm_ = trg, order_src_lm_ = src, order_opt_ = o;
  }
  // The forced-decoding score of a source-to-target translation model
  // (kept as a pointer): nmt_score.
  void set_nmt(const align::TranslationScorer* m) { nmt_ = m; }
  bool active() const { return ibm1_ || encoder_ || order_lm_ || nmt_; }
  bool has_nmt() const { return nmt_; }
  bool has_ibm1() const { return ibm1_; }
  bool has_encoder() const { return encoder_; }
  bool has_order() const { return order_lm_; }
  bool has_clean() const { return ibm1_ || encoder_; }  // clean_score is computed

  // ibm1: the smaller of q_max in the two directions (a pair must be
  // explained both ways) over the words the model knows, NaN when a side has
  // none. cos: the encoder's
  // cosine. order: order_score.h. clean: the mean of the IBM1 and cosine
  // scores in use, the cosine clipped at 0 (the order and nmt scores are left
  // out: see docs/clean.md). nmt: exp of the translation model's mean log
  // probability per target token (its end of sentence included), NaN when a
  // side has no tokens.
  PairScores score(std::string_view src, std::string_view trg) const;

 private:
  const align::Ibm1Model* ibm1_;
  const align::SentenceEncoder* encoder_;
  double floor_;
  const align::TranslationScorer* nmt_ = nullptr;
  const OrderLm* order_lm_ = nullptr;
  const OrderLm* order_src_lm_ = nullptr;
  OrderOptions order_opt_;
  struct Local;
  std::unique_ptr<Local> local_;
};

}  // namespace filter
