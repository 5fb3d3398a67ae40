// is_short_text and classify_blocks skip the CJK scan when the code point
// count decides alone: the answer must stay the full formula's for every
// length around both limits, either limit the larger, CJK or not.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "libcorpus/ingest/boilerplate.h"

using namespace corpus;

namespace {

size_t short_points(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// The formula before the shortcut: mostly CJK when half the non-space code
// points are kana, CJK ideographs or hangul.
bool short_reference(const std::string& s, const BoilerplateOptions& o) {
  size_t cjk = 0, total = 0;
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (len == 3) {
      unsigned cp = ((c & 0x0F) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3F) << 6) |
                    (static_cast<unsigned char>(s[i + 2]) & 0x3F);
      if ((cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF)) ++cjk;
    }
    if (c != ' ') ++total;
    i += len;
  }
  const bool mostly = total > 0 && cjk * 2 >= total;
  return short_points(s) < (mostly ? o.short_chars_cjk : o.short_chars);
}

}  // namespace

TEST_CASE("boilerplate: is_short_text and classify_blocks agree with the full formula around both limits") {
  std::vector<BoilerplateOptions> opts(3);
  opts[1].short_chars = 5;  // the CJK limit the larger
  opts[1].short_chars_cjk = 12;
  opts[2].short_chars = opts[2].short_chars_cjk = 10;
  int shorts = 0, longs = 0;
  for (const BoilerplateOptions& o : opts)
    for (const std::string& unit : {std::string("a"), std::string("日"), std::string("é"), std::string("日a"), std::string(" ")})
      for (size_t k = 0; k <= 30; ++k) {
        std::string t;
        for (size_t j = 0; j < k; ++j) t += unit;
        const bool want = short_reference(t, o);
        CAPTURE(t);
        CHECK(is_short_text(t, o) == want);
        HtmlBlock b;
        b.text = t;
        b.chars = static_cast<uint32_t>(short_points(t));
        HtmlBlock good;
        good.text = std::string(40, 'z');
        good.chars = 40;
        // A short block between two bad ones is dropped, a long one kept.
        HtmlBlock bad = good;
        bad.link_chars = 40;
        const std::vector<bool> keep = classify_blocks({bad, b, bad}, o);
        CHECK(keep[1] == !want);
        (want ? shorts : longs) += 1;
      }
  CHECK(shorts > 20);
  CHECK(longs > 20);
}
