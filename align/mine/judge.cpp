#include "align/mine/judge.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

namespace align::mine {

double JudgeTable::log_p_of(uint64_t src, uint64_t trg) const {
  const std::pair<uint64_t, uint64_t> k{src, trg};
  const auto it = std::lower_bound(keys.begin(), keys.end(), k);
  return it != keys.end() && *it == k ? values[static_cast<size_t>(it - keys.begin())] : 0.0;
}

JudgeTable judge_candidates(const TranslationScorer& scorer, const Side& src, const Side& trg, const KnnLists& fwd,
                            const KnnLists& bwd) {
  JudgeTable t;
  for (uint64_t q = 0; q < fwd.queries; ++q)
    for (uint32_t j = 0, n = fwd.filled(q); j < n; ++j) t.keys.emplace_back(q, static_cast<uint64_t>(fwd.id(q, j)));
  for (uint64_t q = 0; q < bwd.queries; ++q)
    for (uint32_t j = 0, n = bwd.filled(q); j < n; ++j) t.keys.emplace_back(static_cast<uint64_t>(bwd.id(q, j)), q);
  std::sort(t.keys.begin(), t.keys.end());
  t.keys.erase(std::unique(t.keys.begin(), t.keys.end()), t.keys.end());
  t.values.assign(t.keys.size(), JudgeTable::kFloor);
  oneapi::tbb::parallel_for(size_t{0}, t.keys.size(), [&](size_t i) {
    const TranslationScorer::Score s = scorer.score(src.texts[t.keys[i].first], trg.texts[t.keys[i].second]);
    if (s.tokens > 0) t.values[i] = std::max(JudgeTable::kFloor, s.logprob / s.tokens);
  });
  return t;
}

double judge_scale(double log_p) { return std::max(0.0, 1 + log_p / kJudgeScale); }

KnnLists apply_judge(const KnnLists& l, const JudgeTable& t, double w, bool forward) {
  return mix_signal(l, w, l.k, [&](uint64_t q, uint64_t o) {
    return judge_scale(forward ? t.log_p_of(q, o) : t.log_p_of(o, q));
  });
}

}  // namespace align::mine
