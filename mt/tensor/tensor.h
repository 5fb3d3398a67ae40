// Row-major matrices on Eigen and the matrix products the layers use.
//
// Every activation is a row-major matrix [rows, cols]; a batch of B
// sequences of length T is [B*T, C] with row b*T + t. Weights are stored as
// PyTorch's nn.Linear does: W [out, in], so a linear layer is y = x W^T + b.
// The products come in three shapes (NT, NN, TN) and two paths:
//  - few rows (decoding, a block of guessed positions, m <= kFewRows): a
//    weights-streamed kernel that reads each row of W once and dots it with
//    all m input rows, so with weights streamed from memory a 4-row product
//    costs about what a 1-row one does; a row's bits depend neither on m nor
//    on its position. For float, with the same choice as the large products:
//    the AVX-512 FMA kernel of few_rows_avx512.h where gemm_backend() is
//    kAvx512, else few_rows_nt_portable (the same bits on every x86-64 CPU);
//  - otherwise, for float, the AVX-512 kernel of libcorpus/linalg/gemm_avx512.h where the CPU
//    has AVX-512 (OpenBLAS 0.3.21 runs AVX2 kernels on AMD Zen 4/5) and the
//    product is not tiny, else OpenBLAS sgemm; PARACORP_GEMM=openblas in the
//    environment forces OpenBLAS (for comparisons). Eigen's GEMM for double
//    (the double path exists for the finite-difference gradient checks).
// Everything is templated on the scalar T (float in the product, double in
// the gradient checks).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace mt {

template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using MatMap = Eigen::Map<Mat<T>>;
template <class T>
using CMatMap = Eigen::Map<const Mat<T>>;
template <class T>
using Vec = Eigen::Matrix<T, 1, Eigen::Dynamic>;  // a row vector
template <class T>
using VecMap = Eigen::Map<Vec<T>>;
template <class T>
using CVecMap = Eigen::Map<const Vec<T>>;

inline constexpr int kFewRows = 16;
// While a ChunkedProducts lives on a thread (Transformer::decode: a decoding
// batch's passes), its float products of up to kChunkedRows rows run
// kFewRows rows at a time through the AVX-512 few-row kernel (where that is
// the kernel in use) instead of the packed one. Training and encoding keep
// their products, and so their bits.
inline constexpr int kChunkedRows = 64;
struct ChunkedProducts {
  ChunkedProducts();
  ~ChunkedProducts();
  ChunkedProducts(const ChunkedProducts&) = delete;
  ChunkedProducts& operator=(const ChunkedProducts&) = delete;
};
bool chunked_products_on();

// C[m,n] (+)= A[m,k] * B[n,k]^T  (the linear layer: x W^T).
template <class T>
void gemm_nt(const T* a, const T* b, T* c, int m, int n, int k, bool accumulate);
// The portable few-row float kernel of gemm_nt (1 <= m <= kFewRows), also
// for tests and benchmarks: 8-lane sums without FMA, built for AVX2 and the
// x86-64 baseline, the same bits on both (kernels.cpp documents the order).
void few_rows_nt_portable(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate);
// C[m,n] (+)= A[m,k] * B[k,n]  (dx = dy W).
template <class T>
void gemm_nn(const T* a, const T* b, T* c, int m, int n, int k, bool accumulate);
// C[m,n] (+)= A[k,m]^T * B[k,n]  (dW = dy^T x).
template <class T>
void gemm_tn(const T* a, const T* b, T* c, int m, int n, int k, bool accumulate);

// y[m,n] = x[m,k] W[n,k]^T + bias[n] (bias may be null).
template <class T>
void linear_forward(const T* x, const T* w, const T* bias, T* y, int m, int n, int k);

// Limits OpenBLAS to one thread per call: the trainer parallelises over
// batch shards itself. Called once by the engine; safe to call again.
void use_single_threaded_blas();
// "OpenBLAS 0.3.21 (Haswell, pthread)": the BLAS actually linked.
const char* blas_info();

// Which kernels the float products use (fixed per process): kAvx512 means
// gemm_avx512 above kFewRows rows and few_rows_avx512 up to it.
enum class GemmBackend { kOpenBlas, kAvx512 };
GemmBackend gemm_backend();
const char* gemm_backend_name();

}  // namespace mt
