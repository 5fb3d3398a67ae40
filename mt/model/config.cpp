#include "mt/model/config.h"

#include <fmt/format.h>

#include "libcorpus/core/error.h"

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
  j["max_len"] = max_len;
  j["pad_id"] = pad_id;
  j["unk_id"] = unk_id;
  j["bos_id"] = bos_id;
  j["eos_id"] = eos_id;
  j["preset"] = preset;
  return j;
}

Config Config::from_json(const nlohmann::json& j) {
  Config c;
  try {
    c.src_vocab = j.at("src_vocab").get<int>();
    c.trg_vocab = j.at("trg_vocab").get<int>();
    c.shared_embeddings = j.at("shared_embeddings").get<bool>();
    c.tied_output = j.at("tied_output").get<bool>();
    c.dim = j.at("dim").get<int>();
    c.heads = j.at("heads").get<int>();
    c.ffn_dim = j.at("ffn_dim").get<int>();
    c.enc_layers = j.at("enc_layers").get<int>();
    c.dec_layers = j.at("dec_layers").get<int>();
    c.activation = parse_activation(j.at("activation").get<std::string>());
    std::string norm = j.at("norm").get<std::string>();
    if (norm != "pre" && norm != "post") throw corpus::Error("norm must be pre or post, not " + corpus::quote(norm));
    c.pre_norm = norm == "pre";
    c.ln_eps = j.at("ln_eps").get<double>();
    c.max_len = j.at("max_len").get<int>();
    c.pad_id = j.at("pad_id").get<int>();
    c.unk_id = j.at("unk_id").get<int>();
    c.bos_id = j.at("bos_id").get<int>();
    c.eos_id = j.at("eos_id").get<int>();
    c.preset = j.value("preset", "");
  } catch (const nlohmann::json::exception& e) {
    throw corpus::Error(std::string("bad model config: ") + e.what());
  }
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
  if (max_len < 2 || max_len > 65536) bad(fmt::format("max_len {} out of range", max_len));
  for (int id : {pad_id, unk_id, bos_id, eos_id})
    if (id < 0 || id >= std::min(src_vocab, trg_vocab)) bad(fmt::format("special id {} outside the vocabulary", id));
  if (!(ln_eps > 0)) bad("ln_eps must be positive");
}

}  // namespace mt
