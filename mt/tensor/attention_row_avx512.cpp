// The AVX-512 attention row of attention_row_avx512.h, built with the
// avx512f target attribute for this function only.
#include "mt/tensor/attention_row_avx512.h"

#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "mt/tensor/lane_sum_avx512.h"

namespace mt {

#define PARACORP_AVX512 __attribute__((target("avx512f")))

PARACORP_AVX512 void attention_row_avx512(const float* q, const float* k, const float* v, float* ctx, int keys,
                                          int stride, int d, float scale) {
  thread_local std::vector<float> s;
  s.resize(static_cast<size_t>(keys));
  float m = 0;
  for (int j = 0; j < keys; ++j) {
    const float* kj = k + static_cast<int64_t>(j) * stride;
    __m512 acc = _mm512_setzero_ps();
    for (int p = 0; p < d; p += 16) acc = _mm512_fmadd_ps(_mm512_loadu_ps(q + p), _mm512_loadu_ps(kj + p), acc);
    s[j] = lane_tree_sum(acc) * scale;
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
