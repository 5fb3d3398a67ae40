#include "libcorpus/ingest/langid.h"

#include <cld2/public/compact_lang_det.h>

#include <algorithm>
#include <numeric>
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

std::string page_language(const std::vector<std::string>& paras) {
  constexpr size_t kSample = 1024;
  std::vector<size_t> order(paras.size());
  std::iota(order.begin(), order.end(), size_t{0});
  // Stable: equal lengths keep page order, so the sample is a function of the page.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return paras[a].size() > paras[b].size(); });
  std::string sample;
  for (size_t i : order) {
    if (sample.size() >= kSample) break;
    std::string_view p = paras[i];
    if (p.size() > kSample) {  // cut at a code point boundary
      size_t n = kSample;
      while (n > 0 && (static_cast<unsigned char>(p[n]) & 0xC0) == 0x80) --n;
      p = p.substr(0, n);
    }
    if (!sample.empty()) sample += '\n';
    sample += p;
  }
  return identify_language(sample).lang;
}

}  // namespace corpus
