// A tiny model trained in seconds for the decoding tests: sequences over
// symbols 4..15 of length 3..8, target = source reversed, stopped half-way
// (250 steps) so that greedy, beam and the parallel modes have work to do.
#pragma once

#include <random>
#include <string>
#include <vector>

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

// Trained once per test binary.
inline const mt::ModelFile& reverse_model() {
  static TmpDir tmp;
  static const mt::ModelFile model = [] {
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
    mt::Trainer tr(cfg, opt, train, valid, vocabs, [](const std::vector<int32_t>&) { return std::string(); },
                   tmp.path("rev.safetensors"), {});
    tr.init_weights();
    tr.run({});
    return mt::ModelFile(tmp.path("rev.safetensors"));
  }();
  return model;
}

}  // namespace mt_test
