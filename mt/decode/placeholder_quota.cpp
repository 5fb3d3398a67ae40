#include "mt/decode/placeholder_quota.h"

#include <algorithm>
#include <limits>

namespace mt {

PlaceholderQuota::PlaceholderQuota(std::vector<int32_t> src_ids, std::vector<int32_t> trg_ids, int32_t eos,
                                   int trg_vocab)
    : src_ids_(std::move(src_ids)), trg_ids_(std::move(trg_ids)), trg_slot_(static_cast<size_t>(trg_vocab), -1),
      eos_(eos) {
  int32_t src_max = -1;
  for (int32_t id : src_ids_) src_max = std::max(src_max, id);
  src_slot_.assign(static_cast<size_t>(src_max + 1), -1);
  for (size_t k = 0; k < src_ids_.size(); ++k)
    if (src_ids_[k] >= 0) src_slot_[static_cast<size_t>(src_ids_[k])] = static_cast<int>(k);
  for (size_t k = 0; k < trg_ids_.size(); ++k)
    if (trg_ids_[k] >= 0 && trg_ids_[k] < trg_vocab) trg_slot_[static_cast<size_t>(trg_ids_[k])] = static_cast<int>(k);
}

std::vector<int> PlaceholderQuota::demand(const std::vector<int32_t>& src) const {
  std::vector<int> d(src_ids_.size(), 0);
  for (int32_t t : src)
    if (t >= 0 && static_cast<size_t>(t) < src_slot_.size() && src_slot_[static_cast<size_t>(t)] >= 0)
      ++d[static_cast<size_t>(src_slot_[static_cast<size_t>(t)])];
  return d;
}

void PlaceholderQuota::mask(const std::vector<int>& demand, const int32_t* prefix, size_t n, size_t limit,
                             float* row) const {
  std::vector<int> left = demand;
  for (size_t i = 0; i < n; ++i) {
    const int32_t t = prefix[i];
    if (t >= 0 && static_cast<size_t>(t) < trg_slot_.size() && trg_slot_[static_cast<size_t>(t)] >= 0)
      --left[static_cast<size_t>(trg_slot_[static_cast<size_t>(t)])];
  }
  constexpr float kNever = -std::numeric_limits<float>::infinity();
  size_t owed = 0;
  for (size_t k = 0; k < trg_ids_.size(); ++k) {
    if (trg_ids_[k] < 0 || static_cast<size_t>(trg_ids_[k]) >= trg_slot_.size()) continue;
    if (left[k] > 0) owed += static_cast<size_t>(left[k]);
    else row[trg_ids_[k]] = kNever;
  }
  if (owed == 0 || eos_ < 0 || static_cast<size_t>(eos_) >= trg_slot_.size()) return;
  // The model would end here, or the limit leaves room for the owed symbols
  // only: write an owed symbol now rather than words it did not want until
  // the symbol's turn comes (or a cut output without it).
  const size_t V = trg_slot_.size();
  const bool no_room = limit <= n + owed;
  if (no_room || row[eos_] >= *std::max_element(row, row + V)) {
    for (size_t v = 0; v < V; ++v) {
      const int k = trg_slot_[v];
      if (k < 0 || left[static_cast<size_t>(k)] <= 0) row[v] = kNever;
    }
  }
  row[eos_] = kNever;
}

}  // namespace mt
