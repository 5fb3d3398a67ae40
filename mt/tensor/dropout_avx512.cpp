// The AVX-512 dropout of dropout_avx512.h, built with the avx512f and
// avx512dq target attributes for these functions only.
#include "mt/tensor/dropout_avx512.h"

#include <immintrin.h>

#include "libcorpus/core/hash_mix.h"

namespace mt {

#define PARACORP_AVX512DQ __attribute__((target("avx512f,avx512dq")))

bool dropout_avx512_ok() {
#if defined(__SANITIZE_THREAD__)
  return false;
#else
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  return yes;
#endif
}

namespace {

// corpus::mix64 on eight lanes. (The zero-masked forms with every lane
// kept: GCC 12's plain ones start from an undefined vector and
// -Wmaybe-uninitialized warns inside its own header.)
PARACORP_AVX512DQ inline __m512i mix64x8(__m512i x) {
  const __mmask8 all = 0xff;
  x = _mm512_add_epi64(x, _mm512_set1_epi64(static_cast<long long>(corpus::kGoldenGamma)));
  x = _mm512_mullo_epi64(_mm512_xor_si512(x, _mm512_maskz_srli_epi64(all, x, 30)),
                         _mm512_set1_epi64(static_cast<long long>(0xbf58476d1ce4e5b9ULL)));
  x = _mm512_mullo_epi64(_mm512_xor_si512(x, _mm512_maskz_srli_epi64(all, x, 27)),
                         _mm512_set1_epi64(static_cast<long long>(0x94d049bb133111ebULL)));
  return _mm512_xor_si512(x, _mm512_maskz_srli_epi64(all, x, 31));
}

}  // namespace

PARACORP_AVX512DQ void dropout_forward_avx512(float* x, int64_t n, uint64_t base, uint64_t threshold, float scale,
                                              uint8_t* mask) {
  const __m512i thr = _mm512_set1_epi64(static_cast<long long>(threshold));
  const __m512i eight = _mm512_set1_epi64(8), sixteen = _mm512_set1_epi64(16);
  const __m512 s = _mm512_set1_ps(scale);
  __m512i lo = _mm512_add_epi64(_mm512_set1_epi64(static_cast<long long>(base)), _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7));
  __m512i hi = _mm512_add_epi64(lo, eight);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __mmask8 k0 = _mm512_cmp_epu64_mask(mix64x8(lo), thr, _MM_CMPINT_NLT);
    const __mmask8 k1 = _mm512_cmp_epu64_mask(mix64x8(hi), thr, _MM_CMPINT_NLT);
    const __mmask16 keep = static_cast<__mmask16>(k0 | (static_cast<unsigned>(k1) << 8));
    _mm512_storeu_ps(x + i, _mm512_maskz_mul_ps(keep, _mm512_loadu_ps(x + i), s));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(mask + i),
                     _mm512_maskz_cvtepi32_epi8(0xffff, _mm512_maskz_set1_epi32(keep, 1)));
    lo = _mm512_add_epi64(lo, sixteen);
    hi = _mm512_add_epi64(hi, sixteen);
  }
  for (; i < n; ++i) {
    const bool keep = corpus::mix64(base + static_cast<uint64_t>(i)) >= threshold;
    const float v = x[i] * scale;
    mask[i] = keep;
    x[i] = keep ? v : 0.0f;
  }
}

PARACORP_AVX512DQ void dropout_backward_avx512(float* dy, int64_t n, float scale, const uint8_t* mask) {
  const __m512 s = _mm512_set1_ps(scale);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i m = _mm512_maskz_cvtepu8_epi32(0xffff, _mm_loadu_si128(reinterpret_cast<const __m128i*>(mask + i)));
    const __mmask16 keep = _mm512_test_epi32_mask(m, m);
    _mm512_storeu_ps(dy + i, _mm512_maskz_mul_ps(keep, _mm512_loadu_ps(dy + i), s));
  }
  for (; i < n; ++i) {
    const float v = dy[i] * scale;
    dy[i] = mask[i] ? v : 0.0f;
  }
}

}  // namespace mt
