// The few-row float product (decoding: 1 to kFewRows input rows against a
// weight matrix streamed from memory) for CPUs with AVX-512: fused
// multiply-adds on 16 lanes, where the portable kernel of kernels.cpp
// multiplies then adds on 8 (so that its AVX2 and baseline builds agree).
// Entered at run time only when corpus::linalg::avx512_products() (AVX-512
// and PARACORP_GEMM not "openblas"); no threads of its own.
//
// Order of operations (few_rows_avx512.cpp), which depends on k only: a row's
// bits depend neither on how many rows are computed with it nor on its
// position among them, which exact parallel decoding rests on. They differ
// from the portable kernel's in the last bits: the same process always takes
// the same kernel, so greedy and the parallel modes agree.
#pragma once

namespace mt {

// C[m,n] (+)= A[m,k] B[n,k]^T for 1 <= m <= kFewRows. Only when have_avx512().
void few_rows_avx512_nt(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate);

// The column tiles (weight rows per register tile) by number of input
// rows, one set per CPU family measured; the bits are the same with either
// (the order of operations depends on k only).
//   kNarrow (AMD Zen 5): 1-2 rows one weight row at a time, one sequential
//           stream without software prefetch; 3-16 rows tiles of 4.
//   kWide   (Intel Xeon): tiles of 8 weight rows for 1-2 rows, 6 for 3-8,
//           4 for 9-16, each with the next tile prefetched.
enum class FewRowsTiling { kNarrow, kWide };

// The tiling few_rows_avx512_nt takes on this CPU: kNarrow on AMD, kWide
// elsewhere (measured, few_rows_avx512.cpp).
FewRowsTiling few_rows_tiling_default();

// few_rows_avx512_nt with the tiling given (tests, benchmarks).
void few_rows_avx512_nt_with(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate,
                             FewRowsTiling tiling);

}  // namespace mt
