// k-nearest-neighbour lists of pc-mine: for each query row, up to k rows of
// the indexed side with their cosines, best first.
//
// FAISS proposes the candidates; their cosines are then recomputed here from
// the L2-normalised vectors in one fixed order (a double-precision dot
// product, as LASER's mine_bitexts recomputes x.dot(y)), and each list sorted
// by (cosine descending, row ascending). So a list does not depend on the
// index type's arithmetic, on how the queries were batched, on the thread
// count, or on how the indexed side was split into shards: merging the lists
// of several shards gives what one index over all rows gives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace align::mine {

struct KnnLists {
  uint64_t queries = 0;
  uint32_t k = 0;            // slots per query
  uint64_t indexed = 0;      // rows of the indexed side (all shards)
  std::vector<int64_t> ids;  // queries × k, -1 for an empty slot
  std::vector<float> sims;   // queries × k
  int64_t id(uint64_t q, uint32_t j) const { return ids[q * k + j]; }
  float sim(uint64_t q, uint32_t j) const { return sims[q * k + j]; }
  // Filled slots of query q (filled slots come first).
  uint32_t filled(uint64_t q) const;
};

// Lists for the queries of `in` (over the same indexed side) with k empty
// slots each.
KnnLists empty_like(const KnnLists& in, uint32_t k);

// Sorts query q's candidates (score, id) best first, ties by id, and writes
// the first out.k of them to its slots (the rest of the slots untouched).
void keep_best(std::vector<std::pair<float, int64_t>>& c, uint64_t q, KnnLists& out);

// Mixes a second signal into the similarities: each filled slot's becomes
// (1 - w)·sim + w·signal(query row, listed row), with the signal on a 0..1
// scale; each list is then sorted as keep_best sorts and cut to k_out.
// Queries run on the threads, so `signal` must be safe to call from several.
using PairSignal = std::function<double(uint64_t query, uint64_t listed)>;
KnnLists mix_signal(const KnnLists& in, double w, uint32_t k_out, const PairSignal& signal);

// The cosine of two L2-normalised rows, in the fixed order every list uses.
float cosine(std::span<const float> a, std::span<const float> b);

// Recomputes every candidate's cosine from the vectors (queries × dim and
// indexed × dim, row-major), drops repeated ids, sorts each list by (cosine
// descending, id ascending) and keeps the best `k_out`.
KnnLists rerank(const KnnLists& in, std::span<const float> queries, std::span<const float> indexed, size_t dim,
                uint32_t k_out);

// The candidates of several shards' lists over the same queries, side by
// side (k = the sum of theirs); `rerank` then picks the best. Lists of
// different query counts or indexed sizes are a corpus::ConfigError.
KnnLists concat(const std::vector<KnnLists>& parts, const std::vector<std::string>& names);

// The file `pc-mine search` writes: magic "PCKNN001", then little-endian
// uint64 queries, uint32 k, uint32 0, uint64 indexed, int64 ids[queries×k],
// float32 sims[queries×k]. Written under a temporary name and renamed.
void write_knn(const std::string& path, const KnnLists& lists);
// Reads and checks one: a wrong magic, a size that does not match the
// header, an id outside [-1, indexed) are corpus::Errors naming the file.
KnnLists read_knn(const std::string& path);

}  // namespace align::mine
