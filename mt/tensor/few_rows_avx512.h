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

// How 1 and 2 rows are computed (3 or more always go in 4 x 4 register
// tiles): one weight row at a time, one sequential stream of weights, or
// tiles of 8 weight rows with the next tile prefetched. Which is faster
// depends on the CPU; the bits are the same either way.
enum class FewRowsSmallM { kWeightRows, kTiles };

// The choice few_rows_avx512_nt makes on this CPU: kWeightRows on AMD,
// kTiles elsewhere (measured, few_rows_avx512.cpp).
FewRowsSmallM few_rows_small_m_default();

// few_rows_avx512_nt with the choice given (tests, benchmarks).
void few_rows_avx512_nt_with(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate,
                             FewRowsSmallM small_m);

}  // namespace mt
