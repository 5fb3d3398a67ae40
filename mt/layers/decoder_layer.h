// One Transformer decoder layer — self-attention, cross-attention over the
// encoder output, feed-forward, each a residual sublayer — for training (the
// whole target at once, everything kept for the backward pass) and for every
// decoding mode (new positions only, keys and values kept in a KV cache).
// Both run the same wiring, so a decoder step equals the training forward.
//
// B = sequences, Tq = target positions run per sequence (rows b*Tq + i),
// S = source positions, C = dim, H = heads, F = ffn_dim.
#pragma once

#include <cstdint>
#include <vector>

#include "mt/layers/attention.h"
#include "mt/layers/dropout.h"
#include "mt/layers/ffn.h"
#include "mt/layers/residual.h"

namespace mt {

template <class T>
struct DecoderLayerWeights {
  AttnWeights<T> self, cross;
  const T *self_g, *self_b, *cross_g, *cross_b, *ffn_g, *ffn_b;  // the three layer norms
  const T *w1, *b1, *w2, *b2;                                    // feed-forward
};
template <class T>
struct DecoderLayerGrads {
  AttnGrads<T> self, cross;
  T *self_g, *self_b, *cross_g, *cross_b, *ffn_g, *ffn_b;
  T *w1, *b1, *w2, *b2;
};

struct DecoderLayerSettings {
  ResidualSettings residual;
  int C = 0, H = 0, F = 0;
  Activation activation = Activation::kRelu;
};

// The rows of one pass. Without a cache (training) the Tq rows of sequence b
// are positions 0..Tq-1, keys masked at trg_len[b] and causally. With a
// cache they are positions t0..t0+Tq-1, attending to the cached positions
// before t0 and causally among themselves.
//
// With `branches` > 1 (a cache, B = 1: the candidates of lookahead decoding)
// the rows are a tree: row 0 at position t0, then `branches` chains of
// L = (Tq - 1) / branches rows, chain c's rows 1 + c*L + d - 1 at position
// t0 + d (d = 1..L), each attending to the cache before t0, row 0 and its own
// chain up to itself — the keys a one-branch pass of that chain would see,
// in the same order, so its results are the same bits.
struct DecoderRows {
  int B = 0, Tq = 0, S = 0;
  const int32_t* src_len = nullptr;  // [B] source positions that count
  const int32_t* trg_len = nullptr;  // [B] without a cache (may be null)
  int t0 = 0;                        // with a cache
  int branches = 1;                  // with a cache
  // With a cache: sequence b attends to the source keys and values of block
  // source[b] (beams of one sentence share theirs; finished sentences leave
  // without moving them). Null: block b.
  const int32_t* source = nullptr;
};

// One layer's keys and values while decoding: self-attention's at rows
// b*capacity + t, cross-attention's of source block i at rows i*S + s (a
// sequence's block: DecoderRows::source).
template <class T>
struct LayerKv {
  int capacity = 0, dim = 0;
  std::vector<T> self_k, self_v, cross_k, cross_v;
  // A tree pass's new keys and values [Tq, C], kept until keep_branch puts
  // the chosen chain's rows in place after t0.
  std::vector<T> tree_k, tree_v;
  int tree_t0 = 0, tree_len = 0;
  // Makes positions tree_t0 + 1 .. tree_t0 + rows hold chain c's first
  // `rows` rows of the last tree pass.
  void keep_branch(int c, int rows);
};

// What a pass keeps: the backward pass's inputs, and scratch for decoding.
template <class T>
struct DecoderLayerState {
  Residual<T> self, cross, ffn;
  AttnCache<T> self_attn, cross_attn;
  FfnCache<T> ffn_cache;
};

// Sizes `kv` for B sequences of up to `capacity` positions and projects the
// cross-attention keys and values of enc [B*S, C].
template <class T>
void decoder_layer_start(const DecoderLayerWeights<T>& w, const DecoderLayerSettings& s, const T* enc, int B, int S,
                         int capacity, LayerKv<T>& kv);

// x [B*Tq, C] in; returns the layer's output [B*Tq, C], held in `st`. With
// kv null, attends over enc [B*S, C] (training); otherwise over kv, storing
// the keys and values of the new positions in it. `seeds` gives each
// sublayer's dropout mask.
template <class T>
const T* decoder_layer_forward(const DecoderLayerWeights<T>& w, const DecoderLayerSettings& s, const DecoderRows& r,
                               const T* x, const T* enc, LayerKv<T>* kv, DecoderLayerState<T>& st,
                               SeedSequence& seeds);

// The backward of a forward without a cache: d holds d(output) and becomes
// d(x); d(enc) is added to denc, parameter gradients to g.
template <class T>
void decoder_layer_backward(const DecoderLayerWeights<T>& w, const DecoderLayerGrads<T>& g,
                            const DecoderLayerSettings& s, const DecoderRows& r, const T* enc,
                            DecoderLayerState<T>& st, std::vector<T>& d, T* denc);

}  // namespace mt
