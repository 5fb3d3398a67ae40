// The architecture of a BERT-family encoder, as Hugging Face's config.json
// gives it, and the same fields inside a paracorp encoder file's config.
//
// Two model types: "bert" (BertModel: LaBSE, multilingual MiniLM, E5-small)
// and "xlm-roberta" (XLMRobertaModel: E5-base/large), which differ in where
// positions start: RoBERTa counts them from pad_token_id + 1.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mt/layers/ffn.h"

namespace mt {

struct BertConfig {
  std::string model_type;  // "bert" or "xlm-roberta"
  int vocab_size = 0;
  int hidden = 0;
  int layers = 0;
  int heads = 0;
  int ffn = 0;  // intermediate_size
  std::string hidden_act = "gelu";
  int max_positions = 0;  // rows of the position table
  int type_vocab = 0;
  double layer_norm_eps = 1e-12;
  int pad_id = 0;
  int position_offset = 0;  // first row of the position table a sentence uses

  Activation activation() const;
  // Tokens of the longest input, [CLS] and [SEP] included.
  int max_tokens() const { return max_positions - position_offset; }
};

// Reads the Hugging Face fields of `j`; a missing or out-of-range field, an
// unknown model_type or an activation the mt layers lack is a corpus::Error
// naming `file`.
BertConfig bert_config_from_json(const nlohmann::json& j, const std::string& file);

// Reads and checks a config.json.
BertConfig read_hf_config(const std::string& path);

// The fields under their Hugging Face names (what bert_config_from_json reads).
nlohmann::json bert_config_to_json(const BertConfig& c);

}  // namespace mt

namespace mt {

// The weights of a BERT encoder under their Hugging Face names (without the
// "bert." / "roberta." prefix) with the shapes `c` implies; the pooler's
// dense layer only `with_pooler`.
struct BertTensor {
  std::string name;
  std::vector<uint64_t> shape;
};
std::vector<BertTensor> bert_tensors(const BertConfig& c, bool with_pooler);

}  // namespace mt
