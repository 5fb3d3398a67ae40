// Content digests for exact deduplication (xxHash XXH3, 128 bits) and fast
// 64-bit hashes of paragraphs for repeated-line counting.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>

namespace corpus {

struct Digest128 {
  uint64_t lo = 0, hi = 0;
  bool operator==(const Digest128&) const = default;
};

Digest128 digest128(std::string_view data);
uint64_t hash64(std::string_view data);
// "xxh128:" + 32 hex digits (the documents' `digest` key).
std::string digest_text(const Digest128& d);

// A set of digests: insert() is true the first time a digest is seen.
class DigestSet {
 public:
  bool insert(const Digest128& d) { return set_.insert(d).second; }
  size_t size() const { return set_.size(); }

 private:
  struct Hash {
    size_t operator()(const Digest128& d) const { return static_cast<size_t>(d.lo ^ (d.hi * 0x9E3779B97F4A7C15ULL)); }
  };
  std::unordered_set<Digest128, Hash> set_;
};

}  // namespace corpus
