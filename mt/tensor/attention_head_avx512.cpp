// The AVX-512 per-head attention of attention_head_avx512.h, built with the
// avx512f target attribute for these functions only.
#include "mt/tensor/attention_head_avx512.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace mt {

#define PARACORP_AVX512 __attribute__((target("avx512f")))

namespace {

// out[i * ldo + c] = sum_{j < J} a[i * ars + j * acs] * b[j * ldb + c], for
// i < rows, c < 16 * NV (one chunk of NV vectors): two rows at a time, so
// 2 * NV independent chains.
template <int NV>
PARACORP_AVX512 void chunk(const float* a, int64_t ars, int64_t acs, const float* b, int64_t ldb, int J, float* out,
                           int64_t ldo, int rows) {
  int i = 0;
  for (; i + 2 <= rows; i += 2) {
    __m512 x[NV], y[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) x[v] = y[v] = _mm512_setzero_ps();
    const float* a0 = a + i * ars;
    const float* a1 = a0 + ars;
    for (int j = 0; j < J; ++j) {
      const __m512 s0 = _mm512_set1_ps(a0[j * acs]), s1 = _mm512_set1_ps(a1[j * acs]);
      const float* bj = b + j * ldb;
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) {
        const __m512 bv = _mm512_loadu_ps(bj + 16 * v);
        x[v] = _mm512_fmadd_ps(s0, bv, x[v]);
        y[v] = _mm512_fmadd_ps(s1, bv, y[v]);
      }
    }
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      _mm512_storeu_ps(out + i * ldo + 16 * v, x[v]);
      _mm512_storeu_ps(out + (i + 1) * ldo + 16 * v, y[v]);
    }
  }
  if (i < rows) {
    __m512 x[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) x[v] = _mm512_setzero_ps();
    const float* a0 = a + i * ars;
    for (int j = 0; j < J; ++j) {
      const __m512 s0 = _mm512_set1_ps(a0[j * acs]);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) x[v] = _mm512_fmadd_ps(s0, _mm512_loadu_ps(b + j * ldb + 16 * v), x[v]);
    }
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) _mm512_storeu_ps(out + i * ldo + 16 * v, x[v]);
  }
}

// out[i, 0..n) = sum_{j < J} a(i, j) b[j, 0..n), n % 16 == 0, in chunks of
// up to 4 vectors.
void product(const float* a, int64_t ars, int64_t acs, const float* b, int64_t ldb, int J, float* out, int64_t ldo,
             int rows, int n) {
  for (int c = 0; c < n; c += 64) {
    const int nv = std::min(4, (n - c) / 16);
    switch (nv) {
      case 1: chunk<1>(a, ars, acs, b + c, ldb, J, out + c, ldo, rows); break;
      case 2: chunk<2>(a, ars, acs, b + c, ldb, J, out + c, ldo, rows); break;
      case 3: chunk<3>(a, ars, acs, b + c, ldb, J, out + c, ldo, rows); break;
      default: chunk<4>(a, ars, acs, b + c, ldb, J, out + c, ldo, rows); break;
    }
  }
}

// t[c * tp + j] = x[j * ld + c] for j < rows, c < d; zero for rows <= j < tp.
void transpose_rows(const float* x, int rows, int64_t ld, int d, float* t, int tp) {
  for (int c = 0; c < d; ++c) {
    float* tc = t + static_cast<int64_t>(c) * tp;
    for (int j = 0; j < rows; ++j) tc[j] = x[j * ld + c];
    std::fill(tc + rows, tc + tp, 0.0f);
  }
}

int padded(int n) { return (n + 15) / 16 * 16; }

}  // namespace

void attention_head_forward_avx512(const float* q, const float* k, const float* v, float* ctx, float* probs, int tq,
                                   int tk, int ld, int d, float scale, int klen, bool causal, int causal_offset) {
  thread_local std::vector<float> kt, s;
  const int tp = padded(tk);
  kt.resize(static_cast<size_t>(d) * tp);
  s.resize(static_cast<size_t>(tq) * tp);
  transpose_rows(k, tk, ld, d, kt.data(), tp);
  product(q, ld, 1, kt.data(), tp, d, s.data(), tp, tq, tp);
  for (int i = 0; i < tq; ++i) {
    int last = klen;
    if (causal && i + causal_offset + 1 < last) last = i + causal_offset + 1;
    last = std::clamp(last, 0, tk);
    const float* si = s.data() + static_cast<int64_t>(i) * tp;
    float* pi = probs + static_cast<int64_t>(i) * tk;
    if (last > 0) {
      float mx = si[0] * scale;
      for (int j = 0; j < last; ++j) mx = std::max(mx, si[j] * scale);
      float z = 0;
      for (int j = 0; j < last; ++j) z += (pi[j] = std::exp(si[j] * scale - mx));
      for (int j = 0; j < last; ++j) pi[j] /= z;
    }
    std::fill(pi + last, pi + tk, 0.0f);
  }
  product(probs, tk, 1, v, ld, tk, ctx, ld, tq, d);
}

void attention_head_backward_avx512(const float* q, const float* k, const float* v, const float* probs,
                                    const float* dctx, float* dq, float* dk, float* dv, int tq, int tk, int ld, int d,
                                    float scale) {
  thread_local std::vector<float> vt, dp;
  const int tp = padded(tk);
  vt.resize(static_cast<size_t>(d) * tp);
  dp.resize(static_cast<size_t>(tq) * tp);
  product(probs, 1, tk, dctx, ld, tq, dv, ld, tk, d);  // dv = probs^T dctx
  transpose_rows(v, tk, ld, d, vt.data(), tp);
  product(dctx, ld, 1, vt.data(), tp, d, dp.data(), tp, tq, tp);  // dp = dctx v^T
  for (int i = 0; i < tq; ++i) {  // ds, in place of dp
    float* r = dp.data() + static_cast<int64_t>(i) * tp;
    const float* pi = probs + static_cast<int64_t>(i) * tk;
    float dot = 0;
    for (int j = 0; j < tk; ++j) dot += r[j] * pi[j];
    for (int j = 0; j < tk; ++j) r[j] = pi[j] * (r[j] - dot) * scale;
  }
  product(dp.data(), tp, 1, k, ld, tk, dq, ld, tq, d);  // dq = ds k
  product(dp.data(), 1, tp, q, ld, tq, dk, ld, tk, d);  // dk = ds^T q
}

}  // namespace mt
