// Helpers for the metric tests: corpus and sentence scores from in-memory
// segments, as sacreBLEU's corpus_score / sentence_score take them.
#pragma once

#include <string>
#include <vector>

#include "libcorpus/eval/metric.h"

namespace mt_test {

// refs[r][i]: reference set r, segment i (sacreBLEU's layout).
inline std::vector<int64_t> corpus_stats(const corpus::eval::Metric& m, const std::vector<std::string>& hyps,
                                         const std::vector<std::vector<std::string>>& refs) {
  auto sc = m.scorer();
  std::vector<int64_t> total(m.stats_size(), 0), seg(m.stats_size());
  for (size_t i = 0; i < hyps.size(); ++i) {
    std::vector<std::string_view> r;
    for (const auto& set : refs) r.push_back(set[i]);
    sc->stats(hyps[i], r, seg.data());
    for (size_t k = 0; k < seg.size(); ++k) total[k] += seg[k];
  }
  return total;
}

inline double corpus_score(const corpus::eval::Metric& m, const std::vector<std::string>& hyps,
                           const std::vector<std::vector<std::string>>& refs) {
  return m.score(corpus_stats(m, hyps, refs).data());
}

inline double sentence_score(const corpus::eval::Metric& m, const std::string& hyp, const std::vector<std::string>& refs) {
  std::vector<std::vector<std::string>> sets;
  for (const auto& r : refs) sets.push_back({r});
  return corpus_score(m, {hyp}, sets);
}

}  // namespace mt_test
