#include "libcorpus/langid.h"

#include <cld2/public/compact_lang_det.h>

namespace corpus {

LangGuess identify_language(std::string_view text, int min_percent) {
  LangGuess g;
  if (text.empty()) return g;
  CLD2::Language lang3[3];
  int percent3[3];
  int text_bytes = 0;
  bool reliable = false;
  CLD2::Language top = CLD2::ExtDetectLanguageSummary(text.data(), static_cast<int>(text.size()), true, lang3,
                                                       percent3, &text_bytes, &reliable);
  if (top == CLD2::UNKNOWN_LANGUAGE || top == CLD2::TG_UNKNOWN_LANGUAGE || !reliable) return g;
  int pct = lang3[0] == top ? percent3[0] : 0;
  if (pct < min_percent) return g;
  g.lang = CLD2::LanguageCode(top);
  g.score = pct / 100.0;
  return g;
}

}  // namespace corpus
