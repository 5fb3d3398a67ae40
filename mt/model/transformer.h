// The encoder-decoder Transformer: parameter layout, and the training pass
// (forward and backward over a padded batch, llm.c style).
//
// B = batch, S = source time, U = target time, C = dim, F = ffn_dim,
// V = target vocabulary. Source rows [B*S, C]; target rows [B*U, C].
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "mt/layers/attention.h"
#include "mt/layers/decoder_layer.h"
#include "mt/layers/ffn.h"
#include "mt/layers/loss.h"
#include "mt/model/config.h"
#include "mt/model/params.h"

namespace mt {

// Offsets of one attention's weights in the flat buffer.
struct AttnOffsets {
  int64_t wq, bq, wk, bk, wv, bv, wo, bo;
  template <class T>
  AttnWeights<T> weights(const T* p) const {
    return {p + wq, p + bq, p + wk, p + bk, p + wv, p + bv, p + wo, p + bo};
  }
  template <class T>
  AttnGrads<T> grads(T* g) const {
    return {g + wq, g + bq, g + wk, g + bk, g + wv, g + bv, g + wo, g + bo};
  }
};
struct NormOffsets {
  int64_t g, b;
};
struct FfnOffsets {
  int64_t w1, b1, w2, b2;
};
struct EncLayerOffsets {
  AttnOffsets self;
  NormOffsets self_ln;
  FfnOffsets ffn;
  NormOffsets ffn_ln;
};
struct DecLayerOffsets {
  AttnOffsets self, cross;
  NormOffsets self_ln, cross_ln;
  FfnOffsets ffn;
  NormOffsets ffn_ln;
  template <class T>
  DecoderLayerWeights<T> weights(const T* p) const {
    return {self.weights(p), cross.weights(p), p + self_ln.g, p + self_ln.b, p + cross_ln.g, p + cross_ln.b,
            p + ffn_ln.g,    p + ffn_ln.b,     p + ffn.w1,    p + ffn.b1,    p + ffn.w2,     p + ffn.b2};
  }
  template <class T>
  DecoderLayerGrads<T> grads(T* g) const {
    return {self.grads(g), cross.grads(g), g + self_ln.g, g + self_ln.b, g + cross_ln.g, g + cross_ln.b,
            g + ffn_ln.g,  g + ffn_ln.b,   g + ffn.w1,    g + ffn.b1,    g + ffn.w2,     g + ffn.b2};
  }
};
struct ModelOffsets {
  int64_t src_emb, trg_emb, out_w, out_b;  // trg_emb == src_emb when shared; out_w == trg_emb when tied
  std::vector<EncLayerOffsets> enc;
  std::vector<DecLayerOffsets> dec;
  NormOffsets enc_final{-1, -1}, dec_final{-1, -1};  // pre-norm only
};

// Builds the layout of a config: names such as "emb.src", "enc.0.self.wq",
// "dec.1.cross_ln.g", "out.b".
ParamLayout make_layout(const Config& cfg, ModelOffsets& off);

// A padded batch. Source: tokens then EOS; decoder input: BOS then tokens;
// decoder output: tokens then EOS. Padding rows have target -1.
struct Batch {
  int B = 0, S = 0, U = 0;
  std::vector<int32_t> src, src_pos, src_len;      // [B*S], [B*S], [B]
  std::vector<int32_t> trg_in, trg_pos, trg_out;  // [B*U] each
  std::vector<int32_t> trg_len;                   // [B]
  int64_t trg_tokens = 0;                          // targets that count (sum of trg_len)
};

// Builds a batch from token sequences (without BOS/EOS).
Batch make_batch(const Config& cfg, const std::vector<const std::vector<int32_t>*>& src,
                 const std::vector<const std::vector<int32_t>*>& trg);

struct PassOptions {
  float dropout = 0;            // on embeddings and every sublayer output
  float label_smoothing = 0;
  double loss_scale = 1;        // gradients are of loss_sum * loss_scale
  uint64_t seed = 0;            // dropout masks
  bool keep_logits = false;     // copy the logits before the softmax (tests)
};

// The decoder's state while a batch of B sequences is decoded: every
// layer's cross-attention keys and values of the source, and the
// self-attention keys and values of the target positions run so far (room
// for `capacity` per sequence). Running positions from t0 again overwrites
// theirs, so a decoder may go back to any t0 (Jacobi, lookahead).
template <class T>
struct DecoderCache {
  int B = 0, S = 0, capacity = 0;
  std::vector<int32_t> src_len;  // [B]
  std::vector<int32_t> source;   // [B] each sequence's cross-attention block (DecoderRows::source)
  std::vector<LayerKv<T>> layers;
  // Sequences 0..rows.size()-1 become copies of sequences rows[j] (any, in
  // any order, repeats allowed) with their first `length` positions, source
  // block and length (beam search: a beam's continuations). Only the
  // self-attention rows move; the source blocks stay where they are.
  void select(const std::vector<int>& rows, int length);
  // Keeps only the sequences `keep` (ascending), as sequences 0..keep.size()-1
  // with their first `length` positions, cross-attention and source length:
  // finished sentences leave a decoding batch.
  void compact(const std::vector<int>& keep, int length);
  // After a tree pass (decode with branches > 1): positions t0+1 .. t0+rows
  // take chain c's first `rows` rows, so the cache holds that chain's path.
  void keep_branch(int c, int rows);
};

// Rows made from a decoding pass's top rows (after the final norm) that go
// through the output projection in the same product (draft heads,
// mt/decode/draft_heads.h): make(top, N, out) writes N * per_row rows of dim
// values. Their logits follow the pass's N rows. A row's logits do not depend
// on the rows computed with it while the product has at most kFewRows rows;
// past that the extra rows get a product of their own.
template <class T>
struct ExtraRows {
  int per_row = 0;
  std::function<void(const T* top, int N, T* out)> make;
};

template <class T>
class Transformer {
 public:
  explicit Transformer(const Config& cfg);
  const Config& config() const { return cfg_; }
  const ParamLayout& layout() const { return layout_; }
  const ModelOffsets& offsets() const { return off_; }

  // The loss of `batch`; with `grads` non-null, adds d(loss_sum *
  // loss_scale)/d(params) to it.
  XentResult pass(const T* params, T* grads, const Batch& batch, const PassOptions& opt);
  const std::vector<T>& logits() const { return logits_copy_; }  // [B*U, V] with keep_logits

  // The encoder alone (inference): enc [B*S, C].
  void encode(const T* params, const Batch& batch, std::vector<T>& enc);

  // Decoding: encodes the batch's sources and prepares `cache` for
  // `capacity` target positions per sequence; with `copies` > 1 each source
  // is decoded as that many sequences (beams), rows b*copies + j, encoded once.
  void start_decoding(const T* params, const Batch& batch, int capacity, DecoderCache<T>& cache, int copies = 1);
  // Runs positions t0 .. t0+Tq-1 of every sequence (tokens [B*Tq], row
  // b*Tq + i; position 0 holds BOS) through the decoder, given the cached
  // positions before t0, and stores theirs: logits [B*Tq, V]. The same
  // layers as pass(), so the logits equal the training forward's. With
  // `branches` > 1 (one sequence), the rows are a tree of that many chains
  // after row 0 (DecoderRows, mt/layers/decoder_layer.h).
  void decode(const T* params, DecoderCache<T>& cache, const int32_t* tokens, int Tq, int t0,
              std::vector<T>& logits, int branches = 1, const ExtraRows<T>* extra = nullptr);
  // The last decode()'s rows after the decoder's final norm, before the output
  // projection: [B*Tq, C], valid until the next call (draft heads read them).
  const T* decoder_top() const;

  struct Impl;

 private:
  Config cfg_;
  ModelOffsets off_;
  ParamLayout layout_;
  std::vector<T> logits_copy_;
  std::shared_ptr<Impl> impl_;
};

}  // namespace mt
