#include "libcorpus/core/digest.h"

#include <xxhash.h>

#include <fmt/format.h>

namespace corpus {

Digest128 digest128(std::string_view data) {
  XXH128_hash_t h = XXH3_128bits(data.data(), data.size());
  return {h.low64, h.high64};
}

uint64_t hash64(std::string_view data) { return XXH3_64bits(data.data(), data.size()); }

std::string digest_text(const Digest128& d) { return fmt::format("xxh128:{:016x}{:016x}", d.hi, d.lo); }

}  // namespace corpus
