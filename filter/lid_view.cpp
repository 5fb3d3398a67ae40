#include "filter/lid_view.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "filter/text_stats.h"
#include "libcorpus/core/uchar.h"

namespace filter {
namespace {

namespace uc = corpus::uc;

// Sentence punctuation that may lead or end a word ("¿Qué", "fin.", "...").
bool is_sentence_mark(UChar32 c) {
  return c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == 0x2026 || c == 0xBF ||
         c == 0xA1;
}

bool is_lead(UChar32 c) { return is_sentence_mark(c) || uc::is_opener(c); }
bool is_tail(UChar32 c) { return is_sentence_mark(c) || uc::is_closer(c); }

bool is_apostrophe(UChar32 c) { return c == '\'' || c == 0x2019; }
bool is_hyphen(UChar32 c) { return c == '-' || c == 0x2010 || c == 0x2011; }

struct Token {
  std::string_view core;  // the token without its outer punctuation
  bool bracketed = false;
};

// The white-space tokens of `s`, each with its core and whether it is in or
// holds [ ], { } or < >.
std::vector<Token> tokens(std::string_view s) {
  std::vector<Token> out;
  int depth = 0;
  size_t i = 0;
  while (i < s.size()) {
    size_t next = 0;
    if (uc::is_space(uc::at(s, i, &next))) {
      i = next;
      continue;
    }
    const size_t begin = i;
    bool bracketed = depth > 0;
    while (i < s.size()) {
      const UChar32 c = uc::at(s, i, &next);
      if (uc::is_space(c)) break;
      if (c == '[' || c == '{' || (c == '<' && next < s.size() && !uc::is_space(uc::at(s, next)))) {
        ++depth;
        bracketed = true;
      } else if (c == ']' || c == '}' || (c == '>' && depth > 0)) {
        if (depth > 0) --depth;
        bracketed = true;
      }
      i = next;
    }
    size_t a = begin, b = i;
    while (a < b) {
      size_t n = 0;
      if (!is_lead(uc::at(s, a, &n))) break;
      a = n;
    }
    while (b > a) {
      size_t p = 0;
      if (!is_tail(uc::before(s, b, &p))) break;
      b = p;
    }
    out.push_back({s.substr(a, b - a), bracketed});
  }
  return out;
}

std::string lower(std::string_view w) {
  std::string r;
  for (size_t i = 0; i < w.size();) append_utf8(u_tolower(uc::at(w, i, &i)), r);
  return r;
}

// The parts of a core between its hyphens ("Archiv-Signatur", "Inconnue-13").
template <class F>
void parts(std::string_view core, F&& f) {
  size_t begin = 0;
  for (size_t i = 0; i < core.size();) {
    size_t next = 0;
    if (is_hyphen(uc::at(core, i, &next))) {
      f(core.substr(begin, i - begin));
      begin = next;
    }
    i = next;
  }
  f(core.substr(begin));
}

// Whether `w` (a part) is a word: a letter first, then letters, marks and
// apostrophes; with `caps_ok` false, no capital after the first letter.
bool is_word(std::string_view w, bool caps_ok) {
  size_t i = 0;
  if (w.empty() || !u_isalpha(uc::at(w, 0, &i))) return false;
  while (i < w.size()) {
    const UChar32 c = uc::at(w, i, &i);
    if (u_isalpha(c)) {
      if (!caps_ok && u_isupper(c)) return false;
    } else if (!uc::is_mark(c) && !is_apostrophe(c)) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string lid_view(std::string_view side, std::string_view other) {
  uint32_t letters = 0, upper = 0;
  for (size_t i = 0; i < side.size();) {
    const UChar32 c = uc::at(side, i, &i);
    if (u_isalpha(c)) {
      ++letters;
      upper += u_isupper(c) ? 1 : 0;
    }
  }
  const bool caps_ok = upper * 2 > letters;
  std::vector<std::string> copied;
  for (const Token& t : tokens(other)) {
    if (t.core.empty()) continue;
    copied.push_back(lower(t.core));
    parts(t.core, [&](std::string_view p) { copied.push_back(lower(p)); });
  }
  std::sort(copied.begin(), copied.end());
  auto is_copied = [&](std::string_view w) { return std::binary_search(copied.begin(), copied.end(), lower(w)); };
  std::string v;
  for (const Token& t : tokens(side)) {
    // An option (-x, --foo) or anything else not starting with a letter goes whole.
    if (t.bracketed || t.core.empty() || !u_isalpha(uc::at(t.core, 0)) || is_copied(t.core)) continue;
    parts(t.core, [&](std::string_view p) {
      if (!is_word(p, caps_ok) || is_copied(p)) return;
      if (!v.empty()) v += ' ';
      v += p;
    });
  }
  return v;
}

}  // namespace filter
