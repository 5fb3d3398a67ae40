// Corpus scores of segments held in memory, as sacreBLEU's corpus_score
// takes them: the trainer's validation BLEU/chrF and the metric tests use
// this; pc-eval's file-reading, threaded path is corpus_eval.h.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "libcorpus/eval/metric.h"

namespace corpus::eval {

// The summed statistics of hyps[i] against refs[r][i] for every reference
// set r (sacreBLEU's layout: each set as long as `hyps`, else ConfigError).
std::vector<int64_t> corpus_stats(const Metric& m, std::span<const std::string> hyps,
                                  std::span<const std::vector<std::string>> refs);
// m.score() of those statistics.
double corpus_score(const Metric& m, std::span<const std::string> hyps,
                    std::span<const std::vector<std::string>> refs);

}  // namespace corpus::eval
