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
#include "mt/decode/greedy.h"
#include "mt/model/model_file.h"
#include "mt/model/params.h"
#include "mt/model/transformer.h"
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

// The reverse model's settings with the variants it was not trained as:
// post-norm tied (pre = false) or pre-norm untied (true), separate
// vocabularies, 13 target symbols, Swish or GELU. Random weights go with it
// (init_params): for decoding tests where sentences often run to the limit.
inline mt::Config variant_config(bool pre) {
  mt::Config cfg = reverse_model().config();
  cfg.pre_norm = pre;
  cfg.tied_output = !pre;
  cfg.shared_embeddings = false;
  cfg.trg_vocab = 13;
  cfg.activation = pre ? mt::Activation::kGelu : mt::Activation::kSwish;
  return cfg;
}

// Seeded random weights for a config (init_params).
inline std::vector<float> random_params(const mt::Config& cfg, uint64_t seed) {
  mt::ModelOffsets off;
  const mt::ParamLayout layout = mt::make_layout(cfg, off);
  std::vector<float> p(static_cast<size_t>(layout.total()));
  mt::init_params(layout, p.data(), seed);
  return p;
}

// Under the sanitizers (ten times slower, and there for memory errors, not
// for the sweep) the exactness sweeps decode 20 sentences of the 300.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr int kSweep = 20;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr int kSweep = 20;
#else
inline constexpr int kSweep = 300;
#endif
#else
inline constexpr int kSweep = 300;
#endif

// Greedy decoding a sentence at a time (batch size 1), as the parallel
// modes decode: what they must give, pass for pass in `st`.
inline std::vector<std::vector<int32_t>> greedy_alone(const mt::Config& cfg, const float* params,
                                                      const std::vector<std::vector<int32_t>>& src,
                                                      std::vector<mt::SentenceStats>* st = nullptr) {
  mt::DecodeOptions one;
  one.batch_size = 1;
  return mt::greedy_translate(cfg, params, src, one, st);
}

// Tokens (EOS included) a decoder pass over a set of sentences.
inline double tokens_per_pass(const std::vector<mt::SentenceStats>& st) {
  double tokens = 0, passes = 0;
  for (const auto& s : st) tokens += s.tokens, passes += s.passes;
  return tokens / passes;
}

}  // namespace mt_test
