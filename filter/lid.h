// Language agreement for the lid rule. CLD2 answers English when it knows
// nothing (short strings), which the ingest part's document-level wrapper
// (libcorpus/ingest/langid.h) keeps as a guess; a filter must not reject a
// French sentence as English on such a guess, so the rule calls CLD2 with
// the expected language as a hint and trusts only results CLD2 calls
// reliable.
#pragma once

#include <string>
#include <string_view>

namespace filter {

class LanguageCheck {
 public:
  explicit LanguageCheck(const std::string& lang);  // an ISO 639 code ("fr", "pt_BR")
  // True when CLD2 reliably names another language than the expected one
  // for `text` (valid UTF-8).
  bool other_language(std::string_view text) const;
  // CLD2's reliable answer for `text` with the hint, "und" when unsure.
  std::string guess(std::string_view text) const;
  // CLD2's best-effort answer (kCLDFlagBestEffort: an answer for text too
  // short to be reliable) when it gives at least kBestEffortPercent of the
  // text to one language and the expected language is none of its three;
  // "und" otherwise. For the short sides guess() leaves und ("Ung\u00fcltige
  // DNS-Klasse" on a French side); the constants were chosen on the
  // package split's valid pairs (docs/clean.md).
  std::string best_effort(std::string_view text) const;
  static constexpr int kBestEffortPercent = 90;
  const std::string& language() const { return lang_; }

 private:
  std::string lang_;  // the primary subtag
  int hint_ = 0;      // CLD2::Language of lang_ (UNKNOWN_LANGUAGE = 26 if CLD2 has none)
};

}  // namespace filter
