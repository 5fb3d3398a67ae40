#include "mt/model/config.h"

#include <fmt/format.h>

#include "libcorpus/core/error.h"
#include "mt/model/config_fields.h"

namespace mt {

nlohmann::ordered_json Config::to_json() const {
  nlohmann::ordered_json j;
  j["src_vocab"] = src_vocab;
  j["trg_vocab"] = trg_vocab;
  j["shared_embeddings"] = shared_embeddings;
  j["tied_output"] = tied_output;
  j["dim"] = dim;
  j["heads"] = heads;
  j["ffn_dim"] = ffn_dim;
  j["enc_layers"] = enc_layers;
  j["dec_layers"] = dec_layers;
  j["activation"] = activation_name(activation);
  j["norm"] = pre_norm ? "pre" : "post";
  j["ln_eps"] = ln_eps;
  if (positions == Positions::kMarian) j["positions"] = "marian";  // absent: standard, as files before the key
  j["max_len"] = max_len;
  j["pad_id"] = pad_id;
  j["unk_id"] = unk_id;
  j["bos_id"] = bos_id;
  j["eos_id"] = eos_id;
  j["preset"] = preset;
  return j;
}

Config Config::from_json(const nlohmann::json& j) {
  const ConfigFields f(j, "model config");
  Config c;
  c.src_vocab = f.int_field("src_vocab", 5, kMaxVocab);
  c.trg_vocab = f.int_field("trg_vocab", 5, kMaxVocab);
  c.shared_embeddings = f.bool_field("shared_embeddings");
  c.tied_output = f.bool_field("tied_output");
  c.dim = f.int_field("dim", 2, kMaxDim);
  c.heads = f.int_field("heads", 1, kMaxDim);
  c.ffn_dim = f.int_field("ffn_dim", 1, kMaxFfnDim);
  c.enc_layers = f.int_field("enc_layers", 1, kMaxLayers);
  c.dec_layers = f.int_field("dec_layers", 1, kMaxLayers);
  const std::string act = f.string_field("activation", "relu, swish or gelu");
  if (act != "relu" && act != "swish" && act != "gelu") f.bad_key("activation", act, "relu, swish or gelu");
  c.activation = parse_activation(act);
  const std::string norm = f.string_field("norm", "pre or post");
  if (norm != "pre" && norm != "post") f.bad_key("norm", norm, "pre or post");
  c.pre_norm = norm == "pre";
  const nlohmann::json& eps = f.field("ln_eps");
  if (!eps.is_number() || !(eps.get<double>() > 0 && eps.get<double>() < 1)) f.bad_key("ln_eps", eps, "a number between 0 and 1");
  c.ln_eps = eps.get<double>();
  if (j.contains("positions")) {
    const std::string pos = f.string_field("positions", "standard or marian");
    if (pos != "standard" && pos != "marian") f.bad_key("positions", pos, "standard or marian");
    c.positions = pos == "marian" ? Positions::kMarian : Positions::kStandard;
  }
  c.max_len = f.int_field("max_len", 2, kMaxLen);
  c.pad_id = f.int_field("pad_id", 0, kMaxVocab - 1);
  c.unk_id = f.int_field("unk_id", 0, kMaxVocab - 1);
  c.bos_id = f.int_field("bos_id", 0, kMaxVocab - 1);
  c.eos_id = f.int_field("eos_id", 0, kMaxVocab - 1);
  if (j.contains("preset")) c.preset = f.string_field("preset", "a string");
  c.validate();
  return c;
}

Config Config::from_preset(const std::string& name) {
  Config c;
  c.preset = name;
  if (name == "base") return c;
  if (name == "small") {
    c.dim = 256, c.heads = 4, c.ffn_dim = 1024, c.enc_layers = 3, c.dec_layers = 3;
    return c;
  }
  if (name == "tiny") {
    c.dim = 128, c.heads = 4, c.ffn_dim = 512, c.enc_layers = 2, c.dec_layers = 2;
    return c;
  }
  throw corpus::ConfigError("unknown architecture " + corpus::quote(name), "use base, small or tiny");
}

void Config::validate() const {
  auto bad = [](const std::string& what) { throw corpus::Error("bad model config: " + what); };
  if (src_vocab < 5 || trg_vocab < 5) bad(fmt::format("vocabularies of {} and {} entries", src_vocab, trg_vocab));
  if (shared_embeddings && src_vocab != trg_vocab) bad("shared embeddings need one vocabulary size");
  if (dim < 2 || dim % 2) bad(fmt::format("dim {} must be even", dim));
  if (heads < 1 || dim % heads) bad(fmt::format("dim {} is not a multiple of heads {}", dim, heads));
  if (ffn_dim < 1 || enc_layers < 1 || dec_layers < 1) bad("ffn_dim and layer counts must be positive");
  if (max_len < 2 || max_len > kMaxLen) bad(fmt::format("max_len {} out of range", max_len));
  for (int id : {pad_id, unk_id, bos_id, eos_id})
    if (id < 0 || id >= std::min(src_vocab, trg_vocab)) bad(fmt::format("special id {} outside the vocabulary", id));
  if (!(ln_eps > 0)) bad("ln_eps must be positive");
}

}  // namespace mt
