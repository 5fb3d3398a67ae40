// Few-row products (decoding): what an m-row x W^T costs against a 1-row one,
// for the weight shapes of a Transformer, with mt::gemm_nt (the
// weights-streamed kernel) and OpenBLAS sgemm side by side in one run.
// DESIGN §8: a b-token decoder pass must cost little more than a 1-token
// pass, so a 4-row product should cost well under 2x a 1-row one.
//   bench_gemm_few_rows [REPEAT]
// Prints, per shape and m, the median time per product over REPEAT rounds;
// each round times every (shape, m, kernel) once, interleaved.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "mt/tensor/tensor.h"

namespace {

struct Shape {
  const char* name;
  int n, k;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int repeat = argc > 1 ? std::atoi(argv[1]) : 15;
  mt::use_single_threaded_blas();
  const Shape shapes[] = {{"attention 512x512", 512, 512},
                          {"ffn up 2048x512", 2048, 512},
                          {"ffn down 512x2048", 512, 2048},
                          {"output 8000x512", 8000, 512}};
  const int ms[] = {1, 2, 4, 8};
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  // times[shape][m][kernel]
  std::vector<std::vector<std::vector<std::vector<double>>>> times(
      std::size(shapes), std::vector<std::vector<std::vector<double>>>(std::size(ms), std::vector<std::vector<double>>(2)));
  std::vector<std::vector<float>> w(std::size(shapes));
  for (size_t s = 0; s < std::size(shapes); ++s) {
    w[s].resize(static_cast<size_t>(shapes[s].n) * shapes[s].k);
    for (float& x : w[s]) x = u(rng);
  }
  std::vector<float> a(8 * 2048), c(8 * 8000);
  for (float& x : a) x = u(rng);
  using clock = std::chrono::steady_clock;
  for (int r = 0; r < repeat; ++r)
    for (size_t s = 0; s < std::size(shapes); ++s)
      for (size_t mi = 0; mi < std::size(ms); ++mi)
        for (int kernel = 0; kernel < 2; ++kernel) {
          const int m = ms[mi], n = shapes[s].n, k = shapes[s].k;
          // Enough products per timing for ~1 ms, the same count for every m.
          const int calls = std::max(1, 400000 / (n * k / 1000 + 1));
          auto t0 = clock::now();
          for (int i = 0; i < calls; ++i) {
            if (kernel == 0)
              mt::gemm_nt<float>(a.data(), w[s].data(), c.data(), m, n, k, false);
            else
              cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, a.data(), k, w[s].data(), k, 0.0f,
                          c.data(), n);
          }
          times[s][mi][kernel].push_back(std::chrono::duration<double>(clock::now() - t0).count() / calls);
        }
  std::printf("few-row products C[m,n] = A[m,k] W[n,k]^T, float, 1 thread; median of %d rounds; %s\n", repeat,
              mt::blas_info());
  std::printf("%-20s %3s %14s %10s %14s %10s\n", "shape", "m", "gemm_nt us", "vs m=1", "sgemm us", "vs m=1");
  for (size_t s = 0; s < std::size(shapes); ++s)
    for (size_t mi = 0; mi < std::size(ms); ++mi) {
      double g = median(times[s][mi][0]) * 1e6, b = median(times[s][mi][1]) * 1e6;
      double g1 = median(times[s][0][0]) * 1e6, b1 = median(times[s][0][1]) * 1e6;
      std::printf("%-20s %3d %14.2f %9.2fx %14.2f %9.2fx\n", shapes[s].name, ms[mi], g, g / g1, b, b / b1);
    }
  return 0;
}
