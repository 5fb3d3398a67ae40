#include "mt/model/transformer.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "mt/layers/dropout.h"
#include "libcorpus/core/hash_mix.h"
#include "mt/layers/embedding.h"
#include "mt/layers/layernorm.h"
#include "mt/layers/linear.h"

namespace mt {

ParamLayout make_layout(const Config& cfg, ModelOffsets& off) {
  ParamLayout L;
  const int64_t C = cfg.dim, F = cfg.ffn_dim;
  auto attn = [&](const std::string& p) {
    AttnOffsets a;
    a.wq = L.add(p + ".wq", {C, C}, true);
    a.bq = L.add(p + ".bq", {C}, false);
    a.wk = L.add(p + ".wk", {C, C}, true);
    a.bk = L.add(p + ".bk", {C}, false);
    a.wv = L.add(p + ".wv", {C, C}, true);
    a.bv = L.add(p + ".bv", {C}, false);
    a.wo = L.add(p + ".wo", {C, C}, true);
    a.bo = L.add(p + ".bo", {C}, false);
    return a;
  };
  auto norm = [&](const std::string& p) { return NormOffsets{L.add(p + ".g", {C}, false), L.add(p + ".b", {C}, false)}; };
  auto ffn = [&](const std::string& p) {
    FfnOffsets f;
    f.w1 = L.add(p + ".w1", {F, C}, true);
    f.b1 = L.add(p + ".b1", {F}, false);
    f.w2 = L.add(p + ".w2", {C, F}, true);
    f.b2 = L.add(p + ".b2", {C}, false);
    return f;
  };
  off = ModelOffsets{};
  if (cfg.shared_embeddings) {
    off.src_emb = off.trg_emb = L.add("emb.shared", {cfg.src_vocab, C}, true);
  } else {
    off.src_emb = L.add("emb.src", {cfg.src_vocab, C}, true);
    off.trg_emb = L.add("emb.trg", {cfg.trg_vocab, C}, true);
  }
  for (int l = 0; l < cfg.enc_layers; ++l) {
    const std::string p = "enc." + std::to_string(l);
    EncLayerOffsets e;
    e.self = attn(p + ".self");
    e.self_ln = norm(p + ".self_ln");
    e.ffn = ffn(p + ".ffn");
    e.ffn_ln = norm(p + ".ffn_ln");
    off.enc.push_back(e);
  }
  for (int l = 0; l < cfg.dec_layers; ++l) {
    const std::string p = "dec." + std::to_string(l);
    DecLayerOffsets d;
    d.self = attn(p + ".self");
    d.self_ln = norm(p + ".self_ln");
    d.cross = attn(p + ".cross");
    d.cross_ln = norm(p + ".cross_ln");
    d.ffn = ffn(p + ".ffn");
    d.ffn_ln = norm(p + ".ffn_ln");
    off.dec.push_back(d);
  }
  if (cfg.pre_norm) {
    off.enc_final = norm("enc.final_ln");
    off.dec_final = norm("dec.final_ln");
  }
  off.out_w = cfg.tied_output ? off.trg_emb : L.add("out.w", {cfg.trg_vocab, C}, true);
  off.out_b = L.add("out.b", {cfg.trg_vocab}, false);
  return L;
}

Batch make_batch(const Config& cfg, const std::vector<const std::vector<int32_t>*>& src,
                 const std::vector<const std::vector<int32_t>*>& trg) {
  Batch b;
  b.B = static_cast<int>(src.size());
  for (int i = 0; i < b.B; ++i) {
    b.S = std::max(b.S, static_cast<int>(src[i]->size()) + 1);
    if (!trg.empty()) b.U = std::max(b.U, static_cast<int>(trg[i]->size()) + 1);
  }
  b.src.assign(static_cast<size_t>(b.B) * b.S, cfg.pad_id);
  b.src_pos.assign(b.src.size(), 0);
  b.src_len.assign(b.B, 0);
  b.trg_in.assign(static_cast<size_t>(b.B) * b.U, cfg.pad_id);
  b.trg_pos.assign(b.trg_in.size(), 0);
  b.trg_out.assign(b.trg_in.size(), -1);
  b.trg_len.assign(b.B, 0);
  for (int i = 0; i < b.B; ++i) {
    const auto& s = *src[i];
    for (int t = 0; t < b.S; ++t) b.src_pos[static_cast<size_t>(i) * b.S + t] = t;
    std::copy(s.begin(), s.end(), b.src.begin() + static_cast<int64_t>(i) * b.S);
    b.src[static_cast<size_t>(i) * b.S + s.size()] = cfg.eos_id;
    b.src_len[i] = static_cast<int32_t>(s.size()) + 1;
    if (trg.empty()) continue;
    const auto& t = *trg[i];
    const size_t row = static_cast<size_t>(i) * b.U;
    for (int u = 0; u < b.U; ++u) b.trg_pos[row + u] = u;
    b.trg_in[row] = cfg.bos_id;
    for (size_t u = 0; u < t.size(); ++u) {
      b.trg_in[row + u + 1] = t[u];
      b.trg_out[row + u] = t[u];
    }
    b.trg_out[row + t.size()] = cfg.eos_id;
    b.trg_len[i] = static_cast<int32_t>(t.size()) + 1;
    b.trg_tokens += b.trg_len[i];
  }
  return b;
}

// One residual sublayer: post-norm out = LN(x + drop(f(x))), pre-norm
// out = x + drop(f(LN(x))).
template <class T>
struct Block {
  std::vector<T> x, n, f, s, out, mean, rstd;
  std::vector<uint8_t> mask;
};

template <class T>
struct Transformer<T>::Impl {
  std::vector<uint8_t> src_mask, trg_mask;  // embedding dropout
  std::vector<T> src_emb, trg_emb;          // embeddings after dropout [B*S,C], [B*U,C]
  std::vector<Block<T>> enc_self, enc_ffn, dec_self, dec_cross, dec_ffn;
  std::vector<AttnCache<T>> enc_attn, dec_self_attn, dec_cross_attn;
  std::vector<FfnCache<T>> enc_ffn_cache, dec_ffn_cache;
  std::vector<T> enc_top, enc_out, enc_mean, enc_rstd;  // final norm input, encoder output
  std::vector<T> dec_top, dec_out, dec_mean, dec_rstd;
  std::vector<T> logits;  // [B*U, V]: logits, then probabilities, then their gradient
};

namespace {

template <class T>
struct Ctx {
  const Config& cfg;
  const T* p;
  T* g;
  int C;
  T eps;
  float drop;
  uint64_t seed;
  uint64_t site = 0;
  uint64_t next_seed() { return corpus::mix64(seed ^ (0x9e3779b97f4a7c15ULL * ++site)); }
};

template <class T>
const T* block_in(Ctx<T>& c, Block<T>& blk, const T* x, int N, NormOffsets ln) {
  const int64_t n = static_cast<int64_t>(N) * c.C;
  blk.x.assign(x, x + n);
  blk.f.resize(n);
  if (!c.cfg.pre_norm) return blk.x.data();
  blk.n.resize(n);
  blk.mean.resize(N);
  blk.rstd.resize(N);
  layernorm_forward<T>(blk.x.data(), c.p + ln.g, c.p + ln.b, blk.n.data(), blk.mean.data(), blk.rstd.data(), N, c.C,
                       c.eps);
  return blk.n.data();
}

template <class T>
void block_out(Ctx<T>& c, Block<T>& blk, int N, NormOffsets ln) {
  const int64_t n = static_cast<int64_t>(N) * c.C;
  dropout_forward<T>(blk.f.data(), n, c.drop, c.next_seed(), blk.mask);
  blk.out.resize(n);
  if (c.cfg.pre_norm) {
    for (int64_t i = 0; i < n; ++i) blk.out[i] = blk.x[i] + blk.f[i];
    return;
  }
  blk.s.resize(n);
  for (int64_t i = 0; i < n; ++i) blk.s[i] = blk.x[i] + blk.f[i];
  blk.mean.resize(N);
  blk.rstd.resize(N);
  layernorm_forward<T>(blk.s.data(), c.p + ln.g, c.p + ln.b, blk.out.data(), blk.mean.data(), blk.rstd.data(), N,
                       c.C, c.eps);
}

// From d(out): dx = the residual path, df = the sublayer's output gradient.
template <class T>
void block_out_back(Ctx<T>& c, Block<T>& blk, const T* dout, std::vector<T>& dx, std::vector<T>& df, int N,
                    NormOffsets ln) {
  const int64_t n = static_cast<int64_t>(N) * c.C;
  if (c.cfg.pre_norm) {
    dx.assign(dout, dout + n);
  } else {
    dx.assign(n, T(0));
    layernorm_backward<T>(dout, blk.s.data(), c.p + ln.g, blk.mean.data(), blk.rstd.data(), dx.data(), c.g + ln.g,
                          c.g + ln.b, N, c.C);
  }
  df = dx;
  dropout_backward<T>(df.data(), n, c.drop, blk.mask);
}

// Adds d(sublayer input) to dx.
template <class T>
void block_in_back(Ctx<T>& c, Block<T>& blk, const std::vector<T>& dn, std::vector<T>& dx, int N, NormOffsets ln) {
  if (c.cfg.pre_norm) {
    layernorm_backward<T>(dn.data(), blk.x.data(), c.p + ln.g, blk.mean.data(), blk.rstd.data(), dx.data(),
                          c.g + ln.g, c.g + ln.b, N, c.C);
  } else {
    for (size_t i = 0; i < dx.size(); ++i) dx[i] += dn[i];
  }
}

template <class T>
const T* final_norm(Ctx<T>& c, const T* x, int N, NormOffsets ln, std::vector<T>& top, std::vector<T>& out,
                    std::vector<T>& mean, std::vector<T>& rstd) {
  const int64_t n = static_cast<int64_t>(N) * c.C;
  top.assign(x, x + n);
  if (!c.cfg.pre_norm) return top.data();
  out.resize(n);
  mean.resize(N);
  rstd.resize(N);
  layernorm_forward<T>(top.data(), c.p + ln.g, c.p + ln.b, out.data(), mean.data(), rstd.data(), N, c.C, c.eps);
  return out.data();
}

template <class T>
void final_norm_back(Ctx<T>& c, std::vector<T>& d, int N, NormOffsets ln, const std::vector<T>& top,
                     const std::vector<T>& mean, const std::vector<T>& rstd) {
  if (!c.cfg.pre_norm) return;
  std::vector<T> dx(d.size(), T(0));
  layernorm_backward<T>(d.data(), top.data(), c.p + ln.g, mean.data(), rstd.data(), dx.data(), c.g + ln.g, c.g + ln.b,
                        N, c.C);
  d.swap(dx);
}

}  // namespace

template <class T>
Transformer<T>::Transformer(const Config& cfg) : cfg_(cfg), impl_(std::make_shared<Impl>()) {
  cfg_.validate();
  layout_ = make_layout(cfg_, off_);
  impl_->enc_self.resize(cfg.enc_layers);
  impl_->enc_ffn.resize(cfg.enc_layers);
  impl_->enc_attn.resize(cfg.enc_layers);
  impl_->enc_ffn_cache.resize(cfg.enc_layers);
  impl_->dec_self.resize(cfg.dec_layers);
  impl_->dec_cross.resize(cfg.dec_layers);
  impl_->dec_ffn.resize(cfg.dec_layers);
  impl_->dec_self_attn.resize(cfg.dec_layers);
  impl_->dec_cross_attn.resize(cfg.dec_layers);
  impl_->dec_ffn_cache.resize(cfg.dec_layers);
}

namespace {

template <class T>
const T* encoder_forward(Ctx<T>& c, typename Transformer<T>::Impl& m, const ModelOffsets& off, const Batch& b) {
  const int N = b.B * b.S, C = c.C, H = c.cfg.heads;
  m.src_emb.resize(static_cast<int64_t>(N) * C);
  embedding_forward<T>(b.src.data(), b.src_pos.data(), c.p + off.src_emb, m.src_emb.data(), N, C,
                       std::sqrt(T(C)));
  dropout_forward<T>(m.src_emb.data(), static_cast<int64_t>(N) * C, c.drop, c.next_seed(), m.src_mask);
  const T* h = m.src_emb.data();
  for (int l = 0; l < c.cfg.enc_layers; ++l) {
    const EncLayerOffsets& o = off.enc[l];
    Block<T>& a = m.enc_self[l];
    const T* in = block_in(c, a, h, N, o.self_ln);
    attention_forward<T>(o.self.weights(c.p), in, in, a.f.data(), b.B, b.S, b.S, C, H, b.src_len.data(), false,
                         m.enc_attn[l]);
    block_out(c, a, N, o.self_ln);
    Block<T>& f = m.enc_ffn[l];
    in = block_in(c, f, a.out.data(), N, o.ffn_ln);
    ffn_forward<T>(c.cfg.activation, in, c.p + o.ffn.w1, c.p + o.ffn.b1, c.p + o.ffn.w2, c.p + o.ffn.b2,
                   f.f.data(), N, C, c.cfg.ffn_dim, m.enc_ffn_cache[l]);
    block_out(c, f, N, o.ffn_ln);
    h = f.out.data();
  }
  return final_norm(c, h, N, off.enc_final, m.enc_top, m.enc_out, m.enc_mean, m.enc_rstd);
}

template <class T>
void encoder_backward(Ctx<T>& c, typename Transformer<T>::Impl& m, const ModelOffsets& off, const Batch& b,
                      std::vector<T>& d) {
  const int N = b.B * b.S, C = c.C, H = c.cfg.heads;
  final_norm_back(c, d, N, off.enc_final, m.enc_top, m.enc_mean, m.enc_rstd);
  std::vector<T> dx, df, dn(static_cast<int64_t>(N) * C);
  for (int l = c.cfg.enc_layers - 1; l >= 0; --l) {
    const EncLayerOffsets& o = off.enc[l];
    Block<T>& f = m.enc_ffn[l];
    block_out_back(c, f, d.data(), dx, df, N, o.ffn_ln);
    const T* in = c.cfg.pre_norm ? f.n.data() : f.x.data();
    std::fill(dn.begin(), dn.end(), T(0));
    ffn_backward<T>(c.cfg.activation, in, c.p + o.ffn.w1, c.p + o.ffn.w2, df.data(), dn.data(), c.g + o.ffn.w1,
                    c.g + o.ffn.b1, c.g + o.ffn.w2, c.g + o.ffn.b2, N, C, c.cfg.ffn_dim, m.enc_ffn_cache[l]);
    block_in_back(c, f, dn, dx, N, o.ffn_ln);
    Block<T>& a = m.enc_self[l];
    block_out_back(c, a, dx.data(), d, df, N, o.self_ln);
    in = c.cfg.pre_norm ? a.n.data() : a.x.data();
    std::fill(dn.begin(), dn.end(), T(0));
    attention_backward<T>(o.self.weights(c.p), o.self.grads(c.g), in, in, df.data(), dn.data(), dn.data(), b.B, b.S,
                          b.S, C, H, m.enc_attn[l]);
    block_in_back(c, a, dn, d, N, o.self_ln);
  }
  dropout_backward<T>(d.data(), static_cast<int64_t>(N) * C, c.drop, m.src_mask);
  embedding_backward<T>(b.src.data(), d.data(), c.g + off.src_emb, N, C, std::sqrt(T(C)));
}

}  // namespace

template <class T>
void Transformer<T>::encode(const T* params, const Batch& batch, std::vector<T>& enc) {
  Ctx<T> c{cfg_, params, nullptr, cfg_.dim, T(cfg_.ln_eps), 0.0f, 0};
  const T* e = encoder_forward<T>(c, *impl_, off_, batch);
  enc.assign(e, e + static_cast<int64_t>(batch.B) * batch.S * cfg_.dim);
}

template <class T>
XentResult Transformer<T>::pass(const T* params, T* grads, const Batch& b, const PassOptions& opt) {
  Impl& m = *impl_;
  Ctx<T> c{cfg_, params, grads, cfg_.dim, T(cfg_.ln_eps), opt.dropout, opt.seed};
  const int C = cfg_.dim, H = cfg_.heads, V = cfg_.trg_vocab;
  const int Ns = b.B * b.S, N = b.B * b.U;
  const T* enc = encoder_forward<T>(c, m, off_, b);

  m.trg_emb.resize(static_cast<int64_t>(N) * C);
  embedding_forward<T>(b.trg_in.data(), b.trg_pos.data(), params + off_.trg_emb, m.trg_emb.data(), N, C,
                       std::sqrt(T(C)));
  dropout_forward<T>(m.trg_emb.data(), static_cast<int64_t>(N) * C, opt.dropout, c.next_seed(), m.trg_mask);
  const T* h = m.trg_emb.data();
  for (int l = 0; l < cfg_.dec_layers; ++l) {
    const DecLayerOffsets& o = off_.dec[l];
    Block<T>& s = m.dec_self[l];
    const T* in = block_in(c, s, h, N, o.self_ln);
    attention_forward<T>(o.self.weights(params), in, in, s.f.data(), b.B, b.U, b.U, C, H, b.trg_len.data(), true,
                         m.dec_self_attn[l]);
    block_out(c, s, N, o.self_ln);
    Block<T>& x = m.dec_cross[l];
    in = block_in(c, x, s.out.data(), N, o.cross_ln);
    attention_forward<T>(o.cross.weights(params), in, enc, x.f.data(), b.B, b.U, b.S, C, H, b.src_len.data(), false,
                         m.dec_cross_attn[l]);
    block_out(c, x, N, o.cross_ln);
    Block<T>& f = m.dec_ffn[l];
    in = block_in(c, f, x.out.data(), N, o.ffn_ln);
    ffn_forward<T>(cfg_.activation, in, params + o.ffn.w1, params + o.ffn.b1, params + o.ffn.w2, params + o.ffn.b2,
                   f.f.data(), N, C, cfg_.ffn_dim, m.dec_ffn_cache[l]);
    block_out(c, f, N, o.ffn_ln);
    h = f.out.data();
  }
  const T* top = final_norm(c, h, N, off_.dec_final, m.dec_top, m.dec_out, m.dec_mean, m.dec_rstd);
  m.logits.resize(static_cast<int64_t>(N) * V);
  linear_forward<T>(top, params + off_.out_w, params + off_.out_b, m.logits.data(), N, V, C);
  if (opt.keep_logits) logits_copy_ = m.logits;
  XentResult r = softmax_xent_forward<T>(m.logits.data(), b.trg_out.data(), N, V, T(opt.label_smoothing));
  if (!grads) return r;

  // Backward, in reverse.
  softmax_xent_backward<T>(m.logits.data(), b.trg_out.data(), N, V, T(opt.label_smoothing), T(opt.loss_scale));
  std::vector<T> d(static_cast<int64_t>(N) * C, T(0));
  linear_backward<T>(top, params + off_.out_w, m.logits.data(), d.data(), grads + off_.out_w, grads + off_.out_b, N, V,
                     C, false);
  final_norm_back(c, d, N, off_.dec_final, m.dec_top, m.dec_mean, m.dec_rstd);
  std::vector<T> denc(static_cast<int64_t>(Ns) * C, T(0)), dx, df, dn(static_cast<int64_t>(N) * C);
  for (int l = cfg_.dec_layers - 1; l >= 0; --l) {
    const DecLayerOffsets& o = off_.dec[l];
    Block<T>& f = m.dec_ffn[l];
    block_out_back(c, f, d.data(), dx, df, N, o.ffn_ln);
    const T* in = cfg_.pre_norm ? f.n.data() : f.x.data();
    std::fill(dn.begin(), dn.end(), T(0));
    ffn_backward<T>(cfg_.activation, in, params + o.ffn.w1, params + o.ffn.w2, df.data(), dn.data(), grads + o.ffn.w1,
                    grads + o.ffn.b1, grads + o.ffn.w2, grads + o.ffn.b2, N, C, cfg_.ffn_dim, m.dec_ffn_cache[l]);
    block_in_back(c, f, dn, dx, N, o.ffn_ln);
    Block<T>& x = m.dec_cross[l];
    block_out_back(c, x, dx.data(), d, df, N, o.cross_ln);
    in = cfg_.pre_norm ? x.n.data() : x.x.data();
    std::fill(dn.begin(), dn.end(), T(0));
    attention_backward<T>(o.cross.weights(params), o.cross.grads(grads), in, enc, df.data(), dn.data(), denc.data(),
                          b.B, b.U, b.S, C, H, m.dec_cross_attn[l]);
    block_in_back(c, x, dn, d, N, o.cross_ln);
    Block<T>& s = m.dec_self[l];
    block_out_back(c, s, d.data(), dx, df, N, o.self_ln);
    in = cfg_.pre_norm ? s.n.data() : s.x.data();
    std::fill(dn.begin(), dn.end(), T(0));
    attention_backward<T>(o.self.weights(params), o.self.grads(grads), in, in, df.data(), dn.data(), dn.data(), b.B,
                          b.U, b.U, C, H, m.dec_self_attn[l]);
    block_in_back(c, s, dn, dx, N, o.self_ln);
    d.swap(dx);
  }
  dropout_backward<T>(d.data(), static_cast<int64_t>(N) * C, opt.dropout, m.trg_mask);
  embedding_backward<T>(b.trg_in.data(), d.data(), grads + off_.trg_emb, N, C, std::sqrt(T(C)));
  encoder_backward<T>(c, m, off_, b, denc);
  return r;
}

template class Transformer<float>;
template class Transformer<double>;

}  // namespace mt
