// UTF-8 validation and the checks every text field gets.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace corpus {

// Offset of the first byte that does not start a valid UTF-8 sequence (overlong
// forms, surrogates and code points above U+10FFFF are invalid), or npos.
size_t find_invalid_utf8(std::string_view s);

// Appends the UTF-8 encoding of code point `c` (at most U+10FFFF; the
// caller keeps surrogates out).
inline void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// Code points of UTF-8 text: the bytes that do not continue a sequence.
inline size_t utf8_code_points(std::string_view s) {
  size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

inline bool is_valid_utf8(std::string_view s) { return find_invalid_utf8(s) == std::string_view::npos; }

// The largest offset <= pos (pos < s.size()) that is not inside a UTF-8
// sequence, never below `floor`: where to cut s so that no character is split.
inline size_t utf8_cut_at_or_before(std::string_view s, size_t pos, size_t floor = 0) {
  while (pos > floor && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80) --pos;
  return pos;
}

// Checks that a text field is valid UTF-8 with no NUL byte. Returns an empty
// string when it is, otherwise a message such as
// "invalid UTF-8 at byte 12 (\xff)".
std::string check_text(std::string_view s);

}  // namespace corpus
