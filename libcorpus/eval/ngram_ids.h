// Exact n-gram identities for one segment and its references.
//
// Every n-gram gets a small dense id: the id of (its first n-1 symbols' id,
// its last symbol) in a hash table. Ids are exact (no hash collisions can
// merge two n-grams), need no limit on the order or the vocabulary, and make
// counting an array operation. Tables are reused from segment to segment.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "libcorpus/core/hash_mix.h"

namespace corpus::eval::detail {

// Key -> dense id 1, 2, 3, ... (0 is never an id): open addressing with
// linear probing, grown to keep it at most half full. `used_` lists the
// filled slots in insertion order, so clear() costs what was interned and
// growing re-inserts in the same order. Hash(key) places a key; the ids are
// the insertion order whatever the hash.
template <class Key, class Hash>
class Interner {
 public:
  Interner() { rehash(256); }
  void clear() {
    for (uint32_t s : used_) vals_[s] = 0;
    used_.clear();
    next_ = 1;
  }
  uint32_t size() const { return next_ - 1; }
  uint32_t intern(Key key) {
    if ((used_.size() + 1) * 2 > cap_) grow();
    size_t m = cap_ - 1, s = Hash{}(key) & m;
    while (vals_[s] != 0) {
      if (keys_[s] == key) return vals_[s];
      s = (s + 1) & m;
    }
    place(s, key, next_);
    return next_++;
  }

 private:
  void rehash(size_t cap) {
    cap_ = cap;
    keys_.assign(cap, Key{});
    vals_.assign(cap, 0);
  }
  void place(size_t s, Key key, uint32_t val) {
    keys_[s] = key;
    vals_[s] = val;
    used_.push_back(static_cast<uint32_t>(s));
  }
  void grow() {
    std::vector<Key> k;
    std::vector<uint32_t> v;
    k.reserve(used_.size());
    v.reserve(used_.size());
    for (uint32_t s : used_) {
      k.push_back(keys_[s]);
      v.push_back(vals_[s]);
    }
    rehash(cap_ * 2);
    used_.clear();
    size_t m = cap_ - 1;
    for (size_t i = 0; i < k.size(); ++i) {
      size_t s = Hash{}(k[i]) & m;
      while (vals_[s] != 0) s = (s + 1) & m;
      place(s, k[i], v[i]);
    }
  }
  size_t cap_ = 0;
  std::vector<Key> keys_;
  std::vector<uint32_t> vals_;
  std::vector<uint32_t> used_;
  uint32_t next_ = 1;
};

struct KeyHash {
  uint64_t operator()(uint64_t key) const { return corpus::mix64(key); }
};

// The bytes of a token, eight at a time, little-endian.
struct TokenHash {
  uint64_t operator()(std::string_view s) const {
    uint64_t h = corpus::kGoldenGamma ^ s.size();
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
      uint64_t w = 0;
      for (int k = 0; k < 8; ++k) w |= static_cast<uint64_t>(static_cast<unsigned char>(s[i + k])) << (8 * k);
      h = corpus::mix64(h ^ w);
    }
    uint64_t w = 0;
    for (int k = 0; i < s.size(); ++i, ++k) w |= static_cast<uint64_t>(static_cast<unsigned char>(s[i])) << (8 * k);
    return corpus::mix64(h ^ w);
  }
};

// uint64 key -> dense id.
using KeyInterner = Interner<uint64_t, KeyHash>;
// string -> dense id. The strings must outlive the ids' use (until clear()).
using TokenInterner = Interner<std::string_view, TokenHash>;

// N-gram ids of symbol sequences, with per-id count arrays.
class NgramSpace {
 public:
  // Clears the ids and zeroes the count arrays.
  void clear() {
    size_t n = ids_.size() + 1;
    if (order_.size() < n) n = order_.size();
    for (auto* v : {&a_, &b_, &c_}) std::fill(v->begin(), v->begin() + static_cast<ptrdiff_t>(std::min(n, v->size())), 0u);
    ids_.clear();
  }
  // Ids of all n-grams of sym[0..len) for n = 1..max_order, appended to `out`
  // (order 1 first, then 2, ...).
  void ngrams(const uint32_t* sym, size_t len, int max_order, std::vector<uint32_t>& out) {
    out.clear();
    size_t start_prev = 0;
    for (int n = 1; n <= max_order && static_cast<size_t>(n) <= len; ++n) {
      size_t count = len - static_cast<size_t>(n) + 1;
      size_t start = out.size();
      for (size_t i = 0; i < count; ++i)
        out.push_back(extend(n == 1 ? 0 : out[start_prev + i], sym[i + static_cast<size_t>(n) - 1], n));
      start_prev = start;
    }
  }
  // From the ids of the (n-1)-grams of sym[0..len) in `ids` (ignored for
  // n = 1) to the ids of its n-grams, in place: ids[i] is the n-gram at i, and
  // ids keeps len - n + 1 of them (none when n > len). One order at a time
  // needs one id per position instead of one per position and order.
  void next_order(const uint32_t* sym, size_t len, int n, std::vector<uint32_t>& ids) {
    const size_t un = static_cast<size_t>(n);
    const size_t count = len >= un ? len - un + 1 : 0;
    if (n == 1) ids.assign(count, 0);
    for (size_t i = 0; i < count; ++i) ids[i] = extend(ids[i], sym[i + un - 1], n);
    ids.resize(count);
  }
  uint32_t order(uint32_t id) const { return order_[id]; }
  // Three count arrays for the caller's use (hyp, ref, best-ref); zero after clear().
  std::vector<uint32_t>& a() { return a_; }
  std::vector<uint32_t>& b() { return b_; }
  std::vector<uint32_t>& c() { return c_; }

 private:
  // The id of the n-gram made of the (n-1)-gram `prefix` (0 for n = 1) and `last`.
  uint32_t extend(uint64_t prefix, uint32_t last, int n) {
    uint32_t id = ids_.intern((prefix << 32) | last);
    if (id >= order_.size()) grow(id + 1);
    order_[id] = static_cast<uint8_t>(n);
    return id;
  }
  void grow(size_t n) {
    size_t cap = std::max<size_t>(n, order_.size() * 2);
    order_.resize(cap, 0);
    a_.resize(cap, 0);
    b_.resize(cap, 0);
    c_.resize(cap, 0);
  }
  KeyInterner ids_;
  std::vector<uint8_t> order_;
  std::vector<uint32_t> a_, b_, c_;
};

}  // namespace corpus::eval::detail
