// The architecture of an encoder-decoder Transformer, stored as JSON in the
// model file's __metadata__ ("config").
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "mt/layers/ffn.h"

namespace mt {

// Upper bounds for a model file's config (far above any model trained here),
// so that a damaged number is refused before anything is sized by it.
inline constexpr int kMaxVocab = 1 << 24;
inline constexpr int kMaxDim = 1 << 16;
inline constexpr int kMaxFfnDim = 1 << 18;
inline constexpr int kMaxLayers = 1024;
inline constexpr int kMaxLen = 1 << 16;

// The sinusoid added to embeddings: both put sin in the first half of the
// channels and cos in the second; kStandard's frequencies are
// 1/10000^(2i/dim) (Vaswani et al.), kMarian's exp(-i ln(10000)/(dim/2 - 1))
// (Marian, tensor2tensor), which models imported from Marian need.
enum class Positions { kStandard, kMarian };

struct Config {
  int src_vocab = 0;                // source vocabulary size
  int trg_vocab = 0;                // target vocabulary size
  bool shared_embeddings = true;    // one embedding matrix for source and target (joint vocabulary)
  bool tied_output = true;          // output projection = target embeddings^T (plus a bias)
  int dim = 512;                    // model channels C
  int heads = 8;                    // attention heads H (dim % heads == 0)
  int ffn_dim = 2048;               // feed-forward hidden channels F
  int enc_layers = 6;               // encoder layers
  int dec_layers = 6;               // decoder layers
  Activation activation = Activation::kRelu;
  bool pre_norm = false;            // false: Marian's post-norm ("dan"); true: pre-norm plus a final norm
  double ln_eps = 1e-6;             // layer-norm epsilon
  Positions positions = Positions::kStandard;  // "positions" in the JSON, written only when kMarian
  int max_len = 256;                // tokens per sentence, EOS included
  int pad_id = 0, unk_id = 1, bos_id = 2, eos_id = 3;
  std::string preset;               // the preset it was made from ("base", "small", "tiny"), informational

  nlohmann::ordered_json to_json() const;
  // Throws corpus::Error naming the key for a value missing, of the wrong
  // type or out of range (a model file is data: never a ConfigError).
  static Config from_json(const nlohmann::json& j);
  // "base" (Marian transformer-base: 512/8/2048, 6+6, relu, post-norm,
  // tied), "small" (256/4/1024, 3+3) and "tiny" (128/4/512, 2+2).
  static Config from_preset(const std::string& name);  // throws corpus::ConfigError
  // Throws corpus::Error when the numbers do not fit together.
  void validate() const;
};

}  // namespace mt
