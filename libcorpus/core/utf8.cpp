#include "libcorpus/core/utf8.h"

#include <cstdint>
#include <cstring>

#include <fmt/format.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace corpus {

size_t find_invalid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    // ASCII fast path: skip to the first byte with its high bit set.
#ifdef __SSE2__
    if (i + 16 <= n) {
      auto v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(v));
      if (mask == 0) {
        i += 16;
        continue;
      }
      i += static_cast<size_t>(__builtin_ctz(mask));
    }
#endif
    if (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      if ((w & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07;
    } else {
      return i;
    }
    if (i + len > n) return i;
    for (size_t k = 1; k < len; ++k) {
      unsigned char cc = p[i + k];
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
      return i;
    i += len;
  }
  return std::string_view::npos;
}

std::string check_text(std::string_view s) {
  if (size_t z = s.find('\0'); z != std::string_view::npos) return fmt::format("NUL byte at byte {}", z + 1);
  if (size_t b = find_invalid_utf8(s); b != std::string_view::npos)
    return fmt::format("invalid UTF-8 at byte {} (\\x{:02x})", b + 1, static_cast<unsigned char>(s[b]));
  return {};
}

}  // namespace corpus
