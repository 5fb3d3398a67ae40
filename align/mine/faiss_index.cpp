#include "align/mine/faiss_index.h"

#include <cblas.h>
#include <faiss/IndexHNSW.h>
#include <faiss/IndexFlat.h>
#include <faiss/IndexIVF.h>
#include <faiss/IndexIVFFlat.h>
#include <faiss/IndexPreTransform.h>
#include <faiss/clone_index.h>
#include <faiss/impl/FaissException.h>
#include <faiss/impl/io.h>
#include <faiss/index_factory.h>
#include <faiss/index_io.h>
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "align/mine/bytes.h"
#include "align/mine/gemm_search.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/output.h"

namespace align::mine {

namespace {

constexpr char kIndexMagic[8] = {'P', 'C', 'M', 'I', 'N', 'E', 'I', 'X'};
// Queries per FAISS call: fixed, so what FAISS sees never depends on threads.
constexpr uint64_t kBatch = 16384;

uint64_t pow2_near(double x) {
  uint64_t p = 1;
  while (static_cast<double>(p) * 1.5 < x) p <<= 1;
  return p;
}

// FAISS's own errors carry its source location; keep the message.
[[noreturn]] void rethrow(const faiss::FaissException& e, const std::string& what) {
  std::string m = e.msg;
  if (const auto at = m.find("Error: '"); at != std::string::npos) m = m.substr(at);
  throw corpus::ConfigError(fmt::format("{}: FAISS refused it: {}", what, m));
}

faiss::Index* innermost(faiss::Index* ix) {
  while (auto* pt = dynamic_cast<faiss::IndexPreTransform*>(ix)) ix = pt->index;
  return ix;
}

bool uses_hnsw(faiss::Index* ix) {
  ix = innermost(ix);
  if (dynamic_cast<faiss::IndexHNSW*>(ix)) return true;
  if (auto* ivf = dynamic_cast<faiss::IndexIVF*>(ix)) return dynamic_cast<faiss::IndexHNSW*>(ivf->quantizer) != nullptr;
  return false;
}

// The index, when pc-mine runs it by blocked products (gemm_search.h): an
// IVF,Flat over inner products with a flat quantiser, not wrapped in a
// transform. Null for any other type, which FAISS runs itself.
faiss::IndexIVFFlat* gemm_ivf(faiss::Index* ix) {
  auto* ivf = dynamic_cast<faiss::IndexIVFFlat*>(ix);
  if (!ivf || ivf->metric_type != faiss::METRIC_INNER_PRODUCT || !dynamic_cast<faiss::IndexFlat*>(ivf->quantizer))
    return nullptr;
  return ivf;
}

std::span<const float> centroids(const faiss::IndexIVFFlat& ivf) {
  const auto* q = static_cast<const faiss::IndexFlat*>(ivf.quantizer);
  return {q->get_xb(), static_cast<size_t>(q->ntotal) * static_cast<size_t>(ivf.d)};
}

IvfView view_of(const faiss::IndexIVFFlat& ivf) {
  IvfView v;
  v.dim = static_cast<size_t>(ivf.d);
  v.centroids = centroids(ivf);
  for (size_t l = 0; l < ivf.nlist; ++l) {
    const size_t n = ivf.invlists->list_size(l);
    v.vectors.emplace_back(reinterpret_cast<const float*>(ivf.invlists->get_codes(l)), n * v.dim);
    v.ids.emplace_back(ivf.invlists->get_ids(l), n);
  }
  return v;
}

// The index k-means assigns training points with (IndexIVF's
// clustering_index): exact inner products by exact_top_k, where FAISS's flat
// quantiser would call sgemm.
struct GemmFlatIP : faiss::Index {
  std::vector<float> xb;
  explicit GemmFlatIP(int dim) : faiss::Index(dim, faiss::METRIC_INNER_PRODUCT) {}
  void add(idx_t n, const float* x) override {
    xb.insert(xb.end(), x, x + n * d);
    ntotal += n;
  }
  void reset() override {
    xb.clear();
    ntotal = 0;
  }
  void search(idx_t n, const float* x, idx_t k, float* dis, idx_t* lab,
              const faiss::SearchParameters* /*params*/) const override {
    const auto dd = static_cast<size_t>(d);
    const TopK t = exact_top_k({x, static_cast<size_t>(n) * dd}, xb, dd, static_cast<uint32_t>(k));
    for (size_t i = 0; i < t.ids.size(); ++i) {
      const bool none = t.ids[i] == TopK::kNone;
      lab[i] = none ? -1 : t.ids[i];
      dis[i] = none ? -std::numeric_limits<float>::infinity() : t.sims[i];
    }
  }
};

// Runs f with OpenMP on one thread when `one`, restoring the count after.
template <class F>
void maybe_single(bool one, F&& f) {
  const int was = omp_get_max_threads();
  if (one) omp_set_num_threads(1);
  try {
    f();
  } catch (...) {
    omp_set_num_threads(was);
    throw;
  }
  omp_set_num_threads(was);
}

}  // namespace

struct VectorIndex::Impl {
  std::unique_ptr<faiss::Index> ix;
};

std::string default_factory(uint64_t rows, size_t dim) {
  if (rows <= 20000) return "Flat";
  if (rows <= 1000000) return fmt::format("IVF{},Flat", pow2_near(4 * std::sqrt(static_cast<double>(rows))));
  size_t m = 1;
  for (size_t c = std::min<size_t>(64, dim); c >= 1; --c)
    if (dim % c == 0) {
      m = c;
      break;
    }
  return fmt::format("OPQ{},IVF{},PQ{}", m, pow2_near(16 * std::sqrt(static_cast<double>(rows))), m);
}

std::vector<uint64_t> training_rows(uint64_t rows, uint64_t sample, uint64_t seed) {
  if (sample == 0) sample = 262144;
  std::vector<uint64_t> r;
  if (rows <= sample) {
    r.resize(rows);
    for (uint64_t i = 0; i < rows; ++i) r[i] = i;
    return r;
  }
  // Selection sampling (Knuth's algorithm S): exactly `sample` rows, in order,
  // from a generator whose sequence the standard fixes.
  std::mt19937_64 g(seed);
  uint64_t need = sample;
  for (uint64_t i = 0; i < rows && need > 0; ++i) {
    const uint64_t left = rows - i;
    if (g() % left < need) {
      r.push_back(i);
      --need;
    }
  }
  return r;
}

VectorIndex::VectorIndex(size_t dim, const std::string& factory, const IndexOptions& opt)
    : impl_(std::make_unique<Impl>()), dim_(dim), factory_(factory), opt_(opt) {
  try {
    impl_->ix.reset(faiss::index_factory(static_cast<int>(dim), factory.c_str(), faiss::METRIC_INNER_PRODUCT));
  } catch (const faiss::FaissException& e) {
    rethrow(e, fmt::format("index '{}' for {}-dimensional vectors", factory, dim));
  }
  apply_search_options();
}

VectorIndex::~VectorIndex() = default;
VectorIndex::VectorIndex(VectorIndex&&) noexcept = default;
VectorIndex& VectorIndex::operator=(VectorIndex&&) noexcept = default;

void VectorIndex::apply_search_options() {
  faiss::Index* ix = innermost(impl_->ix.get());
  if (auto* ivf = dynamic_cast<faiss::IndexIVF*>(ix)) {
    ivf->nprobe = std::min<size_t>(static_cast<size_t>(std::max(1, opt_.nprobe)), ivf->nlist);
    if (auto* q = dynamic_cast<faiss::IndexHNSW*>(ivf->quantizer)) q->hnsw.efSearch = std::max(1, opt_.ef_search);
  }
  if (auto* h = dynamic_cast<faiss::IndexHNSW*>(ix)) h->hnsw.efSearch = std::max(1, opt_.ef_search);
}

bool VectorIndex::is_trained() const { return impl_->ix->is_trained; }
uint64_t VectorIndex::rows() const { return static_cast<uint64_t>(impl_->ix->ntotal); }

void VectorIndex::train(std::span<const float> v) {
  if (impl_->ix->is_trained) return;
  const uint64_t n = v.size() / dim_;
  set_blas_threads(opt_.threads);
  faiss::IndexIVFFlat* ivf = gemm_ivf(impl_->ix.get());
  GemmFlatIP assign(static_cast<int>(dim_));
  if (ivf) {
    set_blas_threads(1);
    ivf->clustering_index = &assign;
  }
  // FAISS's k-means prints "WARNING clustering N points to K centroids"
  // to stderr itself when a sample is under min_points_per_centroid per
  // centroid (its only use of that setting), past -q and a library's
  // silence; a small collection trains on all it has either way.
  if (auto* i = dynamic_cast<faiss::IndexIVF*>(innermost(impl_->ix.get()))) i->cp.min_points_per_centroid = 0;
  try {
    impl_->ix->train(static_cast<faiss::Index::idx_t>(n), v.data());
  } catch (const faiss::FaissException& e) {
    if (ivf) ivf->clustering_index = nullptr;
    rethrow(e, fmt::format("training index '{}' on {} rows", factory_, n));
  }
  if (ivf) ivf->clustering_index = nullptr;
}

void VectorIndex::add(std::span<const float> v, int64_t first_id) {
  first_id_ = first_id;
  const uint64_t n = v.size() / dim_;
  if (faiss::IndexIVFFlat* ivf = gemm_ivf(impl_->ix.get()); ivf && ivf->is_trained) {
    // Each row's list by exact_top_k, then FAISS files them.
    set_blas_threads(1);
    const TopK a = exact_top_k(v, centroids(*ivf), dim_, 1);
    std::vector<faiss::Index::idx_t> list(n);
    for (uint64_t i = 0; i < n; ++i) list[i] = a.ids[i] == TopK::kNone ? -1 : a.ids[i];
    try {
      ivf->add_core(static_cast<faiss::Index::idx_t>(n), v.data(), nullptr, list.data());
    } catch (const faiss::FaissException& e) {
      rethrow(e, fmt::format("adding {} rows to index '{}'", n, factory_));
    }
    return;
  }
  set_blas_threads(opt_.threads);
  maybe_single(uses_hnsw(impl_->ix.get()), [&] {
    try {
      impl_->ix->add(static_cast<faiss::Index::idx_t>(n), v.data());
    } catch (const faiss::FaissException& e) {
      rethrow(e, fmt::format("adding {} rows to index '{}'", n, factory_));
    }
  });
}

KnnLists VectorIndex::search(std::span<const float> q, uint32_t k, uint64_t indexed) const {
  KnnLists l;
  l.queries = q.size() / dim_;
  l.k = k;
  l.indexed = indexed;
  l.ids.assign(l.queries * k, -1);
  l.sims.assign(l.queries * k, 0.0f);
  if (faiss::IndexIVFFlat* ivf = gemm_ivf(impl_->ix.get())) {
    set_blas_threads(1);
    l = ivf_top_k(view_of(*ivf), q, k, static_cast<uint32_t>(ivf->nprobe)).lists(indexed);
    for (int64_t& id : l.ids)
      if (id >= 0) id += first_id_;
    return l;
  }
  set_blas_threads(opt_.threads);
  std::vector<faiss::Index::idx_t> lab;
  for (uint64_t b = 0; b < l.queries; b += kBatch) {
    const uint64_t nb = std::min(kBatch, l.queries - b);
    lab.assign(nb * k, -1);
    try {
      impl_->ix->search(static_cast<faiss::Index::idx_t>(nb), q.data() + b * dim_, k, l.sims.data() + b * k,
                        lab.data());
    } catch (const faiss::FaissException& e) {
      rethrow(e, fmt::format("searching index '{}'", factory_));
    }
    for (uint64_t i = 0; i < nb * k; ++i) l.ids[b * k + i] = lab[i] < 0 ? -1 : lab[i] + first_id_;
  }
  return l;
}

VectorIndex VectorIndex::empty_copy() const {
  VectorIndex c;
  c.impl_ = std::make_unique<Impl>();
  c.impl_->ix.reset(faiss::clone_index(impl_->ix.get()));
  c.impl_->ix->reset();
  c.dim_ = dim_;
  c.factory_ = factory_;
  c.opt_ = opt_;
  c.apply_search_options();
  return c;
}

void VectorIndex::save(const std::string& path, const ShardInfo& info) const {
  faiss::VectorIOWriter w;
  faiss::write_index(impl_->ix.get(), &w);
  std::string h(kIndexMagic, sizeof kIndexMagic);
  put<uint32_t>(h, 1);
  put<uint32_t>(h, static_cast<uint32_t>(dim_));
  put<int64_t>(h, first_id_);
  put<uint64_t>(h, rows());
  put<uint64_t>(h, info.total_rows);
  put<uint32_t>(h, info.shard);
  put<uint32_t>(h, info.shards);
  put<uint32_t>(h, static_cast<uint32_t>(factory_.size()));
  h += factory_;
  corpus::Output out(path, corpus::Compression::kNone);
  out.write(h);
  out.write({reinterpret_cast<const char*>(w.data.data()), w.data.size()});
  out.commit();
}

VectorIndex VectorIndex::load(const std::string& path, const IndexOptions& opt, ShardInfo* info) {
  auto src = corpus::open_input(path);
  std::string s;
  char buf[1 << 16];
  for (size_t n; (n = src->read(buf, sizeof buf)) > 0;) s.append(buf, n);
  constexpr size_t kFixed = 8 + 4 + 4 + 8 + 8 + 8 + 4 + 4 + 4;
  if (s.size() < kFixed || std::memcmp(s.data(), kIndexMagic, 8) != 0)
    throw corpus::Error("not a pc-mine index shard (no PCMINEIX header)", "give a file written by pc-mine index")
        .at(path);
  if (get<uint32_t>(s, 8) != 1)
    throw corpus::Error(fmt::format("index shard version {}, this pc-mine reads version 1", get<uint32_t>(s, 8)))
        .at(path);
  VectorIndex v;
  v.impl_ = std::make_unique<Impl>();
  v.opt_ = opt;
  v.dim_ = get<uint32_t>(s, 12);
  v.first_id_ = get<int64_t>(s, 16);
  const uint64_t rows = get<uint64_t>(s, 24);
  ShardInfo si{get<uint64_t>(s, 32), get<uint32_t>(s, 40), get<uint32_t>(s, 44)};
  const uint32_t flen = get<uint32_t>(s, 48);
  if (flen > 4096 || s.size() < kFixed + flen) throw corpus::Error("the index shard is truncated").at(path);
  v.factory_ = s.substr(kFixed, flen);
  faiss::VectorIOReader r;
  r.data.assign(s.begin() + static_cast<std::ptrdiff_t>(kFixed + flen), s.end());
  s.clear();
  s.shrink_to_fit();
  try {
    v.impl_->ix.reset(faiss::read_index(&r));
  } catch (const faiss::FaissException& e) {
    throw corpus::Error("the FAISS index inside is truncated or damaged").at(path);
  }
  if (static_cast<size_t>(v.impl_->ix->d) != v.dim_ || v.rows() != rows || v.first_id_ < 0 ||
      static_cast<uint64_t>(v.first_id_) + rows > si.total_rows)
    throw corpus::Error("the shard's header does not match the FAISS index inside").at(path);
  v.apply_search_options();
  if (info) *info = si;
  return v;
}

void set_blas_threads(int n) { openblas_set_num_threads(std::max(1, n)); }
const char* blas_info() { return openblas_get_config(); }

}  // namespace align::mine
