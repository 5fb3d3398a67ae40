#include "libcorpus/eval/bootstrap.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "libcorpus/core/error.h"
#include "libcorpus/core/hash_mix.h"

namespace corpus::eval {

namespace {

// xoshiro256** (Blackman & Vigna), one stream per resample.
class Rng {
 public:
  Rng(uint64_t seed, uint64_t stream) {
    uint64_t x = seed ^ (stream * 0xD1B54A32D192ED03ULL);
    for (auto& v : s_) v = corpus::splitmix64(x);
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n) without bias (Lemire's method).
  uint64_t below(uint64_t n) {
    __uint128_t m = static_cast<__uint128_t>(next()) * n;
    auto l = static_cast<uint64_t>(m);
    if (l < n) {
      const uint64_t t = -n % n;
      while (l < t) {
        m = static_cast<__uint128_t>(next()) * n;
        l = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace

std::pair<double, double> estimate_ci(std::vector<double> scores) {
  std::sort(scores.begin(), scores.end());
  const size_t n = scores.size();
  if (n == 0) return {0, 0};
  const size_t lower = n / 40, upper = n - lower - 1;
  const double mean = std::accumulate(scores.begin(), scores.end(), 0.0) / static_cast<double>(n);
  return {mean, 0.5 * (scores[upper] - scores[lower])};
}

std::vector<BootstrapResult> paired_bootstrap(const Metric& metric, const std::vector<const std::vector<int64_t>*>& stats,
                                              uint64_t segments, int samples, uint64_t seed) {
  if (samples < 1) throw corpus::ConfigError("the number of bootstrap samples must be 1 or more");
  const size_t nsys = stats.size(), K = metric.stats_size();
  // scores[s][b]
  std::vector<std::vector<double>> scores(nsys, std::vector<double>(static_cast<size_t>(samples)));
  tbb::parallel_for(0, samples, [&](int b) {
    Rng rng(seed, static_cast<uint64_t>(b));
    std::vector<std::vector<int64_t>> sum(nsys, std::vector<int64_t>(K, 0));
    for (uint64_t i = 0; i < segments; ++i) {
      const uint64_t j = rng.below(segments);
      for (size_t s = 0; s < nsys; ++s) {
        const int64_t* p = stats[s]->data() + j * K;
        for (size_t k = 0; k < K; ++k) sum[s][k] += p[k];
      }
    }
    for (size_t s = 0; s < nsys; ++s) scores[s][static_cast<size_t>(b)] = metric.score(sum[s].data());
  });
  std::vector<BootstrapResult> out(nsys);
  std::vector<double> actual(nsys);
  for (size_t s = 0; s < nsys; ++s) {
    std::vector<int64_t> total(K, 0);
    for (uint64_t i = 0; i < segments; ++i)
      for (size_t k = 0; k < K; ++k) total[k] += (*stats[s])[i * K + k];
    out[s].score = metric.score(total.data());
    std::tie(out[s].mean, out[s].ci) = estimate_ci(scores[s]);
  }
  for (size_t s = 1; s < nsys; ++s) {
    const double real = std::fabs(out[0].score - out[s].score);
    std::vector<double> d(static_cast<size_t>(samples));
    for (size_t b = 0; b < d.size(); ++b) d[b] = std::fabs(scores[s][b] - scores[0][b]);
    const double mean = std::accumulate(d.begin(), d.end(), 0.0) / static_cast<double>(d.size());
    size_t c = 0;
    for (double x : d) c += (x - mean) > real;
    out[s].p_value = static_cast<double>(c + 1) / static_cast<double>(samples + 1);
  }
  return out;
}

std::vector<std::vector<BootstrapResult>> paired_bootstrap(const std::vector<const Metric*>& metrics,
                                                           const CorpusStats& st, int samples, uint64_t seed) {
  std::vector<std::vector<BootstrapResult>> out;
  for (size_t m = 0; m < metrics.size(); ++m) {
    std::vector<const std::vector<int64_t>*> per_system;
    for (const auto& system : st.segment_stats) per_system.push_back(&system[m]);
    out.push_back(paired_bootstrap(*metrics[m], per_system, st.segments, samples, seed));
  }
  return out;
}

}  // namespace corpus::eval
