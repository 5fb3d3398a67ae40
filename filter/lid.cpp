#include "filter/lid.h"

#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>

#include "filter/rules.h"

namespace CLD2 {
// In libcld2, not in its public headers.
Language GetLanguageFromName(const char* src);
}  // namespace CLD2

namespace filter {

LanguageCheck::LanguageCheck(const std::string& lang) : lang_(primary_language(lang)) {
  hint_ = static_cast<int>(CLD2::GetLanguageFromName(lang_.c_str()));
}

std::string LanguageCheck::guess(std::string_view text) const {
  if (text.empty()) return "und";
  CLD2::Language lang3[3];
  int percent3[3];
  double norm3[3];
  int text_bytes = 0;
  bool reliable = false;
  CLD2::Language top = CLD2::ExtDetectLanguageSummary(text.data(), static_cast<int>(text.size()), true, "", 0,
                                                      static_cast<CLD2::Language>(hint_), lang3, percent3, norm3,
                                                      &text_bytes, &reliable);
  if (!reliable || top == CLD2::UNKNOWN_LANGUAGE || top == CLD2::TG_UNKNOWN_LANGUAGE) return "und";
  return std::string(primary_language(CLD2::LanguageCode(top)));
}

std::string LanguageCheck::best_effort(std::string_view text) const {
  if (text.empty()) return "und";
  CLD2::Language lang3[3];
  int percent3[3];
  double norm3[3];
  int text_bytes = 0;
  bool reliable = false;
  const CLD2::CLDHints hints = {nullptr, "", CLD2::UNKNOWN_ENCODING, static_cast<CLD2::Language>(hint_)};
  const CLD2::Language top =
      CLD2::ExtDetectLanguageSummary(text.data(), static_cast<int>(text.size()), true, &hints,
                                     CLD2::kCLDFlagBestEffort, lang3, percent3, norm3, nullptr, &text_bytes, &reliable);
  if (top == CLD2::UNKNOWN_LANGUAGE || top == CLD2::TG_UNKNOWN_LANGUAGE || lang3[0] != top ||
      percent3[0] < kBestEffortPercent)
    return "und";
  for (const CLD2::Language l : lang3)
    if (l != CLD2::UNKNOWN_LANGUAGE && primary_language(CLD2::LanguageCode(l)) == lang_) return "und";
  return std::string(primary_language(CLD2::LanguageCode(top)));
}

bool LanguageCheck::other_language(std::string_view text) const {
  std::string g = guess(text);
  return g != "und" && g != lang_;
}

}  // namespace filter
