// The AVX-512 attention row of attention_row_avx512.h, built with the
// avx512f target attribute for this function only.
#include "mt/tensor/attention_row_avx512.h"

#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace mt {

namespace {

#define PARACORP_AVX512 __attribute__((target("avx512f")))

// The lane tree of few_rows_avx512.cpp (GCC's own shuffles: GCC 12's
// shuffle intrinsics warn of an uninitialised value).
PARACORP_AVX512 inline float row_lane_sum(__m512 v) {
  typedef float v16 __attribute__((vector_size(64)));
  const v16 x = reinterpret_cast<v16>(v);
  const v16 s8 = x + __builtin_shufflevector(x, x, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
  const v16 s4 = s8 + __builtin_shufflevector(s8, s8, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11);
  const v16 s2 = s4 + __builtin_shufflevector(s4, s4, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
  return s2[0] + s2[1];
}

}  // namespace

PARACORP_AVX512 void attention_row_avx512(const float* q, const float* k, const float* v, float* ctx, int keys,
                                          int stride, int d, float scale) {
  thread_local std::vector<float> s;
  s.resize(static_cast<size_t>(keys));
  float m = 0;
  for (int j = 0; j < keys; ++j) {
    const float* kj = k + static_cast<int64_t>(j) * stride;
    __m512 acc = _mm512_setzero_ps();
    for (int p = 0; p < d; p += 16) acc = _mm512_fmadd_ps(_mm512_loadu_ps(q + p), _mm512_loadu_ps(kj + p), acc);
    s[j] = row_lane_sum(acc) * scale;
    m = j == 0 || s[j] > m ? s[j] : m;
  }
  float z = 0;
  for (int j = 0; j < keys; ++j) z += (s[j] = std::exp(s[j] - m));
  for (int j = 0; j < keys; ++j) s[j] /= z;
  // Up to 8 vectors of ctx at a time: 8 independent chains side by side.
  for (int c0 = 0; c0 < d; c0 += 128) {
    const int n = (d - c0 < 128 ? d - c0 : 128) / 16;
    __m512 acc[8];
    for (int i = 0; i < 8; ++i) acc[i] = _mm512_setzero_ps();
    for (int j = 0; j < keys; ++j) {
      const __m512 pj = _mm512_set1_ps(s[j]);
      const float* vj = v + static_cast<int64_t>(j) * stride + c0;
      for (int i = 0; i < n; ++i) acc[i] = _mm512_fmadd_ps(pj, _mm512_loadu_ps(vj + 16 * i), acc[i]);
    }
    for (int i = 0; i < n; ++i) _mm512_storeu_ps(ctx + c0 + 16 * i, acc[i]);
  }
}

}  // namespace mt
