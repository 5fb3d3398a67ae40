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

}  // namespace

template <>
void gemm_nt<float>(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  if (m <= kFewRows) return few_rows_nt(a, b, c, m, n, k, accumulate);
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
