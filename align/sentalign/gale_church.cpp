#include "align/sentalign/gale_church.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

namespace align::sentalign {

namespace {

constexpr double kVariance = 6.8;

double ratio(const std::vector<uint64_t>& s, const std::vector<uint64_t>& t) {
  return s.back() && t.back() ? static_cast<double>(t.back()) / static_cast<double>(s.back()) : 1.0;
}

double tail(double l1, double l2, double c) {
  if (l1 + l2 == 0) return 1.0;
  const double delta = (l2 - c * l1) / std::sqrt(kVariance * (l1 + l2 / c) / 2);
  return std::erfc(std::fabs(delta) / std::sqrt(2.0));
}

double prior(int dx, int dy) {
  if (dx == 1 && dy == 1) return 0.89;
  if (dx == 0 || dy == 0) return 0.0099;
  if (dx == 2 && dy == 2) return 0.011;
  return 0.089;
}

}  // namespace

double length_cost(double l1, double l2, double c, double floor) { return -std::log(std::max(tail(l1, l2, c), floor)); }

namespace {

class LengthLevel final : public Level {
 public:
  LengthLevel(std::vector<uint32_t> s, std::vector<uint32_t> t, double c)
      : s_(std::move(s)), t_(std::move(t)), ps_(length_prefix(s_)), pt_(length_prefix(t_)), c_(c) {}
  uint32_t n() const override { return static_cast<uint32_t>(s_.size()); }
  uint32_t m() const override { return static_cast<uint32_t>(t_.size()); }
  void prepare(const Band&) override {}
  double cost(int dx, int dy, uint32_t x, uint32_t y) const override {
    const auto l1 = static_cast<double>(ps_[x] - ps_[x - dx]), l2 = static_cast<double>(pt_[y] - pt_[y - dy]);
    return -std::log(prior(dx, dy)) + length_cost(l1, l2, c_);
  }
  std::unique_ptr<Level> downsample() const override {
    return std::make_unique<LengthLevel>(halve(s_), halve(t_), c_);
  }

 private:
  static std::vector<uint32_t> halve(const std::vector<uint32_t>& v) {
    std::vector<uint32_t> h(v.size() / 2);
    for (size_t j = 0; j < h.size(); ++j) h[j] = v[2 * j] + v[2 * j + 1];
    return h;
  }
  std::vector<uint32_t> s_, t_;
  std::vector<uint64_t> ps_, pt_;
  double c_;
};

}  // namespace

std::vector<Bead> align_lengths(const std::vector<uint32_t>& src, const std::vector<uint32_t>& trg,
                                const LengthOptions& opt) {
  LengthLevel top(src, trg, ratio(length_prefix(src), length_prefix(trg)));
  const std::vector<BeadType> types{{1, 1}, {1, 0}, {0, 1}, {2, 1}, {1, 2}, {2, 2}};
  return recursive_align(top, types, opt.recursion);
}

std::vector<double> length_scores(const std::vector<uint32_t>& src, const std::vector<uint32_t>& trg,
                                  const std::vector<Bead>& beads) {
  const auto ps = length_prefix(src), pt = length_prefix(trg);
  const double c = ratio(ps, pt);
  std::vector<double> out;
  out.reserve(beads.size());
  for (const Bead& b : beads)
    out.push_back(b.sl && b.tl ? tail(static_cast<double>(ps[b.sb + b.sl] - ps[b.sb]),
                                      static_cast<double>(pt[b.tb + b.tl] - pt[b.tb]), c)
                               : 0.0);
  return out;
}

}  // namespace align::sentalign
