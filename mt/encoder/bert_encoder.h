// An imported BERT-family sentence encoder (config kind "bert"), run on the
// mt layers that translation uses: attention (mt/layers/attention.h), layer
// norm, the GELU feed-forward block.
//
// Forward pass (Hugging Face BertModel / XLMRobertaModel, inference):
// embeddings word + position + token type 0, LayerNorm; per layer x =
// LN(x + SelfAttention(x)), x = LN(x + FFN(x)); then pooling -- "cls":
// tanh(W_pool x[0] + b_pool), "mean": the mean of x over the tokens, [CLS]
// and [SEP] included (the attention mask of sentence-transformers' mean
// pooling) -- and L2 normalisation. Each sentence runs alone, so a vector
// does not depend on the other sentences of a call.
//
// An empty sentence is [CLS] [SEP] and gets that sequence's vector. A
// sentence is cut to the config's max_seq_length tokens (sentence-transformers'
// setting, kept by the import), else to what the position table allows
// (Hugging Face's truncation=True).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "align/encoder.h"
#include "libcorpus/core/safetensors.h"
#include "mt/encoder/bert_config.h"
#include "mt/encoder/bert_tokenizer.h"

namespace mt {

inline constexpr const char* kBertEncoderVersion = "1";

enum class BertPooling { kCls, kMean };
// "cls" or "mean"; anything else is a corpus::ConfigError.
BertPooling parse_bert_pooling(std::string_view name);
const char* bert_pooling_name(BertPooling p);

class BertEncoder final : public align::SentenceEncoder {
 public:
  // Maps a paracorp encoder file of kind "bert" and checks it; throws
  // corpus::Error naming the file.
  explicit BertEncoder(const std::string& path);
  ~BertEncoder() override;

  std::size_t dim() const override { return static_cast<std::size_t>(cfg_.hidden); }
  void encode(std::span<const std::string_view> sentences, Side side, std::span<float> out) const override;
  std::string describe() const override;

  // The ids the forward pass sees for `text` ([CLS] ... [SEP]).
  std::vector<int32_t> token_ids(std::string_view text) const;
  // The vector of a sequence of ids (what encode() runs on each sentence).
  void embed_ids(const std::vector<int32_t>& ids, float* out) const;

  const BertConfig& config() const { return cfg_; }
  BertPooling pooling() const { return pooling_; }

 private:
  struct Layer {
    const float *wq, *bq, *wk, *bk, *wv, *bv, *wo, *bo;
    const float *ln1_g, *ln1_b, *w1, *b1, *w2, *b2, *ln2_g, *ln2_b;
  };
  std::unique_ptr<corpus::safetensors::File> file_;
  BertConfig cfg_;
  BertPooling pooling_ = BertPooling::kCls;
  int max_tokens_ = 0;  // the cut: max_seq_length, else what the position table allows
  std::unique_ptr<BertTokenizer> tok_;
  const float *word_ = nullptr, *pos_ = nullptr, *type_ = nullptr, *emb_ln_g_ = nullptr, *emb_ln_b_ = nullptr;
  const float *pool_w_ = nullptr, *pool_b_ = nullptr;
  std::vector<Layer> layers_;
};

// The loader the tools call for an encoder file whose kind is "bert".
std::unique_ptr<align::SentenceEncoder> load_bert_encoder(const std::string& path);

}  // namespace mt
