#include "libcorpus/eval/unicode.h"

#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/locid.h>

namespace corpus::eval {

char32_t next_code_point(std::string_view s, size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  auto cont = [&](size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(s[i + k]) & 0x3F); };
  char32_t c;
  if (b0 < 0xE0) {
    c = (static_cast<char32_t>(b0 & 0x1F) << 6) | cont(1);
    i += 2;
  } else if (b0 < 0xF0) {
    c = (static_cast<char32_t>(b0 & 0x0F) << 12) | (cont(1) << 6) | cont(2);
    i += 3;
  } else {
    c = (static_cast<char32_t>(b0 & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3);
    i += 4;
  }
  return c;
}

void decode_utf8(std::string_view s, std::u32string& out) {
  out.clear();
  for (size_t i = 0; i < s.size();) out.push_back(next_code_point(s, i));
}

bool is_py_space(char32_t c) {
  if (c < 0x80) return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}

namespace {

// Length in bytes of the white-space character at s[i], or 0.
inline size_t space_at(std::string_view s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) return ((b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x20)) ? 1 : 0;
  size_t j = i;
  char32_t c = next_code_point(s, j);
  return is_py_space(c) ? j - i : 0;
}

inline size_t char_len(unsigned char b) { return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4; }

}  // namespace

void py_split(std::string_view s, std::vector<std::string_view>& out) {
  out.clear();
  size_t i = 0, start = std::string_view::npos;
  while (i < s.size()) {
    size_t n = space_at(s, i);
    if (n) {
      if (start != std::string_view::npos) {
        out.push_back(s.substr(start, i - start));
        start = std::string_view::npos;
      }
      i += n;
    } else {
      if (start == std::string_view::npos) start = i;
      i += char_len(static_cast<unsigned char>(s[i]));
    }
  }
  if (start != std::string_view::npos) out.push_back(s.substr(start));
}

std::string_view py_rstrip(std::string_view s) {
  // Scan forward (UTF-8 cannot be decoded backwards cheaply in general), and
  // remember where the last non-space character ended.
  size_t i = 0, end = 0;
  while (i < s.size()) {
    size_t n = space_at(s, i);
    if (n) {
      i += n;
    } else {
      i += char_len(static_cast<unsigned char>(s[i]));
      end = i;
    }
  }
  return s.substr(0, end);
}

std::string_view py_strip(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    size_t n = space_at(s, i);
    if (!n) break;
    i += n;
  }
  return py_rstrip(s.substr(i));
}

std::string py_lower(std::string_view s) {
  bool ascii = true;
  for (char ch : s)
    if (static_cast<unsigned char>(ch) >= 0x80) {
      ascii = false;
      break;
    }
  std::string out;
  if (ascii) {
    out.assign(s);
    for (char& ch : out)
      if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch + 32);
    return out;
  }
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
  u.toLower(icu::Locale::getRoot());
  u.toUTF8String(out);
  return out;
}

bool is_number(char32_t c) { return (U_GET_GC_MASK(static_cast<UChar32>(c)) & U_GC_N_MASK) != 0; }
bool is_punct(char32_t c) { return (U_GET_GC_MASK(static_cast<UChar32>(c)) & U_GC_P_MASK) != 0; }
bool is_symbol(char32_t c) { return (U_GET_GC_MASK(static_cast<UChar32>(c)) & U_GC_S_MASK) != 0; }

}  // namespace corpus::eval
