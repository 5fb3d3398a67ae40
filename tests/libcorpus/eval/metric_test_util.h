// Helpers for the metric tests: corpus and sentence scores from in-memory
// segments, as sacreBLEU's corpus_score / sentence_score take them.
#pragma once

#include <string>
#include <vector>

#include "libcorpus/eval/corpus_score.h"

namespace mt_test {

// corpus::eval's corpus scorer with brace-initialised segments:
// refs[r][i] is reference set r, segment i (sacreBLEU's layout).
inline std::vector<int64_t> corpus_stats(const corpus::eval::Metric& m, const std::vector<std::string>& hyps,
                                         const std::vector<std::vector<std::string>>& refs) {
  return corpus::eval::corpus_stats(m, hyps, refs);
}

inline double corpus_score(const corpus::eval::Metric& m, const std::vector<std::string>& hyps,
                           const std::vector<std::vector<std::string>>& refs) {
  return corpus::eval::corpus_score(m, hyps, refs);
}

inline double sentence_score(const corpus::eval::Metric& m, const std::string& hyp, const std::vector<std::string>& refs) {
  std::vector<std::vector<std::string>> sets;
  for (const auto& r : refs) sets.push_back({r});
  return corpus_score(m, {hyp}, sets);
}

}  // namespace mt_test
