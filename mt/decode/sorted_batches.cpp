#include "mt/decode/sorted_batches.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <numeric>

namespace mt {

void for_sorted_batches(const Config& cfg, const std::vector<std::vector<int32_t>>& src, int batch_size,
                        const std::function<void(const std::vector<const std::vector<int32_t>*>& sources,
                                                 const std::vector<size_t>& indices)>& decode) {
  std::vector<std::vector<int32_t>> cut(src.size());
  std::vector<size_t> order(src.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return src[a].size() < src[b].size(); });
  const size_t bs = static_cast<size_t>(std::max(1, batch_size));
  const size_t nbatches = (order.size() + bs - 1) / bs;
  tbb::parallel_for(size_t{0}, nbatches, [&](size_t k) {
    std::vector<const std::vector<int32_t>*> s;
    std::vector<size_t> idx;
    for (size_t j = k * bs; j < std::min(order.size(), (k + 1) * bs); ++j) {
      const auto& x = src[order[j]];
      if (static_cast<int>(x.size()) >= cfg.max_len) {
        cut[order[j]].assign(x.begin(), x.begin() + (cfg.max_len - 1));
        s.push_back(&cut[order[j]]);
      } else {
        s.push_back(&x);
      }
      idx.push_back(order[j]);
    }
    decode(s, idx);
  });
}

}  // namespace mt
