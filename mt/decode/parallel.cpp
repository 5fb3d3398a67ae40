#include "mt/decode/parallel.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_map>

#include "libcorpus/core/error.h"
#include "mt/decode/sorted_batches.h"
#include "mt/tensor/tensor.h"

namespace mt {

DecodeMode parse_decode_mode(const std::string& name) {
  if (name == "greedy") return DecodeMode::kGreedy;
  if (name == "jacobi") return DecodeMode::kJacobi;
  if (name == "gs-jacobi") return DecodeMode::kGsJacobi;
  if (name == "hybrid") return DecodeMode::kHybrid;
  throw corpus::ConfigError("unknown decoding mode " + corpus::quote(name), "use greedy, jacobi, gs-jacobi or hybrid");
}

DraftSource parse_draft_source(const std::string& name) {
  if (name == "pad") return DraftSource::kPad;
  if (name == "copy") return DraftSource::kCopy;
  if (name == "ngram") return DraftSource::kNgram;
  throw corpus::ConfigError("unknown draft source " + corpus::quote(name), "use pad, copy or ngram");
}

namespace {

class Drafter {
 public:
  Drafter(const Config& cfg, const ParallelOptions& o, const std::vector<int32_t>& src)
      : cfg_(cfg), o_(o), src_(src) {}

  // The guess for output position `pos`, following token `prev`.
  int32_t next(int32_t prev, int pos) const {
    if (o_.draft == DraftSource::kNgram) {
      auto it = pool_.find(prev);
      return it == pool_.end() ? cfg_.pad_id : it->second;
    }
    if (o_.draft == DraftSource::kCopy) {
      for (size_t i = src_.size(); i-- > 0;)
        if (src_[i] == prev) return i + 1 < src_.size() ? src_[i + 1] : cfg_.eos_id;
      return pos < static_cast<int>(src_.size()) ? src_[pos] : cfg_.pad_id;
    }
    return cfg_.pad_id;
  }
  // The model gave `out` after input `in` (with whatever context it had).
  void saw(int32_t in, int32_t out) {
    if (o_.draft == DraftSource::kNgram) pool_[in] = out;
  }

 private:
  const Config& cfg_;
  const ParallelOptions& o_;
  const std::vector<int32_t>& src_;
  std::unordered_map<int32_t, int32_t> pool_;
};

// The softmax probability of the row's largest logit.
float top_probability(const float* row, int V, float top) {
  double sum = 0;
  for (int v = 0; v < V; ++v) sum += std::exp(static_cast<double>(row[v] - top));
  return static_cast<float>(1.0 / sum);
}

void decode_one(const Config& cfg, const float* p, Transformer<float>& model, const std::vector<int32_t>& src,
                const DecodeOptions& opt, const ParallelOptions& po, std::vector<int32_t>& y, SentenceStats& st,
                DecodeTrace* trace) {
  Batch batch = make_batch(cfg, {&src}, {});
  const int limit = output_limit(cfg, opt, batch.src_len[0]);
  const int b = po.block, V = cfg.trg_vocab;
  DecoderCache<float> cache;
  model.start_decoding(p, batch, limit, cache);
  Drafter drafter(cfg, po, src);
  std::vector<int32_t> guess;  // guesses for the outputs after the accepted ones
  std::vector<int32_t> in, o;
  std::vector<float> logits;
  int eos_at = -1;  // where the first EOS was accepted
  int block_end = std::min(b, limit);
  while (static_cast<int>(y.size()) < limit) {
    const int t0 = static_cast<int>(y.size());
    const int end = po.mode == DecodeMode::kJacobi ? std::min(t0 + b, limit) : block_end;
    const int Tq = end - t0;
    in.assign(1, t0 == 0 ? cfg.bos_id : y.back());
    for (int i = 1; i < Tq; ++i) {
      if (i - 1 >= static_cast<int>(guess.size())) guess.push_back(drafter.next(in.back(), t0 + i - 1));
      in.push_back(guess[i - 1]);
    }
    model.decode(p, cache, in.data(), Tq, t0, logits);
    ++st.passes;
    o.resize(Tq);
    for (int i = 0; i < Tq; ++i) {
      const float* row = logits.data() + static_cast<size_t>(i) * V;
      o[i] = static_cast<int32_t>(std::max_element(row, row + V) - row);
      drafter.saw(in[i], o[i]);
    }
    int a = 1;  // outputs 0..a-1 saw only accepted inputs
    while (a < Tq && in[a] == o[a - 1]) ++a;
    if (trace) {
      PassTrace& pt = trace->emplace_back();
      pt.t0 = t0, pt.accepted = a, pt.out = o;
      for (int i = 0; i < Tq; ++i) {
        const float* row = logits.data() + static_cast<size_t>(i) * V;
        pt.prob.push_back(top_probability(row, V, row[o[i]]));
      }
    }
    for (int i = 0; i < a; ++i) {
      if (eos_at < 0 && o[i] == cfg.eos_id) eos_at = static_cast<int>(y.size());
      y.push_back(o[i]);
    }
    st.tokens += a;
    guess.assign(o.begin() + a, o.end());  // the Jacobi iterate for the next outputs
    if (po.mode == DecodeMode::kJacobi && eos_at >= 0) break;
    if (static_cast<int>(y.size()) == block_end) {  // a block settled
      if (po.mode == DecodeMode::kHybrid && eos_at >= 0) break;
      block_end = std::min(block_end + b, limit);
    }
  }
  if (eos_at >= 0) {
    y.resize(static_cast<size_t>(eos_at));
    st.tokens = eos_at + 1;
  } else {
    st.tokens = static_cast<int>(y.size());
  }
}

}  // namespace

std::vector<std::vector<int32_t>> parallel_translate(const Config& cfg, const float* params,
                                                     const std::vector<std::vector<int32_t>>& src,
                                                     const DecodeOptions& opt, const ParallelOptions& popt,
                                                     std::vector<SentenceStats>* stats,
                                                     std::vector<DecodeTrace>* traces) {
  if (popt.mode == DecodeMode::kGreedy) {
    DecodeOptions one = opt;
    one.batch_size = 1;
    return greedy_translate(cfg, params, src, one, stats);
  }
  if (popt.block < 1 || popt.block > kFewRows)
    throw corpus::ConfigError("block of " + std::to_string(popt.block) + " positions",
                              "give --block 1 to " + std::to_string(kFewRows) +
                                  " (the rows whose results the few-row kernel keeps independent)");
  if (popt.draft == DraftSource::kCopy && !cfg.shared_embeddings)
    throw corpus::ConfigError("--draft copy needs a model with one vocabulary for both sides",
                              "use --draft pad or ngram with this model");
  std::vector<std::vector<int32_t>> out(src.size());
  std::vector<SentenceStats> all(src.size());
  for_sorted_batches(cfg, src, 1, [&](const auto& s, const std::vector<size_t>& idx) {
    const auto t0 = std::chrono::steady_clock::now();
    Transformer<float> model(cfg);
    SentenceStats st;
    DecodeTrace* trace = traces && idx[0] < traces->size() ? &(*traces)[idx[0]] : nullptr;
    decode_one(cfg, params, model, *s[0], opt, popt, out[idx[0]], st, trace);
    st.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    all[idx[0]] = st;
  });
  if (stats) *stats = std::move(all);
  return out;
}

}  // namespace mt
