// Training of the lexical encoder (align/lexical_encoder.h): tokenise, IBM1
// by EM, idf, cross-lingual LSA by a randomised SVD, then the LSA block's
// post-processing folded into one affine map per language.
#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "align/corpus_ids.h"
#include "align/ibm1.h"
#include "align/lexical_encoder.h"
#include "align/lexical_tables.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/hash_mix.h"

namespace align {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

using Mat = Eigen::MatrixXd;
using SpMat = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// Standard normal numbers from a seeded counter (Box-Muller on splitmix64),
// the same on every platform.
double gaussian(uint64_t seed, uint64_t i) {
  const double u1 = (static_cast<double>(corpus::mix64(seed ^ (2 * i)) >> 11) + 0.5) * 0x1.0p-53;
  const double u2 = static_cast<double>(corpus::mix64(seed ^ (2 * i + 1)) >> 11) * 0x1.0p-53;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

// Words of one side: id 0 = "", then byte order.
void build_vocab(const std::vector<std::vector<std::string>>& sents, Vocab& v) {
  std::map<std::string, uint64_t> counts;
  for (const auto& s : sents)
    for (const auto& w : s) ++counts[w];
  v.words.assign(1, "");
  v.counts.assign(1, 0);
  for (auto& [w, c] : counts) {
    v.words.push_back(w);
    v.counts.push_back(c);
  }
}

void fill_side(const std::vector<std::vector<std::string>>& sents, const Vocab& v, align::Side& side) {
  for (const auto& s : sents) {
    for (const auto& w : s) side.ids.push_back(v.find(w));
    side.start.push_back(side.ids.size());
  }
}

void fill_lang(const Vocab& v, const std::vector<std::vector<std::string>>& sents, LexicalLang& l) {
  l.offsets.assign(1, 0);
  l.bytes.clear();
  for (const auto& w : v.words) {
    l.bytes.insert(l.bytes.end(), w.begin(), w.end());
    l.offsets.push_back(l.bytes.size());
  }
  // Smoothed idf over the training sentences of this side.
  std::vector<uint64_t> df(v.size(), 0);
  std::vector<uint32_t> seen(v.size(), UINT32_MAX);
  for (size_t s = 0; s < sents.size(); ++s)
    for (const auto& w : sents[s]) {
      const uint32_t id = v.find(w);
      if (seen[id] != s) {
        seen[id] = static_cast<uint32_t>(s);
        ++df[id];
      }
    }
  l.idf.assign(v.size(), 0.0f);
  const double n = static_cast<double>(sents.size());
  for (uint32_t i = 1; i < v.size(); ++i) l.idf[i] = static_cast<float>(std::log((1 + n) / (1 + df[i])) + 1);
}

// The IBM1 rows kept: t >= min_prob, the top_k largest (ties by word id),
// in increasing word id; the NULL row stays empty.
LexicalCsr prune(const TTable& t, double min_prob, int top_k) {
  LexicalCsr c;
  c.indptr.assign(1, 0);
  c.indptr.push_back(0);  // row 0: NULL
  std::vector<std::pair<float, uint32_t>> row;
  for (uint32_t r = 1; r < t.rows(); ++r) {
    row.clear();
    auto cols = t.cols(r);
    auto vals = t.vals(r);
    for (size_t k = 0; k < cols.size(); ++k)
      if (cols[k] != 0 && vals[k] >= min_prob) row.emplace_back(vals[k], cols[k]);
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    if (row.size() > static_cast<size_t>(top_k)) row.resize(static_cast<size_t>(top_k));
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    for (const auto& [p, id] : row) {
      c.indices.push_back(id);
      c.values.push_back(p);
    }
    c.indptr.push_back(c.indices.size());
  }
  return c;
}

SpMat bag_matrix(const std::vector<SparseBag>& bags, uint32_t cols) {
  std::vector<Eigen::Triplet<double>> tr;
  for (size_t r = 0; r < bags.size(); ++r)
    for (const auto& [id, w] : bags[r]) tr.emplace_back(static_cast<int>(r), static_cast<int>(id), w);
  SpMat m(static_cast<Eigen::Index>(bags.size()), cols);
  m.setFromTriplets(tr.begin(), tr.end());
  return m;
}

// The LSA column of each word id: the `keep` most frequent words (ties by
// id) get columns in id order, the others -1.
std::vector<int> lsa_columns(const Vocab& v, uint32_t keep) {
  std::vector<uint32_t> order;
  for (uint32_t i = 1; i < v.size(); ++i) order.push_back(i);
  if (order.size() > keep) {
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return v.counts[a] > v.counts[b]; });
    order.resize(keep);
    std::sort(order.begin(), order.end());
  }
  std::vector<int> map(v.size(), -1);
  for (size_t k = 0; k < order.size(); ++k) map[order[k]] = static_cast<int>(k);
  return map;
}

uint32_t columns(const std::vector<int>& map) {
  int n = 0;
  for (int c : map) n = std::max(n, c + 1);
  return static_cast<uint32_t>(n);
}

SparseBag remap(const SparseBag& b, const std::vector<int>& map) {
  SparseBag r;
  for (const auto& [id, w] : b)
    if (map[id] >= 0) r.emplace_back(static_cast<uint32_t>(map[id]), w);
  return r;
}

// Right singular vectors of the d largest singular values of [Xs Xt]
// (randomised range finder with two power iterations, Halko et al. 2011).
Mat top_right_singular(const SpMat& xs, const SpMat& xt, int d, uint64_t seed) {
  const Eigen::Index vs = xs.cols(), vt = xt.cols(), n = xs.rows();
  const Eigen::Index k = std::min<Eigen::Index>(d + 16, std::min(n, vs + vt));
  Mat omega(vs + vt, k);
  for (Eigen::Index j = 0; j < k; ++j)
    for (Eigen::Index i = 0; i < vs + vt; ++i) omega(i, j) = gaussian(seed, static_cast<uint64_t>(j * (vs + vt) + i));
  auto times = [&](const Mat& v) -> Mat { return xs * v.topRows(vs) + xt * v.bottomRows(vt); };
  auto times_t = [&](const Mat& u) -> Mat {
    Mat r(vs + vt, u.cols());
    r.topRows(vs) = xs.transpose() * u;
    r.bottomRows(vt) = xt.transpose() * u;
    return r;
  };
  // An orthonormal basis of a tall matrix's columns: Cholesky QR twice (one
  // k × k factorisation and two products, several times faster than
  // Householder on 10^4..10^5 rows), Householder when the columns are
  // nearly dependent (a tiny corpus).
  auto orth = [](const Mat& a) -> Mat {
    Mat q = a;
    for (int pass = 0; pass < 2; ++pass) {
      Eigen::LLT<Mat> llt(q.transpose() * q);
      if (llt.info() != Eigen::Success) {
        Eigen::HouseholderQR<Mat> qr(a);
        return qr.householderQ() * Mat::Identity(a.rows(), a.cols());
      }
      q = llt.matrixU().solve<Eigen::OnTheRight>(q);
    }
    return q;
  };
  Mat q = orth(times(omega));
  for (int it = 0; it < 2; ++it) q = orth(times(orth(times_t(q))));
  const Mat b = times_t(q).transpose();  // k × (vs+vt): Q^T X
  Eigen::SelfAdjointEigenSolver<Mat> es(b * b.transpose());
  const Eigen::Index dd = std::min<Eigen::Index>(d, k);
  Mat top(k, dd);
  Eigen::VectorXd inv_sigma(dd);
  for (Eigen::Index j = 0; j < dd; ++j) {
    const Eigen::Index c = k - 1 - j;  // eigenvalues ascend
    top.col(j) = es.eigenvectors().col(c);
    inv_sigma(j) = 1.0 / std::sqrt(std::max(es.eigenvalues()(c), 1e-300));
  }
  Mat v = b.transpose() * top * inv_sigma.asDiagonal();
  for (Eigen::Index j = 0; j < dd; ++j) {
    // A fixed sign (largest entry positive), so the model does not depend on the solver's choice.
    Eigen::Index at;
    v.col(j).cwiseAbs().maxCoeff(&at);
    if (v(at, j) < 0) v.col(j) = -v.col(j);
  }
  return v;
}

// The symmetric inverse square root of a covariance (ZCA), ignoring
// directions with no variance (removed components).
Mat inv_sqrt(const Mat& cov) {
  Eigen::SelfAdjointEigenSolver<Mat> es(cov);
  const double top = std::max(es.eigenvalues().maxCoeff(), 1e-300);
  Eigen::VectorXd inv(cov.rows());
  for (Eigen::Index i = 0; i < cov.rows(); ++i) {
    const double l = es.eigenvalues()(i);
    inv(i) = l > 1e-9 * top ? 1.0 / std::sqrt(l) : 0.0;
  }
  return es.eigenvectors() * inv.asDiagonal() * es.eigenvectors().transpose();
}

// The projection that removes the k top principal directions.
Mat remove_top(const Mat& cov, int k) {
  Eigen::SelfAdjointEigenSolver<Mat> es(cov);
  Mat p = Mat::Identity(cov.rows(), cov.cols());
  for (int j = 0; j < k && j < cov.rows(); ++j) {
    const Eigen::VectorXd u = es.eigenvectors().col(cov.rows() - 1 - j);
    p -= u * u.transpose();
  }
  return p;
}

void store(const Mat& m, std::vector<float>& out) {
  out.resize(static_cast<size_t>(m.size()));
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out[static_cast<size_t>(i * m.cols() + j)] = static_cast<float>(m(i, j));
}

// The median of ln(n_trg / n_src) in code points over the sentence pairs
// (over all pairs when there are no sentence pairs): the target side's offset
// in the length block. The lower middle for an even count, so the result is a
// function of the pairs alone.
double median_log_ratio(std::vector<double> r) {
  if (r.empty()) return 0.0;
  auto mid = r.begin() + static_cast<long>((r.size() - 1) / 2);
  std::nth_element(r.begin(), mid, r.end());
  return *mid;
}

void check(const LexicalOptions& o) {
  auto bad = [](const std::string& what) { throw corpus::ConfigError(what); };
  if (o.buckets < 0 || o.lsa_dim < 0 || o.char_buckets < 0) bad("block sizes cannot be negative");
  if (o.buckets + o.lsa_dim + o.char_buckets == 0) bad("every block has size 0: give --buckets, --lsa-dim or --char-buckets");
  if (o.post.remove_top < 0 || o.post.remove_top >= std::max(o.lsa_dim, 1)) bad("--remove-top must be below --lsa-dim");
  if (o.top_k < 1) bad("--top-k must be at least 1");
  if (o.split_min < 0 || o.split_min > 64) bad("--split-unseen must be 0 to 64");
  if (o.lsa_vocab < 1 || o.lsa_rows < 1) bad("the LSA vocabulary and rows must be at least 1");
  if (!(o.length_weight >= 0) || !std::isfinite(o.length_weight) || !(o.length_scale > 0) || !std::isfinite(o.length_scale))
    bad("the length block's weight must be >= 0 and its scale > 0");
}

}  // namespace

std::unique_ptr<LexicalEncoder> LexicalEncoder::train(const std::vector<TextPair>& pairs, const LexicalOptions& opt,
                                                      LexicalTrainStats* stats) {
  check(opt);
  const auto t0 = Clock::now();
  LexicalTrainStats st;
  Tokenizer tok(opt.tokenizer);
  std::vector<std::vector<std::string>> src, trg;
  std::vector<double> ratio_sentences, ratio_dict;  // ln(n_trg / n_src) for the length block
  for (size_t i = 0; i < pairs.size(); ++i) {
    const auto& [s, t] = pairs[i];
    auto a = tok.tokenize(s), b = tok.tokenize(t);
    if (a.empty() || b.empty()) {
      ++st.empty_skipped;
      continue;
    }
    const double r = std::log(static_cast<double>(length_code_points(t))) -
                     std::log(static_cast<double>(length_code_points(s)));
    (i < opt.length_pairs ? ratio_sentences : ratio_dict).push_back(r);
    src.push_back(std::move(a));
    trg.push_back(std::move(b));
  }
  if (src.empty()) throw corpus::Error("no training pair has words on both sides", "give a seed bitext or a dictionary");
  st.pairs = src.size();

  CorpusIds c;
  build_vocab(src, c.src_vocab);
  build_vocab(trg, c.trg_vocab);
  fill_side(src, c.src_vocab, c.src);
  fill_side(trg, c.trg_vocab, c.trg);
  for (size_t i = 0; i < src.size(); ++i) c.row.push_back(i);
  c.rows_in = pairs.size();

  auto t = std::make_shared<Tables>();
  t->tokenizer = opt.tokenizer;
  t->buckets = opt.buckets;
  t->lsa_dim = opt.lsa_dim;
  t->char_buckets = opt.char_buckets;
  t->bags_weight = static_cast<float>(opt.bags_weight);
  t->lsa_weight = static_cast<float>(opt.lsa_weight);
  t->char_weight = static_cast<float>(opt.char_weight);
  t->length_weight = static_cast<float>(opt.length_weight);
  t->length_scale = static_cast<float>(opt.length_scale);
  t->length_offset = static_cast<float>(median_log_ratio(ratio_sentences.empty() ? std::move(ratio_dict) : std::move(ratio_sentences)));
  t->seed = opt.seed;
  t->char_all = opt.char_all;
  t->split_min = opt.split_min;
  fill_lang(c.src_vocab, src, t->src);
  fill_lang(c.trg_vocab, trg, t->trg);
  st.src_vocab = c.src_vocab.size() - 1;
  st.trg_vocab = c.trg_vocab.size() - 1;

  const auto t1 = Clock::now();
  {
    TrainOptions to;
    to.iterations = opt.ibm1_iterations;
    Ibm1Trainer tr(c, to);
    for (int i = 0; i < opt.ibm1_iterations; ++i) tr.iterate();
    const Ibm1Model m = tr.model(nlohmann::ordered_json::object());
    t->fwd = prune(m.fwd, opt.min_prob, opt.top_k);
    t->rev = prune(m.rev, opt.min_prob, opt.top_k);
  }
  st.ibm1_s = since(t1);

  const auto t2 = Clock::now();
  if (opt.lsa_dim > 0) {
    // The SVD sees the lsa_vocab most frequent words of each side and at most
    // lsa_rows pairs, evenly spaced: its dense factors grow with both (a
    // dictionary has 10^5..10^6 of each). Other words project to zero.
    const std::vector<int> cs_map = lsa_columns(c.src_vocab, opt.lsa_vocab), ct_map = lsa_columns(c.trg_vocab, opt.lsa_vocab);
    const size_t stride = (src.size() + opt.lsa_rows - 1) / opt.lsa_rows;
    std::vector<SparseBag> bs, bt;
    for (size_t i = 0; i < src.size(); i += stride) {
      auto s = c.src.sentence(i), u = c.trg.sentence(i);
      bs.push_back(remap(own_bag({s.begin(), s.end()}, t->src.idf), cs_map));
      bt.push_back(remap(own_bag({u.begin(), u.end()}, t->trg.idf), ct_map));
    }
    const SpMat xs = bag_matrix(bs, columns(cs_map)), xt = bag_matrix(bt, columns(ct_map));
    const Mat v = top_right_singular(xs, xt, opt.lsa_dim, opt.seed);
    const Eigen::Index d = v.cols();
    t->lsa_dim = static_cast<int>(d);  // fewer when the corpus is smaller than asked
    const Mat ps_small = v.topRows(xs.cols()), pt_small = v.bottomRows(xt.cols());
    const Mat zs = xs * ps_small, zt = xt * pt_small;
    const double n = static_cast<double>(zs.rows());
    Eigen::RowVectorXd ms = Eigen::RowVectorXd::Zero(d), mt = Eigen::RowVectorXd::Zero(d);
    if (opt.post.center) {
      ms = zs.colwise().mean();
      mt = zt.colwise().mean();
    }
    const Mat cs = zs.rowwise() - ms, ct = zt.rowwise() - mt;
    Mat as = Mat::Identity(d, d), at = Mat::Identity(d, d);
    if (opt.post.remove_top > 0) {
      as = remove_top(cs.transpose() * cs / n, opt.post.remove_top);
      at = remove_top(ct.transpose() * ct / n, opt.post.remove_top);
    }
    if (opt.post.whiten) {
      const Mat ws = cs * as, wt = ct * at;
      as = as * inv_sqrt(ws.transpose() * ws / n);
      at = at * inv_sqrt(wt.transpose() * wt / n);
    }
    if (opt.post.cca) {
      // Both languages onto the singular vectors of their cross-covariance:
      // CCA on whitened data, partial least squares without whitening.
      const Mat cross = (cs * as).transpose() * (ct * at) / n;
      Eigen::JacobiSVD<Mat> svd(cross, Eigen::ComputeFullU | Eigen::ComputeFullV);
      Mat u = svd.matrixU(), w = svd.matrixV();
      for (Eigen::Index j = 0; j < d; ++j) {
        Eigen::Index k;
        u.col(j).cwiseAbs().maxCoeff(&k);
        if (u(k, j) < 0) {
          u.col(j) = -u.col(j);
          w.col(j) = -w.col(j);
        }
      }
      as = as * u;
      at = at * w;
    }
    store(ps_small, t->src.proj);
    store(pt_small, t->trg.proj);
    for (auto [map, lang] : {std::pair{&cs_map, &t->src}, std::pair{&ct_map, &t->trg}})
      for (int col : *map) lang->lsa_row.push_back(col < 0 ? UINT32_MAX : static_cast<uint32_t>(col));
    store(ms.transpose(), t->src.mean);
    store(mt.transpose(), t->trg.mean);
    store(as, t->src.post);
    store(at, t->trg.post);
  }
  st.lsa_s = since(t2);
  st.total_s = since(t0);

  fold_post(*t);
  auto e = std::make_unique<LexicalEncoder>(t);
  nlohmann::ordered_json& cfg = e->config_;
  cfg["kind"] = kKind;
  cfg["src_lang"] = opt.src_lang;
  cfg["trg_lang"] = opt.trg_lang;
  cfg["tokenize"] = token_mode_name(opt.tokenizer.mode);
  cfg["lowercase"] = opt.tokenizer.lowercase;
  cfg["dim"] = e->dim();
  cfg["buckets"] = t->buckets;
  cfg["lsa_dim"] = t->lsa_dim;
  cfg["char_buckets"] = t->char_buckets;
  cfg["bags_weight"] = opt.bags_weight;
  cfg["lsa_weight"] = opt.lsa_weight;
  cfg["char_weight"] = opt.char_weight;
  cfg["char_words"] = opt.char_all ? "all" : "unseen";
  cfg["length_weight"] = opt.length_weight;
  cfg["length_scale"] = opt.length_scale;
  cfg["length_offset"] = t->length_offset;
  cfg["split_min"] = opt.split_min;
  cfg["center"] = opt.post.center;
  cfg["remove_top"] = opt.post.remove_top;
  cfg["whiten"] = opt.post.whiten;
  cfg["cca"] = opt.post.cca;
  cfg["ibm1_iterations"] = opt.ibm1_iterations;
  cfg["min_prob"] = opt.min_prob;
  cfg["top_k"] = opt.top_k;
  cfg["lsa_vocab"] = opt.lsa_vocab;
  cfg["lsa_rows"] = opt.lsa_rows;
  cfg["seed"] = opt.seed;
  cfg["pairs"] = st.pairs;
  cfg["src_vocab"] = st.src_vocab;
  cfg["trg_vocab"] = st.trg_vocab;
  if (stats) *stats = st;
  return e;
}

}  // namespace align
