// pc-mine's blocked-product search (align/mine/gemm_search.h): exact lists
// against a double-precision brute force, IVF lists against FAISS's own
// IndexIVFFlat search over the same lists, and lists that depend neither on
// the thread count nor on how the queries are batched.
#include <doctest/doctest.h>
#include <faiss/IndexFlat.h>
#include <faiss/IndexIVFFlat.h>
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "align/mine/gemm_search.h"
#include "align/mine/knn.h"
#include "support/random_values.h"

namespace align::mine {
namespace {

// Rows of unit length, as pc-mine searches them.
std::vector<float> unit_rows(size_t rows, size_t dim, unsigned seed) {
  std::vector<float> v = random_floats(rows * dim, seed);
  for (size_t r = 0; r < rows; ++r) {
    double s = 0;
    for (size_t j = 0; j < dim; ++j) s += double(v[r * dim + j]) * v[r * dim + j];
    for (size_t j = 0; j < dim; ++j) v[r * dim + j] = static_cast<float>(v[r * dim + j] / std::sqrt(s));
  }
  return v;
}

double dot(const float* a, const float* b, size_t d) {
  double s = 0;
  for (size_t j = 0; j < d; ++j) s += double(a[j]) * b[j];
  return s;
}

// The best k of `ids` for query q by double inner product, ties by id.
std::vector<int64_t> best_k(const float* q, const std::vector<float>& base, const std::vector<int64_t>& ids,
                            size_t d, uint32_t k) {
  std::vector<std::pair<double, int64_t>> c;
  for (const int64_t id : ids) c.emplace_back(-dot(q, base.data() + id * d, d), id);
  std::sort(c.begin(), c.end());
  std::vector<int64_t> out;
  for (size_t i = 0; i < std::min<size_t>(k, c.size()); ++i) out.push_back(c[i].second);
  return out;
}

std::vector<int64_t> row_ids(const TopK& t, uint64_t q) {
  std::vector<int64_t> r;
  for (uint32_t s = 0; s < t.k; ++s)
    if (t.ids[q * t.k + s] != TopK::kNone) r.push_back(t.ids[q * t.k + s]);
  return r;
}

}  // namespace

TEST_CASE("gemm search: exact lists equal a double brute force, exact ties by id") {
  const size_t d = 40, nq = 300, nb = 1500;  // d and the sizes leave partial tiles and blocks
  const std::vector<float> q = unit_rows(nq, d, 1);
  std::vector<float> b = unit_rows(nb, d, 2);
  // Row 1200 repeats row 7: the same products bit for bit, so a query near
  // either lists 7 before 1200.
  std::copy_n(b.begin() + 7 * d, d, b.begin() + 1200 * d);
  std::vector<int64_t> all(nb);
  std::iota(all.begin(), all.end(), 0);
  const TopK t = exact_top_k(q, b, d, 5);
  REQUIRE(t.n == nq);
  for (uint64_t i = 0; i < nq; ++i) {
    CAPTURE(i);
    CHECK(row_ids(t, i) == best_k(q.data() + i * d, b, all, d, 5));
    for (uint32_t s = 0; s < 5; ++s)
      CHECK(t.sims[i * 5 + s] == doctest::Approx(dot(q.data() + i * d, b.data() + t.ids[i * 5 + s] * d, d)).epsilon(1e-5));
  }
  const std::vector<float> near(b.begin() + 7 * d, b.begin() + 8 * d);
  const TopK tie = exact_top_k(near, b, d, 2);
  CHECK(row_ids(tie, 0) == std::vector<int64_t>{7, 1200});
  CHECK(tie.sims[0] == tie.sims[1]);
}

TEST_CASE("gemm search: IVF lists equal FAISS IndexIVFFlat's own search of the same lists") {
  const size_t d = 24, nb = 4000, nq = 500, nlist = 32;
  const std::vector<float> b = unit_rows(nb, d, 3), q = unit_rows(nq, d, 4);
  faiss::IndexFlatIP quantizer(static_cast<int>(d));
  faiss::IndexIVFFlat ivf(&quantizer, d, nlist, faiss::METRIC_INNER_PRODUCT);
  ivf.train(static_cast<faiss::Index::idx_t>(nb), b.data());
  ivf.add(static_cast<faiss::Index::idx_t>(nb), b.data());
  IvfView v;
  v.dim = d;
  v.centroids = {quantizer.get_xb(), nlist * d};
  for (size_t l = 0; l < nlist; ++l) {
    const size_t n = ivf.invlists->list_size(l);
    v.vectors.emplace_back(reinterpret_cast<const float*>(ivf.invlists->get_codes(l)), n * d);
    v.ids.emplace_back(ivf.invlists->get_ids(l), n);
  }
  for (const uint32_t nprobe : {1u, 4u, 32u}) {
    CAPTURE(nprobe);
    ivf.nprobe = nprobe;
    const uint32_t k = 6;
    std::vector<float> dis(nq * k);
    std::vector<faiss::Index::idx_t> lab(nq * k);
    ivf.search(static_cast<faiss::Index::idx_t>(nq), q.data(), k, dis.data(), lab.data());
    KnnLists theirs;
    theirs.queries = nq;
    theirs.k = k;
    theirs.indexed = nb;
    theirs.ids.assign(lab.begin(), lab.end());
    theirs.sims = dis;
    const KnnLists ours = ivf_top_k(v, q, k, nprobe).lists(nb);
    // Both reranked by exact cosines: the same candidates give the same lists.
    CHECK(rerank(ours, q, b, d, k).ids == rerank(theirs, q, b, d, k).ids);
  }
}

TEST_CASE("gemm search: lists depend neither on the thread count nor on the query batch") {
  const size_t d = 32, nb = 3000, nq = 700, nlist = 16;
  const std::vector<float> b = unit_rows(nb, d, 5), q = unit_rows(nq, d, 6);
  // Lists by hand: row r in list r mod nlist, centroids = the first rows.
  IvfView v;
  v.dim = d;
  v.centroids = {b.data(), nlist * d};
  std::vector<std::vector<float>> vec(nlist);
  std::vector<std::vector<int64_t>> ids(nlist);
  for (size_t r = 0; r < nb; ++r) {
    vec[r % nlist].insert(vec[r % nlist].end(), b.begin() + r * d, b.begin() + (r + 1) * d);
    ids[r % nlist].push_back(static_cast<int64_t>(r));
  }
  for (size_t l = 0; l < nlist; ++l) {
    v.vectors.emplace_back(vec[l]);
    v.ids.emplace_back(ids[l]);
  }
  auto run = [&](int threads, std::span<const float> part) {
    oneapi::tbb::global_control g(oneapi::tbb::global_control::max_allowed_parallelism, threads);
    return std::make_pair(exact_top_k(part, b, d, 4), ivf_top_k(v, part, 4, 3));
  };
  const auto one = run(1, q), two = run(2, q);
  CHECK(one.first.ids == two.first.ids);
  CHECK(one.first.sims == two.first.sims);
  CHECK(one.second.ids == two.second.ids);
  CHECK(one.second.sims == two.second.sims);
  const std::span<const float> all(q);
  const auto head = run(2, all.first(300 * d)), tail = run(2, all.subspan(300 * d));
  std::vector<int64_t> joined = head.second.ids;
  joined.insert(joined.end(), tail.second.ids.begin(), tail.second.ids.end());
  CHECK(joined == one.second.ids);
}

}  // namespace align::mine
