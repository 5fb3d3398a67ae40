// chrF (Popović 2015) and chrF++ (Popović 2017) exactly as sacreBLEU 2.x
// computes them.
//
// Statistics per segment: for each order (character orders 1..char_order,
// then word orders 1..word_order) the triple [hyp n-grams, ref n-grams,
// matches], taken from the reference whose segment-level score is highest.
#pragma once

#include "libcorpus/eval/metric.h"

namespace corpus::eval {

struct ChrfConfig {
  int char_order = 6;          // nc:6
  int word_order = 0;          // nw:0 (chrF++: 2)
  int beta = 2;                // chrF2
  bool lowercase = false;      // case:mixed
  bool whitespace = false;     // space:no (white space is removed before character n-grams)
  bool eps_smoothing = false;  // eff:yes (effective-order averaging, sacreBLEU's default)
};

class Chrf : public Metric {
 public:
  explicit Chrf(ChrfConfig cfg);
  std::string name() const override;
  size_t stats_size() const override { return 3 * static_cast<size_t>(cfg_.char_order + cfg_.word_order); }
  std::unique_ptr<SegmentScorer> scorer() const override;
  double score(const int64_t* stats) const override;
  std::string verbose(const int64_t*) const override { return ""; }
  std::string signature(const SignatureInfo& info) const override;
  const ChrfConfig& config() const { return cfg_; }

 private:
  ChrfConfig cfg_;
};

}  // namespace corpus::eval
