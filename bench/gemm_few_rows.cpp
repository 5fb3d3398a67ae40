// Few-row products (decoding): what an m-row x W^T costs against a 1-row one,
// for the weight shapes of a Transformer, with mt::gemm_nt (the
// weights-streamed kernel: the AVX-512 one where the CPU has AVX-512), the
// portable few-row kernel and OpenBLAS sgemm side by side in one run.
// DESIGN §8: a b-token decoder pass must cost little more than a 1-token
// pass, so a 4-row product should cost well under 2x a 1-row one.
// Two ways to feed the weights:
//   hot       the same matrix every call (it stays in L2/L3: compute-bound);
//   streamed  a different copy each call, 128 MB of copies per shape, as in
//             decoding, where one step reads every layer's weights once.
//   bench_gemm_few_rows [REPEAT]
// Prints, per mode, shape and m, the median time per product over REPEAT
// rounds; each round times every (mode, shape, m, kernel) once, interleaved.
// Times are the thread's CPU time: on a shared machine the time given to
// other processes is not counted (what they do to the caches is).
#include <cblas.h>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench/thread_time.h"
#include "mt/tensor/tensor.h"

namespace {

struct Shape {
  const char* name;
  int n, k;
};

}  // namespace

int main(int argc, char** argv) {
  const int repeat = argc > 1 ? std::atoi(argv[1]) : 15;
  mt::use_single_threaded_blas();
  const Shape shapes[] = {{"attention 512x512", 512, 512},
                          {"ffn up 2048x512", 2048, 512},
                          {"ffn down 512x2048", 512, 2048},
                          {"output 8000x512", 8000, 512}};
  const int ms[] = {1, 2, 4, 8, 16};
  const char* modes[] = {"hot", "streamed"};
  // gemm_nt: what decoding runs (the AVX-512 kernel where the CPU has it,
  // else the portable one); portable: few_rows_nt_portable; sgemm: OpenBLAS
  const char* kernels[] = {"gemm_nt", "portable", "sgemm"};
  constexpr size_t kStreamBytes = size_t{128} << 20;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  // w[shape]: copies of the matrix, enough for kStreamBytes (the hot mode uses copy 0)
  std::vector<std::vector<std::vector<float>>> w(std::size(shapes));
  for (size_t s = 0; s < std::size(shapes); ++s) {
    const size_t size = static_cast<size_t>(shapes[s].n) * shapes[s].k;
    w[s].assign(std::max<size_t>(2, kStreamBytes / (size * sizeof(float))), std::vector<float>(size));
    for (float& x : w[s][0]) x = u(rng);
    for (size_t i = 1; i < w[s].size(); ++i) w[s][i] = w[s][0];
  }
  std::vector<float> a(16 * 2048), c(16 * 8000);
  for (float& x : a) x = u(rng);
  // times[mode][shape][m][kernel]
  auto idx = [&](size_t mode, size_t s, size_t mi, size_t kn) {
    return ((mode * std::size(shapes) + s) * std::size(ms) + mi) * std::size(kernels) + kn;
  };
  std::vector<std::vector<double>> times(std::size(modes) * std::size(shapes) * std::size(ms) * std::size(kernels));
  size_t next_copy = 0;
  for (int r = 0; r < repeat; ++r)
    for (size_t mode = 0; mode < std::size(modes); ++mode)
      for (size_t s = 0; s < std::size(shapes); ++s)
        for (size_t mi = 0; mi < std::size(ms); ++mi)
          for (size_t kn = 0; kn < std::size(kernels); ++kn) {
            const int m = ms[mi], n = shapes[s].n, k = shapes[s].k;
            // Enough products per timing for ~1 ms, the same count for every m.
            const int calls = std::max(1, 400000 / (n * k / 1000 + 1));
            const double t0 = thread_cpu_seconds();
            for (int i = 0; i < calls; ++i) {
              const float* wm = w[s][mode == 0 ? 0 : next_copy++ % w[s].size()].data();
              if (kn == 0)
                mt::gemm_nt<float>(a.data(), wm, c.data(), m, n, k, false);
              else if (kn == 1)
                mt::few_rows_nt_portable(a.data(), wm, c.data(), m, n, k, false);
              else
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, a.data(), k, wm, k, 0.0f,
                            c.data(), n);
            }
            times[idx(mode, s, mi, kn)].push_back((thread_cpu_seconds() - t0) / calls);
          }
  std::printf("few-row products C[m,n] = A[m,k] W[n,k]^T, float, 1 thread, thread CPU time; median of %d rounds; gemm_nt: %s; %s\n", repeat, mt::gemm_backend_name(),
              mt::blas_info());
  std::printf("%-9s %-20s %3s", "weights", "shape", "m");
  for (const char* kn : kernels) std::printf(" %12s us %7s", kn, "vs m=1");
  std::printf("\n");
  for (size_t mode = 0; mode < std::size(modes); ++mode)
    for (size_t s = 0; s < std::size(shapes); ++s)
      for (size_t mi = 0; mi < std::size(ms); ++mi) {
        std::printf("%-9s %-20s %3d", modes[mode], shapes[s].name, ms[mi]);
        for (size_t kn = 0; kn < std::size(kernels); ++kn) {
          double t = median_of(times[idx(mode, s, mi, kn)]) * 1e6, t1 = median_of(times[idx(mode, s, 0, kn)]) * 1e6;
          std::printf(" %15.2f %6.2fx", t, t / t1);
        }
        std::printf("\n");
      }
  return 0;
}
