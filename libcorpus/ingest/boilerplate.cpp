#include "libcorpus/ingest/boilerplate.h"

namespace corpus {

namespace {

enum Class { kBad, kShort, kGood };

// CJK text says more per code point: hiragana, katakana, CJK ideographs, hangul.
bool mostly_cjk(const std::string& s) {
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

}  // namespace

std::vector<bool> classify_blocks(const std::vector<HtmlBlock>& blocks, const BoilerplateOptions& o) {
  std::vector<Class> cls(blocks.size());
  for (size_t i = 0; i < blocks.size(); ++i) {
    const HtmlBlock& b = blocks[i];
    double density = b.chars ? static_cast<double>(b.link_chars) / b.chars : 0.0;
    uint32_t limit = mostly_cjk(b.text) ? o.short_chars_cjk : o.short_chars;
    if (density > o.max_link_density)
      cls[i] = kBad;
    else if (b.chars < limit)
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
