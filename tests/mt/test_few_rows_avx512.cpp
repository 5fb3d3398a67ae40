// The AVX-512 few-row product (mt/tensor/few_rows_avx512.h), which gemm_nt
// uses for 1..kFewRows rows on CPUs with AVX-512: each row has the bits it
// has computed alone, whatever the number of rows beside it and its position
// among them (exact parallel decoding rests on that), at the shapes of a
// d=512 Transformer; they are the bits of the documented order; it is the
// dot product to float accuracy; and the check itself catches a kernel whose
// order depends on m.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mt/tensor/few_rows_avx512.h"
#include "libcorpus/linalg/gemm_avx512.h"
#include "mt/tensor/tensor.h"
#include "support/random_values.h"

using namespace mt;

namespace {

using FewRowsKernel = std::function<void(const float*, const float*, float*, int, int, int, bool)>;

// The order of few_rows_avx512.cpp, one float operation at a time: 16 lane
// sums of fused multiply-adds over p = l, l+16, ... in order, then the tree
// (l, l+8), (l, l+4), (l, l+2), (0, 1).
float few512_documented_dot(const float* x, const float* w, int k) {
  float lane[16] = {};
  for (int p = 0; p < k; ++p) lane[p % 16] = std::fma(w[p], x[p], lane[p % 16]);
  float s8[8], s4[4], s2[2];
  for (int l = 0; l < 8; ++l) s8[l] = lane[l] + lane[l + 8];
  for (int l = 0; l < 4; ++l) s4[l] = s8[l] + s8[l + 4];
  for (int l = 0; l < 2; ++l) s2[l] = s4[l] + s4[l + 2];
  return s2[0] + s2[1];
}

// The first row whose bits inside an m-row product (m = 2..kFewRows) differ
// from its bits computed alone, or "". The m-row product takes rows
// (m + t) % kFewRows of `a` for t < m, so a row stands at different
// positions for different m.
std::string few512_first_dependent_row(const FewRowsKernel& kernel, const std::vector<float>& a,
                                       const std::vector<float>& w, int n, int k) {
  std::vector<float> alone(static_cast<size_t>(kFewRows) * n);
  for (int r = 0; r < kFewRows; ++r)
    kernel(a.data() + static_cast<size_t>(r) * k, w.data(), alone.data() + static_cast<size_t>(r) * n, 1, n, k, false);
  std::vector<float> in(static_cast<size_t>(kFewRows) * k), out(static_cast<size_t>(kFewRows) * n);
  for (int m = 2; m <= kFewRows; ++m) {
    for (int t = 0; t < m; ++t) {
      const int r = (m + t) % kFewRows;
      std::memcpy(in.data() + static_cast<size_t>(t) * k, a.data() + static_cast<size_t>(r) * k, sizeof(float) * k);
    }
    kernel(in.data(), w.data(), out.data(), m, n, k, false);
    for (int t = 0; t < m; ++t) {
      const int r = (m + t) % kFewRows;
      for (int j = 0; j < n; ++j)
        if (!same_bits(out[static_cast<size_t>(t) * n + j], alone[static_cast<size_t>(r) * n + j])) {
          std::ostringstream s;
          s << "n=" << n << " k=" << k << " m=" << m << " position " << t << " (row " << r << ") column " << j;
          return s.str();
        }
    }
  }
  return "";
}

}  // namespace

TEST_CASE("few-row gemm avx512: a row's bits do not depend on m or its position, at a d=512 model's shapes") {
  if (!corpus::linalg::have_avx512()) {
    MESSAGE("this CPU has no AVX-512: the kernel is not used here, nothing to check");
    return;
  }
  // attention and cross-attention (512 x 512), fused K/V of 1536 rows, FFN
  // up (2048 x 512) and down (512 x 2048), the output layer (8000 x 512)
  const int shapes[][2] = {{512, 512}, {1536, 512}, {2048, 512}, {8000, 512}, {512, 2048}, {2048, 2048}};
  for (const auto& s : shapes) {
    const int n = s[0], k = s[1];
    const auto a = random_floats(static_cast<size_t>(kFewRows) * k, 11 + k);
    const auto w = random_floats(static_cast<size_t>(n) * k, 13 + n);
    const std::string bad = few512_first_dependent_row(few_rows_avx512_nt, a, w, n, k);
    CAPTURE(bad);
    REQUIRE(bad.empty());
    // both tilings (each CPU takes one), whose tiles differ with the number
    // of rows: a row has the same bits whatever tile it falls in
    for (FewRowsTiling tiling : {FewRowsTiling::kNarrow, FewRowsTiling::kWide}) {
      const FewRowsKernel with = [tiling](const float* x, const float* y, float* z, int m, int nn, int kk, bool acc) {
        few_rows_avx512_nt_with(x, y, z, m, nn, kk, acc, tiling);
      };
      const std::string bad_with = few512_first_dependent_row(with, a, w, n, k);
      CAPTURE(static_cast<int>(tiling));
      CAPTURE(bad_with);
      REQUIRE(bad_with.empty());
    }
    // and gemm_nt takes this kernel here (unless PARACORP_GEMM=openblas)
    if (gemm_backend() == GemmBackend::kAvx512) {
      std::vector<float> via(static_cast<size_t>(kFewRows) * n), direct(via.size());
      gemm_nt<float>(a.data(), w.data(), via.data(), kFewRows, n, k, false);
      few_rows_avx512_nt(a.data(), w.data(), direct.data(), kFewRows, n, k, false);
      REQUIRE(std::memcmp(via.data(), direct.data(), sizeof(float) * via.size()) == 0);
    }
  }
}

TEST_CASE("few-row gemm avx512: the independence check catches an order that depends on m") {
  if (!corpus::linalg::have_avx512()) return;
  // A kernel that sums k in two halves when more than 4 rows run together,
  // as a k blocking with a reduction per block would: the check must see it.
  const FewRowsKernel split_when_many = [](const float* a, const float* b, float* c, int m, int n, int k, bool acc) {
    if (m <= 4) return few_rows_avx512_nt(a, b, c, m, n, k, acc);
    const int h = k / 2;
    std::vector<float> lo(static_cast<size_t>(m) * h), hi(static_cast<size_t>(m) * (k - h));
    std::vector<float> blo(static_cast<size_t>(n) * h), bhi(static_cast<size_t>(n) * (k - h));
    for (int i = 0; i < m; ++i)
      for (int p = 0; p < k; ++p)
        (p < h ? lo[static_cast<size_t>(i) * h + p] : hi[static_cast<size_t>(i) * (k - h) + p - h]) =
            a[static_cast<size_t>(i) * k + p];
    for (int j = 0; j < n; ++j)
      for (int p = 0; p < k; ++p)
        (p < h ? blo[static_cast<size_t>(j) * h + p] : bhi[static_cast<size_t>(j) * (k - h) + p - h]) =
            b[static_cast<size_t>(j) * k + p];
    few_rows_avx512_nt(lo.data(), blo.data(), c, m, n, h, acc);
    few_rows_avx512_nt(hi.data(), bhi.data(), c, m, n, k - h, true);
  };
  const int n = 64, k = 512;
  const auto a = random_floats(static_cast<size_t>(kFewRows) * k, 21);
  const auto w = random_floats(static_cast<size_t>(n) * k, 22);
  CHECK(few512_first_dependent_row(few_rows_avx512_nt, a, w, n, k).empty());
  CHECK_FALSE(few512_first_dependent_row(split_when_many, a, w, n, k).empty());
}

TEST_CASE("few-row gemm avx512: the documented order, partial tiles, k tails and k blocks, both tilings") {
  if (!corpus::linalg::have_avx512()) return;
  // n = 13: whole column tiles of 4 and a remainder; k with tails of 1..15
  // and, with many rows, several k blocks.
  for (int k : {0, 1, 7, 15, 16, 17, 31, 33, 100, 525, 1024, 1031, 2055}) {
    const int n = 13;
    const auto a = random_floats(static_cast<size_t>(kFewRows) * k, 3 + k);
    const auto w = random_floats(static_cast<size_t>(n) * k, 5 + k);
    const auto c0 = random_floats(static_cast<size_t>(kFewRows) * n, 7 + k);
    std::vector<float> c(c0.size());
    for (int m = 1; m <= kFewRows; ++m)
      for (bool accumulate : {false, true})
        for (FewRowsTiling tiling : {FewRowsTiling::kNarrow, FewRowsTiling::kWide}) {
          CAPTURE(static_cast<int>(tiling));
          c = c0;
          few_rows_avx512_nt_with(a.data(), w.data(), c.data(), m, n, k, accumulate, tiling);
          for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
              const float got = c[static_cast<size_t>(i) * n + j];
              const float d =
                  few512_documented_dot(a.data() + static_cast<size_t>(i) * k, w.data() + static_cast<size_t>(j) * k, k);
              const float want = accumulate ? c0[static_cast<size_t>(i) * n + j] + d : d;
              CAPTURE(k);
              CAPTURE(m);
              CAPTURE(i);
              CAPTURE(j);
              REQUIRE(same_bits(got, want));
              double ref = accumulate ? c0[static_cast<size_t>(i) * n + j] : 0.0;
              for (int p = 0; p < k; ++p)
                ref += static_cast<double>(a[static_cast<size_t>(i) * k + p]) * w[static_cast<size_t>(j) * k + p];
              REQUIRE(got == doctest::Approx(ref).epsilon(1e-5).scale(std::sqrt(k) + 1));
            }
          // rows past m are left alone
          for (size_t t = static_cast<size_t>(m) * n; t < c.size(); ++t) REQUIRE(same_bits(c[t], c0[t]));
        }
  }
}
