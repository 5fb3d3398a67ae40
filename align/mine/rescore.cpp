#include "align/mine/rescore.h"

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "align/ibm1_apply.h"
#include "align/tokenize.h"

namespace align::mine {

namespace {

constexpr double kFloor = 1e-7;

std::vector<std::vector<uint32_t>> ids_of(const Ibm1Model& m, const VocabView& v, const Side& s) {
  std::vector<std::vector<uint32_t>> ids(s.rows());
  oneapi::tbb::enumerable_thread_specific<std::unique_ptr<Tokenizer>> toks;
  oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<uint64_t>(0, s.rows(), 512), [&](const auto& r) {
    auto& t = toks.local();
    if (!t) t = std::make_unique<Tokenizer>(m.tokenizer());
    std::vector<std::string> words;
    for (uint64_t i = r.begin(); i < r.end(); ++i) {
      words.clear();
      t->tokenize(s.texts[i], words);
      lookup(v, words, ids[i]);
      std::erase(ids[i], UINT32_MAX);
    }
  });
  return ids;
}

}  // namespace

Ibm1Rescorer::Ibm1Rescorer(const Ibm1Model& model, double weight, const Side& src, const Side& trg)
    : m_(model), w_(weight), src_ids_(ids_of(model, model.src, src)), trg_ids_(ids_of(model, model.trg, trg)) {}

double Ibm1Rescorer::q(uint64_t s, uint64_t t) const {
  const auto& a = src_ids_[s];
  const auto& b = trg_ids_[t];
  if (a.empty() || b.empty()) return 0;
  const PairScore p = score_pair(m_, a, b, kFloor);
  // q_max spans orders of magnitude (translations ~1e-2, near misses ~1e-4
  // on catalogue strings): on a log scale from the floor (0) to 1 (1) it
  // moves a cosine's ranking, where the raw value barely would.
  const double g = std::log(std::max(std::min(p.qmax_fwd, p.qmax_rev), kFloor));
  return std::clamp(1 + g / -std::log(kFloor), 0.0, 1.0);
}

KnnLists Ibm1Rescorer::apply(const KnnLists& in, bool src_queries, uint32_t k_out) const {
  return mix_signal(in, w_, k_out, [&](uint64_t qi, uint64_t o) { return src_queries ? q(qi, o) : q(o, qi); });
}

}  // namespace align::mine
