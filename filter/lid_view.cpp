#include "filter/lid_view.h"

#include <algorithm>
#include <cstdint>
#include <vector>

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

bool is_letter(UChar32 c) { return c < 0x80 ? ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') : u_isalpha(c) != 0; }
bool is_capital(UChar32 c) { return c < 0x80 ? (c >= 'A' && c <= 'Z') : u_isupper(c) != 0; }

// A part read once: a hash of it in lower case (FNV-1a over the lower-cased
// code points: copies are looked up by it, without a lower-cased copy of
// each word), whether it is a word (a letter first, then letters, marks and
// apostrophes) and whether a capital follows its first letter.
struct PartInfo {
  uint64_t key = 1469598103934665603ull;
  bool word = true, inner_capital = false;
};

PartInfo read_part(std::string_view w) {
  PartInfo r;
  r.word = !w.empty();
  for (size_t i = 0; i < w.size();) {
    const size_t at = i;
    const auto b = static_cast<unsigned char>(w[i]);
    UChar32 c = b;
    if (b < 0x80) {
      ++i;
    } else {
      c = uc::at(w, i, &i);
    }
    if (is_letter(c)) {
      r.inner_capital = r.inner_capital || (at > 0 && is_capital(c));
    } else if (at == 0 || (!uc::is_mark(c) && !is_apostrophe(c))) {
      r.word = false;
    }
    const UChar32 l = b < 0x80 ? ((b >= 'A' && b <= 'Z') ? (b | 0x20) : b) : u_tolower(c);
    r.key = (r.key ^ static_cast<uint64_t>(l)) * 1099511628211ull;
  }
  return r;
}

uint64_t lower_hash(std::string_view w) { return read_part(w).key; }

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

struct Token {
  std::string_view core;  // the token without its outer punctuation
  bool bracketed = false;  // in or holding [ ], { } or < >
  bool hyphen = false;     // parts to judge one by one
  PartInfo info;           // of the core
};

// One side read once: its tokens, the lower-case hashes of their cores and
// hyphen parts (sorted, for the other side's copy test), and whether most
// of its letters are capitals.
struct Side {
  std::vector<Token> tokens;
  std::vector<uint64_t> keys;
  bool caps_ok = false;
};

void read_side(std::string_view s, Side& out) {
  int depth = 0;
  uint32_t letters = 0, upper = 0;
  size_t i = 0;
  while (i < s.size()) {
    size_t next = 0;
    if (uc::is_space(uc::at(s, i, &next))) {
      i = next;
      continue;
    }
    const size_t begin = i;
    bool bracketed = depth > 0, hyphen = false;
    while (i < s.size()) {
      const UChar32 c = uc::at(s, i, &next);
      if (uc::is_space(c)) break;
      if (is_letter(c)) {
        ++letters;
        upper += is_capital(c) ? 1 : 0;
      } else if (c == '[' || c == '{' || (c == '<' && next < s.size() && !uc::is_space(uc::at(s, next)))) {
        ++depth;
        bracketed = true;
      } else if (c == ']' || c == '}' || (c == '>' && depth > 0)) {
        if (depth > 0) --depth;
        bracketed = true;
      } else if (is_hyphen(c)) {
        hyphen = true;
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
    const std::string_view core = s.substr(a, b - a);
    out.tokens.push_back({core, bracketed, hyphen, read_part(core)});
    if (core.empty()) continue;
    out.keys.push_back(out.tokens.back().info.key);
    if (hyphen) parts(core, [&](std::string_view p) { out.keys.push_back(lower_hash(p)); });
  }
  std::sort(out.keys.begin(), out.keys.end());
  out.caps_ok = upper * 2 > letters;
}

void view(const Side& side, const Side& other, std::string& v) {
  auto is_copied = [&](uint64_t key) { return std::binary_search(other.keys.begin(), other.keys.end(), key); };
  auto keep = [&](std::string_view p, const PartInfo& in) {
    if (!in.word || (in.inner_capital && !side.caps_ok)) return;
    if (!v.empty()) v += ' ';
    v += p;
  };
  for (const Token& t : side.tokens) {
    // An option (-x, --foo) or anything else not starting with a letter goes whole.
    if (t.bracketed || t.core.empty() || !is_letter(uc::at(t.core, 0)) || is_copied(t.info.key)) continue;
    if (!t.hyphen) {
      keep(t.core, t.info);
      continue;
    }
    parts(t.core, [&](std::string_view p) {
      const PartInfo in = read_part(p);
      if (!is_copied(in.key)) keep(p, in);
    });
  }
}

}  // namespace

void lid_views(std::string_view src, std::string_view trg, std::string& src_view, std::string& trg_view) {
  Side s, t;
  read_side(src, s);
  read_side(trg, t);
  src_view.clear();
  trg_view.clear();
  view(s, t, src_view);
  view(t, s, trg_view);
}

std::string lid_view(std::string_view side, std::string_view other) {
  std::string v, unused;
  lid_views(side, other, v, unused);
  return v;
}

}  // namespace filter
