#include "libcorpus/core/xml_escape.h"

#include <array>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace corpus {

namespace {

// 0: copy, 1: needs escaping or checking.
constexpr std::array<unsigned char, 256> make_table() {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = 1;
  t['&'] = t['<'] = t['>'] = t['"'] = 1;
  t[0xEF] = 1;  // lead byte of U+FFFE / U+FFFF
  return t;
}
constexpr auto kSpecial = make_table();

// Offset of the first byte at or after `i` that kSpecial marks (or n).
size_t next_special(const unsigned char* p, size_t i, size_t n) {
#ifdef __SSE2__
  const __m128i amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<'), gt = _mm_set1_epi8('>'),
                quot = _mm_set1_epi8('"'), ef = _mm_set1_epi8(static_cast<char>(0xEF)),
                ctl = _mm_set1_epi8(0x1F);
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, amp), _mm_cmpeq_epi8(v, lt)),
                               _mm_or_si128(_mm_cmpeq_epi8(v, gt), _mm_cmpeq_epi8(v, quot)));
    hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, ef));
    hit = _mm_or_si128(hit, _mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v));  // v <= 0x1F
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask) return i + static_cast<size_t>(__builtin_ctz(mask));
  }
#endif
  while (i < n && !kSpecial[p[i]]) ++i;
  return i;
}

}  // namespace

bool append_xml_escaped(std::string& out, std::string_view s, bool attribute, size_t* bad) {
  const size_t start_size = out.size();
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t run = 0;  // start of the pending run to copy
  for (size_t i = next_special(p, 0, n); i < n; i = next_special(p, i + 1, n)) {
    unsigned char c = p[i];
    const char* rep = nullptr;
    switch (c) {
      case '&': rep = "&amp;"; break;
      case '<': rep = "&lt;"; break;
      case '>': rep = "&gt;"; break;
      case '"': rep = attribute ? "&quot;" : nullptr; break;
      case '\r': rep = "&#xD;"; break;
      case '\t': rep = attribute ? "&#x9;" : nullptr; break;
      case '\n': rep = attribute ? "&#xA;" : nullptr; break;
      case 0xEF:
        if (i + 2 < n && p[i + 1] == 0xBF && (p[i + 2] == 0xBE || p[i + 2] == 0xBF)) {
          out.resize(start_size);
          if (bad) *bad = i;
          return false;
        }
        break;
      default:  // other C0 controls
        out.resize(start_size);
        if (bad) *bad = i;
        return false;
    }
    if (rep) {
      out.append(s.data() + run, i - run);
      out.append(rep);
      run = i + 1;
    }
  }
  out.append(s.data() + run, n - run);
  return true;
}

}  // namespace corpus
