// The sum of a 16-lane vector's lanes in the tree order the AVX-512 kernels
// document (few_rows_avx512.h, attention_row_avx512.h): s8[l] = v[l] +
// v[l+8], s4[l] = s8[l] + s8[l+4], s2[l] = s4[l] + s4[l+2], then s2[0] +
// s2[1]. Written with GCC's own vector shuffles: GCC 12's shuffle and
// extract intrinsics warn of an uninitialised value, an error under -Werror.
// Only for code entered where the CPU has AVX-512.
#pragma once

#include <immintrin.h>

namespace mt {

__attribute__((target("avx512f"))) inline float lane_tree_sum(__m512 v) {
  typedef float v16 __attribute__((vector_size(64)));
  const v16 x = reinterpret_cast<v16>(v);
  const v16 s8 = x + __builtin_shufflevector(x, x, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
  const v16 s4 = s8 + __builtin_shufflevector(s8, s8, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11);
  const v16 s2 = s4 + __builtin_shufflevector(s4, s4, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
  return s2[0] + s2[1];
}

}  // namespace mt
