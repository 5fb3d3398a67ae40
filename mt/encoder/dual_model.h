// The neural sentence encoder that pc-embed trains (config kind "neural"): a
// Transformer encoder shared by both languages over one joint SentencePiece
// vocabulary, its token states mean-pooled into the sentence vector (L2
// normalisation follows, in the loss and in NeuralEncoder). Built from the
// translation engine's layers (mt/layers/: embedding with sinusoidal
// positions, attention, feed-forward, layer norm, the residual sublayer), so
// there is one implementation of each; the wiring is the NMT encoder's.
//
// A sentence is its pieces then EOS; N sentences run as one padded batch
// [N*S, C] with key padding masked, and the mean is over the sentence's own
// positions, so a row does not depend on the others (in exact arithmetic;
// NeuralEncoder runs each sentence alone, so its bits do not either).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mt/layers/attention.h"
#include "mt/layers/ffn.h"
#include "mt/layers/residual.h"
#include "mt/model/params.h"
#include "mt/model/transformer.h"

namespace mt {

inline constexpr const char* kNeuralKind = "neural";
inline constexpr const char* kNeuralVersion = "1";

struct NeuralConfig {
  int vocab = 0;          // joint SentencePiece vocabulary
  int dim = 256;          // C
  int heads = 4;          // H
  int ffn_dim = 1024;     // F
  int layers = 2;
  int max_len = 64;       // pieces per sentence, EOS included; longer sentences are cut
  Activation activation = Activation::kGelu;
  bool pre_norm = true;   // pre-norm plus a final norm (stable without a long warm-up)
  double ln_eps = 1e-6;
  int pad_id = 0, eos_id = 3;

  // With "kind": "neural" and "pooling": "mean".
  nlohmann::ordered_json to_json() const;
  // Throws corpus::Error naming the key for a missing or out-of-range value.
  static NeuralConfig from_json(const nlohmann::json& j);
  // Throws corpus::Error when the numbers do not fit together.
  void validate() const;
};

struct DualOffsets {
  int64_t emb = 0;
  std::vector<EncLayerOffsets> layers;
  NormOffsets final_ln{-1, -1};
};

// "emb", "enc.L.self.wq" ... "enc.L.ffn_ln.b", "enc.final_ln.g/b" (pre-norm).
ParamLayout make_dual_layout(const NeuralConfig& cfg, DualOffsets& off);

template <class T>
class DualModel {
 public:
  explicit DualModel(const NeuralConfig& cfg);
  const NeuralConfig& config() const { return cfg_; }
  const ParamLayout& layout() const { return layout_; }

  // pooled [N, C] = mean over each sentence's positions of the top states
  // (not normalised). Sequences hold pieces without EOS, at most max_len - 1
  // and at least 0. Dropout masks come from `seed`.
  void forward(const T* params, const std::vector<const std::vector<int32_t>*>& seqs, T* pooled, float dropout = 0,
               uint64_t seed = 0);
  // After forward: adds d(loss)/d(params) to grads, given d(loss)/d(pooled).
  void backward(const T* params, T* grads, const T* dpooled);

 private:
  NeuralConfig cfg_;
  DualOffsets off_;
  ParamLayout layout_;
  ResidualSettings rs_;
  int N_ = 0, S_ = 0;
  std::vector<int32_t> tok_, pos_, len_;
  std::vector<T> emb_, top_, out_, mean_, rstd_;
  std::vector<uint8_t> emb_mask_;
  std::vector<Residual<T>> self_, ffn_;
  std::vector<AttnCache<T>> attn_;
  std::vector<FfnCache<T>> ffn_cache_;
};

}  // namespace mt
