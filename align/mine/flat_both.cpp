#include "align/mine/flat_both.h"

#include <cblas.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "align/mine/gemm_search.h"
#include "align/mine/topk.h"

namespace align::mine {

namespace {

// 1024 rows × 4096 columns of cosines (16 MB) per product (256 × 1024 and
// 512 × 2048 measured the same at 100k × 100k).
constexpr uint64_t kRows = 1024, kCols = 4096;

}  // namespace

std::pair<KnnLists, KnnLists> flat_knn_both(const Side& x, const Side& y, uint32_t kx, uint32_t ky) {
  const uint64_t nx = x.rows(), ny = y.rows();
  TopK rows(nx, kx);
  oneapi::tbb::enumerable_thread_specific<TopK> cols([&] { return TopK(ny, ky); });
  oneapi::tbb::enumerable_thread_specific<std::vector<float>> worsts;
  // Each product on one thread: the tasks are the parallelism.
  openblas_set_num_threads(1);
  const uint64_t blocks = (nx + kRows - 1) / kRows;
  oneapi::tbb::parallel_for(uint64_t{0}, blocks, [&](uint64_t b) {
    const uint64_t i0 = b * kRows, ni = std::min(kRows, nx - i0);
    // sgemm overwrites it (beta 0): no need to zero it.
    const std::unique_ptr<float[]> block(new float[ni * kCols]);
    float* const c = block.get();
    TopK& col = cols.local();
    // This thread's columns' k-th best cosines, contiguous for the test below.
    std::vector<float>& col_worst = worsts.local();
    if (col_worst.empty()) col_worst.assign(ny, -std::numeric_limits<float>::infinity());
    for (uint64_t j0 = 0; j0 < ny; j0 += kCols) {
      const uint64_t nj = std::min(kCols, ny - j0);
      product_nt(x.vectors.data() + i0 * x.dim, y.vectors.data() + j0 * y.dim, c, ni, nj, x.dim);
      // Almost every cosine beats neither its row's k-th best nor its
      // column's: a branch-free test over 16 at a time (which the compiler
      // vectorises) skips them, and only the rare hit takes the insertion.
      float* cw = col_worst.data() + j0;
      for (uint64_t i = 0; i < ni; ++i) {
        const float* r = c + i * nj;
        const uint64_t row = i0 + i;
        float rw = rows.worst(row);
        for (uint64_t jb = 0; jb < nj; jb += 16) {
          const uint64_t je = std::min(nj, jb + 16);
          int hit = 0;
          for (uint64_t j = jb; j < je; ++j) hit |= (r[j] >= rw) | (r[j] >= cw[j]);
          if (!hit) continue;
          for (uint64_t j = jb; j < je; ++j) {
            if (r[j] >= rw) {
              rows.offer(row, r[j], static_cast<int64_t>(j0 + j));
              rw = rows.worst(row);
            }
            if (r[j] >= cw[j]) {
              col.offer(j0 + j, r[j], static_cast<int64_t>(row));
              cw[j] = col.worst(j0 + j);
            }
          }
        }
      }
    }
  });
  // The columns' candidates of every thread, merged: the best k of a union
  // is the same whichever thread saw which rows.
  TopK merged(ny, ky);
  for (const TopK& t : cols)
    for (uint64_t j = 0; j < ny; ++j) merged.merge(j, t, j);
  return {rows.lists(ny), merged.lists(nx)};
}

}  // namespace align::mine
