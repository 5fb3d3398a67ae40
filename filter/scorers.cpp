#include "filter/scorers.h"

#include <oneapi/tbb/enumerable_thread_specific.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "align/ibm1_apply.h"
#include "align/tokenize.h"

namespace filter {

struct PairScorer::Local {
  struct Scratch {
    std::unique_ptr<align::Tokenizer> tok;
    std::vector<std::string> s, t;
    std::vector<uint32_t> si, ti;
    std::vector<float> vs, vt;
  };
  oneapi::tbb::enumerable_thread_specific<Scratch> scratch;
};

PairScorer::PairScorer(const align::Ibm1Model* ibm1, const align::SentenceEncoder* encoder, double floor)
    : ibm1_(ibm1), encoder_(encoder), floor_(floor), local_(std::make_unique<Local>()) {}

PairScorer::~PairScorer() = default;

PairScores PairScorer::score(std::string_view src, std::string_view trg) const {
  PairScores r;
  Local::Scratch& x = local_->scratch.local();
  double sum = 0;
  int n = 0;
  if (ibm1_) {
    if (!x.tok) x.tok = std::make_unique<align::Tokenizer>(ibm1_->tokenizer());
    x.s.clear();
    x.t.clear();
    x.tok->tokenize(src, x.s);
    x.tok->tokenize(trg, x.t);
    x.si.clear();
    x.ti.clear();
    if (!x.s.empty() && !x.t.empty()) {
      align::lookup(ibm1_->src, x.s, x.si);
      align::lookup(ibm1_->trg, x.t, x.ti);
      // Words the model never saw say nothing about the pair (a new
      // package's terms, names): q_max runs over the known words only, and
      // a side with none has no score. Flooring them instead put 3% of
      // clean out-of-domain pairs at the floor.
      std::erase(x.si, UINT32_MAX);
      std::erase(x.ti, UINT32_MAX);
      if (!x.si.empty() && !x.ti.empty()) {
        align::PairScore p = align::score_pair(*ibm1_, x.si, x.ti, floor_);
        r.ibm1 = std::min(p.qmax_fwd, p.qmax_rev);
      }
    }
    sum += std::isnan(r.ibm1) ? 0 : r.ibm1;
    ++n;
  }
  if (order_lm_) {
    const OrderGain g = order_lm_->gain(trg);
    OrderGain gs;
    if (order_src_lm_) gs = order_src_lm_->gain(src);
    LinkSteps l;
    if (ibm1_) l = link_steps(*ibm1_, x.si, x.ti);
    r.order = order_score(g, order_src_lm_ ? &gs : nullptr, copy_pairs(src, trg), ibm1_ ? &l : nullptr, order_opt_);
  }
  if (nmt_) {
    const align::TranslationScorer::Score s = nmt_->score(src, trg);
    if (s.tokens > 0) r.nmt = std::exp(s.logprob / s.tokens);
  }
  if (encoder_) {
    const size_t d = encoder_->dim();
    x.vs.resize(d);
    x.vt.resize(d);
    std::string_view a[1] = {src}, b[1] = {trg};
    encoder_->encode(a, align::SentenceEncoder::Side::kSource, x.vs);
    encoder_->encode(b, align::SentenceEncoder::Side::kTarget, x.vt);
    double dot = 0;
    for (size_t i = 0; i < d; ++i) dot += static_cast<double>(x.vs[i]) * x.vt[i];
    r.cos = dot;
    sum += std::max(0.0, dot);
    ++n;
  }
  if (n) r.clean = sum / n;
  return r;
}

}  // namespace filter
