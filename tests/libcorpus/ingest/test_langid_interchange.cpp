// cld2_interchange_valid against CLD2's own check: identify_document skips
// ExtDetectLanguageSummaryCheckUTF8's scan and relies on it, so a code point
// the two disagree on would change a document's chunks (and its paragraph
// labels) whenever it occurs.
#include <doctest/doctest.h>

#include <cstdio>  // CLD2's header uses FILE without including it

#include <cld2/public/compact_lang_det.h>

#include <string>

#include "libcorpus/core/utf8.h"
#include "libcorpus/ingest/langid.h"

using namespace corpus;

namespace {

std::string utf8_of(unsigned cp) {
  std::string s;
  corpus::append_utf8(s, static_cast<char32_t>(cp));
  return s;
}

bool cld2_accepts(const std::string& s) {
  CLD2::Language lang3[3];
  int percent3[3];
  double scores3[3];
  int text_bytes = 0, valid_prefix = 0;
  bool reliable = false;
  CLD2::ExtDetectLanguageSummaryCheckUTF8(s.data(), static_cast<int>(s.size()), true, nullptr, 0, lang3, percent3,
                                          scores3, nullptr, &text_bytes, &reliable, &valid_prefix);
  return valid_prefix == static_cast<int>(s.size());
}

}  // namespace

TEST_CASE("langid: cld2_interchange_valid refuses exactly what CLD2's UTF-8 check refuses") {
  // Every code point of the BMP and plane 1, and the last 32 of planes 2..16;
  // each alone and inside a word (the check must look past the first byte).
  int refused = 0, checked = 0;
  for (unsigned cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp < 0xE000) continue;  // surrogates: not UTF-8
    if (cp >= 0x20000 && (cp & 0xFFFF) < 0xFFE0) continue;
    const std::string alone = utf8_of(cp), inside = "ab" + alone + "cd";
    // At every offset of an 8-byte word, among CJK bytes (the word test
    // passes most lead and continuation bytes).
    const std::string in_words = std::string(cp % 8, 'x') + alone + "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e.";
    const bool want = cld2_accepts(alone);
    if (cld2_interchange_valid(alone) != want || cld2_interchange_valid(inside) != want ||
        cld2_interchange_valid(in_words) != want) {
      CAPTURE(cp);
      CHECK(cld2_interchange_valid(alone) == want);
      CHECK(cld2_interchange_valid(inside) == want);
      CHECK(cld2_interchange_valid(in_words) == want);
    }
    refused += !want;
    ++checked;
  }
  // 0-8, 0B, 0E-1F, 7F-9F, FDD0-FDEF, FFFE-FFFF and two in each of planes 1-16.
  CHECK(refused == 9 + 1 + 18 + 33 + 32 + 2 + 2 * 16);
  CHECK(checked > 120000);
}

TEST_CASE("langid: a text CLD2 calls not interchange valid gets identify_language's label and no chunks") {
  const std::string fr =
      "Le renard brun rapide saute par-dessus le chien paresseux, puis il traverse la rivière pour rejoindre la "
      "forêt où vivent ses amis les écureuils et les hiboux.";
  for (const std::string& bad : {std::string("\x01"), std::string("\x7f"), std::string("\xc2\x85"),
                                 std::string("\xef\xbf\xbe"), std::string("\xf4\x8f\xbf\xbf")}) {
    const std::string t = fr + bad + "\n" + fr;
    CAPTURE(bad);
    CHECK_FALSE(cld2_accepts(t));
    CHECK_FALSE(cld2_interchange_valid(t));
    DocumentLanguages dl;
    identify_document(t, 50, dl);
    CHECK(dl.chunks.empty());
    CHECK(dl.doc.lang == identify_language(t, 50).lang);
  }
  // Cut short at the end (not valid UTF-8): refused, never read past the end.
  for (const std::string& cut : {std::string("ab\xc2"), std::string("ab\xef\xbf"), std::string("ab\xf0\x9f\xbf")})
    CHECK_FALSE(cld2_interchange_valid(cut));
  CHECK(cld2_interchange_valid(""));
  CHECK(cld2_interchange_valid("tab\tlf\nff\fcr\r"));
  DocumentLanguages dl;
  identify_document(fr + "\n" + fr, 50, dl);
  CHECK_FALSE(dl.chunks.empty());
}

TEST_CASE("langid: cld2_interchange_valid finds a refused code point at every offset of a long text") {
  // The check reads eight bytes at a time: a refused code point must be
  // found whatever its place in the word, after ASCII, Latin-1 or CJK text.
  for (const std::string& before : {std::string("abcdefghijklmnopq"), std::string("\xc3\xa9\xc3\xa8"), std::string("日本語の")})
    for (const std::string& bad :
         {std::string("\x1f"), std::string("\x7f"), std::string("\x0b"), std::string("\xc2\x9f"), std::string("\xef\xb7\x90")})
      for (size_t k = 0; k < 24; ++k) {
        const std::string t = before + std::string(k, 'x') + bad + std::string(k % 5, 'y');
        CAPTURE(k);
        CHECK(cld2_interchange_valid(t) == cld2_accepts(t));
        CHECK_FALSE(cld2_interchange_valid(t));
        CHECK(cld2_interchange_valid(before + std::string(k, 'x') + "~ \t\n" + std::string(k % 5, 'y')));
      }
}
