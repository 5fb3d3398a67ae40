// The few-row float product (mt/tensor/kernels.cpp): each output row has the
// same bits whatever the number of rows beside it (what exact Jacobi
// decoding needs), up to kFewRows rows, whatever the blocking over columns
// and k; they are the bits of one documented order of operations (so the
// AVX2 and baseline builds agree); and it is the dot product to float
// accuracy.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "mt/tensor/tensor.h"
#include "support/random_values.h"

using namespace mt;

namespace {

// The kernel's order, one float operation at a time: 8 lane sums over k in
// steps of 8, reduced pairwise as ((0+4)+(1+5))+((2+6)+(3+7)), then the
// k % 8 tail added in order.
float documented_dot(const float* x, const float* w, int k) {
  const int k8 = k & ~7;
  float lane[8] = {};
  for (int p = 0; p < k8; p += 8)
    for (int l = 0; l < 8; ++l) {
      const float prod = w[p + l] * x[p + l];
      lane[l] = lane[l] + prod;
    }
  const float lo = (lane[0] + lane[4]) + (lane[1] + lane[5]);
  const float hi = (lane[2] + lane[6]) + (lane[3] + lane[7]);
  float d = lo + hi;
  for (int p = k8; p < k; ++p) {
    const float prod = w[p] * x[p];
    d = d + prod;
  }
  return d;
}

}  // namespace

TEST_CASE("few-row gemm: a row's bits do not depend on m") {
  // n = 13: whole tiles of 4 and 8 weight rows and a remainder; k up to
  // 2048 with many rows: the k-blocked path.
  for (int k : {1, 7, 8, 9, 15, 16, 17, 24, 40, 100, 525, 1024, 1031, 2048, 2055}) {
    const int n = 13;
    auto a = random_floats(static_cast<size_t>(kFewRows) * k, 3 + k);
    auto w = random_floats(static_cast<size_t>(n) * k, 5 + k);
    std::vector<float> one(n), many(static_cast<size_t>(kFewRows) * n), portable(many.size());
    for (int m = 1; m <= kFewRows; ++m) {
      gemm_nt<float>(a.data(), w.data(), many.data(), m, n, k, false);
      // gemm_nt's kernel may be the AVX-512 one (test_few_rows_avx512.cpp); the documented order is the portable one's
      few_rows_nt_portable(a.data(), w.data(), portable.data(), m, n, k, false);
      for (int i = 0; i < m; ++i) {
        gemm_nt<float>(a.data() + static_cast<size_t>(i) * k, w.data(), one.data(), 1, n, k, false);
        for (int j = 0; j < n; ++j) {
          const float got = many[static_cast<size_t>(i) * n + j];
          REQUIRE_MESSAGE(same_bits(got, one[j]), "k=" << k << " m=" << m << " row " << i << " col " << j);
          const float doc = documented_dot(a.data() + static_cast<size_t>(i) * k, w.data() + static_cast<size_t>(j) * k, k);
          REQUIRE_MESSAGE(same_bits(portable[static_cast<size_t>(i) * n + j], doc), "k=" << k << " m=" << m << " row " << i << " col " << j);
          double ref = 0;
          for (int p = 0; p < k; ++p)
            ref += static_cast<double>(a[static_cast<size_t>(i) * k + p]) * w[static_cast<size_t>(j) * k + p];
          REQUIRE(got == doctest::Approx(ref).epsilon(1e-5).scale(std::sqrt(k)));
        }
      }
    }
  }
}

TEST_CASE("few-row gemm: accumulate adds the product to C") {
  const int m = 5, n = 9, k = 33;
  auto a = random_floats(m * k, 1), w = random_floats(n * k, 2), c0 = random_floats(m * n, 3);
  std::vector<float> c = c0, plain(m * n);
  gemm_nt<float>(a.data(), w.data(), c.data(), m, n, k, true);
  gemm_nt<float>(a.data(), w.data(), plain.data(), m, n, k, false);
  for (int i = 0; i < m * n; ++i) CHECK(same_bits(c[i], c0[i] + plain[i]));
}
