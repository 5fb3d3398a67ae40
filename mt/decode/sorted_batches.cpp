#include "mt/decode/sorted_batches.h"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>
#include <string>


namespace mt {

namespace {

// Runs decode with the calling thread's workspace for cfg. It is kept from
// call to call (pc-nmt translate decodes a long input chunk after chunk, the
// trainer validates again and again) and made anew for another model; a
// thread that is already inside a decode (were it ever to take another batch
// while waiting) gets a workspace of its own for the inner one.
template <class F>
void with_thread_workspace(const Config& cfg, F&& decode) {
  thread_local std::unique_ptr<DecodeWorkspace> kept;
  thread_local std::string kept_for;
  thread_local bool busy = false;
  if (busy) {
    DecodeWorkspace own(cfg);
    decode(own);
    return;
  }
  std::string model = cfg.to_json().dump();
  if (!kept || model != kept_for) {
    kept.reset();
    kept = std::make_unique<DecodeWorkspace>(cfg);
    kept_for = std::move(model);
  }
  busy = true;
  try {
    decode(*kept);
  } catch (...) {
    busy = false;
    throw;
  }
  busy = false;
}

}  // namespace

void for_sorted_batches(const Config& cfg, const float* params, PackedWeights* kept,
                        const std::vector<std::vector<int32_t>>& src, int batch_size,
                        const std::function<void(DecodeWorkspace& workspace,
                                                 const std::vector<const std::vector<int32_t>*>& sources,
                                                 const std::vector<size_t>& indices)>& decode) {
  std::vector<std::vector<int32_t>> cut(src.size());
  std::vector<size_t> order(src.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return src[a].size() < src[b].size(); });
  const size_t bs = static_cast<size_t>(std::max(1, batch_size));
  const size_t nbatches = (order.size() + bs - 1) / bs;
  std::optional<PackedWeights> own;
  if (!kept) {
    ModelOffsets off;
    own.emplace(params, make_layout(cfg, off).total());
  }
  PackedWeights* packed = kept ? kept : &*own;
  tbb::parallel_for(size_t{0}, nbatches, [&](size_t i) {
    // Longest batches first, so a workspace's buffers reach their size on
    // its first batches and are not grown (reallocated, zero-filled and
    // faulted in again) batch after batch. Which sentences share a batch
    // does not change.
    const size_t k = nbatches - 1 - i;
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
    const UsePackedWeights use(packed);
    with_thread_workspace(cfg, [&](DecodeWorkspace& ws) { decode(ws, s, idx); });
  });
}

}  // namespace mt
