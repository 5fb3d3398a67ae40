// The smallest Transformer the model-file tests write and read back.
#pragma once

#include "mt/model/config.h"

inline mt::Config small_config() {
  mt::Config cfg = mt::Config::from_preset("tiny");
  cfg.src_vocab = cfg.trg_vocab = 20;
  cfg.dim = 8, cfg.heads = 2, cfg.ffn_dim = 12, cfg.enc_layers = 1, cfg.dec_layers = 1;
  return cfg;
}
