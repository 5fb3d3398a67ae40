#include "mt/decode/beam.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "libcorpus/core/error.h"
#include "mt/decode/placeholder_quota.h"
#include "mt/decode/sorted_batches.h"
#include "mt/tensor/row_kernels.h"

namespace mt {

LengthPenalty parse_length_penalty(const std::string& name) {
  if (name == "none") return LengthPenalty::kNone;
  if (name == "gnmt") return LengthPenalty::kGnmt;
  if (name == "marian") return LengthPenalty::kMarian;
  throw corpus::ConfigError("unknown length penalty " + corpus::quote(name), "use none, gnmt or marian");
}

double length_penalty(LengthPenalty lp, double alpha, int length) {
  switch (lp) {
    case LengthPenalty::kNone: return 1.0;
    case LengthPenalty::kGnmt: return std::pow((5.0 + length) / 6.0, alpha);
    case LengthPenalty::kMarian: return std::pow(static_cast<double>(std::max(1, length)), alpha);
  }
  return 1.0;
}

namespace {

struct Beam {
  std::vector<int32_t> tokens;
  double logprob = 0;
};

struct Candidate {
  double logprob;
  int beam, rank;
  int32_t token;
};

// The n best token ids of a row, best first, ties to the lower id (so the
// first is std::max_element's, as greedy picks): one pass that keeps the n
// best so far in order (n is the beam, V the vocabulary; a partial sort of
// all V ids cost 5% of beam search's time). An id comes after every id kept
// before it, so among equal values the earlier one stays ahead.
void top_tokens(const float* row, int V, int n, std::vector<int32_t>& ids) {
  ids.clear();
  if (n <= 0) return;
  for (int32_t v = 0; v < V; ++v) {
    if (static_cast<int>(ids.size()) == n && (v = row_first_above(row, v, V, row[ids.back()])) == V) break;
    const float x = row[v];
    size_t at = ids.size();
    while (at > 0 && x > row[ids[at - 1]]) --at;
    if (static_cast<int>(ids.size()) == n) ids.pop_back();
    ids.insert(ids.begin() + static_cast<std::ptrdiff_t>(at), v);
  }
}

void beam_batch(const Config& cfg, const float* p, Transformer<float>& model, DecoderCache<float>& cache,
                const std::vector<const std::vector<int32_t>*>& src, const DecodeOptions& opt, const BeamOptions& bo,
                std::vector<std::vector<Hypothesis>*>& out, std::vector<SentenceStats>& st) {
  const int B = static_cast<int>(src.size()), K = bo.beam, V = cfg.trg_vocab;
  Batch batch = make_batch(cfg, src, {});
  std::vector<int> limit(B), width(B, K);
  int tmax = 1;
  for (int b = 0; b < B; ++b) tmax = std::max(tmax, limit[b] = output_limit(cfg, opt, batch.src_len[b]));
  // One cache row per live beam: sentence b's beams are rows first[b] ..
  // first[b] + live[b].size() - 1. A pass runs only those rows: the first
  // pass one per sentence, and a sentence whose beams have all finished (or
  // a beam narrowed by a finished hypothesis) costs nothing after.
  model.start_decoding(p, batch, tmax, cache);

  std::vector<std::vector<Beam>> live(B, std::vector<Beam>(1));
  std::vector<std::vector<Hypothesis>> done(B);
  std::vector<int32_t> tok(static_cast<size_t>(B), cfg.bos_id), ids, next_tok;
  std::vector<int> first(static_cast<size_t>(B)), rows;
  std::iota(first.begin(), first.end(), 0);
  std::vector<float> logits;
  std::vector<Candidate> cands;
  std::vector<std::vector<int>> demand(opt.quota ? B : 0);
  for (int b = 0; b < static_cast<int>(demand.size()); ++b) demand[b] = opt.quota->demand(*src[b]);
  auto finish = [&](int b, std::vector<int32_t> tokens, double logprob, int length, bool eos) {
    Hypothesis h{std::move(tokens), logprob, 0, eos};
    h.score = logprob / length_penalty(bo.penalty, bo.alpha, length);
    done[b].push_back(std::move(h));
  };
  for (int t = 0; t < tmax; ++t) {
    bool any = false;
    for (int b = 0; b < B; ++b) any = any || !live[b].empty();
    if (!any) break;
    model.decode(p, cache, tok.data(), 1, t, logits);
    rows.clear();
    next_tok.clear();
    for (int b = 0; b < B; ++b) {
      if (live[b].empty()) continue;
      ++st[b].passes;
      const int w = std::min(width[b], V);
      cands.clear();
      for (int j = 0; j < static_cast<int>(live[b].size()); ++j) {
        float* row = logits.data() + static_cast<size_t>(first[b] + j) * V;
        if (opt.quota)
          opt.quota->mask(demand[b], live[b][j].tokens.data(), live[b][j].tokens.size(),
                          static_cast<size_t>(limit[b]), row);
        const double lse = row_log_sum_exp(row, V);
        top_tokens(row, V, w, ids);
        for (int r = 0; r < w; ++r)
          cands.push_back({live[b][j].logprob + (static_cast<double>(row[ids[r]]) - lse), j, r, ids[r]});
      }
      std::sort(cands.begin(), cands.end(), [](const Candidate& x, const Candidate& y) {
        if (x.logprob != y.logprob) return x.logprob > y.logprob;
        return x.beam != y.beam ? x.beam < y.beam : x.rank < y.rank;
      });
      std::vector<Beam> next;
      const int from_row = first[b];
      first[b] = static_cast<int>(rows.size());
      for (int c = 0; c < w; ++c) {
        const Candidate& k = cands[c];
        const Beam& from = live[b][k.beam];
        const int len = static_cast<int>(from.tokens.size()) + 1;
        if (k.token == cfg.eos_id) {
          finish(b, from.tokens, k.logprob, len, true);
          --width[b];
          continue;
        }
        std::vector<int32_t> grown = from.tokens;
        grown.push_back(k.token);
        if (t + 1 >= limit[b]) {
          finish(b, std::move(grown), k.logprob, len, false);
          continue;
        }
        rows.push_back(from_row + k.beam);
        next_tok.push_back(k.token);
        next.push_back(Beam{std::move(grown), k.logprob});
      }
      live[b] = std::move(next);
      if (live[b].empty()) {
        const auto best = std::max_element(done[b].begin(), done[b].end(), [](const Hypothesis& x, const Hypothesis& y) {
          return x.score < y.score;
        });
        st[b].tokens = static_cast<int>(best->tokens.size()) + (best->eos ? 1 : 0);
      }
    }
    cache.select(rows, t + 1);
    tok.swap(next_tok);
  }
  for (int b = 0; b < B; ++b) {
    std::stable_sort(done[b].begin(), done[b].end(),
                     [](const Hypothesis& x, const Hypothesis& y) { return x.score > y.score; });
    done[b].resize(std::min(done[b].size(), static_cast<size_t>(std::max(1, bo.n_best))));
    *out[b] = std::move(done[b]);
  }
}

}  // namespace

std::vector<std::vector<Hypothesis>> beam_translate(const Config& cfg, const float* params,
                                                    const std::vector<std::vector<int32_t>>& src,
                                                    const DecodeOptions& opt, const BeamOptions& beam,
                                                    std::vector<SentenceStats>* stats) {
  if (beam.beam < 1) throw corpus::ConfigError("beam size must be at least 1");
  if (beam.n_best > beam.beam)
    throw corpus::ConfigError("n-best list of " + std::to_string(beam.n_best) + " from a beam of " +
                                  std::to_string(beam.beam),
                              "give --n-best at most --beam");
  std::vector<std::vector<Hypothesis>> out(src.size());
  std::vector<SentenceStats> all(src.size());
  for_sorted_batches(cfg, params, opt.packed, src, opt.batch_size, [&](DecodeWorkspace& ws, const auto& s, const std::vector<size_t>& idx) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::vector<Hypothesis>*> o;
    for (size_t i : idx) o.push_back(&out[i]);
    std::vector<SentenceStats> st(s.size());
    beam_batch(cfg, params, ws.model, ws.cache, s, opt, beam, o, st);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (size_t j = 0; j < idx.size(); ++j) {
      st[j].ms = ms / static_cast<double>(idx.size());
      all[idx[j]] = st[j];
    }
  });
  if (stats) *stats = std::move(all);
  return out;
}

double sequence_logprob(const Config& cfg, const float* params, const std::vector<int32_t>& src,
                        const std::vector<int32_t>& trg, bool eos) {
  Transformer<float> model(cfg);
  Batch b = make_batch(cfg, {&src}, {&trg});
  PassOptions po;
  po.keep_logits = true;
  model.pass(params, nullptr, b, po);
  const int V = cfg.trg_vocab;
  double sum = 0;
  for (size_t t = 0; t < trg.size() + (eos ? 1 : 0); ++t) {
    const float* row = model.logits().data() + t * static_cast<size_t>(V);
    sum += static_cast<double>(row[b.trg_out[t]]) - row_log_sum_exp(row, V);
  }
  return sum;
}

}  // namespace mt
