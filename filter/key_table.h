// A hash table from 64-bit keys to small values, for pc-clean's dedup set,
// one-to-many counters and best-variant records: the keys are already
// xxhash values, so they index an open-addressing table directly (linear
// probing, power-of-two size, at most half full).
//
// Why not std::unordered_set/map: at 10M rows their one node per key costs a
// malloc, a pointer chase and 40+ bytes a key; a flat table costs one cache
// line a lookup and 16 bytes a slot (bench/clean-throughput.sh, docs/clean.md).
// Nothing is ever erased. Iteration order is not offered, so nothing can
// depend on it.
#pragma once

#include <cstddef>
#include <cstdint>
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
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t i = slot_of(key);
    while (slots_[i].key != kEmpty) {
      if (slots_[i].key == key) return {&slots_[i].value, false};
      i = (i + 1) & mask_;
    }
    slots_[i] = Slot{key, value};
    ++size_;
    return {&slots_[i].value, true};
  }

  V& operator[](uint64_t key) { return *try_emplace(key).first; }

  // The value of `key`, or nullptr.
  const V* find(uint64_t key) const {
    if (key == kEmpty) return has_empty_ ? &empty_value_ : nullptr;
    if (slots_.empty()) return nullptr;
    for (size_t i = slot_of(key);; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (slots_[i].key == kEmpty) return nullptr;
    }
  }

  size_t size() const { return size_; }

 private:
  static constexpr uint64_t kEmpty = 0;  // key 0 lives beside the slots
  struct Slot {
    uint64_t key = kEmpty;
    V value{};
  };

  // The keys are hashes, but mix once more so that keys made by a weaker
  // hash (or by a test) still spread over the high bits used here.
  size_t slot_of(uint64_t key) const {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return static_cast<size_t>(key) & mask_;
  }

  void grow() {
    std::vector<Slot> old(slots_.empty() ? 1024 : slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.key == kEmpty) continue;
      size_t i = slot_of(s.key);
      while (slots_[i].key != kEmpty) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
  bool has_empty_ = false;
  V empty_value_{};
};

}  // namespace filter
