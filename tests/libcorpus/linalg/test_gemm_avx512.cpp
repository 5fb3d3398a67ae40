// The AVX-512 float product (libcorpus/linalg/gemm_avx512.h) against a double
// reference in all three shapes, at sizes that leave partial register tiles
// and several k blocks, with and without accumulation; and the fixed order
// of its sums: a row's bits do not depend on the rows beside it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "libcorpus/linalg/gemm_avx512.h"
#include "support/random_values.h"

using namespace corpus::linalg;

namespace {

enum class Gemm512Shape { kNT, kNN, kTN };

// op(A)[i,p] * op(B)[p,j] summed in double.
double gemm512_reference(Gemm512Shape s, const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k,
                         int i, int j) {
  double d = 0;
  for (int p = 0; p < k; ++p) {
    const double x = s == Gemm512Shape::kTN ? a[static_cast<size_t>(p) * m + i] : a[static_cast<size_t>(i) * k + p];
    const double y = s == Gemm512Shape::kNT ? b[static_cast<size_t>(j) * k + p] : b[static_cast<size_t>(p) * n + j];
    d += x * y;
  }
  return d;
}

void gemm512_run(Gemm512Shape s, const float* a, const float* b, float* c, int m, int n, int k, bool acc) {
  if (s == Gemm512Shape::kNT) gemm_avx512_nt(a, b, c, m, n, k, acc);
  if (s == Gemm512Shape::kNN) gemm_avx512_nn(a, b, c, m, n, k, acc);
  if (s == Gemm512Shape::kTN) gemm_avx512_tn(a, b, c, m, n, k, acc);
}

// Runs the kernel on every layout, each shape and both accumulate flags,
// inputs seeded from `seed` and the sizes, and hands each case to `check`
// (layout, m, n, k, acc, A, B, C before, C after). Returns the cases run.
template <class Check>
int gemm512_each_case(std::initializer_list<std::tuple<int, int, int>> shapes, int seed, Check check) {
  int runs = 0;
  for (Gemm512Shape s : {Gemm512Shape::kNT, Gemm512Shape::kNN, Gemm512Shape::kTN})
    for (const auto& shape : shapes)
      for (bool acc : {false, true}) {
        // Not a structured binding: clang 14 cannot capture one (CAPTURE is a lambda).
        const int m = std::get<0>(shape), n = std::get<1>(shape), k = std::get<2>(shape);
        CAPTURE(static_cast<int>(s));
        CAPTURE(m);
        CAPTURE(n);
        CAPTURE(k);
        CAPTURE(acc);
        const std::vector<float> a = random_floats(static_cast<size_t>(m) * k, seed + m);
        const std::vector<float> b = random_floats(static_cast<size_t>(n) * k, seed + 1 + n);
        const std::vector<float> c0 = random_floats(static_cast<size_t>(m) * n, seed + 2 + k);
        std::vector<float> c = c0;
        gemm512_run(s, a.data(), b.data(), c.data(), m, n, k, acc);
        check(s, m, n, k, acc, a, b, c0, c);
        ++runs;
      }
  return runs;
}

}  // namespace

TEST_CASE("gemm avx512: every shape matches a double reference, partial tiles and k blocks included") {
  if (!have_avx512()) {
    MESSAGE("this CPU has no AVX-512: the kernel is not used here, nothing to check");
    return;
  }
  const int checked = gemm512_each_case(
      {{17, 16, 16}, {133, 70, 300}, {8, 32, 256}, {260, 1030, 513}, {40, 33, 17}}, 1,
      [](Gemm512Shape s, int m, int n, int k, bool acc, const std::vector<float>& a, const std::vector<float>& b,
         const std::vector<float>& c0, const std::vector<float>& c) {
        double worst = 0;
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            const double want = gemm512_reference(s, a, b, m, n, k, i, j) + (acc ? c0[static_cast<size_t>(i) * n + j] : 0.0);
            worst = std::max(worst, std::abs(c[static_cast<size_t>(i) * n + j] - want));
          }
        CHECK(worst < 2e-6 * k);
      });
  CHECK(checked == 30);
}

TEST_CASE("gemm avx512: a row's bits do not depend on how many rows run with it") {
  if (!have_avx512()) return;
  const int m = 70, n = 50, k = 600;
  const std::vector<float> a = random_floats(static_cast<size_t>(m) * k, 9), b = random_floats(static_cast<size_t>(n) * k, 10);
  std::vector<float> all(static_cast<size_t>(m) * n);
  gemm_avx512_nt(a.data(), b.data(), all.data(), m, n, k, false);
  for (int first : {0, 5, 33}) {
    const int rows = 19;
    std::vector<float> part(static_cast<size_t>(rows) * n);
    gemm_avx512_nt(a.data() + static_cast<size_t>(first) * k, b.data(), part.data(), rows, n, k, false);
    CHECK(std::memcmp(part.data(), all.data() + static_cast<size_t>(first) * n, part.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("gemm avx512: the bits are those of the documented order, in every shape") {
  // gemm_avx512.cpp: C[i,j] is the sum over k blocks of 256 in order, each
  // block one fused multiply-add per p in order from zero, then added to C
  // (stored for the first block without accumulation). Emulated here one
  // scalar at a time, so a packing that moves, drops or zeroes one element
  // changes a bit. Sizes leave partial tiles, partial 16-wide p groups and
  // column groups past n; m = 4104 takes the tn path that reads a wide A
  // where it lies instead of packing it.
  if (!have_avx512()) return;
  const int checked = gemm512_each_case(
      {{9, 37, 16}, {64, 96, 300}, {131, 1040, 529}, {8, 5, 33}, {4104, 33, 260}}, 11,
      [](Gemm512Shape s, int m, int n, int k, bool acc, const std::vector<float>& a, const std::vector<float>& b,
         const std::vector<float>& c0, const std::vector<float>& c) {
        int differ = 0;
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            float want = acc ? c0[static_cast<size_t>(i) * n + j] : 0.0f;
            for (int p0 = 0; p0 < k; p0 += 256) {
              float block = 0.0f;
              for (int p = p0; p < std::min(k, p0 + 256); ++p) {
                const float x = s == Gemm512Shape::kTN ? a[static_cast<size_t>(p) * m + i] : a[static_cast<size_t>(i) * k + p];
                const float y = s == Gemm512Shape::kNT ? b[static_cast<size_t>(j) * k + p] : b[static_cast<size_t>(p) * n + j];
                block = std::fma(x, y, block);
              }
              want = (p0 == 0 && !acc) ? block : want + block;
            }
            const float got = c[static_cast<size_t>(i) * n + j];
            if (std::memcmp(&got, &want, sizeof(float)) != 0) ++differ;
          }
        CHECK(differ == 0);
      });
  CHECK(checked == 30);
}

TEST_CASE("gemm avx512: weights packed once give gemm_avx512_nt's bits for every row count") {
  // The prepacked product (decoding) must agree bit for bit with the packed
  // one for 1 to 8 rows (each row-group width has its own tile), partial
  // 32-column panels, several k blocks, and with and without accumulation:
  // greedy, beam and the parallel modes compare rows computed at different m.
  if (!have_avx512()) return;
  int cases = 0;
  for (const auto& nk : std::initializer_list<std::pair<int, int>>{{1, 1}, {33, 17}, {128, 256}, {200, 257}, {300, 600}}) {
    const int n = nk.first, k = nk.second;  // not a structured binding: CAPTURE is a lambda (clang 14)
    const std::vector<float> b = random_floats(static_cast<size_t>(n) * k, 20 + n);
    std::vector<float> packed(static_cast<size_t>(prepacked_nt_size(n, k)), -1.0f);
    prepack_nt(b.data(), n, k, packed.data());
    for (int m : {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 17, 40})
      for (bool acc : {false, true}) {
        CAPTURE(n);
        CAPTURE(k);
        CAPTURE(m);
        CAPTURE(acc);
        const std::vector<float> a = random_floats(static_cast<size_t>(m) * k, 30 + m);
        const std::vector<float> c0 = random_floats(static_cast<size_t>(m) * n, 40 + k);
        std::vector<float> want = c0, got = c0;
        gemm_avx512_nt(a.data(), b.data(), want.data(), m, n, k, acc);
        gemm_avx512_prepacked_nt(a.data(), packed.data(), got.data(), m, n, k, acc);
        CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
        ++cases;
      }
  }
  CHECK(cases == 120);
}
