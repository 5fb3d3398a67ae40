#include "mt/decode/draft_heads_train.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "libcorpus/core/error.h"
#include "mt/decode/sorted_batches.h"
#include "mt/model/transformer.h"
#include "mt/tensor/tensor.h"

namespace mt {

namespace {

// Every output position's top row, teacher-forced: sentence i's rows are
// [BOS] + outputs[i] through the decoder, [outputs[i].size() + 1, dim].
std::vector<std::vector<float>> top_rows(const Config& cfg, const float* params,
                                         const std::vector<std::vector<int32_t>>& src,
                                         const std::vector<std::vector<int32_t>>& outputs, const DecodeOptions& opt) {
  std::vector<std::vector<float>> rows(src.size());
  for_sorted_batches(cfg, params, opt.packed, src, 1,
                     [&](DecodeWorkspace& ws, const std::vector<const std::vector<int32_t>*>& s,
                         const std::vector<size_t>& idx) {
                       const std::vector<int32_t>& y = outputs[idx[0]];
                       std::vector<int32_t> in{cfg.bos_id};
                       in.insert(in.end(), y.begin(), y.end());
                       const int Tq = static_cast<int>(in.size());
                       ws.model.start_decoding(params, make_batch(cfg, {s[0]}, {}), Tq, ws.cache);
                       std::vector<float> logits;
                       ws.model.decode(params, ws.cache, in.data(), Tq, 0, logits);
                       const float* top = ws.model.decoder_top();
                       rows[idx[0]].assign(top, top + static_cast<size_t>(Tq) * cfg.dim);
                     });
  return rows;
}

// The `n` most frequent output tokens (EOS counted once a sentence), ties
// to the lower id, ascending.
std::vector<int32_t> frequent_outputs(const Config& cfg, const std::vector<std::vector<int32_t>>& outputs, int n,
                                      double* cover) {
  std::vector<int64_t> count(static_cast<size_t>(cfg.trg_vocab), 0);
  int64_t total = 0;
  for (const auto& y : outputs) {
    for (int32_t t : y) ++count[static_cast<size_t>(t)];
    ++count[static_cast<size_t>(cfg.eos_id)];
    total += static_cast<int64_t>(y.size()) + 1;
  }
  std::vector<int32_t> ids(static_cast<size_t>(cfg.trg_vocab));
  std::iota(ids.begin(), ids.end(), 0);
  std::stable_sort(ids.begin(), ids.end(), [&](int32_t a, int32_t b) { return count[a] > count[b]; });
  ids.resize(static_cast<size_t>(std::min(n, cfg.trg_vocab)));
  int64_t kept = 0;
  for (int32_t t : ids) kept += count[static_cast<size_t>(t)];
  if (cover) *cover = total ? static_cast<double>(kept) / static_cast<double>(total) : 0.0;
  std::sort(ids.begin(), ids.end());
  return ids;
}

struct Adam {
  std::vector<float> m, v;
  int64_t step = 0;
  void update(std::vector<float>& w, const std::vector<float>& g, float lr) {
    if (m.empty()) m.assign(w.size(), 0.0f), v.assign(w.size(), 0.0f);
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    const double c1 = 1.0 - std::pow(b1, static_cast<double>(step)), c2 = 1.0 - std::pow(b2, static_cast<double>(step));
    for (size_t i = 0; i < w.size(); ++i) {
      m[i] = static_cast<float>(b1 * m[i] + (1 - b1) * g[i]);
      v[i] = static_cast<float>(b2 * v[i] + (1 - b2) * g[i] * g[i]);
      w[i] -= static_cast<float>(lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps));
    }
  }
};

}  // namespace

DraftHeads train_draft_heads(const Config& cfg, const float* params, const std::vector<std::vector<int32_t>>& src,
                             const std::vector<std::vector<int32_t>>& outputs, const DecodeOptions& opt,
                             const DraftHeadsTrainOptions& o, DraftHeadsTrainReport* report,
                             const std::function<void(int, double)>& on_epoch) {
  if (src.size() != outputs.size())
    throw corpus::Error(fmt::format("draft heads: {} sources but {} outputs", src.size(), outputs.size()));
  if (o.heads < 1 || o.heads > kFewRows - 1) throw corpus::ConfigError("--heads must be 1 to 15");
  use_single_threaded_blas();
  DraftHeads h;
  h.heads = o.heads;
  h.dim = cfg.dim;
  h.hidden = o.hidden > 0 ? o.hidden : cfg.dim;
  h.model = draft_model_fingerprint(cfg, params);
  double cover = 0;
  h.shortlist = frequent_outputs(cfg, outputs, std::max(1, o.shortlist), &cover);
  h.bind(cfg, params);
  const int C = h.dim, Hd = h.hidden, S = h.shortlist_size(), K = h.heads;

  std::vector<int32_t> cls(static_cast<size_t>(cfg.trg_vocab), -1);  // token -> shortlist index
  for (int s = 0; s < S; ++s) cls[static_cast<size_t>(h.shortlist[static_cast<size_t>(s)])] = s;
  const std::vector<std::vector<float>> rows = top_rows(cfg, params, src, outputs, opt);
  std::vector<std::pair<uint32_t, uint32_t>> pos;  // (sentence, position)
  for (size_t i = 0; i < outputs.size(); ++i)
    for (size_t t = 0; t <= outputs[i].size(); ++t) pos.emplace_back(static_cast<uint32_t>(i), static_cast<uint32_t>(t));
  auto label = [&](const std::pair<uint32_t, uint32_t>& p, int k) {  // head k's class at p, -1: none
    const std::vector<int32_t>& y = outputs[p.first];
    const size_t j = p.second + static_cast<size_t>(k) + 1;
    if (j > y.size()) return -1;
    return cls[static_cast<size_t>(j == y.size() ? cfg.eos_id : y[j])];
  };

  std::mt19937_64 rng(o.seed);
  const float bound = 1.0f / std::sqrt(static_cast<float>(C));
  std::uniform_real_distribution<float> init(-bound, bound);
  h.w1.resize(static_cast<size_t>(K) * Hd * C);
  h.b1.resize(static_cast<size_t>(K) * Hd);
  for (float& w : h.w1) w = init(rng);
  for (float& b : h.b1) b = init(rng);
  h.w2.assign(static_cast<size_t>(K) * C * Hd, 0.0f);  // each head starts as the identity: the model's own guess
  h.b2.assign(static_cast<size_t>(K) * C, 0.0f);

  std::vector<float> gw1(h.w1.size()), gb1(h.b1.size()), gw2(h.w2.size()), gb2(h.b2.size());
  Adam aw1, ab1, aw2, ab2;
  const int B = std::max(1, o.batch);
  std::vector<float> X, A, G, Z, L, dZ, dG;
  std::vector<int> y(static_cast<size_t>(B));
  if (report) report->positions = static_cast<int64_t>(pos.size()), report->shortlist_cover = cover;
  for (int epoch = 0; epoch < o.epochs; ++epoch) {
    std::shuffle(pos.begin(), pos.end(), rng);
    double loss_sum = 0;
    int64_t loss_n = 0;
    for (size_t s0 = 0; s0 < pos.size(); s0 += static_cast<size_t>(B)) {
      const int n = static_cast<int>(std::min(pos.size() - s0, static_cast<size_t>(B)));
      X.resize(static_cast<size_t>(n) * C);
      for (int r = 0; r < n; ++r) {
        const auto& p = pos[s0 + static_cast<size_t>(r)];
        std::copy_n(rows[p.first].data() + static_cast<size_t>(p.second) * C, C, X.data() + static_cast<size_t>(r) * C);
      }
      std::fill(gw1.begin(), gw1.end(), 0.0f);
      std::fill(gb1.begin(), gb1.end(), 0.0f);
      std::fill(gw2.begin(), gw2.end(), 0.0f);
      std::fill(gb2.begin(), gb2.end(), 0.0f);
      for (int k = 0; k < K; ++k) {
        const size_t oh = static_cast<size_t>(k) * Hd, oc = static_cast<size_t>(k) * C;
        float* w1 = h.w1.data() + oh * C;
        float* w2 = h.w2.data() + oc * Hd;
        A.resize(static_cast<size_t>(n) * Hd), G.resize(A.size());
        Z.resize(static_cast<size_t>(n) * C), L.resize(static_cast<size_t>(n) * S);
        linear_forward<float>(X.data(), w1, h.b1.data() + oh, A.data(), n, Hd, C);
        for (size_t i = 0; i < A.size(); ++i) G[i] = A[i] / (1.0f + std::exp(-A[i]));
        linear_forward<float>(G.data(), w2, h.b2.data() + oc, Z.data(), n, C, Hd);
        for (size_t i = 0; i < Z.size(); ++i) Z[i] += X[i];
        linear_forward<float>(Z.data(), h.out_w.data(), h.out_b.data(), L.data(), n, S, C);
        int valid = 0;
        for (int r = 0; r < n; ++r) valid += (y[static_cast<size_t>(r)] = label(pos[s0 + static_cast<size_t>(r)], k)) >= 0;
        // dL = (softmax - one-hot) / valid on rows with a label, 0 elsewhere.
        for (int r = 0; r < n; ++r) {
          float* row = L.data() + static_cast<size_t>(r) * S;
          const int t = y[static_cast<size_t>(r)];
          if (t < 0) {
            std::fill(row, row + S, 0.0f);
            continue;
          }
          const float mx = *std::max_element(row, row + S);
          double sum = 0;
          for (int j = 0; j < S; ++j) sum += std::exp(static_cast<double>(row[j] - mx));
          loss_sum += std::log(sum) - (row[t] - mx);
          ++loss_n;
          const float inv = 1.0f / static_cast<float>(valid);
          for (int j = 0; j < S; ++j) row[j] = static_cast<float>(std::exp(static_cast<double>(row[j] - mx)) / sum) * inv;
          row[t] -= inv;
        }
        if (valid == 0) continue;
        dZ.resize(static_cast<size_t>(n) * C), dG.resize(static_cast<size_t>(n) * Hd);
        gemm_nn<float>(L.data(), h.out_w.data(), dZ.data(), n, C, S, false);
        gemm_tn<float>(dZ.data(), G.data(), gw2.data() + oc * Hd, C, Hd, n, true);
        gemm_nn<float>(dZ.data(), w2, dG.data(), n, Hd, C, false);
        for (size_t i = 0; i < dG.size(); ++i) {
          const float sg = 1.0f / (1.0f + std::exp(-A[i]));
          dG[i] *= sg * (1.0f + A[i] * (1.0f - sg));  // SiLU'
        }
        gemm_tn<float>(dG.data(), X.data(), gw1.data() + oh * C, Hd, C, n, true);
        for (int r = 0; r < n; ++r) {
          for (int c = 0; c < C; ++c) gb2[oc + c] += dZ[static_cast<size_t>(r) * C + c];
          for (int c = 0; c < Hd; ++c) gb1[oh + c] += dG[static_cast<size_t>(r) * Hd + c];
        }
      }
      ++aw1.step, ++ab1.step, ++aw2.step, ++ab2.step;
      aw1.update(h.w1, gw1, o.lr);
      ab1.update(h.b1, gb1, o.lr);
      aw2.update(h.w2, gw2, o.lr);
      ab2.update(h.b2, gb2, o.lr);
    }
    const double mean = loss_n ? loss_sum / static_cast<double>(loss_n) : 0.0;
    if (report) report->loss.push_back(mean);
    if (on_epoch) on_epoch(epoch + 1, mean);
  }
  return h;
}

}  // namespace mt
