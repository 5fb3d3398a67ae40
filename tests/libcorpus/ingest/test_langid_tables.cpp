// CLD2's full tables are linked (libcld2_full.so before libcld2.so): texts
// in languages the Chrome tables do not know get their language, not und or
// a neighbour's (Occitan was Catalan, Zulu and Xhosa Sesotho, Tatar Azeri).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "libcorpus/ingest/langid.h"

using namespace corpus;
namespace fs = std::filesystem;

TEST_CASE("langid: the full tables know the languages of tests/data/ingest/cld2-full") {
  // Messages of the gettext catalogues under /usr/share/locale, made by
  // tests/data/ingest/make-cld2-full-sample.py: LANG.txt is in LANG.
  const fs::path dir = fs::path(PARACORP_TEST_DATA) / "ingest" / "cld2-full";
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".txt") continue;
    std::ifstream f(e.path());
    std::stringstream ss;
    ss << f.rdbuf();
    INFO(e.path().filename().string());
    CHECK(identify_language(ss.str()).lang == e.path().stem().string());
    ++files;
  }
  CHECK(files == 15);
}
