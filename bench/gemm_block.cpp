// One product block of a Flat mine (C = X·Yᵀ, 1024 × 4096 × 256 by default,
// the block of align/mine/flat_both.cpp) on paracorp's AVX-512 kernel
// (libcorpus/linalg) and on OpenBLAS sgemm as this process loaded it,
// interleaved in one run: which kernels OpenBLAS picked is set before the
// process starts (OPENBLAS_CORETYPE), so bench/gemm-block.sh runs this
// program once per OpenBLAS core type, alternating.
//   bench_gemm_block [ROUNDS [M N K [nt|nn|tn]]]
// Prints the median GFLOP/s of each kernel over ROUNDS rounds (each times
// 5 products per kernel) and the core OpenBLAS reports. The layout is C =
// A·Bᵀ (nt, the default), A·B (nn) or Aᵀ·B (tn): the training step's three. Thread CPU time: on
// a shared machine the time given to other processes is not counted.
#include <cblas.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "bench/thread_time.h"
#include "libcorpus/linalg/gemm_avx512.h"

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  const int m = argc > 4 ? std::atoi(argv[2]) : 1024, n = argc > 4 ? std::atoi(argv[3]) : 4096,
            k = argc > 4 ? std::atoi(argv[4]) : 256;
  const std::string shape = argc > 5 ? argv[5] : "nt";
  if (rounds < 1 || m < 1 || n < 1 || k < 1 || (shape != "nt" && shape != "nn" && shape != "tn")) {
    std::fprintf(stderr, "usage: bench_gemm_block [ROUNDS [M N K [nt|nn|tn]]]\n");
    return 2;
  }
  const bool a_trans = shape == "tn", b_trans = shape == "nt";
  std::vector<float> a(static_cast<size_t>(m) * k), b(static_cast<size_t>(n) * k), c(static_cast<size_t>(m) * n);
  std::mt19937 g(1);
  std::normal_distribution<float> nd;
  for (float& v : a) v = nd(g);
  for (float& v : b) v = nd(g);
  openblas_set_num_threads(1);
  const bool avx = corpus::linalg::have_avx512();
  constexpr int kReps = 5;
  const double flops = 2.0 * m * n * k * kReps;
  std::vector<double> ob, pc;
  for (int r = 0; r < rounds + 1; ++r) {  // the first round warms up
    double t0 = thread_cpu_seconds();
    for (int i = 0; i < kReps; ++i)
      cblas_sgemm(CblasRowMajor, a_trans ? CblasTrans : CblasNoTrans, b_trans ? CblasTrans : CblasNoTrans, m, n, k, 1.0f,
                  a.data(), a_trans ? m : k, b.data(), b_trans ? k : n, 0.0f, c.data(), n);
    double t1 = thread_cpu_seconds();
    if (r > 0) ob.push_back(flops / (t1 - t0) * 1e-9);
    if (!avx) continue;
    t0 = thread_cpu_seconds();
    for (int i = 0; i < kReps; ++i) {
      if (shape == "nt") corpus::linalg::gemm_avx512_nt(a.data(), b.data(), c.data(), m, n, k, false);
      if (shape == "nn") corpus::linalg::gemm_avx512_nn(a.data(), b.data(), c.data(), m, n, k, false);
      if (shape == "tn") corpus::linalg::gemm_avx512_tn(a.data(), b.data(), c.data(), m, n, k, false);
    }
    t1 = thread_cpu_seconds();
    if (r > 0) pc.push_back(flops / (t1 - t0) * 1e-9);
  }
  std::printf("%s %d x %d x %d\topenblas core %s\topenblas %.1f GFLOP/s", shape.c_str(), m, n, k, openblas_get_corename(), median_of(ob));
  if (avx) std::printf("\tparacorp-avx512 %.1f GFLOP/s", median_of(pc));
  std::printf("\n");
  return 0;
}
