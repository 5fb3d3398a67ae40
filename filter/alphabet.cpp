#include "filter/alphabet.h"

#include <unicode/ulocdata.h>
#include <unicode/uscript.h>
#include <unicode/uset.h>

#include <vector>

#include "filter/rules.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/uchar.h"

namespace filter {

struct Alphabet::Impl {
  USet* set = nullptr;
  std::vector<int> scripts;  // the scripts the exemplar letters are in
  // English's alphabet is a-z: every name with an accent (Málaga) would
  // fail, and such an alphabet says nothing about other Latin languages.
  bool ascii_only = true;
  ~Impl() {
    if (set) uset_close(set);
  }
};

Alphabet::Alphabet(const std::string& lang) : impl_(std::make_unique<Impl>()) {
  const std::string code(primary_language(lang));
  UErrorCode e = U_ZERO_ERROR;
  ULocaleData* uld = ulocdata_open(code.c_str(), &e);
  const bool root = e == U_USING_DEFAULT_WARNING;  // ICU knows no such language
  if (U_SUCCESS(e)) impl_->set = ulocdata_getExemplarSet(uld, nullptr, USET_ADD_CASE_MAPPINGS, ULOCDATA_ES_STANDARD, &e);
  if (uld) ulocdata_close(uld);
  if (U_FAILURE(e) || !impl_->set || uset_isEmpty(impl_->set) || root)
    throw corpus::ConfigError("ICU has no alphabet for language '" + lang + "' (rule alphabet)",
                              "give an ISO 639 code with -s/-t, or leave alphabet out of --chain");
  for (int32_t i = 0; i < uset_getItemCount(impl_->set); ++i) {
    UChar32 a = 0, b = 0;
    UErrorCode e2 = U_ZERO_ERROR;
    if (uset_getItem(impl_->set, i, &a, &b, nullptr, 0, &e2) != 0) continue;  // a string item
    for (UChar32 c = a; c <= b; ++c) {
      if (!u_isalpha(c)) continue;
      if (c >= 0x80) impl_->ascii_only = false;
      UErrorCode e3 = U_ZERO_ERROR;
      int sc = uscript_getScript(c, &e3);
      // Only alphabets: ICU lists the common Han characters for Japanese
      // and Chinese, and a rarer one is no sign of another language.
      if (sc != USCRIPT_LATIN && sc != USCRIPT_CYRILLIC && sc != USCRIPT_GREEK && sc != USCRIPT_ARMENIAN &&
          sc != USCRIPT_GEORGIAN)
        continue;
      bool known = false;
      for (int k : impl_->scripts) known = known || k == sc;
      if (!known) impl_->scripts.push_back(sc);
    }
  }
  // Closed under case after the scan (English stays a-z): the case
  // mappings leave out letters whose lower case is in the set but not the
  // other way round, such as German's capital sharp s (U+1E9E, "GRÖẞE").
  uset_closeOver(impl_->set, USET_CASE_INSENSITIVE);
}

Alphabet::~Alphabet() = default;

size_t Alphabet::foreign_letters(std::string_view s) const {
  size_t n = 0, i = 0;
  if (impl_->ascii_only) return 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {  // ASCII letters are in every Latin alphabet ICU lists (and in none of the others' scripts)
      ++i;
      continue;
    }
    UChar32 c = corpus::uc::at(s, i, &i);
    if (!u_isalpha(c) || uset_contains(impl_->set, c)) continue;
    UErrorCode e = U_ZERO_ERROR;
    int sc = uscript_getScript(c, &e);
    for (int k : impl_->scripts)
      if (k == sc) {
        ++n;
        break;
      }
  }
  return n;
}

}  // namespace filter
