// Non-breaking prefix lists: the words after which a full stop does not end a
// sentence, per language (data/nonbreaking/LANG.txt, format in its README).
//
// The lists are embedded in the library at build time. A file LANG.txt in an
// explicit folder, or in $PARACORP_DATA_DIR/nonbreaking/, replaces the
// embedded list of that language (for trying edits without a rebuild).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace corpus {

struct PrefixTable {
  std::unordered_set<std::string> always;   // "Dr", "e.g"
  std::unordered_set<std::string> numeric;  // only before a digit: "No"
  std::unordered_set<std::string> months;   // after an ordinal "3."
  std::unordered_set<std::string> ends;     // may end a sentence: "etc", "т.д"
  bool ordinals = false;                    // "3. Oktober" is an ordinal
  std::string source;                       // "embedded" or the file's path

  bool empty() const { return always.empty() && numeric.empty() && months.empty(); }
};

// Parses the text of one list. Throws Error naming `name` and the line for an
// unknown directive.
PrefixTable parse_prefix_table(std::string_view text, const std::string& name);

// The table for `lang` (a BCP-47 tag; only its language part is used, so
// "de-AT" and "de_CH" find "de"). Languages without a list get an empty table.
// `dir` may be empty. Tables are loaded once and shared; thread-safe.
std::shared_ptr<const PrefixTable> prefix_table(std::string_view lang, const std::string& dir = {});

// The languages with an embedded list, sorted.
std::vector<std::string> embedded_prefix_languages();

// "de-AT" -> "de", "zh_Hant" -> "zh", "EN" -> "en".
std::string base_language(std::string_view tag);

}  // namespace corpus
