#include "libcorpus/core/placeholders.h"

#include <algorithm>
#include <cctype>

namespace corpus {

namespace {

constexpr std::string_view kOpen = "\xE2\xA6\x83", kClose = "\xE2\xA6\x84";  // ⦃ ⦄

bool ascii_alpha(char c) { return static_cast<unsigned>((static_cast<unsigned char>(c) | 0x20) - 'a') < 26u; }
bool ascii_digit(char c) { return c >= '0' && c <= '9'; }
bool ascii_alnum(char c) { return ascii_alpha(c) || ascii_digit(c); }

// The end of a placeholder at s[i], or i when none starts there.
size_t printf_end(std::string_view s, size_t i) {
  size_t j = i + 1;
  if (j >= s.size()) return i;
  if (s[j] == '%') return j + 1;
  if (s[j] == '(') {  // %(name)s
    const size_t k = s.find(')', j);
    if (k == std::string_view::npos || k - j > 40) return i;
    j = k + 1;
  }
  const size_t digits_from = j;
  while (j < s.size() && ascii_digit(s[j])) ++j;
  if (j < s.size() && s[j] == '$') ++j;  // %1$s
  else j = digits_from;                  // no position: the digits are a width
  // Flags, but not the space flag: "50% off" is text far more often than "% o".
  while (j < s.size() && std::string_view("#-+0'").find(s[j]) != std::string_view::npos) ++j;
  while (j < s.size() && (ascii_digit(s[j]) || s[j] == '*')) ++j;
  if (j < s.size() && s[j] == '.') {
    ++j;
    while (j < s.size() && (ascii_digit(s[j]) || s[j] == '*')) ++j;
  }
  while (j < s.size() && std::string_view("hlLqjzt").find(s[j]) != std::string_view::npos) ++j;
  if (j < s.size() && std::string_view("diouxXeEfFgGaAcspn@").find(s[j]) != std::string_view::npos) return j + 1;
  // Qt's %1 .. %99: digits only, not followed by a letter or digit.
  size_t q = i + 1;
  while (q < s.size() && q - i <= 2 && ascii_digit(s[q])) ++q;
  if (q > i + 1 && q - digits_from <= 2 && (q >= s.size() || !ascii_alnum(s[q])) && s[i + 1] != '0') return q;
  return i;
}

size_t brace_end(std::string_view s, size_t i) {
  const size_t k = s.find('}', i);
  if (k == std::string_view::npos || k == i + 1 || k - i > 40) return i;
  for (size_t t = i + 1; t < k; ++t)
    if (!ascii_alnum(s[t]) && s[t] != '_' && s[t] != ':' && s[t] != '.') return i;
  return k + 1;
}

size_t tag_end(std::string_view s, size_t i) {
  size_t j = i + 1;
  if (j < s.size() && s[j] == '/') ++j;
  const size_t name = j;
  while (j < s.size() && (ascii_alnum(s[j]) || s[j] == '-' || s[j] == ':')) ++j;
  if (j == name || !ascii_alpha(s[name]) || j - name > 20) return i;
  const size_t k = s.find('>', j);
  if (k == std::string_view::npos || k - i > 300) return i;
  if (s.substr(j, k - j).find('<') != std::string_view::npos) return i;
  if (j < k && s[j] != ' ' && s[j] != '/') return i;
  return k + 1;
}

size_t entity_end(std::string_view s, size_t i) {
  size_t j = i + 1;
  if (j < s.size() && s[j] == '#') {
    ++j;
    const bool hex = j < s.size() && (s[j] == 'x' || s[j] == 'X');
    if (hex) ++j;
    const size_t d = j;
    while (j < s.size() && (ascii_digit(s[j]) || (hex && std::isxdigit(static_cast<unsigned char>(s[j]))))) ++j;
    if (j == d || j - d > 8) return i;
  } else {
    const size_t d = j;
    while (j < s.size() && ascii_alnum(s[j])) ++j;
    if (j == d || j - d > 32 || !ascii_alpha(s[d])) return i;
  }
  return j < s.size() && s[j] == ';' ? j + 1 : i;
}

}  // namespace

std::vector<PlaceholderSpan> find_placeholders(std::string_view s) {
  std::vector<PlaceholderSpan> out;
  for (size_t i = 0; i < s.size();) {
    size_t e = i;
    switch (s[i]) {
      case '%': e = printf_end(s, i); break;
      case '{': e = brace_end(s, i); break;
      case '<': e = tag_end(s, i); break;
      case '&': e = entity_end(s, i); break;
      default: break;
    }
    if (e > i) {
      out.push_back({i, e});
      i = e;
    } else {
      ++i;
    }
  }
  return out;
}

std::string placeholder_symbol(size_t n) { return std::string(kOpen) + std::to_string(n) + std::string(kClose); }

Masked mask_placeholders(std::string_view s) {
  Masked m;
  size_t at = 0;
  for (const PlaceholderSpan& p : find_placeholders(s)) {
    const std::string_view v = s.substr(p.begin, p.end - p.begin);
    auto it = std::find(m.values.begin(), m.values.end(), v);
    if (it == m.values.end()) {
      if (m.values.size() == kMaxPlaceholders) continue;  // stays as text
      m.values.emplace_back(v);
      m.counts.push_back(0);
      it = m.values.end() - 1;
    }
    const size_t n = static_cast<size_t>(it - m.values.begin()) + 1;
    m.text.append(s.substr(at, p.begin - at));
    m.text += placeholder_symbol(n);
    ++m.counts[n - 1];
    at = p.end;
  }
  m.text.append(s.substr(at));
  return m;
}

std::string mask_like(std::string_view s, const Masked& src) {
  std::string out;
  size_t at = 0;
  for (const PlaceholderSpan& p : find_placeholders(s)) {
    const std::string_view v = s.substr(p.begin, p.end - p.begin);
    auto it = std::find(src.values.begin(), src.values.end(), v);
    if (it == src.values.end()) continue;
    out.append(s.substr(at, p.begin - at));
    out += placeholder_symbol(static_cast<size_t>(it - src.values.begin()) + 1);
    at = p.end;
  }
  out.append(s.substr(at));
  return out;
}

std::string unmask_placeholders(std::string_view s, const Masked& src, bool* mismatch) {
  std::string out;
  std::vector<size_t> seen(src.values.size(), 0);
  bool bad = false;
  size_t i = 0;
  while (i < s.size()) {
    const size_t o = s.find(kOpen, i);
    if (o == std::string_view::npos) break;
    size_t j = o + kOpen.size(), n = 0;
    while (j < s.size() && ascii_digit(s[j]) && j - o < kOpen.size() + 3) n = n * 10 + static_cast<size_t>(s[j++] - '0');
    if (j == o + kOpen.size() || s.substr(j, kClose.size()) != kClose) {  // not a symbol: keep the bracket
      out.append(s.substr(i, o + kOpen.size() - i));
      i = o + kOpen.size();
      continue;
    }
    out.append(s.substr(i, o - i));
    if (n >= 1 && n <= src.values.size()) {
      out += src.values[n - 1];
      ++seen[n - 1];
    } else {
      bad = true;  // a symbol the source did not have: dropped
    }
    i = j + kClose.size();
  }
  out.append(s.substr(i));
  if (seen != src.counts) bad = true;
  if (mismatch) *mismatch = bad;
  return out;
}

}  // namespace corpus
