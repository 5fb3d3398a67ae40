#include "mt/encoder/bert_encoder.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "libcorpus/core/error.h"
#include "libcorpus/core/utf8.h"
#include "mt/layers/attention.h"
#include "mt/layers/ffn.h"
#include "mt/layers/layernorm.h"

namespace mt {

BertPooling parse_bert_pooling(std::string_view name) {
  if (name == "cls") return BertPooling::kCls;
  if (name == "mean") return BertPooling::kMean;
  throw corpus::ConfigError("pooling " + corpus::quote(name) + " is not known", "use cls or mean");
}

const char* bert_pooling_name(BertPooling p) { return p == BertPooling::kCls ? "cls" : "mean"; }

BertEncoder::BertEncoder(const std::string& path) : file_(std::make_unique<corpus::safetensors::File>(path)) {
  const auto& f = *file_;
  f.expect(align::kEncoderFormat, kBertEncoderVersion, "pc-embed import");
  const auto j = nlohmann::json::parse(f.meta("config"), nullptr, false);
  if (!j.is_object() || !j.contains("kind") || j["kind"] != "bert")
    throw corpus::Error(
        "the encoder is of kind " +
            corpus::quote(j.is_object() && j.contains("kind") ? j["kind"].dump() : std::string("(none)")) +
            ", not \"bert\"",
        "load it with the loader of its kind")
        .at(path);
  cfg_ = bert_config_from_json(j, path);
  max_tokens_ = cfg_.max_tokens();
  if (j.contains("max_seq_length")) {
    const auto& m = j["max_seq_length"];
    if (!m.is_number_integer() || m.get<int64_t>() < 2 || m.get<int64_t>() > max_tokens_)
      throw corpus::Error("config \"max_seq_length\" is " + corpus::quote(m.dump()) + ", not 2 .. " +
                          std::to_string(max_tokens_))
          .at(path);
    max_tokens_ = m.get<int>();
  }
  if (!j.contains("pooling") || !j["pooling"].is_string())
    throw corpus::Error("the encoder config has no \"pooling\"").at(path);
  try {
    pooling_ = parse_bert_pooling(j["pooling"].get<std::string>());
  } catch (const corpus::Error& e) {
    throw corpus::Error(e.what()).at(path);
  }
  if (!f.has("tokenizer")) throw corpus::Error("the encoder has no \"tokenizer\" tensor").at(path);
  try {
    tok_ = std::make_unique<BertTokenizer>(j.value("tokenizer", nlohmann::json()), f.bytes("tokenizer"));
  } catch (const corpus::Error& e) {
    throw corpus::Error(std::string(e.what()), e.hint()).at(path);
  }
  if (tok_->max_id() >= cfg_.vocab_size)
    throw corpus::Error(fmt::format("the tokenizer gives ids up to {}, the embedding table has {} rows", tok_->max_id(),
                                    cfg_.vocab_size))
        .at(path);

  // Every tensor with its exact shape (File::get_shaped throws naming the file).
  const bool pooler = pooling_ == BertPooling::kCls;
  std::map<std::string, const float*> w;
  for (const BertTensor& t : bert_tensors(cfg_, pooler)) w[t.name] = f.get_shaped<float>(t.name, t.shape).data();
  auto get = [&](const std::string& name) { return w.at(name); };
  word_ = get("embeddings.word_embeddings.weight");
  pos_ = get("embeddings.position_embeddings.weight");
  type_ = get("embeddings.token_type_embeddings.weight");
  emb_ln_g_ = get("embeddings.LayerNorm.weight");
  emb_ln_b_ = get("embeddings.LayerNorm.bias");
  if (pooler) {
    pool_w_ = get("pooler.dense.weight");
    pool_b_ = get("pooler.dense.bias");
  }
  // encode() runs on several threads at once; OpenBLAS's own threads would
  // only spin against them on these small products.
  use_single_threaded_blas();
  for (int l = 0; l < cfg_.layers; ++l) {
    const std::string p = "encoder.layer." + std::to_string(l) + ".";
    Layer L{};
    L.wq = get(p + "attention.self.query.weight");
    L.bq = get(p + "attention.self.query.bias");
    L.wk = get(p + "attention.self.key.weight");
    L.bk = get(p + "attention.self.key.bias");
    L.wv = get(p + "attention.self.value.weight");
    L.bv = get(p + "attention.self.value.bias");
    L.wo = get(p + "attention.output.dense.weight");
    L.bo = get(p + "attention.output.dense.bias");
    L.ln1_g = get(p + "attention.output.LayerNorm.weight");
    L.ln1_b = get(p + "attention.output.LayerNorm.bias");
    L.w1 = get(p + "intermediate.dense.weight");
    L.b1 = get(p + "intermediate.dense.bias");
    L.w2 = get(p + "output.dense.weight");
    L.b2 = get(p + "output.dense.bias");
    L.ln2_g = get(p + "output.LayerNorm.weight");
    L.ln2_b = get(p + "output.LayerNorm.bias");
    layers_.push_back(L);
  }
}

BertEncoder::~BertEncoder() = default;

std::vector<int32_t> BertEncoder::token_ids(std::string_view text) const { return tok_->encode(text, max_tokens_); }

void BertEncoder::embed_ids(const std::vector<int32_t>& ids, float* out) const {
  const int T = static_cast<int>(ids.size()), C = cfg_.hidden, H = cfg_.heads, F = cfg_.ffn;
  const float eps = static_cast<float>(cfg_.layer_norm_eps);
  const int64_t TC = static_cast<int64_t>(T) * C;
  std::vector<float> x(TC), y(TC), sub(TC), mean(T), rstd(T);
  for (int t = 0; t < T; ++t) {
    const float* w = word_ + static_cast<int64_t>(ids[t]) * C;
    const float* p = pos_ + static_cast<int64_t>(cfg_.position_offset + t) * C;
    for (int c = 0; c < C; ++c) y[t * C + c] = w[c] + p[c] + type_[c];
  }
  layernorm_forward<float>(y.data(), emb_ln_g_, emb_ln_b_, x.data(), mean.data(), rstd.data(), T, C, eps);
  const int32_t key_len = T;  // one sentence, no padding: every key is visible
  AttnCache<float> attn;
  FfnCache<float> ffn;
  for (const Layer& L : layers_) {
    const AttnWeights<float> w{L.wq, L.bq, L.wk, L.bk, L.wv, L.bv, L.wo, L.bo};
    attention_forward<float>(w, x.data(), x.data(), sub.data(), 1, T, T, C, H, &key_len, false, attn);
    for (int64_t i = 0; i < TC; ++i) y[i] = x[i] + sub[i];
    layernorm_forward<float>(y.data(), L.ln1_g, L.ln1_b, x.data(), mean.data(), rstd.data(), T, C, eps);
    ffn_forward<float>(cfg_.activation(), x.data(), L.w1, L.b1, L.w2, L.b2, sub.data(), T, C, F, ffn);
    for (int64_t i = 0; i < TC; ++i) y[i] = x[i] + sub[i];
    layernorm_forward<float>(y.data(), L.ln2_g, L.ln2_b, x.data(), mean.data(), rstd.data(), T, C, eps);
  }
  if (pooling_ == BertPooling::kCls) {
    linear_forward<float>(x.data(), pool_w_, pool_b_, out, 1, C, C);
    for (int c = 0; c < C; ++c) out[c] = std::tanh(out[c]);
  } else {
    std::vector<double> acc(C, 0.0);
    for (int t = 0; t < T; ++t)
      for (int c = 0; c < C; ++c) acc[c] += x[static_cast<int64_t>(t) * C + c];
    for (int c = 0; c < C; ++c) out[c] = static_cast<float>(acc[c] / T);
  }
  double norm = 0;
  for (int c = 0; c < C; ++c) norm += double(out[c]) * out[c];
  norm = std::sqrt(norm);
  // A zero vector (possible only with pathological weights) stays zero.
  if (norm > 0)
    for (int c = 0; c < C; ++c) out[c] = static_cast<float>(out[c] / norm);
}

void BertEncoder::encode(std::span<const std::string_view> sentences, Side, std::span<float> out) const {
  const size_t C = dim();
  if (out.size() != sentences.size() * C)
    throw corpus::Error(
        fmt::format("encode: {} floats for {} sentences of dimension {}", out.size(), sentences.size(), C));
  for (size_t i = 0; i < sentences.size(); ++i) {
    if (size_t bad = corpus::find_invalid_utf8(sentences[i]); bad != std::string_view::npos)
      throw corpus::Error(fmt::format("invalid UTF-8 at byte {} of the sentence", bad + 1),
                          "convert the text to UTF-8 first");
    embed_ids(token_ids(sentences[i]), out.data() + i * C);
  }
}

std::string BertEncoder::describe() const {
  return fmt::format("bert ({}) d={} layers={} heads={} vocab={} {} tokenizer, {} pooling", cfg_.model_type,
                     cfg_.hidden, cfg_.layers, cfg_.heads, cfg_.vocab_size, tok_->kind(), bert_pooling_name(pooling_));
}

std::unique_ptr<align::SentenceEncoder> load_bert_encoder(const std::string& path) {
  return std::make_unique<BertEncoder>(path);
}

}  // namespace mt
