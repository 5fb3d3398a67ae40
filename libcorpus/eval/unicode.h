// The few Unicode operations the metrics need, with Python's semantics, so
// that tokenisation matches sacreBLEU (which runs on Python str) exactly.
//
// Strings are valid UTF-8 (callers check with corpus::check_text first).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libcorpus/core/utf8.h"

namespace corpus::eval {

// Decodes the code point starting at s[i] and advances i past it.
char32_t next_code_point(std::string_view s, size_t& i);
// append_utf8: libcorpus/core/utf8.h.
using corpus::append_utf8;
// Decodes a whole string into code points.
void decode_utf8(std::string_view s, std::u32string& out);

// Python's str.isspace(): \t \n \v \f \r, \x1c-\x1f, space, U+0085, U+00A0,
// U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
bool is_py_space(char32_t c);

// Python's str.split() without arguments: fields separated by runs of
// is_py_space characters, no empty fields. Views point into `s`.
void py_split(std::string_view s, std::vector<std::string_view>& out);
// Python's str.strip() / str.rstrip() without arguments.
std::string_view py_strip(std::string_view s);
std::string_view py_rstrip(std::string_view s);

// Python's str.lower(): full Unicode lower-case mapping (ICU, root locale,
// which also applies the final-sigma rule as Python does).
std::string py_lower(std::string_view s);

// General categories: N* (number), P* (punctuation), S* (symbol).
bool is_number(char32_t c);
bool is_punct(char32_t c);
bool is_symbol(char32_t c);

}  // namespace corpus::eval
