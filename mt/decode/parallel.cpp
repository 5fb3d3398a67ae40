#include "mt/decode/parallel.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_map>

#include "libcorpus/core/error.h"
#include "mt/decode/placeholder_quota.h"
#include "mt/decode/sorted_batches.h"
#include "mt/tensor/row_kernels.h"
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
  if (name == "ibm1") return DraftSource::kIbm1;
  if (name == "train-ngram") return DraftSource::kTrainNgram;
  if (name == "heads") return DraftSource::kHeads;
  throw corpus::ConfigError("unknown draft source " + corpus::quote(name),
                            "use pad, copy, ngram, train-ngram, ibm1 or heads");
}

namespace {

class Drafter {
 public:
  Drafter(const Config& cfg, const ParallelOptions& o, const std::vector<int32_t>& src,
          const std::vector<int32_t>* ibm1)
      : cfg_(cfg), o_(o), src_(src), ibm1_(ibm1) {}

  // The guess for output position `pos`, following token `prev`.
  int32_t next(int32_t prev, int pos) const {
    if (o_.draft == DraftSource::kNgram) return last_after(prev);
    if (o_.draft == DraftSource::kTrainNgram) return seen_or_pooled(prev);
    if (o_.draft == DraftSource::kCopy) return follow(src_, prev, pos);
    if (o_.draft == DraftSource::kIbm1) return follow(*ibm1_, prev, pos);
    return cfg_.pad_id;
  }
  // What follows the last occurrence of `prev` in `seq` (EOS after its end),
  // else seq's token at `pos`.
  int32_t follow(const std::vector<int32_t>& seq, int32_t prev, int pos) const {
    for (size_t i = seq.size(); i-- > 0;)
      if (seq[i] == prev) return i + 1 < seq.size() ? seq[i + 1] : cfg_.eos_id;
    return pos < static_cast<int>(seq.size()) ? seq[static_cast<size_t>(pos)] : cfg_.pad_id;
  }
  int32_t copied_after(int32_t prev, int pos) const { return follow(src_, prev, pos); }
  bool can_copy() const { return cfg_.shared_embeddings; }
  const std::vector<int32_t>* ibm1() const { return ibm1_; }
  const std::vector<int32_t>& source() const { return src_; }
  int32_t pad() const { return cfg_.pad_id; }
  int32_t last_after(int32_t prev) const {
    auto it = after_.find(prev);
    return it == after_.end() ? cfg_.pad_id : it->second.front();
  }
  // The model's last output after `prev` in this sentence, else the pool's
  // most frequent successor of `prev`, else PAD.
  int32_t seen_or_pooled(int32_t prev) const {
    const int32_t t = last_after(prev);
    if (t != cfg_.pad_id || !o_.pool) return t;
    const std::vector<int32_t>& v = o_.pool->after(prev);
    return v.empty() ? cfg_.pad_id : v.front();
  }
  const NgramPool* pool() const { return o_.pool; }
  // The distinct tokens the model gave after `prev`, most recent first.
  const std::vector<int32_t>& all_after(int32_t prev) const {
    static const std::vector<int32_t> kNone;
    auto it = after_.find(prev);
    return it == after_.end() ? kNone : it->second;
  }
  // The model gave `out` after input `in` (with whatever context it had).
  void saw(int32_t in, int32_t out) {
    if (o_.draft != DraftSource::kNgram && o_.draft != DraftSource::kTrainNgram && o_.candidates == 1) return;
    std::vector<int32_t>& v = after_[in];
    auto it = std::find(v.begin(), v.end(), out);
    if (it != v.end()) v.erase(it);
    v.insert(v.begin(), out);
    if (v.size() > static_cast<size_t>(std::max(1, o_.candidates))) v.pop_back();
  }

 private:
  const Config& cfg_;
  const ParallelOptions& o_;
  const std::vector<int32_t>& src_;
  const std::vector<int32_t>* ibm1_;
  std::unordered_map<int32_t, std::vector<int32_t>> after_;
};

// The chains of guesses of one pass, each of L tokens for positions t0+1..:
// chain 0 is `guess` (the Jacobi iterate, drafted on as needed), the others
// as ParallelOptions says.
std::vector<std::vector<int32_t>> candidate_chains(const ParallelOptions& po, Drafter& drafter,
                                                   std::vector<int32_t>& guess, int32_t x, int t0, int L) {
  std::vector<std::vector<int32_t>> chains;
  if (L == 0) return {std::vector<int32_t>{}};
  for (int i = static_cast<int>(guess.size()); i < L; ++i) guess.push_back(drafter.next(i ? guess[i - 1] : x, t0 + i));
  chains.emplace_back(guess.begin(), guess.begin() + L);
  auto add = [&](std::vector<int32_t> c) {
    if (static_cast<int>(chains.size()) < po.candidates && std::find(chains.begin(), chains.end(), c) == chains.end())
      chains.push_back(std::move(c));
  };
  // A chain along a sequence (the IBM1 draft, the source) from its guess after x.
  auto along = [&](const std::vector<int32_t>& seq) {
    std::vector<int32_t> c{drafter.follow(seq, x, t0)};
    while (static_cast<int>(c.size()) < L) c.push_back(drafter.follow(seq, c.back(), t0 + static_cast<int>(c.size())));
    return c;
  };
  if (po.candidates > 1 && drafter.ibm1()) add(along(*drafter.ibm1()));
  // A chain from `first` on by the model's last output after each token, the
  // IBM1 draft's or the pool's where there is none.
  auto onward = [&](int32_t first) {
    std::vector<int32_t> c{first};
    while (static_cast<int>(c.size()) < L) {
      const int pos = t0 + static_cast<int>(c.size());
      const int32_t n = drafter.ibm1() ? drafter.last_after(c.back()) : drafter.seen_or_pooled(c.back());
      c.push_back(n != drafter.pad() || !drafter.ibm1() ? n : drafter.follow(*drafter.ibm1(), c.back(), pos));
    }
    return c;
  };
  for (int32_t first : drafter.all_after(x)) add(onward(first));
  if (po.candidates > 1 && drafter.pool())
    for (int32_t first : drafter.pool()->after(x)) add(onward(first));
  if (po.candidates > 1 && drafter.can_copy()) add(along(drafter.source()));
  return chains;
}

// The softmax probability of the row's largest logit.
float top_probability(const float* row, int V, float top) {
  double sum = 0;
  for (int v = 0; v < V; ++v) sum += std::exp(static_cast<double>(row[v] - top));
  return static_cast<float>(1.0 / sum);
}

void decode_one(const Config& cfg, const float* p, Transformer<float>& model, DecoderCache<float>& cache,
                const std::vector<int32_t>& src,
                const DecodeOptions& opt, const ParallelOptions& po, std::vector<int32_t>& y, SentenceStats& st,
                DecodeTrace* trace, const std::vector<int32_t>* ibm1) {
  Batch batch = make_batch(cfg, {&src}, {});
  const int limit = output_limit(cfg, opt, batch.src_len[0]);
  const int b = po.block, V = cfg.trg_vocab;
  model.start_decoding(p, batch, limit, cache);
  Drafter drafter(cfg, po, src, ibm1);
  std::vector<int32_t> guess;  // guesses for the outputs after the accepted ones
  std::vector<int32_t> in, o, best, prefix;
  std::vector<float> logits, scratch;
  const std::vector<int> demand = opt.quota ? opt.quota->demand(src) : std::vector<int>{};
  // The heads guess from the row that gives the last accepted token. While
  // the pass's rows and one per head for each of them fit the 4-row tile of
  // the packed product (block 2), the heads' rows go through the output
  // projection with the pass's own, nearly free; past that a second
  // projection of all those rows would cost more than the heads' own
  // product on the winning row alone (bench/results/nmt-draft-heads-zen5.txt).
  const int nh = po.draft == DraftSource::kHeads ? std::min(po.heads->heads, b - 1) : 0;
  constexpr int kTileRows = 4;
  const ExtraRows<float> heads_rows{nh, [&](const float* top, int N, float* out) {
                                      po.heads->head_rows(top, N, nh, out, scratch);
                                    }};
  int eos_at = -1;  // where the first EOS was accepted
  int block_end = std::min(b, limit);
  while (static_cast<int>(y.size()) < limit) {
    const int t0 = static_cast<int>(y.size());
    const int end = po.mode == DecodeMode::kJacobi ? std::min(t0 + b, limit) : block_end;
    int L = end - t0 - 1;  // guessed positions a chain runs
    if (po.draft == DraftSource::kHeads) L = std::min(L, static_cast<int>(guess.size()));  // the heads' guesses only
    const int32_t x = t0 == 0 ? cfg.bos_id : y.back();
    const std::vector<std::vector<int32_t>> chains = candidate_chains(po, drafter, guess, x, t0, L);
    in.assign(1, x);
    for (const auto& c : chains) in.insert(in.end(), c.begin(), c.end());
    const int Tq = static_cast<int>(in.size()), K = static_cast<int>(chains.size());
    const bool fold = nh > 0 && Tq * (1 + nh) <= kTileRows;
    model.decode(p, cache, in.data(), Tq, t0, logits, L > 0 ? K : 1, fold ? &heads_rows : nullptr);
    ++st.passes;
    // Chain c's rows are 1 + c*L ..; its outputs o[0] then theirs.
    auto row_of = [&](int c, int d) { return static_cast<size_t>(d == 0 ? 0 : 1 + c * L + d - 1); };
    if (opt.quota) {  // each row masked for its own prefix, as greedy masks it
      prefix = y;
      opt.quota->mask(demand, prefix.data(), prefix.size(), static_cast<size_t>(limit), logits.data());
      for (int c = 0; c < K; ++c)
        for (int d = 1; d <= L; ++d) {
          prefix.resize(y.size());
          prefix.insert(prefix.end(), chains[static_cast<size_t>(c)].begin(), chains[static_cast<size_t>(c)].begin() + d);
          opt.quota->mask(demand, prefix.data(), prefix.size(), static_cast<size_t>(limit), logits.data() + row_of(c, d) * V);
        }
    }
    o.resize(Tq);
    for (int i = 0; i < Tq; ++i) {
      const float* row = logits.data() + static_cast<size_t>(i) * V;
      int arg = 0;  // as greedy picks: the first largest
      row_max(row, V, &arg);
      o[i] = arg;
    }
    for (int c = 0; c < K; ++c)
      for (int d = 0; d <= L; ++d) drafter.saw(in[row_of(c, d)], o[row_of(c, d)]);
    int a = 0, win = 0;  // outputs 0..a-1 of chain `win` saw only accepted inputs
    for (int c = 0; c < K; ++c) {
      const std::vector<int32_t>& chain = chains[static_cast<size_t>(c)];
      int ac = 1;
      while (ac <= L && chain[static_cast<size_t>(ac - 1)] == o[row_of(c, ac - 1)]) ++ac;
      if (ac > a) a = ac, win = c;
    }
    if (K > 1) cache.keep_branch(win, a - 1);
    best.resize(static_cast<size_t>(L) + 1);
    for (int d = 0; d <= L; ++d) best[static_cast<size_t>(d)] = o[row_of(win, d)];
    if (trace) {
      PassTrace& pt = trace->emplace_back();
      pt.t0 = t0, pt.accepted = a, pt.out = best;
      for (int d = 0; d <= L; ++d) {
        const float* row = logits.data() + row_of(win, d) * V;
        pt.prob.push_back(top_probability(row, V, row[best[static_cast<size_t>(d)]]));
      }
    }
    for (int i = 0; i < a; ++i) {
      if (eos_at < 0 && best[static_cast<size_t>(i)] == cfg.eos_id) eos_at = static_cast<int>(y.size());
      y.push_back(best[static_cast<size_t>(i)]);
    }
    st.tokens += a;
    if (nh && !fold) {
      guess.resize(static_cast<size_t>(nh));
      po.heads->guess(model.decoder_top() + row_of(win, a - 1) * static_cast<size_t>(cfg.dim), nh, guess.data(),
                      scratch);
    } else if (nh) {  // head k's row for pass row r is row Tq + r * nh + k of the logits
      guess.resize(static_cast<size_t>(nh));
      const size_t first = static_cast<size_t>(Tq) + row_of(win, a - 1) * static_cast<size_t>(nh);
      for (int k = 0; k < nh; ++k)
        guess[static_cast<size_t>(k)] = po.heads->pick(logits.data() + (first + static_cast<size_t>(k)) * static_cast<size_t>(V));
    } else {
      guess.assign(best.begin() + a, best.end());  // the Jacobi iterate for the next outputs
    }
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
                                                     std::vector<DecodeTrace>* traces,
                                                     const std::vector<std::vector<int32_t>>* drafts) {
  if (popt.mode == DecodeMode::kGreedy) {
    DecodeOptions one = opt;
    one.batch_size = 1;
    return greedy_translate(cfg, params, src, one, stats);
  }
  if (popt.block < 1 || popt.block > kFewRows)
    throw corpus::ConfigError("block of " + std::to_string(popt.block) + " positions",
                              "give --block 1 to " + std::to_string(kFewRows) +
                                  " (the rows whose results the few-row kernel keeps independent)");
  if (popt.candidates < 1 || 1 + popt.candidates * (popt.block - 1) > kFewRows)
    throw corpus::ConfigError(fmt::format("{} candidates of {} guesses: {} rows", popt.candidates, popt.block - 1,
                                          1 + popt.candidates * (popt.block - 1)),
                              fmt::format("give --candidates K with 1 + K * (--block - 1) <= {}", kFewRows));
  if (popt.draft == DraftSource::kIbm1 && (!drafts || drafts->size() != src.size()))
    throw corpus::ConfigError("--draft ibm1 needs an IBM1 model of the pair", "give --ibm1 MODEL (pc-ibm1 train)");
  if (popt.draft == DraftSource::kTrainNgram && !popt.pool)
    throw corpus::ConfigError("--draft train-ngram needs a pool of target sentences",
                              "give --ngram-pool FILE (the training targets, a sentence a line)");
  if (popt.draft == DraftSource::kHeads && (!popt.heads || popt.heads->out_w.empty()))
    throw corpus::ConfigError("--draft heads needs draft heads of this model",
                              "give --draft-heads FILE (pc-nmt train-heads)");
  if (popt.draft == DraftSource::kCopy && !cfg.shared_embeddings)
    throw corpus::ConfigError("--draft copy needs a model with one vocabulary for both sides",
                              "use --draft pad or ngram with this model");
  std::vector<std::vector<int32_t>> out(src.size());
  std::vector<SentenceStats> all(src.size());
  for_sorted_batches(cfg, params, opt.packed, src, 1, [&](DecodeWorkspace& ws, const auto& s, const std::vector<size_t>& idx) {
    const auto t0 = std::chrono::steady_clock::now();
    SentenceStats st;
    DecodeTrace* trace = traces && idx[0] < traces->size() ? &(*traces)[idx[0]] : nullptr;
    decode_one(cfg, params, ws.model, ws.cache, *s[0], opt, popt, out[idx[0]], st, trace,
               drafts ? &(*drafts)[idx[0]] : nullptr);
    st.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    all[idx[0]] = st;
  });
  if (stats) *stats = std::move(all);
  return out;
}

}  // namespace mt
