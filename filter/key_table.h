// A hash table from 64-bit keys to small values, for pc-clean's dedup set,
// one-to-many counters and best-variant records: the keys are already
// xxhash values, so they index an open-addressing table directly (linear
// probing, power-of-two size, at most half full).
//
// Why not std::unordered_set/map: at 10M rows their one node per key costs a
// malloc, a pointer chase and 40+ bytes a key; a flat table costs one cache
// line a lookup and 8 bytes a slot for a set (8 + sizeof(V) for a map), at
// most 70% full (bench/clean-throughput.sh, docs/clean.md).
// Nothing is ever erased. Iteration order is not offered, so nothing can
// depend on it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace filter {

template <class V>
class KeyTable {
 public:
  // The value of `key`, inserted as V{} when absent; second: whether it was
  // inserted.
  std::pair<V*, bool> try_emplace(uint64_t key, const V& value = V{}) {
    if (key == kEmpty) {
      const bool added = !has_empty_;
      if (added) has_empty_ = true, empty_value_ = value, ++size_;
      return {&empty_value_, added};
    }
    if ((size_ + 1) * 10 > keys_.size() * 7) grow();
    size_t i = slot_of(key);
    while (keys_[i] != kEmpty) {
      if (keys_[i] == key) return {value_at(i), false};
      i = (i + 1) & mask_;
    }
    keys_[i] = key;
    if constexpr (kHasValues) vals_[i] = value;
    ++size_;
    return {value_at(i), true};
  }

  V& operator[](uint64_t key) { return *try_emplace(key).first; }

  // The value of `key`, or nullptr.
  const V* find(uint64_t key) const {
    if (key == kEmpty) return has_empty_ ? &empty_value_ : nullptr;
    if (keys_.empty()) return nullptr;
    for (size_t i = slot_of(key);; i = (i + 1) & mask_) {
      if (keys_[i] == key) return const_cast<KeyTable*>(this)->value_at(i);
      if (keys_[i] == kEmpty) return nullptr;
    }
  }

  size_t size() const { return size_; }

 private:
  static constexpr uint64_t kEmpty = 0;  // key 0 lives beside the slots
  // A set (an empty V) keeps keys only: 8 bytes a slot.
  static constexpr bool kHasValues = !std::is_empty_v<V>;

  V* value_at(size_t i) {
    if constexpr (kHasValues) return &vals_[i];
    else return &empty_value_;
  }

  // The keys are hashes, but mix once more so that keys made by a weaker
  // hash (or by a test) still spread over the high bits used here.
  size_t slot_of(uint64_t key) const {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return static_cast<size_t>(key) & mask_;
  }

  // Linear probing stays short below 70% full.
  void grow() {
    std::vector<uint64_t> old_keys(keys_.empty() ? 1024 : keys_.size() * 2, kEmpty);
    std::vector<V> old_vals;
    old_keys.swap(keys_);
    if constexpr (kHasValues) {
      old_vals.assign(keys_.size(), V{});
      old_vals.swap(vals_);
    }
    mask_ = keys_.size() - 1;
    for (size_t j = 0; j < old_keys.size(); ++j) {
      if (old_keys[j] == kEmpty) continue;
      size_t i = slot_of(old_keys[j]);
      while (keys_[i] != kEmpty) i = (i + 1) & mask_;
      keys_[i] = old_keys[j];
      if constexpr (kHasValues) vals_[i] = old_vals[j];
    }
  }

  std::vector<uint64_t> keys_;
  std::vector<V> vals_;  // beside keys_, unless V is empty
  size_t mask_ = 0;
  size_t size_ = 0;
  bool has_empty_ = false;
  V empty_value_{};
};

}  // namespace filter
