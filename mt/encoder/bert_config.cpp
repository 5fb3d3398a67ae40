#include "mt/encoder/bert_config.h"

#include <fstream>
#include <sstream>

#include "libcorpus/core/error.h"

namespace mt {

namespace {

int get_int(const nlohmann::json& j, const char* key, const std::string& file, int lo, int fallback = -1) {
  if (!j.contains(key)) {
    if (fallback >= 0) return fallback;
    throw corpus::Error(std::string("the config has no \"") + key + "\"",
                        "give the folder of a Hugging Face BERT-family model")
        .at(file);
  }
  const auto& v = j[key];
  if (!v.is_number_integer() || v.get<int64_t>() < lo || v.get<int64_t>() > (int64_t{1} << 30))
    throw corpus::Error(std::string("config \"") + key + "\" is " + corpus::quote(v.dump()) +
                        ", not an integer >= " + std::to_string(lo))
        .at(file);
  return v.get<int>();
}

}  // namespace

Activation BertConfig::activation() const {
  // Hugging Face's "gelu" is the exact erf form, as mt's kGelu.
  if (hidden_act == "gelu") return Activation::kGelu;
  if (hidden_act == "relu") return Activation::kRelu;
  return Activation::kSwish;  // "silu" / "swish", the only others bert_config_from_json lets through
}

BertConfig bert_config_from_json(const nlohmann::json& j, const std::string& file) {
  if (!j.is_object()) throw corpus::Error("the config is not a JSON object").at(file);
  BertConfig c;
  if (!j.contains("model_type") || !j["model_type"].is_string())
    throw corpus::Error("the config has no \"model_type\"", "give the folder of a Hugging Face BERT-family model")
        .at(file);
  c.model_type = j["model_type"].get<std::string>();
  if (c.model_type != "bert" && c.model_type != "xlm-roberta")
    throw corpus::Error("model_type " + corpus::quote(c.model_type) + " is not a BERT-family encoder",
                        "pc-embed import reads model_type bert or xlm-roberta")
        .at(file);
  c.vocab_size = get_int(j, "vocab_size", file, 1);
  c.hidden = get_int(j, "hidden_size", file, 1);
  c.layers = get_int(j, "num_hidden_layers", file, 1);
  c.heads = get_int(j, "num_attention_heads", file, 1);
  c.ffn = get_int(j, "intermediate_size", file, 1);
  c.max_positions = get_int(j, "max_position_embeddings", file, 1);
  c.type_vocab = get_int(j, "type_vocab_size", file, 1, 2);
  c.pad_id = get_int(j, "pad_token_id", file, 0, c.model_type == "bert" ? 0 : 1);
  if (j.contains("hidden_act")) {
    if (!j["hidden_act"].is_string()) throw corpus::Error("config \"hidden_act\" is not a string").at(file);
    c.hidden_act = j["hidden_act"].get<std::string>();
  }
  if (c.hidden_act == "swish") c.hidden_act = "silu";
  if (c.hidden_act != "gelu" && c.hidden_act != "relu" && c.hidden_act != "silu")
    throw corpus::Error("hidden_act " + corpus::quote(c.hidden_act) + " is not one the mt layers have",
                        "the encoder runs gelu (erf form), relu or silu")
        .at(file);
  if (j.contains("layer_norm_eps")) {
    if (!j["layer_norm_eps"].is_number() || !(j["layer_norm_eps"].get<double>() > 0))
      throw corpus::Error("config \"layer_norm_eps\" is not a positive number").at(file);
    c.layer_norm_eps = j["layer_norm_eps"].get<double>();
  }
  if (c.hidden % c.heads != 0)
    throw corpus::Error("hidden_size " + std::to_string(c.hidden) + " is not a multiple of num_attention_heads " +
                        std::to_string(c.heads))
        .at(file);
  if (j.contains("position_embedding_type") && j["position_embedding_type"] != "absolute")
    throw corpus::Error(
        "position_embedding_type " + corpus::quote(j["position_embedding_type"].dump()) + " is not supported",
        "the encoder has absolute position embeddings only")
        .at(file);
  // RoBERTa's position ids are pad_token_id + 1 + t (create_position_ids_from_input_ids).
  c.position_offset = c.model_type == "xlm-roberta" ? c.pad_id + 1 : 0;
  if (c.max_tokens() < 2)
    throw corpus::Error("max_position_embeddings " + std::to_string(c.max_positions) + " leaves no room for a sentence")
        .at(file);
  return c;
}

BertConfig read_hf_config(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw corpus::Error("cannot open config: " + corpus::errno_text(errno),
                        "give the folder of a Hugging Face model (config.json, model.safetensors, tokenizer)")
        .at(path);
  std::stringstream ss;
  ss << in.rdbuf();
  const auto j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (j.is_discarded()) throw corpus::Error("not valid JSON").at(path);
  return bert_config_from_json(j, path);
}

nlohmann::json bert_config_to_json(const BertConfig& c) {
  return {{"model_type", c.model_type},      {"vocab_size", c.vocab_size},
          {"hidden_size", c.hidden},         {"num_hidden_layers", c.layers},
          {"num_attention_heads", c.heads},  {"intermediate_size", c.ffn},
          {"hidden_act", c.hidden_act},      {"max_position_embeddings", c.max_positions},
          {"type_vocab_size", c.type_vocab}, {"layer_norm_eps", c.layer_norm_eps},
          {"pad_token_id", c.pad_id}};
}

}  // namespace mt

namespace mt {

std::vector<BertTensor> bert_tensors(const BertConfig& c, bool with_pooler) {
  const uint64_t C = c.hidden, F = c.ffn;
  std::vector<BertTensor> t = {{"embeddings.word_embeddings.weight", {uint64_t(c.vocab_size), C}},
                               {"embeddings.position_embeddings.weight", {uint64_t(c.max_positions), C}},
                               {"embeddings.token_type_embeddings.weight", {uint64_t(c.type_vocab), C}},
                               {"embeddings.LayerNorm.weight", {C}},
                               {"embeddings.LayerNorm.bias", {C}}};
  for (int l = 0; l < c.layers; ++l) {
    const std::string p = "encoder.layer." + std::to_string(l) + ".";
    for (const char* n :
         {"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"}) {
      t.push_back({p + n + ".weight", {C, C}});
      t.push_back({p + n + ".bias", {C}});
    }
    t.push_back({p + "attention.output.LayerNorm.weight", {C}});
    t.push_back({p + "attention.output.LayerNorm.bias", {C}});
    t.push_back({p + "intermediate.dense.weight", {F, C}});
    t.push_back({p + "intermediate.dense.bias", {F}});
    t.push_back({p + "output.dense.weight", {C, F}});
    t.push_back({p + "output.dense.bias", {C}});
    t.push_back({p + "output.LayerNorm.weight", {C}});
    t.push_back({p + "output.LayerNorm.bias", {C}});
  }
  if (with_pooler) {
    t.push_back({"pooler.dense.weight", {C, C}});
    t.push_back({"pooler.dense.bias", {C}});
  }
  return t;
}

}  // namespace mt
