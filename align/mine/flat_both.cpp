#include "align/mine/flat_both.h"

#include <cblas.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

namespace align::mine {

namespace {

constexpr uint64_t kRows = 1024, kCols = 4096;

// Top-k slots of many lists side by side, best first; an empty slot has
// sim -inf and the largest id, so anything beats it.
struct TopK {
  uint32_t k = 0;
  std::vector<float> sims;
  std::vector<int64_t> ids;
  TopK(uint64_t lists, uint32_t kk)
      : k(kk),
        sims(lists * kk, -std::numeric_limits<float>::infinity()),
        ids(lists * kk, std::numeric_limits<int64_t>::max()) {}
  float worst(uint64_t list) const { return sims[list * k + k - 1]; }
  static bool better(float v, int64_t id, float w, int64_t jd) { return v > w || (v == w && id < jd); }
  void offer(uint64_t list, float v, int64_t id) {
    float* s = sims.data() + list * k;
    int64_t* d = ids.data() + list * k;
    if (!better(v, id, s[k - 1], d[k - 1])) return;
    uint32_t at = k - 1;
    while (at > 0 && better(v, id, s[at - 1], d[at - 1])) {
      s[at] = s[at - 1];
      d[at] = d[at - 1];
      --at;
    }
    s[at] = v;
    d[at] = id;
  }
  KnnLists lists(uint64_t indexed) const {
    KnnLists l;
    l.queries = sims.size() / k;
    l.k = k;
    l.indexed = indexed;
    l.sims = sims;
    l.ids = ids;
    for (size_t i = 0; i < l.ids.size(); ++i)
      if (l.ids[i] == std::numeric_limits<int64_t>::max()) {
        l.ids[i] = -1;
        l.sims[i] = 0;
      }
    return l;
  }
};

}  // namespace

std::pair<KnnLists, KnnLists> flat_knn_both(const Side& x, const Side& y, uint32_t kx, uint32_t ky) {
  const uint64_t nx = x.rows(), ny = y.rows();
  const auto d = static_cast<int>(x.dim);
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
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(ni), static_cast<int>(nj), d, 1.0f,
                  x.vectors.data() + i0 * x.dim, d, y.vectors.data() + j0 * y.dim, d, 0.0f, c,
                  static_cast<int>(nj));
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
    for (uint64_t j = 0; j < ny; ++j)
      for (uint32_t s = 0; s < ky; ++s)
        if (t.ids[j * ky + s] != std::numeric_limits<int64_t>::max())
          merged.offer(j, t.sims[j * ky + s], t.ids[j * ky + s]);
  return {rows.lists(ny), merged.lists(nx)};
}

}  // namespace align::mine
