#include "mt/decode/greedy.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "mt/layers/attention.h"
#include "mt/layers/embedding.h"
#include "mt/layers/ffn.h"
#include "mt/layers/layernorm.h"

namespace mt {

namespace {

struct LayerCache {
  std::vector<float> self_k, self_v;    // [B*Tmax, C]
  std::vector<float> cross_k, cross_v;  // [B*S, C]
};

class Stepper {
 public:
  Stepper(const Config& cfg, const float* p, int B) : cfg_(cfg), p_(p), B_(B), C_(cfg.dim) {
    const size_t n = static_cast<size_t>(B) * C_;
    q_.resize(n), ctx_.resize(n), tmp_.resize(n), n_.resize(n), mean_.resize(B), rstd_.resize(B);
  }

  // y = attention sublayer output for x [B,C]; keys/values of `cache`.
  void self_attn(const AttnOffsets& a, const float* x, LayerCache& lc, int t, int tmax, float* y) {
    linear_forward<float>(x, p_ + a.wq, p_ + a.bq, q_.data(), B_, C_, C_);
    linear_forward<float>(x, p_ + a.wk, p_ + a.bk, tmp_.data(), B_, C_, C_);
    for (int b = 0; b < B_; ++b)
      std::copy_n(tmp_.data() + static_cast<size_t>(b) * C_, C_,
                  lc.self_k.data() + (static_cast<size_t>(b) * tmax + t) * C_);
    linear_forward<float>(x, p_ + a.wv, p_ + a.bv, tmp_.data(), B_, C_, C_);
    for (int b = 0; b < B_; ++b)
      std::copy_n(tmp_.data() + static_cast<size_t>(b) * C_, C_,
                  lc.self_v.data() + (static_cast<size_t>(b) * tmax + t) * C_);
    attention_core<float>(q_.data(), lc.self_k.data(), lc.self_v.data(), ctx_.data(), nullptr, B_, 1, t + 1, 1, tmax,
                          C_, cfg_.heads, nullptr, false, 0);
    linear_forward<float>(ctx_.data(), p_ + a.wo, p_ + a.bo, y, B_, C_, C_);
  }

  void cross_attn(const AttnOffsets& a, const float* x, LayerCache& lc, int S, const int32_t* src_len, float* y) {
    linear_forward<float>(x, p_ + a.wq, p_ + a.bq, q_.data(), B_, C_, C_);
    attention_core<float>(q_.data(), lc.cross_k.data(), lc.cross_v.data(), ctx_.data(), nullptr, B_, 1, S, 1, S, C_,
                          cfg_.heads, src_len, false, 0);
    linear_forward<float>(ctx_.data(), p_ + a.wo, p_ + a.bo, y, B_, C_, C_);
  }

  void norm(const NormOffsets& n, const float* x, float* y) {
    layernorm_forward<float>(x, p_ + n.g, p_ + n.b, y, mean_.data(), rstd_.data(), B_, C_,
                             static_cast<float>(cfg_.ln_eps));
  }

  // A residual sublayer on x in place: post-norm x = LN(x + f(x)),
  // pre-norm x = x + f(LN(x)).
  template <class F>
  void residual(const NormOffsets& ln, std::vector<float>& x, F&& f) {
    const float* in = x.data();
    if (cfg_.pre_norm) {
      norm(ln, x.data(), n_.data());
      in = n_.data();
    }
    f(in, sub_);
    for (size_t i = 0; i < x.size(); ++i) x[i] += sub_[i];
    if (!cfg_.pre_norm) {
      norm(ln, x.data(), tmp_.data());
      x.swap(tmp_);
    }
  }

  std::vector<float> sub_;
  FfnCache<float> ffn_;

 private:
  const Config& cfg_;
  const float* p_;
  int B_, C_;
  std::vector<float> q_, ctx_, tmp_, n_, mean_, rstd_;
};

void decode_batch(const Config& cfg, const ModelOffsets& off, const float* p, Transformer<float>& model,
                  const std::vector<const std::vector<int32_t>*>& src, const DecodeOptions& opt,
                  std::vector<std::vector<int32_t>*>& out) {
  const int B = static_cast<int>(src.size()), C = cfg.dim;
  Batch batch = make_batch(cfg, src, {});
  std::vector<float> enc;
  model.encode(p, batch, enc);
  const int S = batch.S;
  int tmax = 1;
  for (int b = 0; b < B; ++b)
    tmax = std::max(tmax, static_cast<int>(std::ceil(opt.max_len_factor * batch.src_len[b])) + 10);
  tmax = std::min(tmax, cfg.max_len);
  std::vector<int> limit(B);
  for (int b = 0; b < B; ++b)
    limit[b] = std::min(tmax, static_cast<int>(std::ceil(opt.max_len_factor * batch.src_len[b])) + 10);

  std::vector<LayerCache> lc(cfg.dec_layers);
  for (int l = 0; l < cfg.dec_layers; ++l) {
    const AttnOffsets& a = off.dec[l].cross;
    lc[l].cross_k.resize(enc.size());
    lc[l].cross_v.resize(enc.size());
    linear_forward<float>(enc.data(), p + a.wk, p + a.bk, lc[l].cross_k.data(), B * S, C, C);
    linear_forward<float>(enc.data(), p + a.wv, p + a.bv, lc[l].cross_v.data(), B * S, C, C);
    lc[l].self_k.assign(static_cast<size_t>(B) * tmax * C, 0.0f);
    lc[l].self_v.assign(static_cast<size_t>(B) * tmax * C, 0.0f);
  }
  Stepper st(cfg, p, B);
  std::vector<int32_t> tok(B, cfg.bos_id), pos(B);
  std::vector<char> done(B, 0);
  std::vector<float> x(static_cast<size_t>(B) * C), top(x.size()), logits(static_cast<size_t>(B) * cfg.trg_vocab);
  std::vector<float> mean(B), rstd(B);
  int remaining = B;
  for (int t = 0; t < tmax && remaining > 0; ++t) {
    std::fill(pos.begin(), pos.end(), t);
    embedding_forward<float>(tok.data(), pos.data(), p + off.trg_emb, x.data(), B, C, std::sqrt(static_cast<float>(C)));
    for (int l = 0; l < cfg.dec_layers; ++l) {
      const DecLayerOffsets& o = off.dec[l];
      st.sub_.resize(x.size());
      st.residual(o.self_ln, x, [&](const float* in, std::vector<float>& y) { st.self_attn(o.self, in, lc[l], t, tmax, y.data()); });
      st.residual(o.cross_ln, x, [&](const float* in, std::vector<float>& y) {
        st.cross_attn(o.cross, in, lc[l], S, batch.src_len.data(), y.data());
      });
      st.residual(o.ffn_ln, x, [&](const float* in, std::vector<float>& y) {
        ffn_forward<float>(cfg.activation, in, p + o.ffn.w1, p + o.ffn.b1, p + o.ffn.w2, p + o.ffn.b2, y.data(), B, C,
                           cfg.ffn_dim, st.ffn_);
      });
    }
    const float* h = x.data();
    if (cfg.pre_norm) {
      layernorm_forward<float>(x.data(), p + off.dec_final.g, p + off.dec_final.b, top.data(), mean.data(),
                               rstd.data(), B, C, static_cast<float>(cfg.ln_eps));
      h = top.data();
    }
    linear_forward<float>(h, p + off.out_w, p + off.out_b, logits.data(), B, cfg.trg_vocab, C);
    for (int b = 0; b < B; ++b) {
      if (done[b]) continue;
      const float* row = logits.data() + static_cast<size_t>(b) * cfg.trg_vocab;
      int best = static_cast<int>(std::max_element(row, row + cfg.trg_vocab) - row);
      tok[b] = best;
      if (best == cfg.eos_id || t + 1 >= limit[b]) {
        if (best != cfg.eos_id) out[b]->push_back(best);
        done[b] = 1;
        --remaining;
      } else {
        out[b]->push_back(best);
      }
    }
  }
}

}  // namespace

std::vector<std::vector<int32_t>> greedy_translate(const Config& cfg, const float* params,
                                                   const std::vector<std::vector<int32_t>>& src,
                                                   const DecodeOptions& opt) {
  std::vector<std::vector<int32_t>> out(src.size()), cut(src.size());
  // Sentences of similar length together; results go back to input order.
  std::vector<size_t> order(src.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return src[a].size() < src[b].size(); });
  const size_t bs = static_cast<size_t>(std::max(1, opt.batch_size));
  const size_t nbatches = (order.size() + bs - 1) / bs;
  // Batches are independent: on all threads, each with its own buffers.
  tbb::parallel_for(size_t{0}, nbatches, [&](size_t k) {
    Transformer<float> model(cfg);
    std::vector<const std::vector<int32_t>*> s;
    std::vector<std::vector<int32_t>*> o;
    for (size_t j = k * bs; j < std::min(order.size(), (k + 1) * bs); ++j) {
      const auto& x = src[order[j]];
      if (static_cast<int>(x.size()) >= cfg.max_len) {
        cut[order[j]].assign(x.begin(), x.begin() + (cfg.max_len - 1));
        s.push_back(&cut[order[j]]);
      } else {
        s.push_back(&x);
      }
      o.push_back(&out[order[j]]);
    }
    decode_batch(cfg, model.offsets(), params, model, s, opt, o);
  });
  return out;
}

}  // namespace mt
