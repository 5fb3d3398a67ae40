#include "filter/order_score.h"

#include <cstdlib>

#include "align/ibm1_apply.h"

namespace filter {

LinkSteps link_steps(const align::Ibm1Model& m, std::span<const uint32_t> src, std::span<const uint32_t> trg) {
  // viterbi_fwd gives at most one link per target word, sorted by source
  // position: put them in target order.
  const align::Links f = align::viterbi_fwd(m, src, trg);
  std::vector<uint32_t> by_trg(trg.size(), UINT32_MAX);
  for (const auto& l : f) by_trg[l.second] = l.first;
  LinkSteps r;
  uint32_t prev = UINT32_MAX;
  for (uint32_t i : by_trg) {
    if (i == UINT32_MAX) continue;
    if (prev != UINT32_MAX) {
      ++r.steps;
      r.near += (i > prev ? i - prev : prev - i) <= 1;
    }
    prev = i;
  }
  return r;
}

double order_fluency(const OrderGain& g, const OrderOptions& o) {
  return (g.gain + o.prior_words * o.prior) / (g.words + 1 + o.prior_words);
}

double order_score(const OrderGain& trg, const OrderGain* src, const LinkSteps* links, const OrderOptions& o) {
  double s = order_fluency(trg, o);
  if (src) s -= o.source_weight * order_fluency(*src, o);
  if (links)
    s += o.link_weight * ((links->near + o.link_prior) / (links->steps + 1) - o.link_prior);
  return s;
}

}  // namespace filter
