// A tiny model trained in seconds for the decoding tests: sequences over
// symbols 4..15 of length 3..8, target = source reversed, stopped half-way
// (250 steps) so that greedy, beam and the parallel modes have work to do.
#pragma once

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "support/tmpdir.h"
#include "mt/model/model_file.h"
#include "mt/train/trainer.h"

namespace mt_test {

inline mt::Corpus reverse_task(size_t n, uint64_t seed) {
  std::mt19937_64 g(seed);
  mt::Corpus c;
  for (size_t i = 0; i < n; ++i) {
    std::vector<int32_t> s(3 + g() % 6);
    for (auto& x : s) x = 4 + static_cast<int32_t>(g() % 12);
    c.src.push_back(s);
    c.trg.emplace_back(s.rbegin(), s.rend());
  }
  return c;
}

// Trained once per build of the test binary and kept beside it
// (test-cache/reverse-SIZE-MTIME.safetensors, SIZE and MTIME the binary's):
// ctest runs every test case in a process of its own, and under
// AddressSanitizer the 250 steps take some 25 s, once per case without the
// file. Training is seeded and gives the same file at any thread count, so a
// cached file is the model a fresh run would train; it is written under a
// temporary name and renamed, so a test running beside it reads a whole one.
inline std::string reverse_model_cache() {
  namespace fs = std::filesystem;
  const fs::path exe = fs::read_symlink("/proc/self/exe");
  struct stat st {};
  if (::stat(exe.c_str(), &st) != 0) return {};
  fs::path dir = exe.parent_path() / "test-cache";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return {};
  return (dir / ("reverse-" + std::to_string(st.st_size) + "-" + std::to_string(st.st_mtime) + ".safetensors")).string();
}

inline void train_reverse_model(const std::string& path) {
  mt::Config cfg = mt::Config::from_preset("tiny");
  cfg.src_vocab = cfg.trg_vocab = 16;
  cfg.dim = 32, cfg.heads = 4, cfg.ffn_dim = 64, cfg.enc_layers = 1, cfg.dec_layers = 1, cfg.max_len = 16;
  mt::TrainOptions opt;
  opt.batch_tokens = 512;
  opt.lr = 2e-3;
  opt.warmup = 50;
  opt.dropout = 0.0f;
  opt.max_steps = 250;
  opt.valid_every = 0;
  opt.log_every = 1000;
  const mt::Corpus train = reverse_task(3000, 1);  // the trainer keeps references
  const mt::ValidSet valid;
  const mt::Vocabs vocabs;
  mt::Trainer tr(cfg, opt, train, valid, vocabs, [](const std::vector<int32_t>&) { return std::string(); }, path, {});
  tr.init_weights();
  tr.run({});
}

inline const mt::ModelFile& reverse_model() {
  static TmpDir tmp;
  static const mt::ModelFile model = [] {
    const std::string cache = reverse_model_cache();
    if (cache.empty()) {  // no folder to keep it in: train for this process
      train_reverse_model(tmp.path("rev.safetensors"));
      return mt::ModelFile(tmp.path("rev.safetensors"));
    }
    if (!std::filesystem::exists(cache)) {
      train_reverse_model(tmp.path("rev.safetensors"));
      const std::string part = cache + ".part-" + std::to_string(::getpid());
      std::filesystem::copy_file(tmp.path("rev.safetensors"), part, std::filesystem::copy_options::overwrite_existing);
      std::filesystem::rename(part, cache);
    }
    return mt::ModelFile(cache);
  }();
  return model;
}

}  // namespace mt_test
