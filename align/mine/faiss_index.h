// The FAISS side of pc-mine: an inner-product index over L2-normalised rows
// (so scores are cosines), built from any factory string, trained on a seeded
// sample, searched in fixed batches, saved as one file per shard. The only
// file that includes FAISS.
//
// An IVF,Flat index (flat quantiser, inner product) is FAISS's for its lists
// and its file, and pc-mine's for the arithmetic: the k-means assignments of
// training, each added row's list and the search run as blocked products
// (gemm_search.h), where Debian's baseline-x86-64 FAISS scans lists with
// scalar dot products and assigns by whatever kernels OpenBLAS picked.
//
// Threads: FAISS parallelises with OpenMP (the CLI layer's thread scope sets
// its count from --threads) and exact search calls sgemm, whose OpenBLAS
// threads are set to the same count here, so the two never oversubscribe:
// they take turns. HNSW inserts run on one thread, since a graph built by
// several depends on their timing and so would the neighbours found.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "align/mine/knn.h"

namespace align::mine {

struct IndexOptions {
  std::string factory;        // FAISS index_factory string; "" = default_factory()
  int nprobe = 16;            // IVF lists visited per query
  int ef_search = 128;        // HNSW candidate list length at search time
  uint64_t train_sample = 0;  // rows the index is trained on; 0 = auto (all, up to 262144)
  uint64_t seed = 1;          // which rows are sampled
  int threads = 1;
};

// The index stopes-style by collection size (rows indexed, dimension):
// "Flat" up to 20,000 rows; "IVF<n>,Flat" up to 1,000,000 (n about
// 4·sqrt(rows), a power of two); above, "OPQ<m>,IVF<n>,PQ<m>" with m the
// largest divisor of dim up to 64 and n about 16·sqrt(rows).
std::string default_factory(uint64_t rows, size_t dim);

// The rows an index is trained on: all of them when there are at most
// `sample` (0: 262144), else that many drawn with `seed`, in row order.
std::vector<uint64_t> training_rows(uint64_t rows, uint64_t sample, uint64_t seed);

class VectorIndex {
 public:
  // A new index of `factory` (checked: a string FAISS refuses is a
  // corpus::ConfigError naming it).
  VectorIndex(size_t dim, const std::string& factory, const IndexOptions& opt);
  ~VectorIndex();
  VectorIndex(VectorIndex&&) noexcept;
  VectorIndex& operator=(VectorIndex&&) noexcept;

  // Trains (when the type needs it) on rows × dim vectors.
  void train(std::span<const float> vectors);
  bool is_trained() const;
  // Adds rows; their ids are `first_id` onward (the shard's offset).
  void add(std::span<const float> vectors, int64_t first_id);
  // The k nearest rows of each query (queries × dim), FAISS's own scores;
  // ids are global (offset added). `indexed` is recorded in the lists.
  KnnLists search(std::span<const float> queries, uint32_t k, uint64_t indexed) const;

  size_t dim() const { return dim_; }
  uint64_t rows() const;
  const std::string& factory() const { return factory_; }
  int64_t first_id() const { return first_id_; }

  // A shard file: "PCMINEIX" header (version 1, dim, first id, rows in this
  // shard, rows of the whole side, shard number, shard count, factory) then
  // FAISS's own serialisation. Written under a temporary name and renamed.
  struct ShardInfo {
    uint64_t total_rows = 0;
    uint32_t shard = 0, shards = 1;
  };
  void save(const std::string& path, const ShardInfo& info) const;
  static VectorIndex load(const std::string& path, const IndexOptions& opt, ShardInfo* info);
  // Another index of the same trained state with no rows (what each shard
  // starts from).
  VectorIndex empty_copy() const;

 private:
  VectorIndex() = default;
  void apply_search_options();
  struct Impl;
  std::unique_ptr<Impl> impl_;
  size_t dim_ = 0;
  std::string factory_;
  IndexOptions opt_;
  int64_t first_id_ = 0;
};

// OpenBLAS's thread count (FAISS's exact search and k-means call sgemm).
void set_blas_threads(int n);
// What BLAS is linked, for --version ("OpenBLAS 0.3.21 ...").
const char* blas_info();

}  // namespace align::mine
