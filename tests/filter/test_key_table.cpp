#include "filter/key_table.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <unordered_map>

TEST_CASE("key_table: agrees with std::unordered_map over growth, key 0 and repeats") {
  filter::KeyTable<uint32_t> t;
  std::unordered_map<uint64_t, uint32_t> ref;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    // Small keys repeat often (and include 0); large ones are hash-like.
    const uint64_t key = i % 3 == 0 ? rng() % 5000 : rng();
    auto [v, added] = t.try_emplace(key);
    const bool ref_added = ref.find(key) == ref.end();
    REQUIRE(added == ref_added);
    ++*v;
    ++ref[key];
  }
  CHECK(t.size() == ref.size());
  for (const auto& kv : ref) {
    const uint32_t* v = t.find(kv.first);
    REQUIRE(v != nullptr);
    CHECK(*v == kv.second);
  }
  CHECK(t.find(0) != nullptr);
  CHECK(t.find(0xdeadbeefcafef00dULL) == nullptr);
}

TEST_CASE("key_table: an empty table finds nothing, and the first insert keeps its value") {
  filter::KeyTable<double> t;
  CHECK(t.find(0) == nullptr);
  CHECK(t.find(42) == nullptr);
  CHECK(t.size() == 0);
  CHECK(t.try_emplace(42, 1.5).second);
  CHECK_FALSE(t.try_emplace(42, 2.5).second);
  CHECK(*t.find(42) == 1.5);
  CHECK(t.try_emplace(0, 3.0).second);
  CHECK_FALSE(t.try_emplace(0, 4.0).second);
  CHECK(*t.find(0) == 3.0);
  CHECK(t.size() == 2);
}

TEST_CASE("key_table: a set (empty values) agrees with std::unordered_set") {
  struct Nothing {};
  filter::KeyTable<Nothing> t;
  std::unordered_map<uint64_t, int> ref;
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t key = i % 2 ? rng() % 3000 : rng();
    REQUIRE(t.try_emplace(key).second == ref.emplace(key, 0).second);
  }
  CHECK(t.size() == ref.size());
  for (const auto& kv : ref) REQUIRE(t.find(kv.first) != nullptr);
  CHECK(t.find(0x0123456789abcdefULL) == nullptr);
}
