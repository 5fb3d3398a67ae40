#include "mt/layers/decoder_layer.h"

#include <algorithm>

#include "mt/layers/linear.h"

namespace mt {

namespace {

// Copies the new rows' keys or values [B*Tq, C] to rows b*capacity + t0 + i.
template <class T>
void store_rows(const T* rows, T* cache, const DecoderRows& r, int capacity, int C) {
  for (int b = 0; b < r.B; ++b)
    std::copy_n(rows + static_cast<int64_t>(b) * r.Tq * C, static_cast<int64_t>(r.Tq) * C,
                cache + (static_cast<int64_t>(b) * capacity + r.t0) * C);
}

// The tree pass of DecoderRows (B = 1): every row's keys and values go to
// kv.tree_*, row 0's also to position t0; then each chain in turn is copied
// to positions t0+1.. and its rows attend as a one-chain pass would.
template <class T>
void tree_self_attention(const AttnWeights<T>& w, const T* in, T* y, const DecoderRows& r, int C, int H,
                         LayerKv<T>& kv, AttnCache<T>& sc) {
  const int N = r.Tq, L = (r.Tq - 1) / r.branches;
  const int64_t n = static_cast<int64_t>(N) * C;
  sc.q.resize(n), sc.ctx.resize(n);
  kv.tree_k.resize(n), kv.tree_v.resize(n);
  kv.tree_t0 = r.t0, kv.tree_len = L;
  linear_forward<T>(in, w.wq, w.bq, sc.q.data(), N, C, C);
  linear_forward<T>(in, w.wk, w.bk, kv.tree_k.data(), N, C, C);
  linear_forward<T>(in, w.wv, w.bv, kv.tree_v.data(), N, C, C);
  T* ck = kv.self_k.data() + static_cast<int64_t>(r.t0) * C;
  T* cv = kv.self_v.data() + static_cast<int64_t>(r.t0) * C;
  std::copy_n(kv.tree_k.data(), C, ck);
  std::copy_n(kv.tree_v.data(), C, cv);
  auto row = [&](int i, int keys) {
    attention_core<T>(sc.q.data() + static_cast<int64_t>(i) * C, kv.self_k.data(), kv.self_v.data(),
                      sc.ctx.data() + static_cast<int64_t>(i) * C, nullptr, 1, 1, keys, N, kv.capacity, C, H,
                      nullptr, false, 0);
  };
  row(0, r.t0 + 1);
  for (int c = 0; c < r.branches; ++c) {
    kv.keep_branch(c, L);
    for (int d = 1; d <= L; ++d) row(1 + c * L + d - 1, r.t0 + 1 + d);
  }
  linear_forward<T>(sc.ctx.data(), w.wo, w.bo, y, N, C, C);
}

template <class T>
void cached_self_attention(const AttnWeights<T>& w, const T* in, T* y, const DecoderRows& r, int C, int H,
                           LayerKv<T>& kv, AttnCache<T>& sc) {
  if (r.branches > 1) return tree_self_attention(w, in, y, r, C, H, kv, sc);
  const int N = r.B * r.Tq;
  const int64_t n = static_cast<int64_t>(N) * C;
  sc.q.resize(n), sc.k.resize(n), sc.ctx.resize(n);
  linear_forward<T>(in, w.wq, w.bq, sc.q.data(), N, C, C);
  linear_forward<T>(in, w.wk, w.bk, sc.k.data(), N, C, C);
  store_rows(sc.k.data(), kv.self_k.data(), r, kv.capacity, C);
  linear_forward<T>(in, w.wv, w.bv, sc.k.data(), N, C, C);
  store_rows(sc.k.data(), kv.self_v.data(), r, kv.capacity, C);
  // A query row at a time, as a one-position step computes it: a row's
  // result must not depend on how many rows run with it (the parallel
  // decoding modes accept a token only when it equals greedy's).
  for (int i = 0; i < r.Tq; ++i)
    attention_core<T>(sc.q.data() + static_cast<int64_t>(i) * C, kv.self_k.data(), kv.self_v.data(),
                      sc.ctx.data() + static_cast<int64_t>(i) * C, nullptr, r.B, 1, r.t0 + i + 1, r.Tq, kv.capacity, C,
                      H, nullptr, false, 0);
  linear_forward<T>(sc.ctx.data(), w.wo, w.bo, y, N, C, C);
}

template <class T>
void cached_cross_attention(const AttnWeights<T>& w, const T* in, T* y, const DecoderRows& r, int C, int H,
                            LayerKv<T>& kv, AttnCache<T>& sc) {
  const int N = r.B * r.Tq;
  const int64_t n = static_cast<int64_t>(N) * C;
  sc.q.resize(n), sc.ctx.resize(n);
  linear_forward<T>(in, w.wq, w.bq, sc.q.data(), N, C, C);
  // A row at a time, as above; each sequence against its source block.
  const int64_t block = static_cast<int64_t>(r.S) * C;
  for (int b = 0; b < r.B; ++b) {
    const int64_t src = (r.source ? r.source[b] : b) * block, rows = static_cast<int64_t>(b) * r.Tq * C;
    for (int i = 0; i < r.Tq; ++i)
      attention_core<T>(sc.q.data() + rows + static_cast<int64_t>(i) * C, kv.cross_k.data() + src,
                        kv.cross_v.data() + src, sc.ctx.data() + rows + static_cast<int64_t>(i) * C, nullptr, 1, 1,
                        r.S, r.Tq, r.S, C, H, r.src_len + b, false, 0);
  }
  linear_forward<T>(sc.ctx.data(), w.wo, w.bo, y, N, C, C);
}

}  // namespace

template <class T>
void LayerKv<T>::keep_branch(int c, int rows) {
  const int64_t C = dim;
  if (rows <= 0) return;
  const int64_t from = (1 + static_cast<int64_t>(c) * tree_len) * C, to = (static_cast<int64_t>(tree_t0) + 1) * C;
  std::copy_n(tree_k.data() + from, rows * C, self_k.data() + to);
  std::copy_n(tree_v.data() + from, rows * C, self_v.data() + to);
}

template <class T>
void decoder_layer_start(const DecoderLayerWeights<T>& w, const DecoderLayerSettings& s, const T* enc, int B, int S,
                         int capacity, LayerKv<T>& kv) {
  const int C = s.C;
  const int64_t n = static_cast<int64_t>(B) * S * C;
  kv.capacity = capacity;
  kv.dim = C;
  kv.cross_k.resize(n);
  kv.cross_v.resize(n);
  linear_forward<T>(enc, w.cross.wk, w.cross.bk, kv.cross_k.data(), B * S, C, C);
  linear_forward<T>(enc, w.cross.wv, w.cross.bv, kv.cross_v.data(), B * S, C, C);
  kv.self_k.assign(static_cast<size_t>(B) * capacity * C, T(0));
  kv.self_v.assign(static_cast<size_t>(B) * capacity * C, T(0));
}

template <class T>
const T* decoder_layer_forward(const DecoderLayerWeights<T>& w, const DecoderLayerSettings& s, const DecoderRows& r,
                               const T* x, const T* enc, LayerKv<T>* kv, DecoderLayerState<T>& st,
                               SeedSequence& seeds) {
  const int N = r.B * r.Tq, C = s.C, H = s.H;
  const ResidualSettings& rs = s.residual;

  const T* in = st.self.begin(rs, x, w.self_g, w.self_b, N, C);
  if (kv)
    cached_self_attention(w.self, in, st.self.f.data(), r, C, H, *kv, st.self_attn);
  else
    attention_forward<T>(w.self, in, in, st.self.f.data(), r.B, r.Tq, r.Tq, C, H, r.trg_len, true, st.self_attn);
  st.self.end(rs, w.self_g, w.self_b, N, C, seeds.next());

  in = st.cross.begin(rs, st.self.out.data(), w.cross_g, w.cross_b, N, C);
  if (kv)
    cached_cross_attention(w.cross, in, st.cross.f.data(), r, C, H, *kv, st.cross_attn);
  else
    attention_forward<T>(w.cross, in, enc, st.cross.f.data(), r.B, r.Tq, r.S, C, H, r.src_len, false, st.cross_attn);
  st.cross.end(rs, w.cross_g, w.cross_b, N, C, seeds.next());

  in = st.ffn.begin(rs, st.cross.out.data(), w.ffn_g, w.ffn_b, N, C);
  ffn_forward<T>(s.activation, in, w.w1, w.b1, w.w2, w.b2, st.ffn.f.data(), N, C, s.F, st.ffn_cache);
  st.ffn.end(rs, w.ffn_g, w.ffn_b, N, C, seeds.next());
  return st.ffn.out.data();
}

template <class T>
void decoder_layer_backward(const DecoderLayerWeights<T>& w, const DecoderLayerGrads<T>& g,
                            const DecoderLayerSettings& s, const DecoderRows& r, const T* enc,
                            DecoderLayerState<T>& st, std::vector<T>& d, T* denc) {
  const int N = r.B * r.Tq, C = s.C, H = s.H;
  const ResidualSettings& rs = s.residual;
  std::vector<T> dx, df, dn(static_cast<int64_t>(N) * C);

  st.ffn.end_backward(rs, d.data(), dx, df, w.ffn_g, g.ffn_g, g.ffn_b, N, C);
  std::fill(dn.begin(), dn.end(), T(0));
  ffn_backward<T>(s.activation, st.ffn.input(rs), w.w1, w.w2, df.data(), dn.data(), g.w1, g.b1, g.w2, g.b2, N, C,
                  s.F, st.ffn_cache);
  st.ffn.begin_backward(rs, dn, dx, w.ffn_g, g.ffn_g, g.ffn_b, N, C);

  st.cross.end_backward(rs, dx.data(), d, df, w.cross_g, g.cross_g, g.cross_b, N, C);
  std::fill(dn.begin(), dn.end(), T(0));
  attention_backward<T>(w.cross, g.cross, st.cross.input(rs), enc, df.data(), dn.data(), denc, r.B, r.Tq, r.S, C, H,
                        st.cross_attn);
  st.cross.begin_backward(rs, dn, d, w.cross_g, g.cross_g, g.cross_b, N, C);

  st.self.end_backward(rs, d.data(), dx, df, w.self_g, g.self_g, g.self_b, N, C);
  const T* in = st.self.input(rs);
  std::fill(dn.begin(), dn.end(), T(0));
  attention_backward<T>(w.self, g.self, in, in, df.data(), dn.data(), dn.data(), r.B, r.Tq, r.Tq, C, H,
                        st.self_attn);
  st.self.begin_backward(rs, dn, dx, w.self_g, g.self_g, g.self_b, N, C);
  d.swap(dx);
}

#define MT_DEC_LAYER_INST(T)                                                                                        \
  template void LayerKv<T>::keep_branch(int, int);                                                                  \
  template void decoder_layer_start<T>(const DecoderLayerWeights<T>&, const DecoderLayerSettings&, const T*, int,   \
                                       int, int, LayerKv<T>&);                                                      \
  template const T* decoder_layer_forward<T>(const DecoderLayerWeights<T>&, const DecoderLayerSettings&,            \
                                             const DecoderRows&, const T*, const T*, LayerKv<T>*,                   \
                                             DecoderLayerState<T>&, SeedSequence&);                                 \
  template void decoder_layer_backward<T>(const DecoderLayerWeights<T>&, const DecoderLayerGrads<T>&,               \
                                          const DecoderLayerSettings&, const DecoderRows&, const T*,                \
                                          DecoderLayerState<T>&, std::vector<T>&, T*);
MT_DEC_LAYER_INST(float)
MT_DEC_LAYER_INST(double)

}  // namespace mt
