// Paired bootstrap resampling (Koehn, 2004) as sacreBLEU's --paired-bs does
// it: the same resampled segment sets score the baseline and every system;
// each system gets the bootstrap mean and 95% confidence half-width of its
// score, and a p-value for "no difference from the baseline":
//   d_b = |score_sys(b) - score_base(b)|,  p = (#{b: d_b - mean(d) > |real diff|} + 1) / (B + 1).
// The resampling uses our own generator (xoshiro256**, seeded with --seed),
// so the samples, and hence the p-values, differ from sacreBLEU's numpy
// draws by sampling noise only; they do not depend on the thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "libcorpus/eval/corpus_eval.h"
#include "libcorpus/eval/metric.h"

namespace corpus::eval {

struct BootstrapResult {
  double score = 0;    // the actual corpus score
  double mean = 0;     // mean over the resamples
  double ci = 0;       // half-width of the 95% interval (sacreBLEU's estimate_ci)
  double p_value = -1; // -1 for the baseline
};

// stats[s]: system s's segment statistics for `metric`, back to back
// (segments x metric.stats_size()); system 0 is the baseline. Returns one
// result per system.
std::vector<BootstrapResult> paired_bootstrap(const Metric& metric, const std::vector<const std::vector<int64_t>*>& stats,
                                              uint64_t segments, int samples, uint64_t seed);

// paired_bootstrap for each metric of a score_corpus run that kept the
// segment statistics: result[m][s] for metric m, system s.
std::vector<std::vector<BootstrapResult>> paired_bootstrap(const std::vector<const Metric*>& metrics,
                                                           const CorpusStats& st, int samples, uint64_t seed);

// Mean and half-width of the 95% interval, as sacreBLEU's estimate_ci:
// sorted scores, bounds at index n/40 and n - n/40 - 1.
std::pair<double, double> estimate_ci(std::vector<double> scores);

}  // namespace corpus::eval
