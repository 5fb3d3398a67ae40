#include "mt/model/transformer.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "libcorpus/core/error.h"
#include "mt/layers/dropout.h"
#include "mt/layers/embedding.h"
#include "mt/layers/layernorm.h"
#include "mt/layers/linear.h"
#include "mt/layers/residual.h"

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

template <class T>
struct Transformer<T>::Impl {
  std::vector<uint8_t> src_mask, trg_mask;  // embedding dropout
  std::vector<T> src_emb, trg_emb;          // embeddings after dropout [B*S,C], [B*U,C]
  std::vector<Residual<T>> enc_self, enc_ffn;
  std::vector<AttnCache<T>> enc_attn;
  std::vector<FfnCache<T>> enc_ffn_cache;
  std::vector<DecoderLayerState<T>> dec;
  std::vector<T> enc_top, enc_out, enc_mean, enc_rstd;  // final norm input, encoder output
  std::vector<T> dec_top, dec_out, dec_mean, dec_rstd;
  std::vector<T> logits;  // [B*U, V]: logits, then probabilities, then their gradient
  std::vector<T> proj_in;  // a decoding pass's top rows and its ExtraRows, projected together
  std::vector<int32_t> dec_pos;  // decoding: the positions of the rows run
  std::vector<T> enc;            // decoding: the encoder output
};

namespace {

template <class T>
struct Ctx {
  const Config& cfg;
  const T* p;
  T* g;
  int C;
  T eps;
  ResidualSettings rs;
  SeedSequence seeds;
  uint64_t next_seed() { return seeds.next(); }
};

template <class T>
Ctx<T> make_ctx(const Config& cfg, const T* p, T* g, float dropout, uint64_t seed) {
  return Ctx<T>{cfg, p, g, cfg.dim, T(cfg.ln_eps), ResidualSettings{cfg.pre_norm, cfg.ln_eps, dropout},
                SeedSequence{seed, 0}};
}

DecoderLayerSettings layer_settings(const Config& cfg, const ResidualSettings& rs) {
  return DecoderLayerSettings{rs, cfg.dim, cfg.heads, cfg.ffn_dim, cfg.activation};
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
  impl_->dec.resize(cfg.dec_layers);
}

namespace {

// Embedding rows scaled by sqrt(dim) plus the config's position signal.
template <class T>
void embed(const Config& cfg, const int32_t* tok, const int32_t* pos, const T* E, T* y, int N) {
  const int C = cfg.dim;
  if (cfg.positions == Positions::kStandard) return embedding_forward<T>(tok, pos, E, y, N, C, std::sqrt(T(C)));
  const int half = C / 2;
  const double inc = std::log(10000.0) / std::max(half - 1, 1);
  for (int i = 0; i < N; ++i) {
    T* yi = y + static_cast<int64_t>(i) * C;
    const T* e = E + static_cast<int64_t>(tok[i]) * C;
    for (int k = 0; k < C; ++k) yi[k] = e[k] * std::sqrt(T(C));
    for (int k = 0; k < half; ++k) {
      const double v = pos[i] * std::exp(-k * inc);
      yi[k] += T(std::sin(v));
      yi[half + k] += T(std::cos(v));
    }
  }
}

template <class T>
const T* encoder_forward(Ctx<T>& c, typename Transformer<T>::Impl& m, const ModelOffsets& off, const Batch& b) {
  const int N = b.B * b.S, C = c.C, H = c.cfg.heads;
  m.src_emb.resize(static_cast<int64_t>(N) * C);
  embed<T>(c.cfg, b.src.data(), b.src_pos.data(), c.p + off.src_emb, m.src_emb.data(), N);
  dropout_forward<T>(m.src_emb.data(), static_cast<int64_t>(N) * C, c.rs.dropout, c.next_seed(), m.src_mask);
  const T* h = m.src_emb.data();
  for (int l = 0; l < c.cfg.enc_layers; ++l) {
    const EncLayerOffsets& o = off.enc[l];
    // Training keeps every layer's activations for the backward pass; without
    // gradients (encoding to decode, validation) every layer runs in the first
    // layer's buffers: a third of the memory at 3 layers, and a third of the
    // pages to fault in on a thread's longest batch. h, the layer's input,
    // is the ffn residual's out, copied into the attention residual's x
    // before that residual is overwritten.
    const int slot = c.g ? l : 0;
    Residual<T>& a = m.enc_self[slot];
    const T* in = a.begin(c.rs, h, c.p + o.self_ln.g, c.p + o.self_ln.b, N, C);
    attention_forward<T>(o.self.weights(c.p), in, in, a.f.data(), b.B, b.S, b.S, C, H, b.src_len.data(), false,
                         m.enc_attn[slot]);
    a.end(c.rs, c.p + o.self_ln.g, c.p + o.self_ln.b, N, C, c.next_seed());
    Residual<T>& f = m.enc_ffn[slot];
    in = f.begin(c.rs, a.out.data(), c.p + o.ffn_ln.g, c.p + o.ffn_ln.b, N, C);
    ffn_forward<T>(c.cfg.activation, in, c.p + o.ffn.w1, c.p + o.ffn.b1, c.p + o.ffn.w2, c.p + o.ffn.b2,
                   f.f.data(), N, C, c.cfg.ffn_dim, m.enc_ffn_cache[slot]);
    f.end(c.rs, c.p + o.ffn_ln.g, c.p + o.ffn_ln.b, N, C, c.next_seed());
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
    Residual<T>& f = m.enc_ffn[l];
    f.end_backward(c.rs, d.data(), dx, df, c.p + o.ffn_ln.g, c.g + o.ffn_ln.g, c.g + o.ffn_ln.b, N, C);
    std::fill(dn.begin(), dn.end(), T(0));
    ffn_backward<T>(c.cfg.activation, f.input(c.rs), c.p + o.ffn.w1, c.p + o.ffn.w2, df.data(), dn.data(),
                    c.g + o.ffn.w1, c.g + o.ffn.b1, c.g + o.ffn.w2, c.g + o.ffn.b2, N, C, c.cfg.ffn_dim,
                    m.enc_ffn_cache[l]);
    f.begin_backward(c.rs, dn, dx, c.p + o.ffn_ln.g, c.g + o.ffn_ln.g, c.g + o.ffn_ln.b, N, C);
    Residual<T>& a = m.enc_self[l];
    a.end_backward(c.rs, dx.data(), d, df, c.p + o.self_ln.g, c.g + o.self_ln.g, c.g + o.self_ln.b, N, C);
    const T* in = a.input(c.rs);
    std::fill(dn.begin(), dn.end(), T(0));
    attention_backward<T>(o.self.weights(c.p), o.self.grads(c.g), in, in, df.data(), dn.data(), dn.data(), b.B, b.S,
                          b.S, C, H, m.enc_attn[l]);
    a.begin_backward(c.rs, dn, d, c.p + o.self_ln.g, c.g + o.self_ln.g, c.g + o.self_ln.b, N, C);
  }
  dropout_backward<T>(d.data(), static_cast<int64_t>(N) * C, c.rs.dropout, m.src_mask);
  embedding_backward<T>(b.src.data(), d.data(), c.g + off.src_emb, N, C, std::sqrt(T(C)));
}

// The decoder above the embeddings: every layer, the final norm (pre-norm)
// and the output projection, for training (cache null) and decoding alike.
template <class T>
void decoder_forward(Ctx<T>& c, typename Transformer<T>::Impl& m, const ModelOffsets& off, const DecoderRows& r,
                     const T* h, const T* enc, DecoderCache<T>* cache, const ExtraRows<T>* extra = nullptr) {
  const int N = r.B * r.Tq, V = c.cfg.trg_vocab;
  const DecoderLayerSettings ls = layer_settings(c.cfg, c.rs);
  for (int l = 0; l < c.cfg.dec_layers; ++l)
    h = decoder_layer_forward<T>(off.dec[l].weights(c.p), ls, r, h, enc, cache ? &cache->layers[l] : nullptr,
                                 m.dec[l], c.seeds);
  const T* top = final_norm(c, h, N, off.dec_final, m.dec_top, m.dec_out, m.dec_mean, m.dec_rstd);
  const int X = extra ? N * extra->per_row : 0;
  m.logits.resize(static_cast<int64_t>(N + X) * V);
  if (X == 0) {
    linear_forward<T>(top, c.p + off.out_w, c.p + off.out_b, m.logits.data(), N, V, c.C);
    return;
  }
  const int64_t C = c.C;
  m.proj_in.resize(static_cast<size_t>((N + X) * C));
  std::copy_n(top, N * C, m.proj_in.data());
  extra->make(top, N, m.proj_in.data() + N * C);
  if (N + X <= kFewRows) {  // one product: the pass's rows keep their bits
    linear_forward<T>(m.proj_in.data(), c.p + off.out_w, c.p + off.out_b, m.logits.data(), N + X, V, c.C);
  } else {
    linear_forward<T>(top, c.p + off.out_w, c.p + off.out_b, m.logits.data(), N, V, c.C);
    linear_forward<T>(m.proj_in.data() + N * C, c.p + off.out_w, c.p + off.out_b, m.logits.data() + N * V, X, V, c.C);
  }
}

}  // namespace

template <class T>
void Transformer<T>::encode(const T* params, const Batch& batch, std::vector<T>& enc) {
  Ctx<T> c = make_ctx<T>(cfg_, params, nullptr, 0.0f, 0);
  const T* e = encoder_forward<T>(c, *impl_, off_, batch);
  enc.assign(e, e + static_cast<int64_t>(batch.B) * batch.S * cfg_.dim);
}

template <class T>
void DecoderCache<T>::select(const std::vector<int>& rows, int length) {
  const int n = static_cast<int>(rows.size());
  std::vector<int> moved;  // the targets of a copy, and their sources' snapshot below
  for (int j = 0; j < n; ++j)
    if (rows[j] != j) moved.push_back(j);
  for (LayerKv<T>& kv : layers) {
    const int64_t C = kv.dim, row = static_cast<int64_t>(capacity) * C, len = static_cast<int64_t>(length) * C;
    thread_local std::vector<T> snap;  // kept: a beam search selects every step
    snap.resize(moved.size() * len);
    for (std::vector<T>* buf : {&kv.self_k, &kv.self_v}) {
      for (size_t m = 0; m < moved.size(); ++m)
        std::copy_n(buf->data() + rows[moved[m]] * row, len, snap.data() + m * len);
      if (buf->size() < static_cast<size_t>(n * row)) buf->resize(static_cast<size_t>(n * row));
      for (size_t m = 0; m < moved.size(); ++m) std::copy_n(snap.data() + m * len, len, buf->data() + moved[m] * row);
      buf->resize(static_cast<size_t>(n * row));
    }
  }
  std::vector<int32_t> len(n), src(n);
  for (int j = 0; j < n; ++j) len[j] = src_len[rows[j]], src[j] = source[rows[j]];
  src_len = std::move(len);
  source = std::move(src);
  B = n;
}

template <class T>
void DecoderCache<T>::compact(const std::vector<int>& keep, int length) {
  const int n = static_cast<int>(keep.size());
  for (LayerKv<T>& kv : layers) {
    const int64_t C = kv.dim, self_row = static_cast<int64_t>(capacity) * C;
    // keep[j] >= j: each row moves forward onto a row already moved or dropped.
    for (int j = 0; j < n; ++j) {
      if (keep[j] == j) continue;
      for (std::vector<T>* buf : {&kv.self_k, &kv.self_v})
        std::copy_n(buf->data() + keep[j] * self_row, static_cast<int64_t>(length) * C, buf->data() + j * self_row);
    }
    kv.self_k.resize(static_cast<size_t>(n * self_row));
    kv.self_v.resize(kv.self_k.size());
  }
  for (int j = 0; j < n; ++j) src_len[j] = src_len[keep[j]], source[j] = source[keep[j]];
  src_len.resize(n);
  source.resize(n);
  B = n;
}

template <class T>
void DecoderCache<T>::keep_branch(int c, int rows) {
  for (LayerKv<T>& kv : layers) kv.keep_branch(c, rows);
}

template <class T>
void Transformer<T>::start_decoding(const T* params, const Batch& batch, int capacity, DecoderCache<T>& cache,
                                    int copies) {
  encode(params, batch, impl_->enc);
  const int B = batch.B, S = batch.S, C = cfg_.dim;
  cache.B = B * copies;
  cache.S = S;
  cache.capacity = capacity;
  cache.src_len.clear();
  cache.source.clear();
  for (int b = 0; b < B; ++b) {
    cache.src_len.insert(cache.src_len.end(), copies, batch.src_len[b]);
    cache.source.insert(cache.source.end(), copies, b);  // a sentence's copies share its source block
  }
  cache.layers.resize(cfg_.dec_layers);
  const DecoderLayerSettings ls = layer_settings(cfg_, ResidualSettings{cfg_.pre_norm, cfg_.ln_eps, 0.0f});
  for (int l = 0; l < cfg_.dec_layers; ++l) {
    LayerKv<T>& kv = cache.layers[l];
    decoder_layer_start<T>(off_.dec[l].weights(params), ls, impl_->enc.data(), B, S, capacity, kv);
    if (copies == 1) continue;
    kv.self_k.assign(static_cast<size_t>(cache.B) * capacity * C, T(0));
    kv.self_v.assign(kv.self_k.size(), T(0));
  }
}

template <class T>
void Transformer<T>::decode(const T* params, DecoderCache<T>& cache, const int32_t* tokens, int Tq, int t0,
                            std::vector<T>& logits, int branches, const ExtraRows<T>* extra) {
  if (branches < 1 || (branches > 1 && (cache.B != 1 || (Tq - 1) % branches != 0)))
    throw corpus::Error(fmt::format("a tree pass of {} rows in {} branches over {} sequences", Tq, branches, cache.B));
  const int L = (Tq - 1) / branches;  // with branches > 1, the rows of a chain
  const int last = branches > 1 ? t0 + L : t0 + Tq - 1;
  if (t0 < 0 || Tq < 1 || last >= cache.capacity)
    throw corpus::Error(fmt::format("decoder positions {}..{} outside the cache of {}", t0, last, cache.capacity));
  Impl& m = *impl_;
  const ChunkedProducts streamed;  // a decoding batch's rows: weights streamed, not packed
  Ctx<T> c = make_ctx<T>(cfg_, params, nullptr, 0.0f, 0);
  const int N = cache.B * Tq, C = cfg_.dim;
  m.dec_pos.resize(N);
  for (int b = 0; b < cache.B; ++b)
    for (int i = 0; i < Tq; ++i) m.dec_pos[static_cast<size_t>(b) * Tq + i] = branches > 1 && i > 0 ? t0 + 1 + (i - 1) % L : t0 + i;
  m.trg_emb.resize(static_cast<int64_t>(N) * C);
  embed<T>(cfg_, tokens, m.dec_pos.data(), params + off_.trg_emb, m.trg_emb.data(), N);
  DecoderRows r{cache.B, Tq, cache.S, cache.src_len.data(), nullptr, t0, branches, cache.source.data()};
  decoder_forward<T>(c, m, off_, r, m.trg_emb.data(), nullptr, &cache, extra);
  logits.swap(m.logits);  // no copy: the caller's old buffer becomes the next pass's
}

template <class T>
const T* Transformer<T>::decoder_top() const {
  return cfg_.pre_norm ? impl_->dec_out.data() : impl_->dec_top.data();
}

template <class T>
XentResult Transformer<T>::pass(const T* params, T* grads, const Batch& b, const PassOptions& opt) {
  Impl& m = *impl_;
  Ctx<T> c = make_ctx<T>(cfg_, params, grads, opt.dropout, opt.seed);
  const int C = cfg_.dim, V = cfg_.trg_vocab;
  const int Ns = b.B * b.S, N = b.B * b.U;
  const T* enc = encoder_forward<T>(c, m, off_, b);

  m.trg_emb.resize(static_cast<int64_t>(N) * C);
  embed<T>(cfg_, b.trg_in.data(), b.trg_pos.data(), params + off_.trg_emb, m.trg_emb.data(), N);
  dropout_forward<T>(m.trg_emb.data(), static_cast<int64_t>(N) * C, opt.dropout, c.next_seed(), m.trg_mask);
  const DecoderRows r{b.B, b.U, b.S, b.src_len.data(), b.trg_len.data(), 0};
  decoder_forward<T>(c, m, off_, r, m.trg_emb.data(), enc, nullptr);
  const T* top = cfg_.pre_norm ? m.dec_out.data() : m.dec_top.data();
  if (opt.keep_logits) logits_copy_ = m.logits;
  XentResult res = softmax_xent_forward<T>(m.logits.data(), b.trg_out.data(), N, V, T(opt.label_smoothing));
  if (!grads) return res;

  // Backward, in reverse.
  softmax_xent_backward<T>(m.logits.data(), b.trg_out.data(), N, V, T(opt.label_smoothing), T(opt.loss_scale));
  std::vector<T> d(static_cast<int64_t>(N) * C, T(0));
  linear_backward<T>(top, params + off_.out_w, m.logits.data(), d.data(), grads + off_.out_w, grads + off_.out_b, N, V,
                     C, false);
  final_norm_back(c, d, N, off_.dec_final, m.dec_top, m.dec_mean, m.dec_rstd);
  std::vector<T> denc(static_cast<int64_t>(Ns) * C, T(0));
  const DecoderLayerSettings ls = layer_settings(cfg_, c.rs);
  for (int l = cfg_.dec_layers - 1; l >= 0; --l)
    decoder_layer_backward<T>(off_.dec[l].weights(params), off_.dec[l].grads(grads), ls, r, enc, m.dec[l], d,
                              denc.data());
  dropout_backward<T>(d.data(), static_cast<int64_t>(N) * C, opt.dropout, m.trg_mask);
  embedding_backward<T>(b.trg_in.data(), d.data(), grads + off_.trg_emb, N, C, std::sqrt(T(C)));
  encoder_backward<T>(c, m, off_, b, denc);
  return res;
}

template struct DecoderCache<float>;
template struct DecoderCache<double>;
template class Transformer<float>;
template class Transformer<double>;

}  // namespace mt
