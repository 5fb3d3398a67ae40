// One pass over the text instead of a search per needle: every needle and
// separator is ASCII-lower-case and at least two bytes long, so a bit set of
// the byte pairs that start one says at which positions to compare at all.
// (A search per needle, after a lower-cased copy, was the largest cost of the
// rules-only chain.)
#include "filter/debris.h"

#include <algorithm>
#include <array>
#include <bitset>
#include <cstdint>
#include <vector>

namespace filter {

namespace {

constexpr std::string_view kDebrisNeedles[] = {
    "<div", "<span", "<script", "<style", "<a href", "<img", "<table", "<td", "<tr", "<li>", "<ul", "<p>",
    "</div", "</span", "</p>", "</li>", "<!--", "-->", "&nbsp", "&amp;", "&lt;", "&gt;", "&quot;", "&#",
    "javascript:", "cookie", "all rights reserved", "copyright \xc2\xa9", "(c) copyright", "skip to content",
    "skip to main", "privacy policy", "terms of use", "terms and conditions", "click here", "read more",
    "back to top", "subscribe to our", "follow us", "powered by"};
// Breadcrumb and menu separators: two or more occurrences (each counted
// without overlap, left to right) make a side debris. Inside brackets they
// are command syntax ("pushd [-n] [+N | -N | dir]"), not navigation, and
// do not count.
constexpr std::string_view kDebrisSeps[] = {" | ", " \xc2\xbb ", " > ", " \xc2\xb7 ", " / "};
constexpr size_t kRaquoSep = 1;
constexpr size_t kNumSeps = std::size(kDebrisSeps);
// Marks that only set a flag: "«", "©", and the starts of a year.
enum DebrisMark : uint8_t { kGuillemet, kCopyright, kYear20, kYear19, kNumMarks };
constexpr std::string_view kDebrisMarks[] = {"\xc2\xab", "\xc2\xa9", "20", "19"};

enum class DebrisKind : uint8_t { kNeedle, kSep, kMark };

struct DebrisItem {
  uint16_t start;  // the first two bytes, first one high
  DebrisKind kind;
  uint8_t index;
  std::string_view text;
};

inline unsigned char debris_lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? c | 0x20 : c; }

inline uint16_t debris_pair(unsigned char a, unsigned char b) { return static_cast<uint16_t>(a << 8 | b); }

struct DebrisIndex {
  std::bitset<65536> starts;
  std::vector<DebrisItem> items;  // sorted by start

  DebrisIndex() {
    auto add = [&](DebrisKind kind, size_t i, std::string_view t) {
      const uint16_t p = debris_pair(static_cast<unsigned char>(t[0]), static_cast<unsigned char>(t[1]));
      items.push_back({p, kind, static_cast<uint8_t>(i), t});
      starts.set(p);
    };
    for (size_t i = 0; i < std::size(kDebrisNeedles); ++i) add(DebrisKind::kNeedle, i, kDebrisNeedles[i]);
    for (size_t i = 0; i < kNumSeps; ++i) add(DebrisKind::kSep, i, kDebrisSeps[i]);
    for (size_t i = 0; i < kNumMarks; ++i) add(DebrisKind::kMark, i, kDebrisMarks[i]);
    std::stable_sort(items.begin(), items.end(), [](const DebrisItem& a, const DebrisItem& b) { return a.start < b.start; });
  }
};

const DebrisIndex& debris_index() {
  static const DebrisIndex index;
  return index;
}

// The item's text at s[i...], ASCII case-insensitively (its first two bytes
// are known to match).
bool debris_match_at(std::string_view s, size_t i, std::string_view t) {
  if (s.size() - i < t.size()) return false;
  for (size_t k = 2; k < t.size(); ++k)
    if (debris_lower(static_cast<unsigned char>(s[i + k])) != static_cast<unsigned char>(t[k])) return false;
  return true;
}

}  // namespace

bool has_debris(std::string_view s) {
  const DebrisIndex& ix = debris_index();
  std::array<unsigned, kNumSeps> seps{};
  std::array<size_t, kNumSeps> sep_end{};  // where the last counted occurrence ends
  std::array<bool, kNumMarks> marks{};
  if (s.size() < 2) return false;
  unsigned char prev = debris_lower(static_cast<unsigned char>(s[0]));
  unsigned depth = 0;  // open brackets before s[i]
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    const char c = s[i];
    if (c == '[' || c == '{' || c == '(') ++depth;
    else if ((c == ']' || c == '}' || c == ')') && depth > 0) --depth;
    const unsigned char next = debris_lower(static_cast<unsigned char>(s[i + 1]));
    const uint16_t p = debris_pair(prev, next);
    prev = next;
    if (!ix.starts.test(p)) continue;
    auto it = std::lower_bound(ix.items.begin(), ix.items.end(), p,
                               [](const DebrisItem& a, uint16_t v) { return a.start < v; });
    for (; it != ix.items.end() && it->start == p; ++it) {
      if (!debris_match_at(s, i, it->text)) continue;
      switch (it->kind) {
        case DebrisKind::kNeedle: return true;
        case DebrisKind::kSep:
          if (depth == 0 && i >= sep_end[it->index]) {
            ++seps[it->index];
            sep_end[it->index] = i + it->text.size();
          }
          break;
        case DebrisKind::kMark: marks[it->index] = true; break;
      }
    }
  }
  unsigned n = 0;
  for (size_t k = 0; k < kNumSeps; ++k)
    if (k != kRaquoSep || !marks[kGuillemet]) n += seps[k];
  if (n >= 2) return true;
  return marks[kCopyright] && (marks[kYear20] || marks[kYear19]);
}

}  // namespace filter
