#include "mt/train/batching.h"

#include <algorithm>
#include <numeric>

#include "libcorpus/core/hash_mix.h"

namespace mt {

namespace {
int64_t padded_len(const Corpus& c, uint32_t i) {
  return static_cast<int64_t>(std::max(c.src[i].size(), c.trg[i].size())) + 1;
}
}  // namespace

std::vector<std::vector<uint32_t>> make_batches(const Corpus& c, int64_t max_tokens, uint64_t seed, int64_t epoch,
                                                bool shuffle) {
  std::vector<uint32_t> order(c.size());
  std::iota(order.begin(), order.end(), 0u);
  const uint64_t eseed = corpus::mix64(seed ^ corpus::mix64(static_cast<uint64_t>(epoch) + 0x51ed2701ULL));
  if (shuffle) {
    std::vector<uint64_t> key(order.size());
    for (size_t i = 0; i < key.size(); ++i) key[i] = corpus::mix64(eseed + i);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
  }
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (c.trg[a].size() != c.trg[b].size()) return c.trg[a].size() < c.trg[b].size();
    return c.src[a].size() < c.src[b].size();
  });
  std::vector<std::vector<uint32_t>> batches;
  std::vector<uint32_t> cur;
  int64_t longest = 0;
  for (uint32_t i : order) {
    int64_t l = std::max(longest, padded_len(c, i));
    if (!cur.empty() && l * static_cast<int64_t>(cur.size() + 1) > max_tokens) {
      batches.push_back(std::move(cur));
      cur.clear();
      l = padded_len(c, i);
    }
    cur.push_back(i);
    longest = l;
  }
  if (!cur.empty()) batches.push_back(std::move(cur));
  if (shuffle) {
    std::vector<uint64_t> key(batches.size());
    for (size_t i = 0; i < key.size(); ++i) key[i] = corpus::mix64(eseed ^ (0xb5ad4eceda1ce2a9ULL + i));
    std::vector<size_t> idx(batches.size());
    std::iota(idx.begin(), idx.end(), size_t{0});
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
    std::vector<std::vector<uint32_t>> out;
    out.reserve(batches.size());
    for (size_t i : idx) out.push_back(std::move(batches[i]));
    batches.swap(out);
  }
  return batches;
}

std::vector<std::vector<uint32_t>> split_batch(const Corpus& c, const std::vector<uint32_t>& batch, int parts) {
  std::vector<std::vector<uint32_t>> out(static_cast<size_t>(std::max(1, parts)));
  int64_t total = 0;
  for (uint32_t i : batch) total += padded_len(c, i);
  int64_t acc = 0;
  for (uint32_t i : batch) {
    size_t k = static_cast<size_t>(acc * static_cast<int64_t>(out.size()) / std::max<int64_t>(1, total));
    out[std::min(k, out.size() - 1)].push_back(i);
    acc += padded_len(c, i);
  }
  return out;
}

}  // namespace mt
