// The spell rule: a short side whose words the expected language's spelling
// dictionary mostly refuses and another listed language's accepts is in that
// other language. CLD2 has no reliable answer on catalogue-length strings
// ("Vert", "Gesamt", "il y a trop de « ) »"), and a fastText model of
// character n-grams confuses one-word strings with close neighbours; a
// spelling dictionary knows the words themselves. Dictionaries are Hunspell's
// (.aff + .dic, as Debian's hunspell-* packages install them in
// /usr/share/hunspell), found by language and loaded on first use.
// Thread-safe: each dictionary is loaded once and asked under its own lock.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace filter {

// The languages the rule tells a side apart from when the chain names none:
// the Latin-script languages with the largest shares of web content after
// English (W3Techs), which are also the ones mined bitext is most often
// polluted with. A language whose dictionary is not installed is skipped.
inline constexpr const char* kSpellLanguages = "es+de+fr+pt+it";

// A side is judged when it has fewer than kSpellMaxWords words (longer ones
// are CLD2's) and at least one word of 2+ letters that is not all capitals
// (acronyms are in no dictionary). It is another language when the expected
// dictionary accepts at most kSpellMaxExpected of those words and a listed
// language's accepts at least kSpellMargin more of them. Chosen on the
// package split's valid pairs (docs/clean.md).
inline constexpr uint32_t kSpellMaxWords = 10;
inline constexpr double kSpellMaxExpected = 0.5;
inline constexpr double kSpellMargin = 0.5;

// The words the rule judges: runs of letters (an apostrophe between letters
// joins them: "l'utilisateur"), at least 2 letters, not all capitals.
void spell_words(std::string_view s, std::vector<std::string>& out);

class SpellDictionaries {
 public:
  // `path`: folders separated by ':', searched in order; empty: $DICPATH,
  // else /usr/share/hunspell.
  explicit SpellDictionaries(std::string path = "");
  ~SpellDictionaries();
  SpellDictionaries(const SpellDictionaries&) = delete;
  SpellDictionaries& operator=(const SpellDictionaries&) = delete;

  // 1 when `lang`'s dictionary accepts `word` (UTF-8), 0 when it refuses
  // it, -1 when no dictionary of the language is installed. The dictionary
  // of a code such as "fr" or "pt_BR" is the first of LANG.dic, PRIMARY.dic,
  // PRIMARY_PRIMARY.dic (de_DE), then any PRIMARY_*.dic in name order, in
  // the first folder that has one. corpus::Error naming the file when it is
  // not a Hunspell dictionary.
  int accepts(const std::string& lang, const std::string& word) const;
  bool has(const std::string& lang) const;
  // The dictionary files loaded so far, for the run's summary.
  std::vector<std::string> loaded() const;
  const std::vector<std::string>& folders() const { return dirs_; }

 private:
  struct Dict;
  const Dict* find(const std::string& lang) const;
  std::vector<std::string> dirs_;
  mutable std::mutex mu_;
  mutable std::map<std::string, std::unique_ptr<Dict>> dicts_;  // by language as asked; null: none installed
};

// The rule on one side: true when `text` (valid UTF-8; the rule gives it a
// side's lid view, filter/lid_view.h) is judged to be in one
// of `candidates` rather than `lang`. `other` (the other side's language),
// English and `lang` itself are never evidence: short technical strings share
// their words.
// `words` is the side's word count (TextStats::words).
bool spell_other_language(const SpellDictionaries& d, std::string_view text, uint32_t words, const std::string& lang,
                          const std::string& other, const std::vector<std::string>& candidates);

}  // namespace filter
