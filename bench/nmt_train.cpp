// Training throughput of the mt engine on synthetic batches of a fixed shape,
// for bench/bench-nmt.sh: B sentences of T-1 random tokens (source and
// target), so every batch is exactly B x T tokens on each side, trained for
// STEPS steps through mt::Trainer (AdamW, dropout 0.1, label smoothing 0.1).
//   bench_nmt_train ARCH B T VOCAB STEPS THREADS
// Prints target tokens per second of the training loop to stdout.
#include <oneapi/tbb/global_control.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "libcorpus/core/hash_mix.h"
#include "mt/train/trainer.h"

int main(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: bench_nmt_train ARCH B T VOCAB STEPS THREADS\n");
    return 2;
  }
  const std::string arch = argv[1];
  const int B = std::atoi(argv[2]), T = std::atoi(argv[3]), V = std::atoi(argv[4]), steps = std::atoi(argv[5]),
            threads = std::atoi(argv[6]);
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism, threads);
  mt::Config cfg = mt::Config::from_preset(arch);
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
  opt.grad_shards = threads;
  opt.max_steps = steps;
  opt.valid_every = 0;
  opt.log_every = 0;
  opt.warmup = 10;
  mt::ValidSet valid;
  mt::Vocabs vocabs;
  const std::string path =
      (std::filesystem::temp_directory_path() / ("bench-nmt-" + std::to_string(::getpid()) + ".safetensors")).string();
  mt::Trainer tr(cfg, opt, data, valid, vocabs, [](const std::vector<int32_t>&) { return std::string(); }, path, {});
  tr.init_weights();
  const auto t0 = std::chrono::steady_clock::now();
  tr.run({});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::filesystem::remove(path);
  std::filesystem::remove(path + ".ckpt");
  std::printf("%.1f target tokens/s (%d steps of %d x %d, %.2f s)\n", static_cast<double>(tr.state().target_tokens) / s,
              steps, B, T, s);
  return 0;
}
