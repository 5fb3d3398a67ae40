// ASCII-only character tests and case folding for protocol text: URLs, HTTP
// and robots.txt fields, HTML tag names, charset labels, language codes.
// Unlike <cctype> they ignore the locale, and they leave bytes >= 0x80
// (UTF-8 sequences) as they are.
#pragma once

#include <string>
#include <string_view>

namespace corpus {

constexpr bool is_ascii_upper(char c) { return c >= 'A' && c <= 'Z'; }
constexpr bool is_ascii_lower(char c) { return c >= 'a' && c <= 'z'; }
constexpr bool is_ascii_alpha(char c) { return is_ascii_lower(c) || is_ascii_upper(c); }
// HTML's "ASCII whitespace": space, tab, LF, FF, CR (not VT).
constexpr bool is_html_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }
constexpr char ascii_lower(char c) { return is_ascii_upper(c) ? static_cast<char>(c + 32) : c; }

inline std::string ascii_lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = ascii_lower(c);
  return r;
}

// s without its leading spaces and tabs and its trailing spaces, tabs and
// CRs: a header, robots.txt or key-value field as read from a line that may
// end in CRLF.
constexpr std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace corpus
