// A small pc-nmt model file for tests: random weights (seeded) and a joint
// SentencePiece model of 40 pieces trained on ten English words.
#pragma once

#include <string>
#include <vector>

#include "mt/model/model_file.h"
#include "mt/model/params.h"
#include "mt/model/transformer.h"
#include "mt/spm/spm.h"
#include "support/tmpdir.h"

namespace mt::test {

inline const std::string& tiny_spm_model() {
  static const std::string model = [] {
    std::vector<std::string> sents;
    const char* words[] = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "red", "cat"};
    for (int i = 0; i < 300; ++i) {
      std::string s;
      for (int w = 0; w < 6; ++w) s.append(words[(i * 7 + w * 3) % 10]).append(" ");
      sents.push_back(s);
    }
    SpmTrainOptions o;
    o.vocab_size = 40;
    return train_spm(sents, o);
  }();
  return model;
}

// Writes the model as DIR/m.safetensors and returns its path.
inline std::string write_tiny_model(const TmpDir& d, uint64_t seed = 5) {
  Config cfg = Config::from_preset("tiny");
  cfg.src_vocab = cfg.trg_vocab = Tokenizer(tiny_spm_model()).vocab_size();
  cfg.dim = 8, cfg.heads = 2, cfg.ffn_dim = 12, cfg.enc_layers = 1, cfg.dec_layers = 1, cfg.max_len = 24;
  ModelOffsets off;
  const ParamLayout layout = make_layout(cfg, off);
  std::vector<float> p(static_cast<size_t>(layout.total()));
  init_params(layout, p.data(), seed);
  const Vocabs vocabs{tiny_spm_model(), "", ""};
  ModelWrite w;
  w.config = &cfg;
  w.layout = &layout;
  w.params = p.data();
  w.vocabs = &vocabs;
  w.metadata["trained_steps"] = "3";
  const std::string path = d.path("m.safetensors");
  save_model(path, w);
  return path;
}

}  // namespace mt::test
