#include "mt/encoder/dual_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "libcorpus/core/error.h"
#include "mt/model/config_fields.h"
#include "mt/layers/dropout.h"
#include "mt/layers/embedding.h"
#include "mt/layers/layernorm.h"

namespace mt {

nlohmann::ordered_json NeuralConfig::to_json() const {
  nlohmann::ordered_json j;
  j["kind"] = kNeuralKind;
  j["vocab"] = vocab;
  j["dim"] = dim;
  j["heads"] = heads;
  j["ffn_dim"] = ffn_dim;
  j["layers"] = layers;
  j["max_len"] = max_len;
  j["activation"] = activation_name(activation);
  j["norm"] = pre_norm ? "pre" : "post";
  j["ln_eps"] = ln_eps;
  j["pooling"] = "mean";
  j["pad_id"] = pad_id;
  j["eos_id"] = eos_id;
  return j;
}

NeuralConfig NeuralConfig::from_json(const nlohmann::json& j) {
  const ConfigFields f(j, "encoder config");
  NeuralConfig c;
  c.vocab = f.int_field("vocab", 5, kMaxVocab);
  c.dim = f.int_field("dim", 2, kMaxDim);
  c.heads = f.int_field("heads", 1, kMaxDim);
  c.ffn_dim = f.int_field("ffn_dim", 1, kMaxFfnDim);
  c.layers = f.int_field("layers", 1, kMaxLayers);
  c.max_len = f.int_field("max_len", 2, kMaxLen);
  const std::string act = f.string_field("activation", "relu, swish or gelu");
  if (act != "relu" && act != "swish" && act != "gelu") f.bad_key("activation", act, "relu, swish or gelu");
  c.activation = parse_activation(act);
  const std::string norm = f.string_field("norm", "pre or post");
  if (norm != "pre" && norm != "post") f.bad_key("norm", norm, "pre or post");
  c.pre_norm = norm == "pre";
  const nlohmann::json& eps = f.field("ln_eps");
  if (!eps.is_number() || !(eps.get<double>() > 0 && eps.get<double>() < 1))
    f.bad_key("ln_eps", eps, "a number between 0 and 1");
  c.ln_eps = eps.get<double>();
  if (f.string_field("pooling", "mean") != "mean") f.bad_key("pooling", j["pooling"], "mean");
  c.pad_id = f.int_field("pad_id", 0, kMaxVocab - 1);
  c.eos_id = f.int_field("eos_id", 0, kMaxVocab - 1);
  c.validate();
  return c;
}

void NeuralConfig::validate() const {
  auto bad = [](const std::string& what) { throw corpus::Error("bad encoder config: " + what); };
  if (vocab < 5) bad(fmt::format("a vocabulary of {} entries", vocab));
  if (dim < 2 || dim % 2) bad(fmt::format("dim {} must be even", dim));
  if (heads < 1 || dim % heads) bad(fmt::format("dim {} is not a multiple of heads {}", dim, heads));
  if (ffn_dim < 1 || layers < 1) bad("ffn_dim and layers must be positive");
  if (max_len < 2 || max_len > kMaxLen) bad(fmt::format("max_len {} out of range", max_len));
  for (int id : {pad_id, eos_id})
    if (id < 0 || id >= vocab) bad(fmt::format("special id {} outside the vocabulary", id));
  if (!(ln_eps > 0)) bad("ln_eps must be positive");
}

ParamLayout make_dual_layout(const NeuralConfig& cfg, DualOffsets& off) {
  ParamLayout L;
  const int64_t C = cfg.dim, F = cfg.ffn_dim;
  auto norm = [&](const std::string& p) { return NormOffsets{L.add(p + ".g", {C}, false), L.add(p + ".b", {C}, false)}; };
  off = DualOffsets{};
  off.emb = L.add("emb", {cfg.vocab, C}, true);
  for (int l = 0; l < cfg.layers; ++l) {
    const std::string p = "enc." + std::to_string(l);
    EncLayerOffsets e;
    AttnOffsets& a = e.self;
    a.wq = L.add(p + ".self.wq", {C, C}, true);
    a.bq = L.add(p + ".self.bq", {C}, false);
    a.wk = L.add(p + ".self.wk", {C, C}, true);
    a.bk = L.add(p + ".self.bk", {C}, false);
    a.wv = L.add(p + ".self.wv", {C, C}, true);
    a.bv = L.add(p + ".self.bv", {C}, false);
    a.wo = L.add(p + ".self.wo", {C, C}, true);
    a.bo = L.add(p + ".self.bo", {C}, false);
    e.self_ln = norm(p + ".self_ln");
    e.ffn.w1 = L.add(p + ".ffn.w1", {F, C}, true);
    e.ffn.b1 = L.add(p + ".ffn.b1", {F}, false);
    e.ffn.w2 = L.add(p + ".ffn.w2", {C, F}, true);
    e.ffn.b2 = L.add(p + ".ffn.b2", {C}, false);
    e.ffn_ln = norm(p + ".ffn_ln");
    off.layers.push_back(e);
  }
  if (cfg.pre_norm) off.final_ln = norm("enc.final_ln");
  return L;
}

template <class T>
DualModel<T>::DualModel(const NeuralConfig& cfg) : cfg_(cfg) {
  cfg_.validate();
  layout_ = make_dual_layout(cfg_, off_);
  self_.resize(cfg_.layers);
  ffn_.resize(cfg_.layers);
  attn_.resize(cfg_.layers);
  ffn_cache_.resize(cfg_.layers);
}

template <class T>
void DualModel<T>::forward(const T* p, const std::vector<const std::vector<int32_t>*>& seqs, T* pooled, float dropout,
                           uint64_t seed) {
  const int C = cfg_.dim, H = cfg_.heads;
  N_ = static_cast<int>(seqs.size());
  S_ = 1;
  for (const auto* s : seqs) S_ = std::max(S_, static_cast<int>(s->size()) + 1);
  if (S_ > cfg_.max_len) throw corpus::Error(fmt::format("a sentence of {} pieces, over max_len {}", S_, cfg_.max_len));
  const int N = N_ * S_;
  tok_.assign(N, cfg_.pad_id);
  pos_.assign(N, 0);
  len_.assign(N_, 0);
  for (int b = 0; b < N_; ++b) {
    const auto& s = *seqs[b];
    std::copy(s.begin(), s.end(), tok_.begin() + static_cast<int64_t>(b) * S_);
    tok_[static_cast<size_t>(b) * S_ + s.size()] = cfg_.eos_id;
    len_[b] = static_cast<int32_t>(s.size()) + 1;
    for (int t = 0; t < S_; ++t) pos_[static_cast<size_t>(b) * S_ + t] = t;
  }
  rs_ = ResidualSettings{cfg_.pre_norm, cfg_.ln_eps, dropout};
  SeedSequence seeds{seed, 0};
  emb_.resize(static_cast<int64_t>(N) * C);
  embedding_forward<T>(tok_.data(), pos_.data(), p + off_.emb, emb_.data(), N, C, std::sqrt(T(C)));
  dropout_forward<T>(emb_.data(), static_cast<int64_t>(N) * C, dropout, seeds.next(), emb_mask_);
  const T* h = emb_.data();
  for (int l = 0; l < cfg_.layers; ++l) {
    const EncLayerOffsets& o = off_.layers[l];
    Residual<T>& a = self_[l];
    const T* in = a.begin(rs_, h, p + o.self_ln.g, p + o.self_ln.b, N, C);
    attention_forward<T>(o.self.weights(p), in, in, a.f.data(), N_, S_, S_, C, H, len_.data(), false, attn_[l]);
    a.end(rs_, p + o.self_ln.g, p + o.self_ln.b, N, C, seeds.next());
    Residual<T>& f = ffn_[l];
    in = f.begin(rs_, a.out.data(), p + o.ffn_ln.g, p + o.ffn_ln.b, N, C);
    ffn_forward<T>(cfg_.activation, in, p + o.ffn.w1, p + o.ffn.b1, p + o.ffn.w2, p + o.ffn.b2, f.f.data(), N, C,
                   cfg_.ffn_dim, ffn_cache_[l]);
    f.end(rs_, p + o.ffn_ln.g, p + o.ffn_ln.b, N, C, seeds.next());
    h = f.out.data();
  }
  top_.assign(h, h + static_cast<int64_t>(N) * C);
  const T* y = top_.data();
  if (cfg_.pre_norm) {
    out_.resize(top_.size());
    mean_.resize(N);
    rstd_.resize(N);
    layernorm_forward<T>(top_.data(), p + off_.final_ln.g, p + off_.final_ln.b, out_.data(), mean_.data(), rstd_.data(),
                         N, C, T(cfg_.ln_eps));
    y = out_.data();
  }
  for (int b = 0; b < N_; ++b) {
    T* o = pooled + static_cast<int64_t>(b) * C;
    std::fill(o, o + C, T(0));
    for (int t = 0; t < len_[b]; ++t) {
      const T* r = y + (static_cast<int64_t>(b) * S_ + t) * C;
      for (int c = 0; c < C; ++c) o[c] += r[c];
    }
    for (int c = 0; c < C; ++c) o[c] /= T(len_[b]);
  }
}

template <class T>
void DualModel<T>::backward(const T* p, T* g, const T* dpooled) {
  const int C = cfg_.dim, H = cfg_.heads, N = N_ * S_;
  std::vector<T> d(static_cast<int64_t>(N) * C, T(0));
  for (int b = 0; b < N_; ++b)
    for (int t = 0; t < len_[b]; ++t)
      for (int c = 0; c < C; ++c)
        d[(static_cast<int64_t>(b) * S_ + t) * C + c] = dpooled[static_cast<int64_t>(b) * C + c] / T(len_[b]);
  if (cfg_.pre_norm) {
    std::vector<T> dx(d.size(), T(0));
    layernorm_backward<T>(d.data(), top_.data(), p + off_.final_ln.g, mean_.data(), rstd_.data(), dx.data(),
                          g + off_.final_ln.g, g + off_.final_ln.b, N, C);
    d.swap(dx);
  }
  std::vector<T> dx, df, dn(static_cast<int64_t>(N) * C);
  for (int l = cfg_.layers - 1; l >= 0; --l) {
    const EncLayerOffsets& o = off_.layers[l];
    Residual<T>& f = ffn_[l];
    f.end_backward(rs_, d.data(), dx, df, p + o.ffn_ln.g, g + o.ffn_ln.g, g + o.ffn_ln.b, N, C);
    std::fill(dn.begin(), dn.end(), T(0));
    ffn_backward<T>(cfg_.activation, f.input(rs_), p + o.ffn.w1, p + o.ffn.w2, df.data(), dn.data(), g + o.ffn.w1,
                    g + o.ffn.b1, g + o.ffn.w2, g + o.ffn.b2, N, C, cfg_.ffn_dim, ffn_cache_[l]);
    f.begin_backward(rs_, dn, dx, p + o.ffn_ln.g, g + o.ffn_ln.g, g + o.ffn_ln.b, N, C);
    Residual<T>& a = self_[l];
    a.end_backward(rs_, dx.data(), d, df, p + o.self_ln.g, g + o.self_ln.g, g + o.self_ln.b, N, C);
    const T* in = a.input(rs_);
    std::fill(dn.begin(), dn.end(), T(0));
    attention_backward<T>(o.self.weights(p), o.self.grads(g), in, in, df.data(), dn.data(), dn.data(), N_, S_, S_, C, H,
                          attn_[l]);
    a.begin_backward(rs_, dn, d, p + o.self_ln.g, g + o.self_ln.g, g + o.self_ln.b, N, C);
  }
  dropout_backward<T>(d.data(), static_cast<int64_t>(N) * C, rs_.dropout, emb_mask_);
  embedding_backward<T>(tok_.data(), d.data(), g + off_.emb, N, C, std::sqrt(T(C)));
}

template class DualModel<float>;
template class DualModel<double>;

}  // namespace mt
