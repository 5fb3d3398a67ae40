// Multi-head scaled dot-product attention with key-padding and causal masks,
// and its backward pass. B = batch, Tq / Tk = query / key time, C = channels,
// H = heads, D = C / H. Rows of a [B*T, C] activation are b*T + t.
#pragma once

#include <cstdint>
#include <vector>

#include "mt/tensor/tensor.h"

namespace mt {

// The four projections, each W [C,C] and b [C].
template <class T>
struct AttnWeights {
  const T *wq, *bq, *wk, *bk, *wv, *bv, *wo, *bo;
};
template <class T>
struct AttnGrads {
  T *wq, *bq, *wk, *bk, *wv, *bv, *wo, *bo;
};

template <class T>
struct AttnCache {
  std::vector<T> q, k, v;  // [B*Tq,C], [B*Tk,C], [B*Tk,C] projections
  std::vector<T> probs;    // [B,H,Tq,Tk] attention weights
  std::vector<T> ctx;      // [B*Tq,C] heads concatenated, before W_o
};

// The core on projected Q, K, V: ctx = softmax(Q K^T / sqrt(D) + mask) V per
// head. Q holds sequence b at rows b*q_stride .. +Tq, K and V at rows
// b*k_stride .. +Tk (a KV cache has k_stride = its capacity). Key j of
// sequence b is masked when j >= key_len[b] (key_len may be null) or, with
// `causal`, when j > i + causal_offset. probs [B,H,Tq,Tk] receives the
// weights (may be null).
template <class T>
void attention_core(const T* Q, const T* K, const T* V, T* ctx, T* probs, int B, int Tq, int Tk, int q_stride,
                    int k_stride, int C, int H, const int32_t* key_len, bool causal, int causal_offset);

// y[B*Tq,C] = attention of q_in [B*Tq,C] over kv_in [B*Tk,C] (self-attention:
// the same pointer twice).
template <class T>
void attention_forward(const AttnWeights<T>& w, const T* q_in, const T* kv_in, T* y, int B, int Tq, int Tk, int C,
                       int H, const int32_t* key_len, bool causal, AttnCache<T>& cache);

// dq_in += ..., dkv_in += ... (may be the same pointer), weight gradients +=.
template <class T>
void attention_backward(const AttnWeights<T>& w, const AttnGrads<T>& g, const T* q_in, const T* kv_in, const T* dy,
                        T* dq_in, T* dkv_in, int B, int Tq, int Tk, int C, int H, AttnCache<T>& cache);

}  // namespace mt
