// The best k of many lists side by side while candidates stream past: what
// the blocked products of pc-mine (flat_both.h, gemm_search.h) keep of each
// block. Best first by (score descending, id ascending), a function of the
// set of candidates only, so whichever order or thread offers them the
// lists come out the same.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "align/mine/knn.h"

namespace align::mine {

struct TopK {
  static constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
  uint64_t n = 0;  // lists
  uint32_t k = 0;
  // An empty slot has score -inf and the largest id, so anything beats it.
  std::vector<float> sims;
  std::vector<int64_t> ids;
  TopK(uint64_t lists, uint32_t kk)
      : n(lists), k(kk), sims(lists * kk, -std::numeric_limits<float>::infinity()), ids(lists * kk, kNone) {}
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
  // Offers every filled slot of `other`'s list `from` to list `to`.
  void merge(uint64_t to, const TopK& other, uint64_t from) {
    for (uint32_t s = 0; s < other.k; ++s)
      if (other.ids[from * other.k + s] != kNone) offer(to, other.sims[from * other.k + s], other.ids[from * other.k + s]);
  }
  // As KnnLists over `indexed` rows: empty slots become id -1, score 0.
  KnnLists lists(uint64_t indexed) const {
    KnnLists l;
    l.queries = n;
    l.k = k;
    l.indexed = indexed;
    l.sims = sims;
    l.ids = ids;
    for (size_t i = 0; i < l.ids.size(); ++i)
      if (l.ids[i] == kNone) {
        l.ids[i] = -1;
        l.sims[i] = 0;
      }
    return l;
  }
};

}  // namespace align::mine
