// Token batching with length buckets (mt/train/batching.h): every example in
// exactly one batch, the padded-token budget kept, batches cut from the
// length-sorted order, and the order a function of (seed, epoch) only.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "mt/train/batching.h"

using namespace mt;

namespace {

// 200 examples with source and target lengths that vary independently.
Corpus corpus_of(size_t n) {
  Corpus c;
  for (size_t i = 0; i < n; ++i) {
    c.src.emplace_back((i * 7) % 23 + 1, 5);
    c.trg.emplace_back((i * 11) % 19 + 1, 6);
  }
  return c;
}

int64_t padded(const Corpus& c, uint32_t i) {
  return static_cast<int64_t>(std::max(c.src[i].size(), c.trg[i].size())) + 1;
}

int64_t padded_tokens(const Corpus& c, const std::vector<uint32_t>& b) {
  int64_t longest = 0;
  for (uint32_t i : b) longest = std::max(longest, padded(c, i));
  return longest * static_cast<int64_t>(b.size());
}

std::vector<uint32_t> flat(const std::vector<std::vector<uint32_t>>& batches) {
  std::vector<uint32_t> all;
  for (const auto& b : batches) all.insert(all.end(), b.begin(), b.end());
  return all;
}

}  // namespace

TEST_CASE("batching: every example once, no batch over the token budget, none empty") {
  const Corpus c = corpus_of(200);
  for (bool shuffle : {false, true}) {
    const auto batches = make_batches(c, 100, 7, 0, shuffle);
    std::vector<uint32_t> all = flat(batches);
    std::sort(all.begin(), all.end());
    REQUIRE(all.size() == c.size());
    for (uint32_t i = 0; i < all.size(); ++i) CHECK(all[i] == i);
    for (const auto& b : batches) {
      CHECK_FALSE(b.empty());
      CHECK(padded_tokens(c, b) <= 100);
    }
  }
}

TEST_CASE("batching: batches are full, so a batch plus the next example would pass the budget") {
  const Corpus c = corpus_of(200);
  const auto batches = make_batches(c, 100, 7, 0, false);
  for (size_t k = 0; k + 1 < batches.size(); ++k) {
    std::vector<uint32_t> more = batches[k];
    more.push_back(batches[k + 1].front());
    CHECK(padded_tokens(c, more) > 100);
  }
}

TEST_CASE("batching: without shuffling, examples run by (target length, source length)") {
  const Corpus c = corpus_of(200);
  const std::vector<uint32_t> all = flat(make_batches(c, 100, 7, 0, false));
  for (size_t k = 0; k + 1 < all.size(); ++k) {
    const uint32_t a = all[k], b = all[k + 1];
    const bool ordered = c.trg[a].size() < c.trg[b].size() ||
                         (c.trg[a].size() == c.trg[b].size() && c.src[a].size() <= c.src[b].size());
    CHECK(ordered);
  }
  // The unshuffled order ignores the seed and the epoch (validation).
  CHECK(make_batches(c, 100, 7, 0, false) == make_batches(c, 100, 99, 5, false));
}

TEST_CASE("batching: shuffled batches are length buckets, in an order set by seed and epoch") {
  const Corpus c = corpus_of(200);
  const auto a = make_batches(c, 100, 7, 0, true);
  CHECK(a == make_batches(c, 100, 7, 0, true));
  CHECK(a != make_batches(c, 100, 7, 1, true));
  CHECK(a != make_batches(c, 100, 8, 0, true));
  // The buckets are those of the sorted order (examples of equal lengths
  // may trade places), only the batch order is shuffled: the batches' length
  // lists are the same multiset.
  auto shapes = [&](const std::vector<std::vector<uint32_t>>& batches) {
    std::multiset<std::vector<std::pair<size_t, size_t>>> out;
    for (const auto& b : batches) {
      std::vector<std::pair<size_t, size_t>> lens;
      for (uint32_t i : b) lens.emplace_back(c.trg[i].size(), c.src[i].size());
      std::sort(lens.begin(), lens.end());
      out.insert(lens);
    }
    return out;
  };
  const auto sorted = make_batches(c, 100, 7, 0, false);
  CHECK(shapes(a) == shapes(sorted));
  CHECK(a != sorted);
}

TEST_CASE("batching: an example longer than the budget is a batch of its own") {
  Corpus c = corpus_of(10);
  c.src[3].assign(500, 5);
  const auto batches = make_batches(c, 100, 1, 0, false);
  size_t found = 0;
  for (const auto& b : batches)
    if (std::find(b.begin(), b.end(), 3u) != b.end()) {
      CHECK(b.size() == 1);
      ++found;
    }
  CHECK(found == 1);
  CHECK(make_batches(Corpus{}, 100, 1, 0, true).empty());
}

TEST_CASE("batching: split_batch keeps the order and balances the padded sizes") {
  const Corpus c = corpus_of(200);
  const auto batches = make_batches(c, 400, 3, 0, true);
  for (const auto& b : batches) {
    const auto parts = split_batch(c, b, 4);
    REQUIRE(parts.size() == 4);
    CHECK(flat(parts) == b);
    int64_t total = 0, biggest = 0, longest = 0;
    for (uint32_t i : b) total += padded(c, i), longest = std::max(longest, padded(c, i));
    for (const auto& p : parts) {
      int64_t s = 0;
      for (uint32_t i : p) s += padded(c, i);
      biggest = std::max(biggest, s);
    }
    CHECK(biggest <= total / 4 + longest + 1);  // a part ends with the example that crosses its quarter
  }
  CHECK(split_batch(c, {1, 2}, 0).size() == 1);  // at least one part
  const auto few = split_batch(c, {5}, 3);
  CHECK(flat(few) == std::vector<uint32_t>{5});
}
