// A float matrix product for CPUs with AVX-512: the training path's large
// products (mt) and the cosines of a Flat mine (align/mine/flat_both).
// OpenBLAS 0.3.21, which Debian ships, picks its kernels by CPU model: it runs
// its AVX2 (Haswell) kernels on AMD Zen 4/5, and its SSE3 (Prescott) ones on a
// CPU it does not know, such as a virtual machine's "Intel(R) Xeon(R)
// Processor"; this kernel is chosen by the CPU's feature flags instead. It
// measured about 1.6x OpenBLAS's speed on Zen
// (bench/results/nmt-train-throughput.txt). Row-major, three shapes; no
// threads of its own. Its sums have one fixed order (gemm_avx512.cpp), which
// depends on k only.
#pragma once

#include <cstdint>

namespace corpus::linalg {

// Whether the CPU (and the OS) run AVX-512F; false under ThreadSanitizer.
bool have_avx512();

// Whether products go to this kernel: have_avx512(), unless the environment
// says PARACORP_GEMM=openblas (how benchmarks run the baseline in the same
// binary). Read once.
bool avx512_products();

// Only when have_avx512(). C[m,n] (+)= A[m,k] B[n,k]^T, A[m,k] B[k,n], A[k,m]^T B[k,n].
void gemm_avx512_nt(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate);
void gemm_avx512_nn(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate);
void gemm_avx512_tn(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate);

// Weights packed once, used by many products (decoding: every pass of a
// batch multiplies by the same matrices). prepack_nt writes B[n,k] (row
// major, the nt layout) into prepacked_nt_size(n, k) floats: for each k
// block of 256, panels of 32 columns, zero past n. gemm_avx512_prepacked_nt
// is then C[m,n] (+)= A[m,k] B^T with A read where it lies, giving the same
// bits as gemm_avx512_nt for every m (1 row included): one order of sums.
int64_t prepacked_nt_size(int n, int k);
void prepack_nt(const float* b, int n, int k, float* out);
void gemm_avx512_prepacked_nt(const float* a, const float* packed, float* c, int m, int n, int k, bool accumulate);

}  // namespace corpus::linalg
