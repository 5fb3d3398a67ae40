// A float matrix product for CPUs with AVX-512 (the training path's large
// products): OpenBLAS 0.3.21, which Debian ships, runs its AVX2 (Haswell)
// kernels on AMD Zen 4/5, which have AVX-512; this one measured about 1.6x
// its speed there (bench/results/nmt-train-throughput.txt). Row-major, the
// three shapes of tensor.h; no threads of its own. Its sums have one fixed
// order (gemm_avx512.cpp), which depends on k only.
#pragma once

namespace mt {

// Whether the CPU (and the OS) run AVX-512F; false under ThreadSanitizer.
bool have_avx512();

// Only when have_avx512(). C[m,n] (+)= A[m,k] B[n,k]^T, A[m,k] B[k,n], A[k,m]^T B[k,n].
void gemm_avx512_nt(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate);
void gemm_avx512_nn(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate);
void gemm_avx512_tn(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate);

}  // namespace mt
