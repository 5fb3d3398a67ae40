// The softmax row kernels (mt/tensor/row_kernels.h) against std::exp and a
// plain scan, at every tail length, and the float loss that uses them
// against the double one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "mt/layers/loss.h"
#include "mt/tensor/row_kernels.h"

using namespace mt;

namespace {

std::vector<float> row_kernels_values(size_t n, float lo, float hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

}  // namespace

TEST_CASE("row kernels: exp of shifted values is exp to float accuracy, with both sums") {
  double worst = 0;
  for (int n = 1; n <= 41; ++n) {
    CAPTURE(n);
    std::vector<float> x = row_kernels_values(static_cast<size_t>(n) * 97, -80.0f, 6.0f, 7u + n);
    x.resize(n);
    const std::vector<float> in = x;
    const float shift = 5.5f;
    float sum_shifted = 0;
    const float sum = row_exp_shifted(x.data(), n, shift, &sum_shifted);
    double want_sum = 0, want_shifted = 0;
    for (int i = 0; i < n; ++i) {
      const double s = static_cast<double>(in[i] - shift);
      const double e = std::exp(s);
      worst = std::max(worst, std::abs(x[i] - e) / e);
      want_sum += e, want_shifted += s;
    }
    CHECK(std::abs(sum - want_sum) <= 1e-5 * want_sum);
    CHECK(std::abs(sum_shifted - want_shifted) <= 1e-5 * std::max(1.0, std::abs(want_shifted)));
  }
  MESSAGE("largest relative error of exp: " << worst);
  CHECK(worst < 3e-7);
}

TEST_CASE("row kernels: an element's exp has the same bits wherever it stands in the row") {
  const std::vector<float> base = row_kernels_values(64, -30.0f, 0.0f, 3);
  std::vector<float> whole = base;
  float s = 0;
  row_exp_shifted(whole.data(), 64, 0.0f, &s);
  for (int off = 0; off < 13; ++off) {
    std::vector<float> part(base.begin() + off, base.begin() + off + 21);
    row_exp_shifted(part.data(), 21, 0.0f, &s);
    for (int i = 0; i < 21; ++i) CHECK(std::memcmp(&part[i], &whole[off + i], sizeof(float)) == 0);
  }
}

TEST_CASE("row kernels: very negative arguments give a tiny positive value, not 0, a denormal or NaN") {
  std::vector<float> x = {-1000.0f, -88.0f, -87.0f, 0.0f, -std::numeric_limits<float>::infinity()};
  float s = 0;
  row_exp_shifted(x.data(), static_cast<int>(x.size()), 0.0f, &s);
  for (float v : x) {
    CHECK(std::isnormal(v));
    CHECK(v > 0.0f);
    CHECK(v <= 1.0f);
  }
  CHECK(x[3] == 1.0f);
}

TEST_CASE("row kernels: row_max gives the largest value and its first index at every length") {
  for (int n = 1; n <= 40; ++n) {
    CAPTURE(n);
    std::vector<float> x = row_kernels_values(n, -5.0f, 5.0f, 11u + n);
    if (n > 3) x[n / 2] = x[n - 1] = 9.0f;  // a tie: the first one counts
    int arg = -1;
    const float mx = row_max(x.data(), n, &arg);
    const auto it = std::max_element(x.begin(), x.end());
    CHECK(mx == *it);
    CHECK(arg == static_cast<int>(it - x.begin()));
  }
}

TEST_CASE("row kernels: the float softmax cross-entropy matches the double one") {
  const int N = 5, V = 1003;
  std::vector<float> lf = row_kernels_values(static_cast<size_t>(N) * V, -8.0f, 8.0f, 5);
  std::vector<double> ld(lf.begin(), lf.end());
  const std::vector<int32_t> targets = {4, -1, 1002, 0, 17};
  const XentResult rf = softmax_xent_forward<float>(lf.data(), targets.data(), N, V, 0.1f);
  const XentResult rd = softmax_xent_forward<double>(ld.data(), targets.data(), N, V, 0.1);
  CHECK(rf.tokens == 4);
  CHECK(rf.tokens == rd.tokens);
  CHECK(rf.correct == rd.correct);
  CHECK(std::abs(rf.loss - rd.loss) <= 1e-5 * std::abs(rd.loss));
  double worst = 0;
  for (size_t i = 0; i < lf.size(); ++i) worst = std::max(worst, std::abs(lf[i] - ld[i]));
  CHECK(worst < 1e-6);
}

TEST_CASE("row kernels: the double log-sum-exp matches libm's exp summed in long double, at every tail length") {
  // Beam search's log-probabilities: the result must be exp's to about
  // double precision, spreads of logits up to 800 (terms that underflow),
  // -inf logits (masked tokens) leaving the sum alone.
  double worst = 0;
  for (int n = 1; n <= 40; ++n)
    for (float spread : {1.0f, 30.0f, 800.0f}) {
      std::vector<float> x = row_kernels_values(static_cast<size_t>(n), -spread, 5.0f, static_cast<unsigned>(n * 7 + spread));
      if (n > 3) x[2] = -std::numeric_limits<float>::infinity();
      const float mx = *std::max_element(x.begin(), x.end());
      long double z = 0;
      for (float v : x) z += std::exp(static_cast<long double>(v) - mx);
      const double want = static_cast<double>(mx + std::log(z));
      const double got = row_log_sum_exp(x.data(), n);
      CAPTURE(n);
      CAPTURE(spread);
      REQUIRE(std::isfinite(got));
      worst = std::max(worst, std::abs(got - want) / std::max(1.0, std::abs(want)));
    }
  CHECK(worst < 1e-14);
  // exp itself, one term against the largest (0): log(1 + exp(d)), whose
  // rounding of 1 + exp(d) alone leaves about 1.1e-16.
  double worst_exp = 0;
  for (double d = -50.0; d <= 0.0; d += 0.0137) {
    const float x[2] = {0.0f, static_cast<float>(d)};
    const double got = row_log_sum_exp(x, 2), want = std::log1p(std::exp(static_cast<double>(x[1])));
    worst_exp = std::max(worst_exp, std::abs(got - want));
  }
  CHECK(worst_exp < 4e-16);
}

TEST_CASE("row kernels: row_first_above finds what a scan finds, from any start, NaN never above") {
  std::vector<float> x = row_kernels_values(101, -1.0f, 1.0f, 4);
  x[50] = std::numeric_limits<float>::quiet_NaN();
  int checked = 0;
  for (float threshold : {-2.0f, 0.0f, 0.9f, 0.99f, 2.0f})
    for (int from = 0; from <= 101; from += 3) {
      int want = from;
      while (want < 101 && !(x[static_cast<size_t>(want)] > threshold)) ++want;
      CHECK(row_first_above(x.data(), from, 101, threshold) == want);
      ++checked;
    }
  CHECK(checked == 5 * 34);
}
