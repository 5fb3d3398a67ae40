// Small code point helpers over UTF-8 text (ICU's U8_* macros and
// character properties), for the text modules. Input must be valid UTF-8.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

namespace corpus::uc {

// ICU's U8_* macros use C casts.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
// -Wuseless-cast exists only in gcc; clang reports the group as unknown.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuseless-cast"
#endif

// The code point starting at byte i; `next` receives the offset after it.
inline UChar32 at(std::string_view s, size_t i, size_t* next = nullptr) {
  int32_t k = static_cast<int32_t>(i);
  UChar32 c;
  U8_NEXT(reinterpret_cast<const uint8_t*>(s.data()), k, static_cast<int32_t>(s.size()), c);
  if (next) *next = static_cast<size_t>(k);
  return c;
}

// The code point ending at byte i (i > 0); `start` receives its first byte.
inline UChar32 before(std::string_view s, size_t i, size_t* start = nullptr) {
  int32_t k = static_cast<int32_t>(i);
  UChar32 c;
  U8_PREV(reinterpret_cast<const uint8_t*>(s.data()), 0, k, c);
  if (start) *start = static_cast<size_t>(k);
  return c;
}

#pragma GCC diagnostic pop

inline bool is_space(UChar32 c) {
  if (c < 0x80) return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
  return u_isUWhiteSpace(c) || c == 0xFEFF;
}

// Closing punctuation that may follow a sentence end: ) ] } " ' » ” ’ 」 』 etc.
inline bool is_closer(UChar32 c) {
  if (c < 0x80) return c == ')' || c == ']' || c == '}' || c == '"' || c == '\'';
  int8_t t = u_charType(c);
  return t == U_END_PUNCTUATION || t == U_FINAL_PUNCTUATION || t == U_INITIAL_PUNCTUATION ||
         u_hasBinaryProperty(c, UCHAR_QUOTATION_MARK);
}

// Opening punctuation before a word: ( [ { " ' « „ ¿ ¡ etc.
inline bool is_opener(UChar32 c) {
  if (c < 0x80) return c == '(' || c == '[' || c == '{' || c == '"' || c == '\'';
  int8_t t = u_charType(c);
  return t == U_START_PUNCTUATION || t == U_INITIAL_PUNCTUATION || t == U_FINAL_PUNCTUATION ||
         u_hasBinaryProperty(c, UCHAR_QUOTATION_MARK) || c == 0xBF || c == 0xA1;
}

// Scripts written without spaces between sentences (CJK) and their punctuation.
inline bool is_cjk(UChar32 c) {
  if (c < 0x2E80) return false;
  if ((c >= 0x3000 && c <= 0x303F) || (c >= 0xFF00 && c <= 0xFFEF)) return true;
  UErrorCode e = U_ZERO_ERROR;
  UScriptCode s = uscript_getScript(c, &e);
  return s == USCRIPT_HAN || s == USCRIPT_HIRAGANA || s == USCRIPT_KATAKANA || s == USCRIPT_HANGUL ||
         s == USCRIPT_BOPOMOFO;
}

inline bool is_mark(UChar32 c) {
  if (c < 0x300) return false;
  int8_t t = u_charType(c);
  return t == U_NON_SPACING_MARK || t == U_COMBINING_SPACING_MARK || t == U_ENCLOSING_MARK || c == 0x200C ||
         c == 0x200D || (c >= 0xFE00 && c <= 0xFE0F) || (c >= 0xE0100 && c <= 0xE01EF) ||
         (c >= 0x1F3FB && c <= 0x1F3FF);
}

}  // namespace corpus::uc
