// The characters the HTML parsers replace with U+FFFD on input, as gumbo
// 0.10.1 does (utf8_is_invalid_code_point: C0 controls but NUL and white
// space, DEL, C1 controls, noncharacters). The gumbo path's prescan must hand
// them to gumbo itself, and the streaming tokenizer replaces them the same
// way, so both paths give the same text.
#pragma once

#include <cstddef>

namespace corpus {

// The byte length of such a character at p, else 0. `p` < `e`, valid UTF-8.
inline size_t html_replaced_length(const char* p, const char* e) {
  auto at = [&](std::ptrdiff_t k) { return p + k < e ? static_cast<unsigned char>(p[k]) : 0u; };
  const unsigned c = at(0);
  if (c >= 0x20 && c < 0x7F) return 0;
  if (c < 0x20) return c == 0x0B || (c >= 0x01 && c <= 0x08) || c >= 0x0E ? 1 : 0;
  if (c == 0x7F) return 1;
  if (c == 0xC2) return at(1) >= 0x80 && at(1) <= 0x9F ? 2 : 0;  // U+0080-009F
  if (c == 0xEF) {
    if (at(1) == 0xB7 && at(2) >= 0x90 && at(2) <= 0xAF) return 3;    // U+FDD0-FDEF
    if (at(1) == 0xBF && (at(2) == 0xBE || at(2) == 0xBF)) return 3;  // U+FFFE-FFFF
    return 0;
  }
  if (c >= 0xF0 && (at(1) & 0x0F) == 0x0F && at(2) == 0xBF && (at(3) == 0xBE || at(3) == 0xBF)) return 4;
  return 0;
}

}  // namespace corpus
