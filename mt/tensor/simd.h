// What the hand-vectorised float kernels of mt/tensor share: an 8-float GCC
// vector, unaligned loads and stores through references (a vector passed or
// returned by value would change the baseline clone's ABI), and the
// attribute that builds a function twice, for AVX2 and the x86-64 baseline,
// picking one at run time. Both clones do the same operations in the same
// order (no FMA contraction in ISO C++ mode), so they give the same bits.
#pragma once

namespace mt::simd {

typedef float v8 __attribute__((vector_size(32)));
typedef int v8i __attribute__((vector_size(32)));

// ThreadSanitizer instruments the ifunc resolver that target_clones makes,
// and the dynamic loader runs it before the sanitizer's runtime is up (every
// tsan binary crashed at start): the tsan build takes the baseline only.
#if defined(__SANITIZE_THREAD__)
#define PARACORP_CLONES_AVX2
#else
#define PARACORP_CLONES_AVX2 __attribute__((target_clones("avx2", "default")))
#endif

__attribute__((always_inline)) inline void load8(v8& v, const float* p) { __builtin_memcpy(&v, p, sizeof(v)); }
__attribute__((always_inline)) inline void store8(float* p, const v8& v) { __builtin_memcpy(p, &v, sizeof(v)); }

// The lanes summed as ((0+4)+(1+5))+((2+6)+(3+7)).
__attribute__((always_inline)) inline float sum8(const v8& v) {
  return ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
}

}  // namespace mt::simd
