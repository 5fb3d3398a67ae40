#include "libcorpus/ingest/boilerplate.h"

#include <algorithm>
#include <utility>

namespace corpus {

namespace {

enum Class { kBad, kShort, kGood };

// CJK text says more per code point: hiragana, katakana, CJK ideographs, hangul.
bool mostly_cjk(std::string_view s) {
  size_t cjk = 0, total = 0;
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (len == 3 && i + 2 < s.size()) {
      unsigned cp = ((c & 0x0F) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3F) << 6) |
                    (static_cast<unsigned char>(s[i + 2]) & 0x3F);
      if ((cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF)) ++cjk;
    }
    if (c != ' ') ++total;
    i += len;
  }
  return total > 0 && cjk * 2 >= total;
}

// points < (mostly_cjk(text) ? short_chars_cjk : short_chars), with the
// script scan only when the count lies between the two limits (most blocks
// are above both: the scan was 1.3% of pc-ingest's time).
bool under_short_limit(uint32_t points, std::string_view text, const BoilerplateOptions& o) {
  if (points >= std::max(o.short_chars, o.short_chars_cjk)) return false;
  if (points < std::min(o.short_chars, o.short_chars_cjk)) return true;
  return points < (mostly_cjk(text) ? o.short_chars_cjk : o.short_chars);
}

}  // namespace

bool is_short_text(std::string_view text, const BoilerplateOptions& o) {
  const uint32_t enough = std::max(o.short_chars, o.short_chars_cjk);
  uint32_t points = 0;
  for (size_t i = 0; i < text.size() && points < enough; ++i)
    points += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  return under_short_limit(points, text, o);
}

std::vector<bool> classify_blocks(const std::vector<HtmlBlock>& blocks, const BoilerplateOptions& o) {
  std::vector<Class> cls(blocks.size());
  // A table cell is link text only when its table is too: in a data table
  // the key column is often a link (a package name to its page, an encoding
  // to its encyclopedia article) beside plain cells, while a navigation table
  // is links throughout. A cell takes the lower of its own and its table's
  // link density. Only text directly in cells counts (HtmlBlock::table),
  // so a layout table's paragraphs do not make its navigation cells look like
  // content.
  std::vector<std::pair<uint32_t, uint32_t>> table_sums;  // table -> (chars, link chars)
  for (const HtmlBlock& b : blocks)
    if (b.table != 0) {
      if (b.table >= table_sums.size()) table_sums.resize(b.table + 1);
      table_sums[b.table].first += b.chars;
      table_sums[b.table].second += b.link_chars;
    }
  for (size_t i = 0; i < blocks.size(); ++i) {
    const HtmlBlock& b = blocks[i];
    double density = b.chars ? static_cast<double>(b.link_chars) / b.chars : 0.0;
    if (b.table != 0) {
      const auto [chars, links] = table_sums[b.table];
      density = std::min(density, chars ? static_cast<double>(links) / chars : 0.0);
    }
    if (density > o.max_link_density)
      cls[i] = kBad;
    else if (under_short_limit(b.chars, b.text, o))
      cls[i] = kShort;
    else
      cls[i] = kGood;
  }
  // A short block takes the class of its nearest non-short neighbours: kept
  // when either the previous or the next non-short block is good.
  std::vector<bool> keep(blocks.size());
  std::vector<int> prev(blocks.size()), next(blocks.size());
  int last = -1;
  for (size_t i = 0; i < blocks.size(); ++i) {
    prev[i] = last;
    if (cls[i] != kShort) last = static_cast<int>(i);
  }
  last = -1;
  for (size_t i = blocks.size(); i-- > 0;) {
    next[i] = last;
    if (cls[i] != kShort) last = static_cast<int>(i);
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (cls[i] == kGood) {
      keep[i] = true;
    } else if (cls[i] == kShort) {
      bool p = prev[i] >= 0 && cls[static_cast<size_t>(prev[i])] == kGood;
      bool n = next[i] >= 0 && cls[static_cast<size_t>(next[i])] == kGood;
      keep[i] = p || n;
    }
  }
  return keep;
}

}  // namespace corpus
