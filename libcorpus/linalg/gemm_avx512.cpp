// The AVX-512 float product of gemm_avx512.h: packed panels and an 8 x 32
// register tile (BLIS's loop order). Built with the avx512f target
// attribute only for these functions and entered only when the CPU says it
// has AVX-512, so the binary stays portable.
//
// Order of operations, so results are reproducible: C[i,j] is the sum over
// k blocks of kKc in order, each block summed by one fused multiply-add per
// p in order, in a register, then added to C (or stored into C for the
// first block without `accumulate`). It depends on k only, never on m, n,
// the threads or where the tile stands.
#include "libcorpus/linalg/gemm_avx512.h"

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace corpus::linalg {

namespace {

constexpr int kMr = 8;      // rows of the register tile
constexpr int kNr = 32;     // columns of the register tile (two 16-float vectors)
constexpr int kKc = 256;    // k block: a packed B panel of kKc x kNr floats is 32 KB, in L1
constexpr int kMc = 128;    // rows of a packed A block (kMc x kKc = 128 KB, in L2)
constexpr int kNc = 1024;   // columns of a packed B block (kKc x kNc = 1 MB)

// op(A)[i, p] and op(B)[p, j] of the three layouts.
struct Operands {
  const float* a;
  int64_t lda;
  bool a_trans;  // A stored [k, m]
  const float* b;
  int64_t ldb;
  bool b_trans;  // B stored [n, k]
};

// A[i0.., p0..] into panels of kMr rows: ap[panel][p][r], zero rows past m.
void pack_a_block(const Operands& o, float* ap, int i0, int mc, int p0, int kc) {
  for (int ir = 0; ir < mc; ir += kMr) {
    float* dst = ap + static_cast<int64_t>(ir) * kc;
    const int rows = std::min(kMr, mc - ir);
    if (o.a_trans) {
      for (int p = 0; p < kc; ++p) {
        const float* src = o.a + static_cast<int64_t>(p0 + p) * o.lda + i0 + ir;
        float* d = dst + static_cast<int64_t>(p) * kMr;
        int r = 0;
        for (; r < rows; ++r) d[r] = src[r];
        for (; r < kMr; ++r) d[r] = 0.0f;
      }
    } else {
      for (int r = 0; r < kMr; ++r) {
        if (r >= rows) {
          for (int p = 0; p < kc; ++p) dst[static_cast<int64_t>(p) * kMr + r] = 0.0f;
          continue;
        }
        const float* src = o.a + static_cast<int64_t>(i0 + ir + r) * o.lda + p0;
        for (int p = 0; p < kc; ++p) dst[static_cast<int64_t>(p) * kMr + r] = src[p];
      }
    }
  }
}

// B[p0.., j0..] into panels of kNr columns: bp[panel][p][c], zero columns past n.
void pack_b_block(const Operands& o, float* bp, int j0, int nc, int p0, int kc) {
  for (int jr = 0; jr < nc; jr += kNr) {
    float* dst = bp + static_cast<int64_t>(jr) * kc;
    const int cols = std::min(kNr, nc - jr);
    if (o.b_trans) {
      for (int c = 0; c < kNr; ++c) {
        if (c >= cols) {
          for (int p = 0; p < kc; ++p) dst[static_cast<int64_t>(p) * kNr + c] = 0.0f;
          continue;
        }
        const float* src = o.b + static_cast<int64_t>(j0 + jr + c) * o.ldb + p0;
        for (int p = 0; p < kc; ++p) dst[static_cast<int64_t>(p) * kNr + c] = src[p];
      }
    } else {
      for (int p = 0; p < kc; ++p) {
        const float* src = o.b + static_cast<int64_t>(p0 + p) * o.ldb + j0 + jr;
        float* d = dst + static_cast<int64_t>(p) * kNr;
        int c = 0;
        for (; c < cols; ++c) d[c] = src[c];
        for (; c < kNr; ++c) d[c] = 0.0f;
      }
    }
  }
}

// C[rows x cols tile] (+)= ap-panel x bp-panel over kc.
__attribute__((target("avx512f"))) void tile_8x32(const float* ap, const float* bp, int kc, float* c, int64_t ldc,
                                                   int rows, int cols, bool add) {
  __m512 acc[kMr][2];
#pragma GCC unroll 8
  for (int r = 0; r < kMr; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
  for (int p = 0; p < kc; ++p) {
    const __m512 b0 = _mm512_loadu_ps(bp + static_cast<int64_t>(p) * kNr);
    const __m512 b1 = _mm512_loadu_ps(bp + static_cast<int64_t>(p) * kNr + 16);
    const float* a = ap + static_cast<int64_t>(p) * kMr;
#pragma GCC unroll 8
    for (int r = 0; r < kMr; ++r) {
      const __m512 av = _mm512_set1_ps(a[r]);
      acc[r][0] = _mm512_fmadd_ps(av, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(av, b1, acc[r][1]);
    }
  }
  const __mmask16 m0 = cols >= 16 ? __mmask16(0xffff) : static_cast<__mmask16>((1u << cols) - 1u);
  const __mmask16 m1 = cols >= 32 ? __mmask16(0xffff) : cols <= 16 ? __mmask16(0) : static_cast<__mmask16>((1u << (cols - 16)) - 1u);
  for (int r = 0; r < rows; ++r) {
    float* cr = c + static_cast<int64_t>(r) * ldc;
    __m512 v0 = acc[r][0], v1 = acc[r][1];
    if (add) {
      v0 = _mm512_add_ps(_mm512_maskz_loadu_ps(m0, cr), v0);
      v1 = _mm512_add_ps(_mm512_maskz_loadu_ps(m1, cr + 16), v1);
    }
    _mm512_mask_storeu_ps(cr, m0, v0);
    _mm512_mask_storeu_ps(cr + 16, m1, v1);
  }
}

void gemm_packed(const Operands& o, float* c, int m, int n, int k, bool accumulate) {
  thread_local std::vector<float> apack, bpack;
  apack.resize(static_cast<size_t>(kMc) * kKc);
  bpack.resize(static_cast<size_t>(kKc) * (kNc + kNr));
  for (int j0 = 0; j0 < n; j0 += kNc) {
    const int nc = std::min(kNc, n - j0);
    for (int p0 = 0; p0 < k; p0 += kKc) {
      const int kc = std::min(kKc, k - p0);
      const bool add = accumulate || p0 > 0;
      pack_b_block(o, bpack.data(), j0, nc, p0, kc);
      for (int i0 = 0; i0 < m; i0 += kMc) {
        const int mc = std::min(kMc, m - i0);
        pack_a_block(o, apack.data(), i0, mc, p0, kc);
        for (int jr = 0; jr < nc; jr += kNr)
          for (int ir = 0; ir < mc; ir += kMr)
            tile_8x32(apack.data() + static_cast<int64_t>(ir) * kc, bpack.data() + static_cast<int64_t>(jr) * kc, kc,
                      c + static_cast<int64_t>(i0 + ir) * n + j0 + jr, n, std::min(kMr, mc - ir),
                      std::min(kNr, nc - jr), add);
      }
    }
  }
  if (k == 0 && !accumulate)
    for (int64_t i = 0; i < static_cast<int64_t>(m) * n; ++i) c[i] = 0.0f;
}

}  // namespace

bool have_avx512() {
#if defined(__SANITIZE_THREAD__)
  return false;  // as mt/tensor/simd.h: no CPU dispatch under ThreadSanitizer
#else
  static const bool yes = __builtin_cpu_supports("avx512f");
  return yes;
#endif
}

bool avx512_products() {
  static const bool yes = [] {
    const char* e = std::getenv("PARACORP_GEMM");
    return have_avx512() && !(e && std::strcmp(e, "openblas") == 0);
  }();
  return yes;
}

void gemm_avx512_nt(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  gemm_packed(Operands{a, k, false, b, k, true}, c, m, n, k, accumulate);
}
void gemm_avx512_nn(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  gemm_packed(Operands{a, k, false, b, n, false}, c, m, n, k, accumulate);
}
void gemm_avx512_tn(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  gemm_packed(Operands{a, m, true, b, n, false}, c, m, n, k, accumulate);
}

}  // namespace corpus::linalg
