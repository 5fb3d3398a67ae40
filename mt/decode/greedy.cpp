#include "mt/decode/greedy.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numeric>


namespace mt {

namespace {

void decode_batch(const Config& cfg, const float* p, Transformer<float>& model,
                  const std::vector<const std::vector<int32_t>*>& src, const DecodeOptions& opt,
                  std::vector<std::vector<int32_t>*>& out) {
  const int B = static_cast<int>(src.size());
  Batch batch = make_batch(cfg, src, {});
  int tmax = 1;
  for (int b = 0; b < B; ++b)
    tmax = std::max(tmax, static_cast<int>(std::ceil(opt.max_len_factor * batch.src_len[b])) + 10);
  tmax = std::min(tmax, cfg.max_len);
  std::vector<int> limit(B);
  for (int b = 0; b < B; ++b)
    limit[b] = std::min(tmax, static_cast<int>(std::ceil(opt.max_len_factor * batch.src_len[b])) + 10);

  DecoderCache<float> cache;
  model.start_decoding(p, batch, tmax, cache);
  std::vector<int32_t> tok(B, cfg.bos_id);
  std::vector<char> done(B, 0);
  std::vector<float> logits;
  int remaining = B;
  for (int t = 0; t < tmax && remaining > 0; ++t) {
    model.decode(p, cache, tok.data(), 1, t, logits);
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
    decode_batch(cfg, params, model, s, opt, o);
  });
  return out;
}

}  // namespace mt
