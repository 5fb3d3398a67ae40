#include "libcorpus/ingest/langid.h"

#include <cld2/public/compact_lang_det.h>

#include <utility>
#include <vector>

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
  if (top == CLD2::UNKNOWN_LANGUAGE || top == CLD2::TG_UNKNOWN_LANGUAGE) return g;
  int pct = lang3[0] == top ? percent3[0] : 0;
  if (pct < min_percent) return g;
  // CLD2 also calls a result unreliable when over 20% of the bytes are in no
  // language at all (commands, numbers, product names in a technical text),
  // even when it found one language only. Such a result is kept unless a
  // second language also covers 20% of the text (CLD2's own threshold).
  const bool alone = lang3[1] == CLD2::UNKNOWN_LANGUAGE || percent3[1] < 20;
  if (!reliable && !alone) return g;
  g.lang = CLD2::LanguageCode(top);
  g.score = pct / 100.0;
  return g;
}

LangGuess majority_language(const std::vector<std::pair<std::string, size_t>>& lang_bytes, size_t total,
                            int min_percent) {
  LangGuess best;
  size_t best_bytes = 0;
  for (const auto& [lang, bytes] : lang_bytes)
    if (lang != "und" && bytes > best_bytes) {
      best_bytes = bytes;
      best.lang = lang;
    }
  if (total == 0 || best_bytes * 100 < static_cast<size_t>(min_percent) * total) return LangGuess{};
  best.score = static_cast<double>(best_bytes) / static_cast<double>(total);
  return best;
}

}  // namespace corpus
