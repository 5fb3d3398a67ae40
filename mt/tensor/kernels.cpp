// The matrix products of tensor.h: a weights-streamed path for few rows,
// OpenBLAS sgemm for float, Eigen for double.
#include <cblas.h>

#include "mt/tensor/tensor.h"

namespace mt {

namespace {

// C[m,n] (+)= A[m,k] B[n,k]^T with each row of B read once: the m dot
// products of one B row run while it sits in L1.
template <class T>
void few_rows_nt(const T* a, const T* b, T* c, int m, int n, int k, bool accumulate) {
  for (int j = 0; j < n; ++j) {
    CVecMap<T> brow(b + static_cast<int64_t>(j) * k, k);
    for (int i = 0; i < m; ++i) {
      T d = CVecMap<T>(a + static_cast<int64_t>(i) * k, k).dot(brow);
      T& out = c[static_cast<int64_t>(i) * n + j];
      out = accumulate ? out + d : d;
    }
  }
}

// The float version: one pass over each row of B with m accumulators of 8
// lanes (m a template parameter, so they live in registers), so each weight
// is loaded once for all m rows. Built twice by GCC's
// target_clones (AVX2 and the x86-64 baseline) and picked at run time; both
// do the same operations in the same order (no FMA contraction in ISO C++
// mode), so the results do not depend on the CPU.
typedef float v8 __attribute__((vector_size(32)));

// ThreadSanitizer instruments the ifunc resolver that target_clones makes,
// and the dynamic loader runs it before the sanitizer's runtime is up (every
// tsan binary crashed at start): the tsan build takes the baseline only.
#if defined(__SANITIZE_THREAD__)
#define PARACORP_CLONES_AVX2
#else
#define PARACORP_CLONES_AVX2 __attribute__((target_clones("avx2", "default")))
#endif

template <int M>
__attribute__((always_inline)) inline void few_rows_block(const float* a, const float* b, float* c, int n, int k,
                                                          bool accumulate) {
  const int k8 = k & ~7;
  for (int j = 0; j < n; ++j) {
    const float* brow = b + static_cast<int64_t>(j) * k;
    v8 acc[M];
#pragma GCC unroll 8
    for (int i = 0; i < M; ++i) acc[i] = v8{};
    for (int p = 0; p < k8; p += 8) {
      v8 w;
      __builtin_memcpy(&w, brow + p, sizeof(w));
#pragma GCC unroll 8
      for (int i = 0; i < M; ++i) {
        v8 x;
        __builtin_memcpy(&x, a + static_cast<int64_t>(i) * k + p, sizeof(x));
        acc[i] += w * x;
      }
    }
    for (int i = 0; i < M; ++i) {
      const v8& v = acc[i];
      float d = ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
      const float* arow = a + static_cast<int64_t>(i) * k;
      for (int p = k8; p < k; ++p) d += brow[p] * arow[p];
      float& out = c[static_cast<int64_t>(i) * n + j];
      out = accumulate ? out + d : d;
    }
  }
}

PARACORP_CLONES_AVX2 void few_rows_nt_f32(const float* a, const float* b, float* c, int m, int n, int k,
                                          bool accumulate) {
  switch (m) {
    case 1: return few_rows_block<1>(a, b, c, n, k, accumulate);
    case 2: return few_rows_block<2>(a, b, c, n, k, accumulate);
    case 3: return few_rows_block<3>(a, b, c, n, k, accumulate);
    case 4: return few_rows_block<4>(a, b, c, n, k, accumulate);
    case 5: return few_rows_block<5>(a, b, c, n, k, accumulate);
    case 6: return few_rows_block<6>(a, b, c, n, k, accumulate);
    case 7: return few_rows_block<7>(a, b, c, n, k, accumulate);
    default: return few_rows_block<8>(a, b, c, n, k, accumulate);
  }
}

}  // namespace

template <>
void gemm_nt<float>(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  if (m <= kFewRows) return few_rows_nt_f32(a, b, c, m, n, k, accumulate);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, a, k, b, k, accumulate ? 1.0f : 0.0f, c, n);
}
template <>
void gemm_nn<float>(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, accumulate ? 1.0f : 0.0f, c, n);
}
template <>
void gemm_tn<float>(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, n, k, 1.0f, a, m, b, n, accumulate ? 1.0f : 0.0f, c, n);
}

template <>
void gemm_nt<double>(const double* a, const double* b, double* c, int m, int n, int k, bool accumulate) {
  if (m <= kFewRows) return few_rows_nt(a, b, c, m, n, k, accumulate);
  MatMap<double> C(c, m, n);
  if (accumulate)
    C.noalias() += CMatMap<double>(a, m, k) * CMatMap<double>(b, n, k).transpose();
  else
    C.noalias() = CMatMap<double>(a, m, k) * CMatMap<double>(b, n, k).transpose();
}
template <>
void gemm_nn<double>(const double* a, const double* b, double* c, int m, int n, int k, bool accumulate) {
  MatMap<double> C(c, m, n);
  if (accumulate)
    C.noalias() += CMatMap<double>(a, m, k) * CMatMap<double>(b, k, n);
  else
    C.noalias() = CMatMap<double>(a, m, k) * CMatMap<double>(b, k, n);
}
template <>
void gemm_tn<double>(const double* a, const double* b, double* c, int m, int n, int k, bool accumulate) {
  MatMap<double> C(c, m, n);
  if (accumulate)
    C.noalias() += CMatMap<double>(a, k, m).transpose() * CMatMap<double>(b, k, n);
  else
    C.noalias() = CMatMap<double>(a, k, m).transpose() * CMatMap<double>(b, k, n);
}

template <class T>
void linear_forward(const T* x, const T* w, const T* bias, T* y, int m, int n, int k) {
  if (bias) {
    MatMap<T> Y(y, m, n);
    Y.rowwise() = CVecMap<T>(bias, n);
    gemm_nt<T>(x, w, y, m, n, k, true);
  } else {
    gemm_nt<T>(x, w, y, m, n, k, false);
  }
}
template void linear_forward<float>(const float*, const float*, const float*, float*, int, int, int);
template void linear_forward<double>(const double*, const double*, const double*, double*, int, int, int);

void use_single_threaded_blas() { openblas_set_num_threads(1); }

const char* blas_info() { return openblas_get_config(); }

}  // namespace mt
