// Nearest neighbours by inner product from blocked matrix products, one
// thread per oneTBB task: exact search, and the search of an IVF,Flat
// index's lists. The products run on OpenBLAS where it runs its own AVX-512
// kernels, else on the AVX-512 kernel of libcorpus/linalg where the CPU has
// AVX-512 (OpenBLAS 0.3.21 picks kernels by CPU model, and on one it does
// not know runs SSE3 ones), else on OpenBLAS. Debian's FAISS is built for baseline x86-64 and scans IVF
// lists with scalar dot products; grouping the queries that probe a list
// turns that scan into one product per list.
//
// Every list kept is the best k by (score descending, id ascending), a
// function of the candidate set only: it does not depend on the thread
// count or on how queries are batched, and the lists of shards merge into
// what one index gives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "align/mine/topk.h"

namespace align::mine {

// Which kernel product_nt runs, for --version.
const char* product_backend();

// C[m,n] = A[m,d] · B[n,d]ᵀ, row-major, on the calling thread (the caller
// bounds OpenBLAS to one thread when it is the fallback; exact_top_k and
// ivf_top_k do so themselves for the time they run).
void product_nt(const float* a, const float* b, float* c, uint64_t m, uint64_t n, size_t d);

// The k best rows of `base` (ids 0..) for each query, by inner product:
// queries × k, parallel over blocks of queries.
TopK exact_top_k(std::span<const float> queries, std::span<const float> base, size_t dim, uint32_t k);

// An IVF,Flat index's lists seen from outside FAISS: list l holds
// vectors[l] (rows × dim) with ids[l].
struct IvfView {
  size_t dim = 0;
  std::span<const float> centroids;  // nlist × dim
  std::vector<std::span<const float>> vectors;
  std::vector<std::span<const int64_t>> ids;
};

// What FAISS's IndexIVFFlat search with inner product finds: each query's
// `nprobe` nearest centroids, then its k best rows among those lists.
TopK ivf_top_k(const IvfView& v, std::span<const float> queries, uint32_t k, uint32_t nprobe);

}  // namespace align::mine
