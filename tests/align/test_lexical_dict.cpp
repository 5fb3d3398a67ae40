// dictd dictionaries as training pairs (align/lexical_dict.h).
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "align/lexical_dict.h"
#include "libcorpus/core/error.h"
#include "support/tmpdir.h"

using namespace align;

namespace {

// dictd's base64 number.
std::string b64(uint64_t n) {
  static const char* d = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string s;
  do {
    s.insert(s.begin(), d[n % 64]);
    n /= 64;
  } while (n);
  return s;
}

// A dictionary of `entries` (headword, text): NAME.dict and NAME.index.
void make_dict(const std::string& base, const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string dict, index;
  for (const auto& [head, text] : entries) {
    index += head + "\t" + b64(dict.size()) + "\t" + b64(text.size()) + "\n";
    dict += text;
  }
  std::ofstream(base + ".dict", std::ios::binary) << dict;
  std::ofstream(base + ".index", std::ios::binary) << index;
}

}  // namespace

TEST_CASE("dictd: one pair per headword and translation, notes and numbering dropped") {
  TmpDir d;
  const std::string base = d.path("eng-deu");
  make_dict(base, {{"00-database-info", "00-database-info\nThis is the dictionary's own text\n"},
                   {"cat", "cat /kæt/\nKatze <fem>, Kater <masc> [zool.]\n   Synonym: {puss}\n\n see: {cats}\n"},
                   {"account", "account /əkaunt/\n1. Konto <neut>\n2. Bericht; Rechnung\n"}});
  DictStats st;
  const auto pairs = read_dictd(base + ".index", false, &st);
  CHECK(st.entries == 2);
  const std::vector<TextPair> want{{"cat", "Katze"}, {"cat", "Kater"}, {"account", "Konto"}, {"account", "Bericht"},
                                   {"account", "Rechnung"}};
  CHECK(pairs == want);
  const auto rev = read_dictd(base + ".dict", true);
  CHECK(rev.front() == TextPair{"Katze", "cat"});
}

TEST_CASE("dictd: a missing file or a damaged index is an error naming the file") {
  TmpDir d;
  CHECK_THROWS_AS(read_dictd(d.path("none.index"), false), corpus::Error);
  const std::string base = d.path("bad");
  make_dict(base, {{"cat", "cat\nKatze\n"}});
  std::ofstream(base + ".index", std::ios::binary) << "cat\tA\tZZZZ\n";  // runs past the .dict
  try {
    read_dictd(base, false);
    FAIL("no error");
  } catch (const corpus::Error& e) {
    CHECK(e.format("t").find("bad.index:1: not a dictd index line") != std::string::npos);
  }
}
