// The exact n-gram ids (libcorpus/eval/ngram_ids.h): dense ids in first-seen
// order, kept through the table's growth and reset by clear().
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "libcorpus/eval/ngram_ids.h"

using namespace corpus::eval::detail;

TEST_CASE("ngram ids: keys get 1, 2, 3, ... in first-seen order, through many growths") {
  KeyInterner ids;
  const uint32_t n = 5000;  // the table starts with 256 slots
  for (uint32_t i = 0; i < n; ++i) REQUIRE(ids.intern(uint64_t{i} * 0x10001ULL + 7) == i + 1);
  for (uint32_t i = 0; i < n; ++i) REQUIRE(ids.intern(uint64_t{i} * 0x10001ULL + 7) == i + 1);
  CHECK(ids.size() == n);
  ids.clear();
  CHECK(ids.size() == 0);
  CHECK(ids.intern(42) == 1);
  CHECK(ids.intern(uint64_t{0} * 0x10001ULL + 7) == 2);
}

TEST_CASE("ngram ids: tokens by content, short and long, through growth") {
  std::vector<std::string> toks;
  for (int i = 0; i < 2000; ++i) toks.push_back(std::string(static_cast<size_t>(i % 19), 'x') + std::to_string(i));
  TokenInterner ids;
  for (size_t i = 0; i < toks.size(); ++i) REQUIRE(ids.intern(toks[i]) == i + 1);
  for (size_t i = 0; i < toks.size(); ++i) {
    const std::string copy = toks[i];  // equal content, other storage
    REQUIRE(ids.intern(copy) == i + 1);
  }
  CHECK(ids.intern("") == toks.size() + 1);
}

TEST_CASE("ngram ids: the n-grams of a sequence, all orders and one order at a time agree") {
  NgramSpace sp;
  const std::vector<uint32_t> sym{1, 2, 1, 2, 3};
  std::vector<uint32_t> all;
  sp.ngrams(sym.data(), sym.size(), 3, all);
  // 5 unigrams, 4 bigrams, 3 trigrams; repeats share an id.
  REQUIRE(all.size() == 12);
  CHECK(all[0] == all[2]);
  CHECK(all[5] == all[7]);  // "1 2" twice
  CHECK(all[5] != all[6]);
  std::vector<uint32_t> ids;
  size_t at = 0;
  for (int n = 1; n <= 3; ++n) {
    sp.next_order(sym.data(), sym.size(), n, ids);
    for (uint32_t id : ids) {
      CHECK(id == all[at++]);
      CHECK(sp.order(id) == static_cast<uint32_t>(n));
    }
  }
}
