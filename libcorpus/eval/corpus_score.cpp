#include "libcorpus/eval/corpus_score.h"

#include <fmt/format.h>

#include <string_view>

#include "libcorpus/core/error.h"

namespace corpus::eval {

std::vector<int64_t> corpus_stats(const Metric& m, std::span<const std::string> hyps,
                                  std::span<const std::vector<std::string>> refs) {
  for (size_t r = 0; r < refs.size(); ++r)
    if (refs[r].size() != hyps.size())
      throw ConfigError(fmt::format("reference set {} has {} segments but there are {} hypotheses", r + 1,
                                    refs[r].size(), hyps.size()),
                        "give one reference per hypothesis in every set");
  auto sc = m.scorer();
  std::vector<int64_t> total(m.stats_size(), 0), seg(m.stats_size());
  std::vector<std::string_view> r;
  for (size_t i = 0; i < hyps.size(); ++i) {
    r.clear();
    for (const auto& set : refs) r.push_back(set[i]);
    sc->stats(hyps[i], r, seg.data());
    for (size_t k = 0; k < seg.size(); ++k) total[k] += seg[k];
  }
  return total;
}

double corpus_score(const Metric& m, std::span<const std::string> hyps,
                    std::span<const std::vector<std::string>> refs) {
  return m.score(corpus_stats(m, hyps, refs).data());
}

}  // namespace corpus::eval
