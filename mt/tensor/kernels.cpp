// The matrix products of tensor.h: a weights-streamed path for few rows
// (the portable kernel here, few_rows_avx512 on AVX-512), gemm_avx512 or
// OpenBLAS sgemm for float, Eigen for double.
#include <cblas.h>

#include <algorithm>
#include <type_traits>

#include "libcorpus/linalg/gemm_avx512.h"
#include "mt/tensor/few_rows_avx512.h"
#include "mt/tensor/packed_weights.h"
#include "mt/tensor/simd.h"
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

// The portable float version (few_rows_avx512 replaces it on CPUs with
// AVX-512 unless PARACORP_GEMM=openblas). Each output C[i,j] is one 8-lane
// accumulator summed over k in order, reduced the same way, then the k % 8
// tail: a row's bits do not depend on m, on the blocking below, or on the CPU. Built twice by
// GCC's target_clones (AVX2 and the x86-64 baseline) and picked at run time;
// both do the same operations in the same order (no FMA contraction in ISO
// C++ mode).
//
// Speed: a tile of kCols weight rows is multiplied by the input rows two at
// a time (2 x kCols accumulators in registers, each input load used kCols
// times, each weight load twice), so the loads per multiply-add stay under
// what the CPU issues and independent accumulators hide the add latency
// (one accumulator alone waits on it every step). When the input rows and
// the weight tile do not fit in L1 together (many rows, long k: FFN down),
// k is cut into blocks and the accumulators wait in a small buffer between
// blocks; each weight row is still read front to back, so the hardware
// prefetcher keeps streaming it. Up to 8 rows with k <= 1024, and one row
// whatever k, go one weight row at a time (by_weight_row): one sequential
// stream of weights, which measured faster with weights from memory.
using simd::load8;
using simd::v8;

constexpr int kCols = 4;
constexpr int kL1Bytes = 24 * 1024;  // of a 32 KB L1, what the input rows and the weight tile may use

// acc[r * C + c] += sum over p in [p0, p1) of A[r, p..p+7] * B[c, p..p+7], lane by lane.
template <int R, int C>
__attribute__((always_inline)) inline void tile(const float* a, const float* b, int k, int p0, int p1, v8* acc) {
  v8 s[R * C];
#pragma GCC unroll 16
  for (int t = 0; t < R * C; ++t) s[t] = acc[t];
  for (int p = p0; p < p1; p += 8) {
    v8 w[C];
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) load8(w[c], b + static_cast<int64_t>(c) * k + p);
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      v8 x;
      load8(x, a + static_cast<int64_t>(r) * k + p);
#pragma GCC unroll 8
      for (int c = 0; c < C; ++c) s[r * C + c] += w[c] * x;
    }
  }
#pragma GCC unroll 16
  for (int t = 0; t < R * C; ++t) acc[t] = s[t];
}

// Reduces the accumulators of the C columns from j and adds the k % 8 tail.
inline void finish(const float* a, const float* b, float* c, const v8* acc, int m, int n, int k, int j, int C,
                   bool accumulate) {
  const int k8 = k & ~7;
  for (int i = 0; i < m; ++i)
    for (int q = 0; q < C; ++q) {
      const v8& v = acc[i * C + q];
      float d = simd::sum8(v);
      const float* arow = a + static_cast<int64_t>(i) * k;
      const float* brow = b + static_cast<int64_t>(j + q) * k;
      for (int p = k8; p < k; ++p) d += brow[p] * arow[p];
      float& out = c[static_cast<int64_t>(i) * n + j + q];
      out = accumulate ? out + d : d;
    }
}

// acc[i] for rows 0..m-1 of column j.
inline void finish_one(const float* a, const float* b, float* c, const v8* acc, int m, int n, int k, int j,
                       bool accumulate) {
  finish(a, b, c, acc, m, n, k, j, 1, accumulate);
}

// One weight row at a time against all M rows (M accumulators): the
// weights are read as one sequential stream, which the prefetcher serves
// best, so with short k and up to 8 rows this is the faster order.
template <int M>
__attribute__((always_inline)) inline void by_weight_row(const float* a, const float* b, float* c, int n, int k,
                                                         bool accumulate) {
  const int k8 = k & ~7;
  v8 acc[M];
  for (int j = 0; j < n; ++j) {
    const float* brow = b + static_cast<int64_t>(j) * k;
#pragma GCC unroll 8
    for (int i = 0; i < M; ++i) acc[i] = v8{};
    for (int p = 0; p < k8; p += 8) {
      v8 w;
      load8(w, brow + p);
#pragma GCC unroll 8
      for (int i = 0; i < M; ++i) {
        v8 x;
        load8(x, a + static_cast<int64_t>(i) * k + p);
        acc[i] += w * x;
      }
    }
    finish_one(a, b, c, acc, M, n, k, j, accumulate);
  }
}

// Rows 0..m-1 against the C weight rows at b, k8 = k rounded down to 8, in k blocks of kb.
template <int C>
__attribute__((always_inline)) inline void column_tile(const float* a, const float* b, v8* acc, int m, int k,
                                                       int k8, int kb) {
  for (int p0 = 0; p0 < k8; p0 += kb) {
    const int p1 = std::min(k8, p0 + kb);
    int i = 0;
    for (; i + 2 <= m; i += 2) tile<2, C>(a + static_cast<int64_t>(i) * k, b, k, p0, p1, acc + i * C);
    if (i < m) tile<1, C>(a + static_cast<int64_t>(i) * k, b, k, p0, p1, acc + i * C);
  }
}

}  // namespace

PARACORP_CLONES_AVX2 void few_rows_nt_portable(const float* a, const float* b, float* c, int m, int n, int k,
                                               bool accumulate) {
  // Measured (bench/gemm_few_rows.cpp): weights streamed from memory, k =
  // 512 and up to 8 rows, one weight row at a time is fastest (one stream);
  // tiles win at 9+ rows and, with k = 2048 (FFN down), from 2 rows, where
  // the rows no longer sit in L1 beside a streamed weight row.
  if (m <= 8 && (k <= 1024 || m == 1)) {
    switch (m) {
      case 1: return by_weight_row<1>(a, b, c, n, k, accumulate);
      case 2: return by_weight_row<2>(a, b, c, n, k, accumulate);
      case 3: return by_weight_row<3>(a, b, c, n, k, accumulate);
      case 4: return by_weight_row<4>(a, b, c, n, k, accumulate);
      case 5: return by_weight_row<5>(a, b, c, n, k, accumulate);
      case 6: return by_weight_row<6>(a, b, c, n, k, accumulate);
      case 7: return by_weight_row<7>(a, b, c, n, k, accumulate);
      default: return by_weight_row<8>(a, b, c, n, k, accumulate);
    }
  }
  const int k8 = k & ~7;
  v8 acc[kFewRows * 2 * kCols];
  // The k block: the m input rows and kCols weight rows of it fit in L1.
  int kb = k8;
  const int64_t tile_bytes = static_cast<int64_t>(m + kCols) * k8 * static_cast<int64_t>(sizeof(float));
  if (tile_bytes > kL1Bytes) kb = std::max(64, (kL1Bytes / ((m + kCols) * static_cast<int>(sizeof(float)))) & ~7);
  int j = 0;
  for (; j + kCols <= n; j += kCols) {
    for (int t = 0; t < m * kCols; ++t) acc[t] = v8{};
    column_tile<kCols>(a, b + static_cast<int64_t>(j) * k, acc, m, k, k8, kb);
    finish(a, b, c, acc, m, n, k, j, kCols, accumulate);
  }
  for (; j < n; ++j) {
    for (int t = 0; t < m; ++t) acc[t] = v8{};
    column_tile<1>(a, b + static_cast<int64_t>(j) * k, acc, m, k, k8, kb);
    finish(a, b, c, acc, m, n, k, j, 1, accumulate);
  }
}

namespace {

// Products this large go to the AVX-512 kernel where the CPU has one.
bool use_avx512(int m, int n, int k) {
  // (n under 32 leaves a 32-column tile half empty: OpenBLAS was faster at n = 16.)
  return m > kFewRows && n >= 32 && k >= 16 && gemm_backend() == GemmBackend::kAvx512;
}

}  // namespace

namespace {
thread_local int chunked_scopes = 0;
}  // namespace

ChunkedProducts::ChunkedProducts() { ++chunked_scopes; }
ChunkedProducts::~ChunkedProducts() { --chunked_scopes; }
bool chunked_products_on() { return chunked_scopes > 0; }

GemmBackend gemm_backend() {
  static const GemmBackend b = [] {
    return corpus::linalg::avx512_products() ? GemmBackend::kAvx512 : GemmBackend::kOpenBlas;
  }();
  return b;
}

template <>
void gemm_nt<float>(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  if (m <= kFewRows) {
    if (gemm_backend() == GemmBackend::kAvx512) return few_rows_avx512_nt(a, b, c, m, n, k, accumulate);
    return few_rows_nt_portable(a, b, c, m, n, k, accumulate);
  }
  // Up to kChunkedRows rows (a batch of decoded sentences), 16 at a time
  // through the few-row kernel, which streams the weights as they lie: the
  // packed kernel repacked the whole weight matrix for each product, and
  // packing took more time than its arithmetic (perf, greedy at batch 32:
  // 27% packing, 21% the 8x32 tile). Rows keep the few-row kernel's bits.
  if (m <= kChunkedRows && chunked_products_on() && gemm_backend() == GemmBackend::kAvx512) {
    for (int i = 0; i < m; i += kFewRows)
      few_rows_avx512_nt(a + static_cast<int64_t>(i) * k, b, c + static_cast<int64_t>(i) * n, std::min(kFewRows, m - i), n, k,
                         accumulate);
    return;
  }
  if (use_avx512(m, n, k)) return corpus::linalg::gemm_avx512_nt(a, b, c, m, n, k, accumulate);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, a, k, b, k, accumulate ? 1.0f : 0.0f, c, n);
}
template <>
void gemm_nn<float>(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  if (use_avx512(m, n, k)) return corpus::linalg::gemm_avx512_nn(a, b, c, m, n, k, accumulate);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, accumulate ? 1.0f : 0.0f, c, n);
}
template <>
void gemm_tn<float>(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  if (use_avx512(m, n, k)) return corpus::linalg::gemm_avx512_tn(a, b, c, m, n, k, accumulate);
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
  }
  if constexpr (std::is_same_v<T, float>) {
    // Weights packed for a decoding call (packed_weights.h): gemm_avx512_nt's bits for any m.
    PackedWeights* store = packed_weights_in_use();
    if (store && gemm_backend() == GemmBackend::kAvx512)
      if (const float* packed = store->get(w, n, k))
        return corpus::linalg::gemm_avx512_prepacked_nt(x, packed, y, m, n, k, bias != nullptr);
  }
  gemm_nt<T>(x, w, y, m, n, k, bias != nullptr);
}
template void linear_forward<float>(const float*, const float*, const float*, float*, int, int, int);
template void linear_forward<double>(const double*, const double*, const double*, double*, int, int, int);

void use_single_threaded_blas() { openblas_set_num_threads(1); }

const char* blas_info() { return openblas_get_config(); }

const char* gemm_backend_name() {
  return gemm_backend() == GemmBackend::kAvx512
             ? "paracorp AVX-512 kernels (libcorpus/linalg/gemm_avx512, on weights packed once when decoding; mt/tensor/few_rows_avx512)"
             : "OpenBLAS, few rows by the portable kernel";
}

}  // namespace mt
