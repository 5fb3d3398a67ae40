#include "align/ibm1.h"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_sort.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "libcorpus/core/error.h"

namespace align {

namespace {

constexpr double kScale = 4294967296.0;  // fixed-point counts: units of 2^-32
inline int64_t fix(double x) { return static_cast<int64_t>(x * kScale + 0.5); }

double digamma(double x) {
  double r = 0;
  while (x < 6) {
    r -= 1 / x;
    x += 1;
  }
  const double f = 1 / (x * x);
  return r + std::log(x) - 0.5 / x -
         f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
}

struct TP {  // the two directions' probabilities of one co-occurring pair
  double f, r;
};
struct CP {  // and their counts
  int64_t f, r;
};

struct Counts {
  std::vector<CP> c;
  std::vector<int64_t> null_f, null_r;  // counts of (NULL, trg) and (NULL, src)
};

struct Scratch {
  std::vector<double> tf, tr, inv;
  std::vector<uint32_t> cells;
};

}  // namespace

double IterationStats::perplexity_fwd() const { return words_fwd ? std::exp(-loglik_fwd / words_fwd) : 0; }
double IterationStats::perplexity_rev() const { return words_rev ? std::exp(-loglik_rev / words_rev) : 0; }

struct Ibm1Trainer::Impl {
  const CorpusIds& c;
  TrainOptions opt;
  uint32_t vs, vt;
  std::vector<uint64_t> row_start;  // pairs of source word s: [row_start[s], row_start[s+1])
  std::vector<uint32_t> pair_trg;   // target word of each pair
  std::vector<TP> t;
  std::vector<double> null_f, null_r;
  std::vector<uint64_t> cell_start;
  std::vector<uint32_t> cells;  // per sentence pair, m x n parameter indices (row = source position)
  bool use_cache = false;
  oneapi::tbb::enumerable_thread_specific<Counts> counts;
  oneapi::tbb::enumerable_thread_specific<Scratch> scratch;
  std::vector<double> ll_f, ll_r;
  int iteration = 0;

  Impl(const CorpusIds& corpus, TrainOptions o)
      : c(corpus), opt(o), vs(corpus.src_vocab.size()), vt(corpus.trg_vocab.size()),
        counts([this] {
          Counts k;
          k.c.assign(pair_trg.size(), CP{0, 0});
          k.null_f.assign(vt, 0);
          k.null_r.assign(vs, 0);
          return k;
        }) {}

  uint32_t find(uint32_t s, uint32_t w) const {
    auto b = pair_trg.begin() + static_cast<ptrdiff_t>(row_start[s]);
    auto e = pair_trg.begin() + static_cast<ptrdiff_t>(row_start[s + 1]);
    auto it = std::lower_bound(b, e, w);
    return it != e && *it == w ? static_cast<uint32_t>(it - pair_trg.begin()) : UINT32_MAX;
  }

  void fill_cells(size_t p, uint32_t* out) const {
    auto e = c.src.sentence(p), f = c.trg.sentence(p);
    for (size_t i = 0; i < e.size(); ++i)
      for (size_t j = 0; j < f.size(); ++j) *out++ = find(e[i], f[j]);
  }

  void build() {
    const size_t np = c.pairs();
    // Co-occurring (source, target) pairs: sorted and unique.
    std::vector<uint64_t> keys;
    std::vector<uint32_t> us, ut;
    for (size_t p = 0; p < np; ++p) {
      auto e = c.src.sentence(p), f = c.trg.sentence(p);
      us.assign(e.begin(), e.end());
      ut.assign(f.begin(), f.end());
      std::sort(us.begin(), us.end());
      us.erase(std::unique(us.begin(), us.end()), us.end());
      std::sort(ut.begin(), ut.end());
      ut.erase(std::unique(ut.begin(), ut.end()), ut.end());
      for (uint32_t s : us)
        for (uint32_t w : ut) keys.push_back(uint64_t{s} << 32 | w);
    }
    oneapi::tbb::parallel_sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    if (keys.size() >= UINT32_MAX) throw corpus::Error("more than 4 billion co-occurring word pairs");
    row_start.assign(vs + 1, 0);
    pair_trg.resize(keys.size());
    for (size_t k = 0; k < keys.size(); ++k) {
      ++row_start[(keys[k] >> 32) + 1];
      pair_trg[k] = static_cast<uint32_t>(keys[k]);
    }
    for (uint32_t s = 0; s < vs; ++s) row_start[s + 1] += row_start[s];
    keys = {};
    // Uniform start.
    const double uf = 1.0 / std::max<uint32_t>(1, vt - 1), ur = 1.0 / std::max<uint32_t>(1, vs - 1);
    t.assign(pair_trg.size(), TP{uf, ur});
    null_f.assign(vt, uf);
    null_r.assign(vs, ur);
    null_f[0] = null_r[0] = 0;
    // Cell cache.
    cell_start.assign(np + 1, 0);
    for (size_t p = 0; p < np; ++p) cell_start[p + 1] = cell_start[p] + c.src.sentence(p).size() * c.trg.sentence(p).size();
    use_cache = cell_start[np] * sizeof(uint32_t) <= opt.cache_bytes;
    if (use_cache) {
      cells.resize(cell_start[np]);
      oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<size_t>(0, np, 256), [&](const auto& r) {
        for (size_t p = r.begin(); p != r.end(); ++p) fill_cells(p, cells.data() + cell_start[p]);
      });
    }
    ll_f.assign(np, 0);
    ll_r.assign(np, 0);
  }

  void estep_pair(size_t p, Counts& k, Scratch& sc) {
    auto e = c.src.sentence(p), f = c.trg.sentence(p);
    const size_t m = e.size(), n = f.size(), mn = m * n;
    const uint32_t* K;
    if (use_cache) {
      K = cells.data() + cell_start[p];
    } else {
      sc.cells.resize(mn);
      fill_cells(p, sc.cells.data());
      K = sc.cells.data();
    }
    sc.tf.resize(mn);
    sc.tr.resize(mn);
    sc.inv.resize(n);
    double* tf = sc.tf.data();
    double* tr = sc.tr.data();
    double* inv = sc.inv.data();
    for (size_t x = 0; x < mn; ++x) {
      const TP v = t[K[x]];
      tf[x] = v.f;
      tr[x] = v.r;
    }
    // fwd: each target word j from a source word i or NULL.
    for (size_t j = 0; j < n; ++j) inv[j] = null_f[f[j]];
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) inv[j] += tf[i * n + j];
    double ll = 0;
    for (size_t j = 0; j < n; ++j) {
      ll += std::log(inv[j]);
      inv[j] = 1 / inv[j];
      k.null_f[f[j]] += fix(null_f[f[j]] * inv[j]);
    }
    ll_f[p] = ll - static_cast<double>(n) * std::log(static_cast<double>(m + 1));
    CP* cnt = k.c.data();
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) cnt[K[i * n + j]].f += fix(tf[i * n + j] * inv[j]);
    // rev: each source word i from a target word j or NULL.
    ll = 0;
    for (size_t i = 0; i < m; ++i) {
      const double* row = tr + i * n;
      double d = null_r[e[i]];
      for (size_t j = 0; j < n; ++j) d += row[j];
      ll += std::log(d);
      const double id = 1 / d;
      k.null_r[e[i]] += fix(null_r[e[i]] * id);
      for (size_t j = 0; j < n; ++j) cnt[K[i * n + j]].r += fix(row[j] * id);
    }
    ll_r[p] = ll - static_cast<double>(m) * std::log(static_cast<double>(n + 1));
  }

  // Turns counts into probabilities: relative frequency, or the VB update.
  void normalise(const int64_t* cnt, size_t stride, size_t n, double* out, size_t out_stride) const {
    double tot = 0;
    for (size_t x = 0; x < n; ++x) tot += static_cast<double>(cnt[x * stride]) / kScale;
    if (!(tot > 0)) return;
    if (!opt.variational) {
      const double inv = 1 / tot;
      for (size_t x = 0; x < n; ++x) out[x * out_stride] = static_cast<double>(cnt[x * stride]) / kScale * inv;
    } else {
      const double dt = digamma(tot + opt.alpha * static_cast<double>(n));
      for (size_t x = 0; x < n; ++x)
        out[x * out_stride] = std::exp(digamma(static_cast<double>(cnt[x * stride]) / kScale + opt.alpha) - dt);
    }
  }

  void mstep(Counts& k) {
    static_assert(sizeof(CP) == 2 * sizeof(int64_t) && sizeof(TP) == 2 * sizeof(double));
    const int64_t* cf = &k.c.data()->f;
    double* tfp = &t.data()->f;
    // fwd rows are contiguous.
    oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<uint32_t>(1, vs, 512), [&](const auto& r) {
      for (uint32_t s = r.begin(); s != r.end(); ++s)
        normalise(cf + 2 * row_start[s], 2, row_start[s + 1] - row_start[s], tfp + 2 * row_start[s], 2);
    });
    normalise(k.null_f.data() + 1, 1, vt - 1, null_f.data() + 1, 1);
    normalise(k.null_r.data() + 1, 1, vs - 1, null_r.data() + 1, 1);
    // rev rows are spread over the pairs: totals by target word first, in pair order.
    std::vector<double> tot(vt, 0);
    std::vector<uint64_t> nnz(vt, 0);
    for (size_t x = 0; x < pair_trg.size(); ++x) {
      tot[pair_trg[x]] += static_cast<double>(k.c[x].r) / kScale;
      ++nnz[pair_trg[x]];
    }
    std::vector<double> dt(vt);
    for (uint32_t w = 0; w < vt; ++w)
      dt[w] = opt.variational ? digamma(tot[w] + opt.alpha * static_cast<double>(nnz[w])) : 1 / tot[w];
    oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<size_t>(0, pair_trg.size(), 4096), [&](const auto& r) {
      for (size_t x = r.begin(); x != r.end(); ++x) {
        const uint32_t w = pair_trg[x];
        if (!(tot[w] > 0)) continue;
        const double cv = static_cast<double>(k.c[x].r) / kScale;
        t[x].r = opt.variational ? std::exp(digamma(cv + opt.alpha) - dt[w]) : cv * dt[w];
      }
    });
  }

  IterationStats iterate() {
    const auto t0 = std::chrono::steady_clock::now();
    for (Counts& k : counts) {
      std::fill(k.c.begin(), k.c.end(), CP{0, 0});
      std::fill(k.null_f.begin(), k.null_f.end(), 0);
      std::fill(k.null_r.begin(), k.null_r.end(), 0);
    }
    oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<size_t>(0, c.pairs(), 64), [&](const auto& r) {
      Counts& k = counts.local();
      Scratch& sc = scratch.local();
      for (size_t p = r.begin(); p != r.end(); ++p) estep_pair(p, k, sc);
    });
    // Reduce the per-thread counts into the first array, in thread order
    // (integer sums: exact, so the order cannot change the result).
    std::vector<Counts*> parts;
    for (Counts& k : counts) parts.push_back(&k);
    if (parts.empty()) parts.push_back(&counts.local());
    Counts& sum = *parts[0];
    if (parts.size() > 1) {
      oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<size_t>(0, pair_trg.size(), 1 << 14), [&](const auto& r) {
        for (size_t q = 1; q < parts.size(); ++q)
          for (size_t x = r.begin(); x != r.end(); ++x) {
            sum.c[x].f += parts[q]->c[x].f;
            sum.c[x].r += parts[q]->c[x].r;
          }
      });
      for (size_t q = 1; q < parts.size(); ++q) {
        for (uint32_t w = 0; w < vt; ++w) sum.null_f[w] += parts[q]->null_f[w];
        for (uint32_t s = 0; s < vs; ++s) sum.null_r[s] += parts[q]->null_r[s];
      }
    }
    mstep(sum);
    IterationStats st;
    st.iteration = ++iteration;
    for (size_t p = 0; p < c.pairs(); ++p) {
      st.loglik_fwd += ll_f[p];
      st.loglik_rev += ll_r[p];
    }
    st.words_fwd = c.trg.ids.size();
    st.words_rev = c.src.ids.size();
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return st;
  }
};

Ibm1Trainer::Ibm1Trainer(const CorpusIds& corpus, TrainOptions opt) : impl_(std::make_unique<Impl>(corpus, opt)) {
  if (corpus.pairs() == 0)
    throw corpus::Error("no sentence pairs to train on", "every pair was empty or skipped; check the input");
  impl_->build();
}

Ibm1Trainer::~Ibm1Trainer() = default;

IterationStats Ibm1Trainer::iterate() { return impl_->iterate(); }
size_t Ibm1Trainer::parameters() const { return impl_->pair_trg.size(); }
bool Ibm1Trainer::cached() const { return impl_->use_cache; }

double Ibm1Trainer::t_fwd(uint32_t src, uint32_t trg) const {
  if (src == 0) return trg < impl_->vt ? impl_->null_f[trg] : 0;
  uint32_t k = src < impl_->vs ? impl_->find(src, trg) : UINT32_MAX;
  return k == UINT32_MAX ? 0 : impl_->t[k].f;
}

double Ibm1Trainer::t_rev(uint32_t trg, uint32_t src) const {
  if (trg == 0) return src < impl_->vs ? impl_->null_r[src] : 0;
  uint32_t k = src < impl_->vs ? impl_->find(src, trg) : UINT32_MAX;
  return k == UINT32_MAX ? 0 : impl_->t[k].r;
}

Ibm1Model Ibm1Trainer::model(nlohmann::ordered_json config) const {
  const Impl& m = *impl_;
  auto s = std::make_shared<Ibm1Model::Storage>();
  pack_vocab(m.c.src_vocab.words, m.c.src_vocab.counts, s->src_offsets, s->src_bytes, s->src_counts);
  pack_vocab(m.c.trg_vocab.words, m.c.trg_vocab.counts, s->trg_offsets, s->trg_bytes, s->trg_counts);
  const double prune = m.opt.prune;
  // fwd: row 0 = NULL over all target words, then the pair rows as they are.
  s->fwd_indptr.assign(1, 0);
  for (uint32_t w = 1; w < m.vt; ++w)
    if (m.null_f[w] >= prune) {
      s->fwd_indices.push_back(w);
      s->fwd_values.push_back(static_cast<float>(m.null_f[w]));
    }
  s->fwd_indptr.push_back(s->fwd_indices.size());
  for (uint32_t src = 1; src < m.vs; ++src) {
    for (uint64_t k = m.row_start[src]; k < m.row_start[src + 1]; ++k)
      if (m.t[k].f >= prune) {
        s->fwd_indices.push_back(m.pair_trg[k]);
        s->fwd_values.push_back(static_cast<float>(m.t[k].f));
      }
    s->fwd_indptr.push_back(s->fwd_indices.size());
  }
  // rev: row 0 = NULL over all source words, then the pairs transposed
  // (visited in source order, so each row's columns increase).
  std::vector<uint64_t> pos(m.vt + 1, 0);
  for (uint32_t src = 1; src < m.vs; ++src)
    if (m.null_r[src] >= prune) ++pos[0];
  for (size_t k = 0; k < m.pair_trg.size(); ++k)
    if (m.t[k].r >= prune) ++pos[m.pair_trg[k]];
  s->rev_indptr.assign(m.vt + 1, 0);
  for (uint32_t w = 0; w < m.vt; ++w) s->rev_indptr[w + 1] = s->rev_indptr[w] + pos[w];
  s->rev_indices.resize(s->rev_indptr[m.vt]);
  s->rev_values.resize(s->rev_indptr[m.vt]);
  std::vector<uint64_t> fill(s->rev_indptr.begin(), s->rev_indptr.end() - 1);
  for (uint32_t src = 1; src < m.vs; ++src)
    if (m.null_r[src] >= prune) {
      s->rev_indices[fill[0]] = src;
      s->rev_values[fill[0]++] = static_cast<float>(m.null_r[src]);
    }
  for (uint32_t src = 1; src < m.vs; ++src)
    for (uint64_t k = m.row_start[src]; k < m.row_start[src + 1]; ++k)
      if (m.t[k].r >= prune) {
        const uint32_t w = m.pair_trg[k];
        s->rev_indices[fill[w]] = src;
        s->rev_values[fill[w]++] = static_cast<float>(m.t[k].r);
      }
  return Ibm1Model::from_storage(std::move(s), std::move(config));
}

}  // namespace align
