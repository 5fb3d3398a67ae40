#include "mt/encoder/bert_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "align/encoder.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/safetensors.h"
#include "mt/encoder/bert_config.h"
#include "mt/encoder/bert_encoder.h"
#include "mt/encoder/bert_tokenizer.h"

// The 16-bit float types as tags for safetensors::File::get, which has views
// for the integer and 32/64-bit float types only.
namespace mt {
struct F16Bits {
  uint16_t v;
};
struct BF16Bits {
  uint16_t v;
};
}  // namespace mt
namespace corpus::safetensors {
template <>
constexpr Dtype dtype_of<mt::F16Bits>() {
  return Dtype::kF16;
}
template <>
constexpr Dtype dtype_of<mt::BF16Bits>() {
  return Dtype::kBF16;
}
}  // namespace corpus::safetensors

namespace mt {

namespace {

namespace st = corpus::safetensors;
namespace fs = std::filesystem;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw corpus::Error("cannot open: " + corpus::errno_text(errno)).at(path);
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw corpus::Error("cannot read: " + corpus::errno_text(errno)).at(path);
  return ss.str();
}

std::string shape_text(const std::vector<uint64_t>& s) { return "[" + fmt::format("{}", fmt::join(s, ", ")) + "]"; }

float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  uint32_t bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: renormalise
      int e = -1;
      uint32_t m = man;
      do {
        ++e;
        m <<= 1;
      } while ((m & 0x400) == 0);
      bits = sign | uint32_t(127 - 15 - e) << 23 | (m & 0x3FF) << 13;
    }
  } else if (exp == 31) {
    bits = sign | 0x7F800000 | man << 13;
  } else {
    bits = sign | (exp + 127 - 15) << 23 | man << 13;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// 16-bit float weights widened to F32.
std::vector<float> to_f32(const st::File& f, const std::string& name) {
  const st::TensorInfo& t = f.tensors().at(name);
  std::vector<float> out(t.elements());
  switch (t.dtype) {
    case st::Dtype::kF16: {
      auto v = f.get<F16Bits>(name);
      for (size_t i = 0; i < v.size(); ++i) out[i] = half_to_float(v[i].v);
      break;
    }
    case st::Dtype::kBF16: {
      auto v = f.get<BF16Bits>(name);
      for (size_t i = 0; i < v.size(); ++i) {
        const uint32_t bits = uint32_t(v[i].v) << 16;
        std::memcpy(&out[i], &bits, 4);
      }
      break;
    }
    default:
      throw corpus::Error(fmt::format("tensor {} is {}, not F32, F16 or BF16", name, st::dtype_name(t.dtype)),
                          "give a model with F32, F16 or BF16 weights")
          .at(f.path());
  }
  return out;
}

// The tensor names of a Hugging Face checkpoint carry the head's prefix
// ("bert." from BertForPreTraining, "roberta.", none from BertModel).
std::string weight_prefix(const st::File& f) {
  static const std::string kWord = "embeddings.word_embeddings.weight";
  for (const auto& [name, info] : f.tensors())
    if (name.size() >= kWord.size() && name.compare(name.size() - kWord.size(), kWord.size(), kWord) == 0 &&
        (name.size() == kWord.size() || name[name.size() - kWord.size() - 1] == '.'))
      return name.substr(0, name.size() - kWord.size());
  throw corpus::Error("no tensor embeddings.word_embeddings.weight: not a BERT-family model",
                      "give the model.safetensors of a BERT or XLM-R encoder")
      .at(f.path());
}

nlohmann::json read_json(const std::string& path) {
  const auto j = nlohmann::json::parse(read_all(path), nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw corpus::Error("not a JSON object").at(path);
  return j;
}

// The tokenizer's file and settings, as the encoder's config keeps them.
struct FoundTokenizer {
  std::string path, bytes;
  nlohmann::json spec;
};

FoundTokenizer find_tokenizer(const fs::path& dir) {
  FoundTokenizer t;
  if (fs::exists(dir / "vocab.txt")) {
    t.path = (dir / "vocab.txt").string();
    t.spec = {{"kind", "wordpiece"}};
    // Hugging Face's BertTokenizer defaults, overridden by tokenizer_config.json.
    if (const fs::path cfg = dir / "tokenizer_config.json"; fs::exists(cfg)) {
      const auto j = read_json(cfg.string());
      for (const char* key : {"do_lower_case", "strip_accents", "tokenize_chinese_chars"})
        if (j.contains(key) && !j[key].is_null()) {
          if (!j[key].is_boolean())
            throw corpus::Error(std::string("\"") + key + "\" is not true/false").at(cfg.string());
          t.spec[key] = j[key];
        }
      for (const char* key : {"unk_token", "cls_token", "sep_token"})
        if (j.contains(key) && j[key].is_string()) t.spec[key] = j[key];
    }
  } else if (fs::exists(dir / "sentencepiece.bpe.model")) {
    t.path = (dir / "sentencepiece.bpe.model").string();
    t.spec = {{"kind", "sentencepiece"}, {"ids", "xlm-roberta"}};
  } else {
    throw corpus::Error("no tokenizer: neither vocab.txt (WordPiece) nor sentencepiece.bpe.model",
                        "give the whole Hugging Face model folder")
        .at(dir.string());
  }
  t.bytes = read_all(t.path);
  return t;
}

// The weights as the output takes them: F32 tensors point into the mapped
// file, 16-bit ones are widened into `widened` (a deque: elements stay put).
struct Weights {
  std::vector<std::unique_ptr<st::File>> files;
  std::vector<BertTensor> names;
  std::vector<std::span<const float>> data;
  std::deque<std::vector<float>> widened;

  void add(const st::File& f, const std::string& stored, const BertTensor& t, const std::string& why) {
    auto it = f.tensors().find(stored);
    if (it == f.tensors().end()) throw corpus::Error("no tensor " + corpus::quote(stored), why).at(f.path());
    if (it->second.shape != t.shape)
      throw corpus::Error(fmt::format("tensor {} has shape {}, config.json says {}", stored,
                                      shape_text(it->second.shape), shape_text(t.shape)),
                          why)
          .at(f.path());
    if (it->second.dtype == st::Dtype::kF32) {
      data.push_back(f.get<float>(stored));
    } else {
      widened.push_back(to_f32(f, stored));
      data.push_back(widened.back());
    }
    names.push_back(t);
  }
};

// sentence-transformers' Dense module after the pooling (LaBSE: CLS, then
// Dense(768, 768, tanh), then Normalize) is the function of BERT's pooler
// with weights of its own: with cls pooling its weights replace
// pooler.dense's. Any other Dense (a change of dimension, mean pooling) is
// refused rather than left out, since the vectors would not be the model's.
bool dense_head(const fs::path& dir, const BertConfig& cfg, BertPooling pooling, Weights& w) {
  const fs::path dense = dir / "2_Dense";
  if (!fs::is_directory(dense)) return false;
  const std::string cfg_path = (dense / "config.json").string();
  const auto j = read_json(cfg_path);
  const bool square = j.value("in_features", -1) == cfg.hidden && j.value("out_features", -1) == cfg.hidden &&
                      j.value("bias", true) &&
                      j.value("activation_function", std::string()) == "torch.nn.modules.activation.Tanh";
  if (pooling != BertPooling::kCls || !square)
    throw corpus::Error("the model's sentence-transformers Dense layer (2_Dense) is not a " +
                            std::to_string(cfg.hidden) + "x" + std::to_string(cfg.hidden) +
                            " tanh layer after cls pooling, which is all pc-embed import can apply",
                        "import a model without the Dense module, or with --pooling cls if it is LaBSE's")
        .at(cfg_path);
  const std::string wpath = (dense / "model.safetensors").string();
  if (!fs::exists(wpath))
    throw corpus::Error("no model.safetensors in 2_Dense",
                        "pytorch_model.bin is not read: save the model with safe_serialization=True")
        .at(wpath);
  w.files.push_back(std::make_unique<st::File>(wpath));
  const uint64_t C = static_cast<uint64_t>(cfg.hidden);
  w.add(*w.files.back(), "linear.weight", {"pooler.dense.weight", {C, C}}, "2_Dense/config.json does not match");
  w.add(*w.files.back(), "linear.bias", {"pooler.dense.bias", {C}}, "2_Dense/config.json does not match");
  return true;
}

// config.json's tensors from model.safetensors (and 2_Dense's, for the pooler).
Weights read_weights(const fs::path& dir, const BertConfig& cfg, BertPooling pooling) {
  const std::string path = (dir / "model.safetensors").string();
  if (!fs::exists(path))
    throw corpus::Error("no model.safetensors in the model folder",
                        "pytorch_model.bin is not read: save the model with safe_serialization=True")
        .at(path);
  Weights w;
  w.files.push_back(std::make_unique<st::File>(path));
  const st::File& f = *w.files.front();
  const std::string prefix = weight_prefix(f);
  for (const BertTensor& t : bert_tensors(cfg, false))
    w.add(f, prefix + t.name, t, "config.json and model.safetensors do not match");
  if (pooling == BertPooling::kCls && !dense_head(dir, cfg, pooling, w)) {
    if (!f.has(prefix + "pooler.dense.weight"))
      throw corpus::Error("the model has no pooler (pooler.dense.weight) for cls pooling", "use --pooling mean")
          .at(path);
    for (const BertTensor& t : bert_tensors(cfg, true))
      if (t.name.starts_with("pooler.")) w.add(f, prefix + t.name, t, "config.json and model.safetensors do not match");
  } else if (pooling == BertPooling::kMean) {
    dense_head(dir, cfg, pooling, w);  // refuses a Dense module
  }
  return w;
}

}  // namespace

std::string import_bert(const std::string& folder, std::string_view pooling_name, const std::string& out_path) {
  const BertPooling pooling = parse_bert_pooling(pooling_name);
  const fs::path dir(folder);
  if (!fs::is_directory(dir)) throw corpus::Error("not a folder", "give the folder of a Hugging Face model").at(folder);
  const std::string config_path = (dir / "config.json").string();
  if (!fs::exists(config_path))
    throw corpus::Error("no config.json in the model folder", "give the whole Hugging Face model folder")
        .at(config_path);
  const BertConfig cfg = read_hf_config(config_path);
  const Weights weights = read_weights(dir, cfg, pooling);

  const FoundTokenizer tok = find_tokenizer(dir);
  nlohmann::json tok_spec;
  try {
    const BertTokenizer check(tok.spec, tok.bytes);
    if (check.max_id() >= cfg.vocab_size)
      throw corpus::Error(fmt::format("the tokenizer has ids up to {}, config.json's vocab_size is {}", check.max_id(),
                                      cfg.vocab_size));
    tok_spec = check.spec();
  } catch (const corpus::Error& e) {
    throw corpus::Error(e.what(), e.hint()).at(tok.path);
  }

  nlohmann::json config = bert_config_to_json(cfg);
  // sentence-transformers cuts sentences at its max_seq_length, often below
  // the position table's length (LaBSE 256 of 512): keep the same cut.
  if (const fs::path sbert = dir / "sentence_bert_config.json"; fs::exists(sbert)) {
    const auto j = read_json(sbert.string());
    if (j.contains("max_seq_length")) {
      if (!j["max_seq_length"].is_number_integer() || j["max_seq_length"].get<int64_t>() < 2)
        throw corpus::Error("\"max_seq_length\" is not an integer >= 2").at(sbert.string());
      config["max_seq_length"] = std::min<int64_t>(j["max_seq_length"].get<int64_t>(), cfg.max_tokens());
    }
  }
  config["kind"] = "bert";
  config["pooling"] = bert_pooling_name(pooling);
  config["tokenizer"] = tok_spec;
  st::Writer w;
  w.metadata("format", align::kEncoderFormat);
  w.metadata("version", kBertEncoderVersion);
  w.metadata("config", config.dump());
  for (size_t i = 0; i < weights.names.size(); ++i)
    w.add<float>(weights.names[i].name, weights.data[i], weights.names[i].shape);
  w.add_bytes("tokenizer", tok.bytes);
  w.write(out_path);
  return BertEncoder(out_path).describe();
}

}  // namespace mt
