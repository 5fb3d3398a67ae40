#include "align/sentalign/vecalign.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>

#include "align/sentalign/gale_church.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/hash_mix.h"

namespace align::sentalign {

OverlapVectors OverlapVectors::from_rows(uint32_t sentences, uint32_t dim, int layers, std::vector<float> data) {
  const uint64_t want = uint64_t{sentences} * static_cast<uint64_t>(layers);
  if (dim == 0 || data.size() % dim || data.size() / dim != want)
    throw corpus::Error(fmt::format("{} embeddings (of dimension {}) for {} sentences × {} overlaps (want {})",
                                    dim ? data.size() / dim : 0, dim, sentences, layers, want),
                        "give one embedding per sentence and overlap");
  OverlapVectors v;
  v.n = sentences;
  v.dim = dim;
  v.layers = layers;
  v.data = std::move(data);
  return v;
}

DeletionPenalty DeletionPenalty::parse(const std::string& spec) {
  if (spec == "auto") return {DeletionMode::kAuto, 0};
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  char* end = nullptr;
  const std::string num = colon == std::string::npos ? "" : spec.substr(colon + 1);
  const double v = std::strtod(num.c_str(), &end);
  const bool ok = !num.empty() && end && *end == 0 && std::isfinite(v);
  if (kind == "percentile" && ok && v >= 0 && v <= 1) return {DeletionMode::kPercentile, v};
  if (kind == "fixed" && ok && v >= 0) return {DeletionMode::kFixed, v};
  throw corpus::ConfigError(fmt::format("bad deletion penalty '{}'", spec),
                            "use auto, percentile:P (0..1, Vecalign: 0.2) or fixed:C (C >= 0)");
}

namespace {

// Eight independent sums so the compiler can keep them in vector lanes
// (a single float accumulator would force one add at a time).
float dot(const float* a, const float* b, uint32_t d) {
  float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  uint32_t i = 0;
  for (; i + 8 <= d; i += 8)
    for (int k = 0; k < 8; ++k) s[k] += a[i + k] * b[i + k];
  float r = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  for (; i < d; ++i) r += a[i] * b[i];
  return r;
}

void normalise(float* v, uint32_t d) {
  const float n = std::sqrt(dot(v, v, d));
  for (uint32_t i = 0; i < d; ++i) v[i] /= n + 1e-5f;
}

// The q quantile (0..1) of `v`, linear between order statistics.
double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 1.0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const size_t i = static_cast<size_t>(pos);
  if (i + 1 >= v.size()) return v.back();
  return v[i] + (pos - static_cast<double>(i)) * (v[i + 1] - v[i]);
}

// Vecalign's normalisation: 1 − the mean cosine of each row with vectors
// sampled from every layer of the other side. The mean of the cosines is the
// cosine with the mean of the samples, so one dot product per row.
std::vector<float> norms(const OverlapVectors& self, const OverlapVectors& other, uint32_t samples, uint64_t& rng) {
  std::vector<float> out(uint64_t{self.n} * static_cast<uint32_t>(self.layers), 1.0f);
  std::vector<float> mean(other.dim, 0.0f);
  uint64_t taken = 0;
  const uint32_t per_layer = other.layers ? (samples + other.layers - 1) / other.layers : 0;
  for (int k = 0; k < other.layers; ++k) {
    if (other.n <= static_cast<uint32_t>(k)) continue;
    for (uint32_t s = 0; s < per_layer; ++s) {
      const uint32_t i = k + static_cast<uint32_t>(corpus::splitmix64(rng) % (other.n - k));
      const float* r = other.row(k, i);
      for (uint32_t j = 0; j < other.dim; ++j) mean[j] += r[j];
      ++taken;
    }
  }
  if (!taken) return out;
  for (float& v : mean) v /= static_cast<float>(taken);
  for (int k = 0; k < self.layers; ++k)
    for (uint32_t i = static_cast<uint32_t>(k); i < self.n; ++i)
      out[uint64_t{static_cast<uint32_t>(k)} * self.n + i] = 1.0f - dot(self.row(k, i), mean.data(), self.dim);
  return out;
}

// Layer 0 of a side halved: consecutive pairs summed, the mean removed,
// normalised (Vecalign's downsample_vectors).
OverlapVectors halve(const OverlapVectors& v) {
  OverlapVectors h;
  h.n = v.n / 2;
  h.dim = v.dim;
  h.layers = 1;
  h.data.assign(uint64_t{h.n} * h.dim, 0.0f);
  if (!v.lengths.empty())
    for (uint32_t j = 0; j < h.n; ++j) h.lengths.push_back(v.lengths[2 * j] + v.lengths[2 * j + 1]);
  std::vector<double> mean(h.dim, 0.0);
  for (uint32_t j = 0; j < h.n; ++j) {
    float* o = h.data.data() + uint64_t{j} * h.dim;
    const float* a = v.row(0, 2 * j);
    const float* b = v.row(0, 2 * j + 1);
    for (uint32_t d = 0; d < h.dim; ++d) {
      o[d] = a[d] + b[d];
      mean[d] += o[d];
    }
  }
  for (uint32_t j = 0; j < h.n; ++j) {
    float* o = h.data.data() + uint64_t{j} * h.dim;
    for (uint32_t d = 0; d < h.dim; ++d) o[d] -= static_cast<float>(mean[d] / h.n);
    normalise(o, h.dim);
  }
  return h;
}

class EmbeddingLevel final : public Level {
 public:
  using Side = std::shared_ptr<const OverlapVectors>;
  EmbeddingLevel(Side s, Side t, const VecalignOptions& o, uint64_t seed)
      : s_(std::move(s)), t_(std::move(t)), opt_(o), seed_(seed) {
    uint64_t rng = seed;
    ns_ = norms(*s_, *t_, o.norm_samples, rng);
    nt_ = norms(*t_, *s_, o.norm_samples, rng);
    if (o.length_weight > 0 && s_->lengths.size() == s_->n && t_->lengths.size() == t_->n && s_->n && t_->n) {
      ls_ = length_prefix(s_->lengths);
      lt_ = length_prefix(t_->lengths);
      ratio_ = ls_.back() && lt_.back() ? static_cast<double>(lt_.back()) / static_cast<double>(ls_.back()) : 1.0;
    }
  }

  uint32_t n() const override { return s_->n; }
  uint32_t m() const override { return t_->n; }
  double penalty() const { return del_; }

  double match(int dx, int dy, uint32_t x, uint32_t y) const {
    const uint32_t i = x - 1, j = y - 1;
    const float c = dot(s_->row(dx - 1, i), t_->row(dy - 1, j), s_->dim);
    const float nx = ns_[uint64_t{static_cast<uint32_t>(dx - 1)} * s_->n + i];
    const float ny = nt_[uint64_t{static_cast<uint32_t>(dy - 1)} * t_->n + j];
    double cost = 2.0 * dx * dy * (1.0 - c) / (1e-6 + nx + ny);
    if (!ls_.empty())
      cost += opt_.length_weight * length_cost(static_cast<double>(ls_[x] - ls_[x - dx]),
                                               static_cast<double>(lt_[y] - lt_[y - dy]), ratio_, 1e-6);
    return cost;
  }

  // A merge is searched only when it matches better per sentence pair than
  // every bead one sentence smaller inside it. Without this, a short
  // untranslated sentence (a "Tip" heading, a one-word label) joined to a
  // good pair barely moves the pair's vector, so the merged bead costs about
  // dx·dy times the pair's cost: less than the pair plus a deletion whenever
  // the pair is better than a typical match, and the sentence is absorbed.
  // A true merge needs both parts: each part alone matches the other side
  // clearly worse per sentence pair than the whole does.
  double cost(int dx, int dy, uint32_t x, uint32_t y) const override {
    if (dx == 0 || dy == 0) return del_;
    const double c = cached_match(dx, dy, x, y);
    if (dx + dy > 2 && opt_.merge_ratio > 0) {
      const double per = c / (dx * dy), bar = opt_.merge_ratio;
      const auto worse = [&](int sx, int sy, uint32_t ex, uint32_t ey) {
        return per >= bar * cached_match(sx, sy, ex, ey) / (sx * sy);
      };
      if (dx > 1 && (worse(dx - 1, dy, x, y) || worse(dx - 1, dy, x - 1, y)))
        return std::numeric_limits<double>::infinity();
      if (dy > 1 && (worse(dx, dy - 1, x, y) || worse(dx, dy - 1, x, y - 1)))
        return std::numeric_limits<double>::infinity();
    }
    return c;
  }

  void prepare(const Band& band) override {
    band_ = band;
    off_.assign(band.lo.size() + 1, 0);
    for (size_t x = 0; x < band.lo.size(); ++x) off_[x + 1] = off_[x] + (band.hi[x] - band.lo[x]);
    memo_.clear();
    if (opt_.deletion.mode == DeletionMode::kFixed) {
      del_ = opt_.deletion.value;
      return;
    }
    if (opt_.deletion.mode == DeletionMode::kPercentile) {
      del_ = quantile(random_costs(), opt_.deletion.value);
      return;
    }
    del_ = calibrate(best_costs(band), random_costs());
  }

  std::unique_ptr<Level> downsample() const override {
    return std::make_unique<EmbeddingLevel>(std::make_shared<OverlapVectors>(halve(*s_)),
                                            std::make_shared<OverlapVectors>(halve(*t_)), opt_, corpus::mix64(seed_));
  }

 private:
  // 1-1 costs of random sentence pairs (every pair of a small document).
  std::vector<double> random_costs() const {
    std::vector<double> r;
    const uint32_t n = s_->n, m = t_->n;
    if (!n || !m) return r;
    if (uint64_t{n} * m <= opt_.cost_samples) {
      for (uint32_t x = 1; x <= n; ++x)
        for (uint32_t y = 1; y <= m; ++y) r.push_back(match(1, 1, x, y));
      return r;
    }
    uint64_t rng = corpus::mix64(seed_ ^ 0x5eed);
    for (uint32_t s = 0; s < opt_.cost_samples; ++s) {
      const auto x = static_cast<uint32_t>(corpus::splitmix64(rng) % n) + 1;
      const auto y = static_cast<uint32_t>(corpus::splitmix64(rng) % m) + 1;
      r.push_back(match(1, 1, x, y));
    }
    return r;
  }

  // For every sentence on either side, its cheapest 1-1 partner in the band:
  // mostly the true pairs (a deleted sentence's best is a random one).
  std::vector<double> best_costs(const Band& band) const {
    std::vector<double> row_best(s_->n, 1e300), col_best(t_->n, 1e300);
    for (uint32_t x = 1; x <= s_->n; ++x)
      for (uint32_t y = std::max(band.lo[x], 1u); y < band.hi[x]; ++y) {
        const double c = cached_match(1, 1, x, y);
        row_best[x - 1] = std::min(row_best[x - 1], c);
        col_best[y - 1] = std::min(col_best[y - 1], c);
      }
    std::vector<double> b;
    for (double c : row_best)
      if (c < 1e300) b.push_back(c);
    for (double c : col_best)
      if (c < 1e300) b.push_back(c);
    return b;
  }

  // The self-calibrated penalty: 0.8 × the median cost of each sentence's
  // best partner near the path + 0.2 × the 5% quantile of random-pair costs.
  // Most sentences have a true partner, so the median is a typical true
  // match's cost in the units of this encoder, language pair and document: a
  // 1-1 bead beats two deletions while it costs less than about twice that,
  // and a sentence without a partner is deleted rather than merged into a
  // neighbour's bead when the merge costs more than a typical match. The
  // random pairs' low tail lifts it where true matches vary widely (short
  // strings, small encoders), so that fewer true pairs fall apart. Chosen on
  // en-fr (docs/align.md), reported on en-de and en-es.
  static double calibrate(const std::vector<double>& best, const std::vector<double>& random) {
    if (best.empty() || random.empty()) return 1.0;
    return 0.8 * quantile(best, 0.5) + 0.2 * quantile(random, 0.05);
  }

  // match() of a bead ending at a node of the band, computed once: the DP
  // and the merge check ask for the same beads several times.
  double cached_match(int dx, int dy, uint32_t x, uint32_t y) const {
    if (x >= band_.lo.size() || y < band_.lo[x] || y >= band_.hi[x]) return match(dx, dy, x, y);
    std::vector<double>& m = memo_[{dx, dy}];
    if (m.empty()) m.assign(off_.back(), std::numeric_limits<double>::quiet_NaN());
    double& v = m[off_[x] + (y - band_.lo[x])];
    if (std::isnan(v)) v = match(dx, dy, x, y);
    return v;
  }

  Side s_, t_;
  VecalignOptions opt_;
  Band band_;                   // of the last prepare()
  std::vector<uint64_t> off_;   // band_'s row offsets
  mutable std::map<BeadType, std::vector<double>> memo_;  // per bead type, per node of band_
  uint64_t seed_ = 0;
  std::vector<float> ns_, nt_;
  std::vector<uint64_t> ls_, lt_;  // prefix sums of the lengths (empty: no length term)
  double ratio_ = 1.0;
  double del_ = 1.0;
};

}  // namespace

Alignment align_vectors(const OverlapVectors& src, const OverlapVectors& trg, const VecalignOptions& opt) {
  if (opt.max_bead < 2) throw corpus::ConfigError(fmt::format("max bead size {} is below 2", opt.max_bead));
  if (src.dim != trg.dim && src.n && trg.n)
    throw corpus::ConfigError(fmt::format("embedding dimensions differ: {} (source) and {} (target)", src.dim, trg.dim));
  const int need = opt.max_bead - 1;
  for (const OverlapVectors* v : {&src, &trg})
    if (v->layers < need && v->n > static_cast<uint32_t>(v->layers))
      throw corpus::ConfigError(fmt::format("{} overlap layers given, beads of {} sentences need {}", v->layers,
                                            opt.max_bead, need));
  // The caller's vectors, borrowed: the no-op deleters leave them to it.
  EmbeddingLevel top(EmbeddingLevel::Side(&src, [](const OverlapVectors*) {}),
                     EmbeddingLevel::Side(&trg, [](const OverlapVectors*) {}), opt, opt.seed);
  Alignment a;
  a.beads = recursive_align(top, bead_types(opt.max_bead), opt.recursion);
  a.deletion_penalty = top.penalty();
  return a;
}

double bead_cosine(const OverlapVectors& src, const OverlapVectors& trg, const Bead& b) {
  if (!b.sl || !b.tl) return 0;
  return dot(src.row(static_cast<int>(b.sl) - 1, b.sb + b.sl - 1), trg.row(static_cast<int>(b.tl) - 1, b.tb + b.tl - 1),
             src.dim);
}

}  // namespace align::sentalign
