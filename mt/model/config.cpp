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
  if (positions == Positions::kMarian) j["positions"] = "marian";  // absent: standard, as files before the key
  j["max_len"] = max_len;
  j["pad_id"] = pad_id;
  j["unk_id"] = unk_id;
  j["bos_id"] = bos_id;
  j["eos_id"] = eos_id;
  j["preset"] = preset;
  return j;
}

namespace {

// Reading a model file's config: every value is checked for its type and
// range here, by key, so a damaged or hand-edited file is an Error naming the
// key and the value (nlohmann's get<int>() would take 4294967312 as 16, and a
// huge layer count would be allocated before anything noticed).
[[noreturn]] void bad_key(const std::string& key, const nlohmann::json& v, const std::string& want) {
  std::string shown = v.dump();
  if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
  throw corpus::Error(fmt::format("bad model config: '{}' is {}, expected {}", key, shown, want));
}

const nlohmann::json& field(const nlohmann::json& j, const std::string& key) {
  auto it = j.find(key);
  if (it == j.end()) throw corpus::Error(fmt::format("bad model config: '{}' is missing", key));
  return *it;
}

int int_field(const nlohmann::json& j, const std::string& key, uint64_t lo, uint64_t hi) {
  const nlohmann::json& v = field(j, key);
  const bool negative = v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0;
  if (!v.is_number_integer() || negative || v.get<uint64_t>() < lo || v.get<uint64_t>() > hi)
    bad_key(key, v, fmt::format("an integer from {} to {}", lo, hi));
  return static_cast<int>(v.get<uint64_t>());
}

bool bool_field(const nlohmann::json& j, const std::string& key) {
  const nlohmann::json& v = field(j, key);
  if (!v.is_boolean()) bad_key(key, v, "true or false");
  return v.get<bool>();
}

std::string string_field(const nlohmann::json& j, const std::string& key, const std::string& want) {
  const nlohmann::json& v = field(j, key);
  if (!v.is_string()) bad_key(key, v, want);
  return v.get<std::string>();
}

}  // namespace

Config Config::from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw corpus::Error("bad model config: not a JSON object");
  Config c;
  c.src_vocab = int_field(j, "src_vocab", 5, kMaxVocab);
  c.trg_vocab = int_field(j, "trg_vocab", 5, kMaxVocab);
  c.shared_embeddings = bool_field(j, "shared_embeddings");
  c.tied_output = bool_field(j, "tied_output");
  c.dim = int_field(j, "dim", 2, kMaxDim);
  c.heads = int_field(j, "heads", 1, kMaxDim);
  c.ffn_dim = int_field(j, "ffn_dim", 1, kMaxFfnDim);
  c.enc_layers = int_field(j, "enc_layers", 1, kMaxLayers);
  c.dec_layers = int_field(j, "dec_layers", 1, kMaxLayers);
  const std::string act = string_field(j, "activation", "relu, swish or gelu");
  if (act != "relu" && act != "swish" && act != "gelu") bad_key("activation", act, "relu, swish or gelu");
  c.activation = parse_activation(act);
  const std::string norm = string_field(j, "norm", "pre or post");
  if (norm != "pre" && norm != "post") bad_key("norm", norm, "pre or post");
  c.pre_norm = norm == "pre";
  const nlohmann::json& eps = field(j, "ln_eps");
  if (!eps.is_number() || !(eps.get<double>() > 0 && eps.get<double>() < 1)) bad_key("ln_eps", eps, "a number between 0 and 1");
  c.ln_eps = eps.get<double>();
  if (j.contains("positions")) {
    const std::string pos = string_field(j, "positions", "standard or marian");
    if (pos != "standard" && pos != "marian") bad_key("positions", pos, "standard or marian");
    c.positions = pos == "marian" ? Positions::kMarian : Positions::kStandard;
  }
  c.max_len = int_field(j, "max_len", 2, kMaxLen);
  c.pad_id = int_field(j, "pad_id", 0, kMaxVocab - 1);
  c.unk_id = int_field(j, "unk_id", 0, kMaxVocab - 1);
  c.bos_id = int_field(j, "bos_id", 0, kMaxVocab - 1);
  c.eos_id = int_field(j, "eos_id", 0, kMaxVocab - 1);
  if (j.contains("preset")) c.preset = string_field(j, "preset", "a string");
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
