// Training throughput of the mt engine on synthetic batches of a fixed shape,
// for bench/bench-nmt.sh: B sentences of T-1 random tokens (source and
// target), so every batch is exactly B x T tokens on each side, trained
// through mt::Trainer (AdamW, dropout 0.1, label smoothing 0.1, gradient
// clipping at 1) with SHARDS gradient shards (pc-nmt train's default 4, so
// -j1 and -j2 train the same model).
//   bench_nmt_train ARCH B T VOCAB STEPS THREADS [WARMUP [SHARDS]]
// ARCH is a preset (tiny, small, base) or DIM/HEADS/FFN/LAYERS (encoder and
// decoder layers alike), e.g. 512/8/2048/3.
// Times only the STEPS steps after WARMUP untimed ones (default 2), from
// inside the loop: the clock starts when warm-up step WARMUP ends and stops
// when the last step ends (no start-up, no data set-up, no final save).
// Prints to stdout:
//   <target tokens/s> target tokens/s (STEPS steps of B x T after WARMUP, S s, CPU C s)
//   weights <hash of the final weights' bits>
// and to stderr the BLAS (with BENCH_NMT_LOSS set, every step's loss), and the timed loop's CLOCK_MONOTONIC interval (for
// perf record -k CLOCK_MONOTONIC, then perf report --time T0,T1).
#include <oneapi/tbb/global_control.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

#include "libcorpus/core/hash_mix.h"
#include "mt/tensor/tensor.h"
#include "mt/train/trainer.h"

namespace {

mt::Config arch_config(const std::string& arch) {
  int dim = 0, heads = 0, ffn = 0, layers = 0;
  if (std::sscanf(arch.c_str(), "%d/%d/%d/%d", &dim, &heads, &ffn, &layers) == 4) {
    mt::Config c;
    c.dim = dim, c.heads = heads, c.ffn_dim = ffn, c.enc_layers = c.dec_layers = layers;
    c.preset = arch;
    return c;
  }
  return mt::Config::from_preset(arch);
}

double cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7 || argc > 9) {
    std::fprintf(stderr, "usage: bench_nmt_train ARCH B T VOCAB STEPS THREADS [WARMUP [SHARDS]]\n");
    return 2;
  }
  const std::string arch = argv[1];
  const int B = std::atoi(argv[2]), T = std::atoi(argv[3]), V = std::atoi(argv[4]), steps = std::atoi(argv[5]),
            threads = std::atoi(argv[6]), warmup = argc > 7 ? std::atoi(argv[7]) : 2,
            shards = argc > 8 ? std::atoi(argv[8]) : 4;
  if (B < 1 || T < 2 || V < 8 || steps < 1 || threads < 1 || warmup < 0 || shards < 1) {
    std::fprintf(stderr, "bench_nmt_train: B >= 1, T >= 2, VOCAB >= 8, STEPS >= 1, THREADS >= 1, SHARDS >= 1\n");
    return 2;
  }
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism, threads);
  mt::Config cfg = arch_config(arch);
  cfg.src_vocab = cfg.trg_vocab = V;
  cfg.max_len = T + 1;
  mt::Corpus data;
  for (int i = 0; i < B * 64; ++i) {
    std::vector<int32_t> s(T - 1), t(T - 1);
    for (int j = 0; j < T - 1; ++j) {
      s[j] = 4 + static_cast<int32_t>(corpus::mix64(static_cast<uint64_t>(i) * 1000 + j) % (V - 4));
      t[j] = 4 + static_cast<int32_t>(corpus::mix64(static_cast<uint64_t>(i) * 1000 + j + 500) % (V - 4));
    }
    data.src.push_back(s);
    data.trg.push_back(t);
  }
  mt::TrainOptions opt;
  opt.batch_tokens = static_cast<int64_t>(B) * T;
  opt.grad_shards = shards;
  opt.max_steps = warmup + steps;
  opt.valid_every = 0;
  opt.log_every = 0;
  opt.warmup = 10;
  mt::ValidSet valid;
  mt::Vocabs vocabs;
  const std::string path =
      (std::filesystem::temp_directory_path() / ("bench-nmt-" + std::to_string(::getpid()) + ".safetensors")).string();
  mt::Trainer tr(cfg, opt, data, valid, vocabs, [](const std::vector<int32_t>&) { return std::string(); }, path, {});
  tr.init_weights();
  using clock = std::chrono::steady_clock;
  clock::time_point t0 = clock::now(), t1 = t0;
  double c0 = cpu_seconds(), c1 = c0;
  int64_t tok0 = 0, tok1 = 0;
  mt::Trainer::Hooks hooks;
  const bool print_loss = std::getenv("BENCH_NMT_LOSS") != nullptr;
  hooks.progress = [&](const mt::TrainState& st, double loss, double) {
    if (print_loss) std::fprintf(stderr, "step %lld loss %.9g\n", static_cast<long long>(st.step), loss);
    if (st.step == warmup) t0 = clock::now(), c0 = cpu_seconds(), tok0 = st.target_tokens;
    if (st.step == warmup + steps) t1 = clock::now(), c1 = cpu_seconds(), tok1 = st.target_tokens;
  };
  tr.run(hooks);
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".ckpt");
  const double s = std::chrono::duration<double>(t1 - t0).count();
  std::printf("%.1f target tokens/s (%d steps of %d x %d after %d, %.2f s, CPU %.2f s)\n",
              static_cast<double>(tok1 - tok0) / s, steps, B, T, warmup, s, c1 - c0);
  uint64_t h = 0;
  for (float w : tr.params()) {
    uint32_t bits;
    std::memcpy(&bits, &w, sizeof(bits));
    h = corpus::mix64(h ^ bits);
  }
  std::printf("weights %016" PRIx64 "\n", h);
  std::fprintf(stderr, "engine: products by %s; %s; %d threads, %d gradient shards\n", mt::gemm_backend_name(),
               mt::blas_info(), threads, shards);
  // For perf record -k CLOCK_MONOTONIC ... ; perf report --time T0,T1 (steady_clock is CLOCK_MONOTONIC).
  std::fprintf(stderr, "timed loop: CLOCK_MONOTONIC %.6f,%.6f\n", std::chrono::duration<double>(t0.time_since_epoch()).count(),
               std::chrono::duration<double>(t1.time_since_epoch()).count());
  return 0;
}
