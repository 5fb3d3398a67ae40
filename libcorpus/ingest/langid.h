// Language identification with CLD2 (built in; no model file).
//
// Codes are CLD2's: ISO 639-1 where one exists ("en", "ja", "zh", "zh-Hant").
// A result whose top language covers less than `min_percent` of the text is
// "und", and so is one CLD2 does not call reliable unless that language is
// the only one CLD2 found in 20% or more of the text (CLD2 also calls a text
// unreliable when over 20% of its bytes are in no language: commands and
// product names in technical text).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace corpus {

struct LangGuess {
  std::string lang = "und";
  double score = 0;  // share of the text in `lang` (0..1), CLD2's percent / 100
};

// `text` must be valid UTF-8 (plain text, not HTML).
LangGuess identify_language(std::string_view text, int min_percent = 50);

// The language most of a document's paragraph bytes are in, for a document
// CLD2 leaves "und" as a whole (a partly translated page where no language
// reaches min_percent of CLD2's count): `lang_bytes` holds paragraph
// language -> bytes, `total` all paragraph bytes. "und" paragraphs never win;
// the share must reach min_percent of `total`; the first listed wins a tie.
LangGuess majority_language(const std::vector<std::pair<std::string, size_t>>& lang_bytes, size_t total,
                            int min_percent);

// The language of a page's main text before its document is made, to count
// repeated lines per host and language (ingest.h): CLD2 on about 1 KiB taken
// from the longest paragraphs (navigation is mostly short), "und" if unsure.
std::string page_language(const std::vector<std::string>& paras);

}  // namespace corpus
