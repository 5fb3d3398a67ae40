// pc-clean's orthography fixer (`fix=...+ortho`, in fix=all): repairs that
// are safe for one language because they turn a wrong character into the
// one the language's spelling has, and nothing that could be a real word
// changes. docs/clean.md ("Orthography") gives each repair's reason.
//   - lookalike letters of another script inside a word (a Cyrillic "о" in
//     "Cоmpany", a Latin "a" in "Москвa"): turned into the language's
//     script when the word is mostly of that script and every foreign
//     letter has a twin there (Latin, Cyrillic, Greek)
//   - ro: s and t with a cedilla become s and t with a comma below
//   - ca: the ela geminada written "l.l", "l•l" or with U+0140 becomes "l·l"
//   - nl: the ligature "ĳ" becomes "ij"
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace filter {

class Orthography {
 public:
  Orthography() = default;  // fixes nothing
  // `lang`: an ISO 639 code as given to -s/-t ("ro", "pt_BR"); a language
  // without a known script gets the word-majority lookalike repair only.
  explicit Orthography(std::string_view lang);
  // Applies the repairs; true when the text changed. Input must be valid UTF-8.
  bool apply(std::string& s) const;

 private:
  enum class Script { kNone, kLatin, kCyrillic, kGreek };
  bool active_ = false;
  Script script_ = Script::kNone;  // the language's one script of the three, if it has one
  bool ro_ = false, ca_ = false, nl_ = false;
  bool cyr_i_ = false, cyr_j_ = false, cyr_dze_ = false;  // Cyrillic і (uk, be, kk...), ј (sr, mk), ѕ (mk)
  static Script script_of(int cp);
  bool typing_slips(const std::vector<int>& cps, size_t b, size_t e, Script to) const;
  int twin(int cp, Script to) const;
};

}  // namespace filter
