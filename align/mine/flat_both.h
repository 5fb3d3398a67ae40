// Exact k-nearest neighbours in both directions from one pass over the
// product X·Yᵀ: each block of cosines updates the top-k of its rows (x's
// neighbours in y) and of its columns (y's in x), where FAISS's IndexFlatIP
// would compute the whole product once per direction. Half the arithmetic
// of two searches, and the one that dominates a Flat mine.
//
// Blocks are fixed (1024 rows × 4096 columns), each product (product_nt of
// gemm_search.h: OpenBLAS or paracorp's AVX-512 kernel) runs on one thread
// inside a oneTBB task over row blocks, and every top-k is
// the best k by (cosine descending, id ascending) — a function of the set of
// cosines only — so the lists do not depend on the thread count.
#pragma once

#include <cstdint>
#include <utility>

#include "align/mine/knn.h"
#include "align/mine/side.h"

namespace align::mine {

// (x's lists over y with kx slots, y's lists over x with ky slots), FAISS's
// float scores (rerank them for exact cosines).
std::pair<KnnLists, KnnLists> flat_knn_both(const Side& x, const Side& y, uint32_t kx, uint32_t ky);

}  // namespace align::mine
