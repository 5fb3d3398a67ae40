#include "align/mine/margin.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <utility>

#include "libcorpus/core/error.h"

namespace align::mine {

namespace {

std::vector<double> means(const KnnLists& l) {
  std::vector<double> m(l.queries, 0.0);
  for (uint64_t q = 0; q < l.queries; ++q) {
    const uint32_t n = l.filled(q);
    double s = 0;
    for (uint32_t j = 0; j < n; ++j) s += l.sim(q, j);
    m[q] = n ? s / n : 0.0;
  }
  return m;
}

double margin(Margin m, double c, double avg) {
  switch (m) {
    case Margin::kAbsolute:
      return c;
    case Margin::kDistance:
      return c - avg;
    case Margin::kRatio:
      break;
  }
  return c / avg;
}

struct Best {
  int64_t other = -1;
  double score = 0;
};

// Each query's first highest-scoring candidate. `forward`: the queries are
// the source rows (for the prior's order of arguments).
std::vector<Best> best_of(const KnnLists& l, const std::vector<double>& own, const std::vector<double>& other,
                          Margin m, const PairPrior& prior, bool forward) {
  std::vector<Best> b(l.queries);
  for (uint64_t q = 0; q < l.queries; ++q) {
    const uint32_t n = l.filled(q);
    for (uint32_t j = 0; j < n; ++j) {
      const int64_t o = l.id(q, j);
      double s = margin(m, l.sim(q, j), (own[q] + other[static_cast<uint64_t>(o)]) / 2);
      if (prior.active()) {
        const auto u = static_cast<uint64_t>(o);
        s = scaled(s, forward ? prior.factor(q, u) : prior.factor(u, q));
      }
      if (b[q].other < 0 || s > b[q].score) b[q] = {o, s};
    }
  }
  return b;
}

}  // namespace

double scaled(double score, double factor) { return score >= 0 ? score * factor : score / factor; }

double PairPrior::factor(uint64_t src, uint64_t trg) const {
  double f = 1;
  if (length_weight > 0) {
    const double d = std::log(((*trg_len)[trg] + 5.0) / ((*src_len)[src] + 5.0)) - mu;
    f *= std::exp(-length_weight * std::abs(d));
  }
  if (number_weight > 0 && (*src_numbers)[src] != (*trg_numbers)[trg]) f *= std::exp(-number_weight);
  return f;
}

Margin parse_margin(const std::string& s) {
  if (s == "ratio") return Margin::kRatio;
  if (s == "distance") return Margin::kDistance;
  if (s == "absolute") return Margin::kAbsolute;
  throw corpus::ConfigError("margin must be ratio, distance or absolute, not '" + s + "'");
}

Retrieval parse_retrieval(const std::string& s) {
  if (s == "max") return Retrieval::kMax;
  if (s == "intersect") return Retrieval::kIntersect;
  if (s == "fwd") return Retrieval::kFwd;
  if (s == "bwd") return Retrieval::kBwd;
  throw corpus::ConfigError("retrieval must be max, intersect, fwd or bwd, not '" + s + "'");
}

std::vector<MinedPair> select_pairs(const KnnLists& fwd, const KnnLists& bwd, const SelectOptions& opt,
                                    const std::function<bool(uint64_t, uint64_t)>& same, uint64_t* dropped_same,
                                    const PairPrior& prior) {
  if (fwd.indexed != bwd.queries || bwd.indexed != fwd.queries)
    throw corpus::ConfigError("the two directions' top-k lists are of different sentence sets");
  const auto fm = means(fwd), bm = means(bwd);
  const auto fb = best_of(fwd, fm, bm, opt.margin, prior, true), bb = best_of(bwd, bm, fm, opt.margin, prior, false);
  std::set<std::pair<uint64_t, uint64_t>> dropped;  // max lists a pair once per direction
  std::vector<MinedPair> all;
  if (opt.retrieval != Retrieval::kBwd)
    for (uint64_t i = 0; i < fwd.queries; ++i)
      if (fb[i].other >= 0) {
        const auto j = static_cast<uint64_t>(fb[i].other);
        if (opt.retrieval == Retrieval::kIntersect && bb[j].other != static_cast<int64_t>(i)) continue;
        all.push_back({i, j, fb[i].score});
      }
  if (opt.retrieval == Retrieval::kBwd || opt.retrieval == Retrieval::kMax)
    for (uint64_t j = 0; j < bwd.queries; ++j)
      if (bb[j].other >= 0) all.push_back({static_cast<uint64_t>(bb[j].other), j, bb[j].score});
  if (opt.retrieval == Retrieval::kMax)
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
  std::vector<MinedPair> out;
  std::vector<bool> src_taken(opt.retrieval == Retrieval::kMax ? fwd.queries : 0),
      trg_taken(opt.retrieval == Retrieval::kMax ? bwd.queries : 0);
  for (const auto& p : all) {
    if (opt.retrieval == Retrieval::kMax && (src_taken[p.src] || trg_taken[p.trg])) continue;
    if (same && same(p.src, p.trg)) {
      dropped.emplace(p.src, p.trg);
      continue;
    }
    if (opt.retrieval == Retrieval::kMax) src_taken[p.src] = trg_taken[p.trg] = true;
    if (!opt.threshold || p.score >= *opt.threshold) out.push_back(p);
  }
  if (dropped_same) *dropped_same = dropped.size();
  return out;
}

}  // namespace align::mine
