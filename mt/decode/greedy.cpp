#include "mt/decode/greedy.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "mt/decode/placeholder_quota.h"
#include "mt/decode/sorted_batches.h"
#include "mt/tensor/row_kernels.h"

namespace mt {

int output_limit(const Config& cfg, const DecodeOptions& opt, int src_len) {
  return std::min(cfg.max_len, static_cast<int>(std::ceil(opt.max_len_factor * src_len)) + 10);
}

namespace {

void decode_batch(const Config& cfg, const float* p, Transformer<float>& model, DecoderCache<float>& cache,
                  const std::vector<const std::vector<int32_t>*>& src, const DecodeOptions& opt,
                  std::vector<std::vector<int32_t>*>& out, std::vector<SentenceStats>& st) {
  const int B = static_cast<int>(src.size());
  Batch batch = make_batch(cfg, src, {});
  std::vector<int> limit(B);
  int tmax = 1;
  for (int b = 0; b < B; ++b) tmax = std::max(tmax, limit[b] = output_limit(cfg, opt, batch.src_len[b]));

  model.start_decoding(p, batch, tmax, cache);
  // Row r of a pass decodes sentence row_of[r]; a sentence that finishes
  // leaves the batch, so a pass runs only the unfinished ones.
  std::vector<int> row_of(B), keep;
  for (int b = 0; b < B; ++b) row_of[b] = b;
  std::vector<int32_t> tok(B, cfg.bos_id);
  std::vector<float> logits;
  std::vector<std::vector<int>> demand(opt.quota ? B : 0);
  for (int b = 0; b < static_cast<int>(demand.size()); ++b) demand[b] = opt.quota->demand(*src[b]);
  for (int t = 0; t < tmax && cache.B > 0; ++t) {
    model.decode(p, cache, tok.data(), 1, t, logits);
    keep.clear();
    for (int r = 0; r < cache.B; ++r) {
      const int b = row_of[r];
      ++st[b].passes;
      float* row = logits.data() + static_cast<size_t>(r) * cfg.trg_vocab;
      if (opt.quota) opt.quota->mask(demand[b], out[b]->data(), out[b]->size(), static_cast<size_t>(limit[b]), row);
      int best = 0;  // the first largest logit (std::max_element's), eight at a time
      row_max(row, cfg.trg_vocab, &best);
      ++st[b].tokens;
      if (best == cfg.eos_id || t + 1 >= limit[b]) {
        if (best != cfg.eos_id) out[b]->push_back(best);
        continue;
      }
      out[b]->push_back(best);
      keep.push_back(r);
      tok[keep.size() - 1] = best;
      row_of[keep.size() - 1] = b;
    }
    if (static_cast<int>(keep.size()) < cache.B) cache.compact(keep, t + 1);
  }
}

}  // namespace

std::vector<std::vector<int32_t>> greedy_translate(const Config& cfg, const float* params,
                                                   const std::vector<std::vector<int32_t>>& src,
                                                   const DecodeOptions& opt, std::vector<SentenceStats>* stats) {
  std::vector<std::vector<int32_t>> out(src.size());
  std::vector<SentenceStats> all(src.size());
  for_sorted_batches(cfg, params, opt.packed, src, opt.batch_size, [&](DecodeWorkspace& ws, const auto& s, const std::vector<size_t>& idx) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::vector<int32_t>*> o;
    for (size_t i : idx) o.push_back(&out[i]);
    std::vector<SentenceStats> st(s.size());
    decode_batch(cfg, params, ws.model, ws.cache, s, opt, o, st);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (size_t j = 0; j < idx.size(); ++j) {
      st[j].ms = ms / static_cast<double>(idx.size());
      all[idx[j]] = st[j];
    }
  });
  if (stats) *stats = std::move(all);
  return out;
}

}  // namespace mt
