#include "mt/layers/attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "mt/layers/linear.h"
#include "mt/tensor/attention_head_avx512.h"
#include "mt/tensor/attention_row_avx512.h"

namespace mt {

namespace {
template <class T>
using Strided = Eigen::Map<Mat<T>, 0, Eigen::OuterStride<>>;
template <class T>
using CStrided = Eigen::Map<const Mat<T>, 0, Eigen::OuterStride<>>;

// Whether heads of width D run on the AVX-512 attention kernels (float, the
// products on AVX-512): one condition for the forward and the backward,
// which must take the same path.
template <class T>
bool avx512_heads(int D) {
  if constexpr (std::is_same_v<T, float>) return D % 16 == 0 && gemm_backend() == GemmBackend::kAvx512;
  return false;
}

// dq, dk and dv of every head from dctx, through the weights the forward
// kept.
template <class T>
void heads_backward(const AttnCache<T>& c, const T* dctx, T* dq, T* dk, T* dv, int B, int Tq, int Tk, int C, int H) {
  const int D = C / H;
  const T scale = T(1) / std::sqrt(T(D));
  if constexpr (std::is_same_v<T, float>) {
    if (avx512_heads<T>(D)) {
      for (int b = 0; b < B; ++b) {
        const int64_t qb = static_cast<int64_t>(b) * Tq * C, kb = static_cast<int64_t>(b) * Tk * C;
        for (int h = 0; h < H; ++h)
          attention_head_backward_avx512(c.q.data() + qb + h * D, c.k.data() + kb + h * D, c.v.data() + kb + h * D,
                                         c.probs.data() + (static_cast<int64_t>(b) * H + h) * Tq * Tk,
                                         dctx + qb + h * D, dq + qb + h * D, dk + kb + h * D, dv + kb + h * D, Tq,
                                         Tk, C, D, scale);
      }
      return;
    }
  }
  Mat<T> dP(Tq, Tk), dS(Tq, Tk);
  for (int b = 0; b < B; ++b) {
    const int64_t qb = static_cast<int64_t>(b) * Tq * C, kb = static_cast<int64_t>(b) * Tk * C;
    for (int h = 0; h < H; ++h) {
      const Eigen::OuterStride<> st(C);
      CStrided<T> Qh(c.q.data() + qb + h * D, Tq, D, st), Kh(c.k.data() + kb + h * D, Tk, D, st),
          Vh(c.v.data() + kb + h * D, Tk, D, st), dCh(dctx + qb + h * D, Tq, D, st);
      Strided<T> dQh(dq + qb + h * D, Tq, D, st), dKh(dk + kb + h * D, Tk, D, st), dVh(dv + kb + h * D, Tk, D, st);
      CMatMap<T> P(c.probs.data() + (static_cast<int64_t>(b) * H + h) * Tq * Tk, Tq, Tk);
      dVh.noalias() = P.transpose() * dCh;
      dP.noalias() = dCh * Vh.transpose();
      for (int i = 0; i < Tq; ++i) {
        T dot = dP.row(i).dot(P.row(i));
        dS.row(i) = (P.row(i).array() * (dP.row(i).array() - dot) * scale).matrix();
      }
      dQh.noalias() = dS * Kh;
      dKh.noalias() = dS.transpose() * Qh;
    }
  }
}
}  // namespace

template <class T>
void attention_core(const T* Q, const T* K, const T* V, T* ctx, T* probs, int B, int Tq, int Tk, int q_stride,
                    int k_stride, int C, int H, const int32_t* key_len, bool causal, int causal_offset) {
  const int D = C / H;
  const T scale = T(1) / std::sqrt(T(D));
  if constexpr (std::is_same_v<T, float>) {
    // A decoding pass's query row (one per sequence, no weights kept): the
    // AVX-512 row kernel where the few-row products run on AVX-512.
    if (Tq == 1 && !probs && !causal && avx512_heads<T>(D)) {
      for (int b = 0; b < B; ++b) {
        const int64_t qb = static_cast<int64_t>(b) * q_stride * C, kb = static_cast<int64_t>(b) * k_stride * C;
        const int klen = key_len ? key_len[b] : Tk;
        for (int h = 0; h < H; ++h) {
          if (klen < 1) {
            std::fill_n(ctx + qb + h * D, D, 0.0f);
            continue;
          }
          attention_row_avx512(Q + qb + h * D, K + kb + h * D, V + kb + h * D, ctx + qb + h * D, klen, C, D, scale);
        }
      }
      return;
    }
    // Training's and the encoder's full sequences, weights kept: the
    // AVX-512 per-head kernel.
    if (probs && avx512_heads<T>(D)) {
      for (int b = 0; b < B; ++b) {
        const int64_t qb = static_cast<int64_t>(b) * q_stride * C, kb = static_cast<int64_t>(b) * k_stride * C;
        const int klen = key_len ? key_len[b] : Tk;
        for (int h = 0; h < H; ++h)
          attention_head_forward_avx512(Q + qb + h * D, K + kb + h * D, V + kb + h * D, ctx + qb + h * D,
                                        probs + (static_cast<int64_t>(b) * H + h) * Tq * Tk, Tq, Tk, C, D, scale,
                                        klen, causal, causal_offset);
      }
      return;
    }
  }
  Mat<T> S(Tq, Tk);
  for (int b = 0; b < B; ++b) {
    const int64_t qb = static_cast<int64_t>(b) * q_stride * C, kb = static_cast<int64_t>(b) * k_stride * C;
    const int klen = key_len ? key_len[b] : Tk;
    for (int h = 0; h < H; ++h) {
      CStrided<T> Qh(Q + qb + h * D, Tq, D, Eigen::OuterStride<>(C));
      CStrided<T> Kh(K + kb + h * D, Tk, D, Eigen::OuterStride<>(C));
      CStrided<T> Vh(V + kb + h * D, Tk, D, Eigen::OuterStride<>(C));
      S.noalias() = (Qh * Kh.transpose()) * scale;
      for (int i = 0; i < Tq; ++i) {
        int last = klen;  // keys [0, last) are visible
        if (causal && i + causal_offset + 1 < last) last = i + causal_offset + 1;
        auto row = S.row(i);
        T mx = row.head(last).maxCoeff();
        T z = 0;
        for (int j = 0; j < last; ++j) z += (row[j] = std::exp(row[j] - mx));
        row.head(last) /= z;
        row.tail(Tk - last).setZero();
      }
      Strided<T>(ctx + static_cast<int64_t>(b) * q_stride * C + h * D, Tq, D, Eigen::OuterStride<>(C)).noalias() =
          S * Vh;
      if (probs) MatMap<T>(probs + (static_cast<int64_t>(b) * H + h) * Tq * Tk, Tq, Tk) = S;
    }
  }
}

template <class T>
void attention_forward(const AttnWeights<T>& w, const T* q_in, const T* kv_in, T* y, int B, int Tq, int Tk, int C,
                       int H, const int32_t* key_len, bool causal, AttnCache<T>& c) {
  const int Nq = B * Tq, Nk = B * Tk;
  c.q.resize(static_cast<int64_t>(Nq) * C);
  c.k.resize(static_cast<int64_t>(Nk) * C);
  c.v.resize(static_cast<int64_t>(Nk) * C);
  c.ctx.resize(static_cast<int64_t>(Nq) * C);
  c.probs.resize(static_cast<int64_t>(B) * H * Tq * Tk);
  linear_forward<T>(q_in, w.wq, w.bq, c.q.data(), Nq, C, C);
  linear_forward<T>(kv_in, w.wk, w.bk, c.k.data(), Nk, C, C);
  linear_forward<T>(kv_in, w.wv, w.bv, c.v.data(), Nk, C, C);
  attention_core<T>(c.q.data(), c.k.data(), c.v.data(), c.ctx.data(), c.probs.data(), B, Tq, Tk, Tq, Tk, C, H,
                    key_len, causal, 0);
  linear_forward<T>(c.ctx.data(), w.wo, w.bo, y, Nq, C, C);
}

template <class T>
void attention_backward(const AttnWeights<T>& w, const AttnGrads<T>& g, const T* q_in, const T* kv_in, const T* dy,
                        T* dq_in, T* dkv_in, int B, int Tq, int Tk, int C, int H, AttnCache<T>& c) {
  const int Nq = B * Tq, Nk = B * Tk;
  std::vector<T> dctx(static_cast<int64_t>(Nq) * C), dq(static_cast<int64_t>(Nq) * C),
      dk(static_cast<int64_t>(Nk) * C), dv(static_cast<int64_t>(Nk) * C);
  linear_backward<T>(c.ctx.data(), w.wo, dy, dctx.data(), g.wo, g.bo, Nq, C, C, false);
  heads_backward<T>(c, dctx.data(), dq.data(), dk.data(), dv.data(), B, Tq, Tk, C, H);
  linear_backward<T>(q_in, w.wq, dq.data(), dq_in, g.wq, g.bq, Nq, C, C, true);
  // The key bias adds q.b_k to every score of a row, which the softmax
  // ignores: its gradient is exactly zero, so none is added (PyTorch's
  // rounding noise there, ~1e-9, would drive Adam's first step to ~lr).
  linear_backward<T>(kv_in, w.wk, dk.data(), dkv_in, g.wk, static_cast<T*>(nullptr), Nk, C, C, true);
  linear_backward<T>(kv_in, w.wv, dv.data(), dkv_in, g.wv, g.bv, Nk, C, C, true);
}

#define MT_ATTN_INST(T)                                                                                             \
  template void attention_core<T>(const T*, const T*, const T*, T*, T*, int, int, int, int, int, int, int,         \
                                  const int32_t*, bool, int);                                                      \
  template void attention_forward<T>(const AttnWeights<T>&, const T*, const T*, T*, int, int, int, int, int,       \
                                     const int32_t*, bool, AttnCache<T>&);                                         \
  template void attention_backward<T>(const AttnWeights<T>&, const AttnGrads<T>&, const T*, const T*, const T*, T*, \
                                      T*, int, int, int, int, int, AttnCache<T>&);
MT_ATTN_INST(float)
MT_ATTN_INST(double)

}  // namespace mt
