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

namespace {

struct Answer {
  CLD2::Language top = CLD2::UNKNOWN_LANGUAGE;
  CLD2::Language lang3[3] = {};
  int percent3[3] = {};
  bool reliable = false;
  bool known() const { return top != CLD2::UNKNOWN_LANGUAGE && top != CLD2::TG_UNKNOWN_LANGUAGE; }
};

// CLD2 on `text` with the language hint; `encoding` as the caller has always
// passed it (guess: 0, best_effort: UNKNOWN_ENCODING, as measured).
Answer ask(std::string_view text, int hint, int encoding, int flags) {
  Answer a;
  double norm3[3];
  int text_bytes = 0;
  const CLD2::CLDHints hints = {nullptr, "", encoding, static_cast<CLD2::Language>(hint)};
  a.top = CLD2::ExtDetectLanguageSummary(text.data(), static_cast<int>(text.size()), true, &hints, flags, a.lang3,
                                         a.percent3, norm3, nullptr, &text_bytes, &a.reliable);
  return a;
}

}  // namespace

std::string LanguageCheck::guess(std::string_view text) const {
  if (text.empty()) return "und";
  const Answer a = ask(text, hint_, 0, 0);
  if (!a.reliable || !a.known()) return "und";
  return std::string(primary_language(CLD2::LanguageCode(a.top)));
}

std::string LanguageCheck::best_effort(std::string_view text) const {
  if (text.empty()) return "und";
  const Answer a = ask(text, hint_, CLD2::UNKNOWN_ENCODING, CLD2::kCLDFlagBestEffort);
  if (!a.known() || a.lang3[0] != a.top || a.percent3[0] < kBestEffortPercent) return "und";
  for (const CLD2::Language l : a.lang3)
    if (l != CLD2::UNKNOWN_LANGUAGE && primary_language(CLD2::LanguageCode(l)) == lang_) return "und";
  return std::string(primary_language(CLD2::LanguageCode(a.top)));
}

bool LanguageCheck::other_language(std::string_view text) const {
  std::string g = guess(text);
  return g != "und" && g != lang_;
}

}  // namespace filter
