// Language identification with CLD2 (built in; no model file).
//
// Codes are CLD2's: ISO 639-1 where one exists ("en", "ja", "zh", "zh-Hant").
// A result CLD2 does not call reliable, or whose top language covers less
// than `min_percent` of the text, is "und".
#pragma once

#include <string>
#include <string_view>

namespace corpus {

struct LangGuess {
  std::string lang = "und";
  double score = 0;  // share of the text in `lang` (0..1), CLD2's percent / 100
};

// `text` must be valid UTF-8 (plain text, not HTML).
LangGuess identify_language(std::string_view text, int min_percent = 50);

}  // namespace corpus
