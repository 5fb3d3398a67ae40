// Text normalisation: named, separately testable steps, and chains of them
// described by one string such as "mojibake,entities,nfc,ctrl,ws,punct"
// (pc-split --normalize; pc-clean reuses the same chains).
//
// Every step takes and returns valid UTF-8. Steps:
//   nfc       Unicode canonical composition (NFC)
//   nfkc      compatibility composition (NFKC): also folds full-width forms,
//             ligatures, superscripts; changes meaning in some scripts
//   ws        every white-space character (incl. tab, NBSP, U+3000) becomes a
//             space; runs collapse to one; leading and trailing space go
//   ctrl      removes control characters (C0 except tab and newline, DEL, C1)
//             and invisible format characters (BOM, ZWSP, soft hyphen, bidi
//             marks and embeddings, word joiner); keeps ZWJ/ZWNJ, which
//             spell words in Indic and Persian scripts
//   mojibake  repairs UTF-8 that was decoded as Latin-1 or Windows-1252 and
//             encoded again ("cafÃ©" -> "café", "â€™" -> "’"), up to three times
//   entities  decodes HTML character references: &amp; &eacute; &#233; &#xE9;
//             (the HTML 4 names plus &apos;); unknown names stay as they are
//   punct     typographic quotes to ASCII (“ ” „ ‟ ″ -> ", ‘ ’ ‚ ‛ ′ -> '),
//             hyphens and dashes (U+2010-2015, U+2212) to "-", "…" to "...";
//             guillemets « » and CJK punctuation are kept
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace corpus {

enum class NormStep { kNfc, kNfkc, kWhitespace, kControl, kMojibake, kEntities, kPunct };

std::string_view norm_step_name(NormStep s);
std::optional<NormStep> norm_step_from_name(std::string_view name);
// All step names in the order of the enum, for help texts: "nfc, nfkc, ...".
std::string norm_step_names();

std::string norm_nfc(std::string_view s);
std::string norm_nfkc(std::string_view s);
std::string norm_whitespace(std::string_view s);
std::string norm_control(std::string_view s);
std::string norm_mojibake(std::string_view s);
std::string norm_entities(std::string_view s);
std::string norm_punct(std::string_view s);

std::string apply_norm_step(NormStep step, std::string_view s);

class Normalizer {
 public:
  Normalizer() = default;
  // "nfc,ws,mojibake" (order kept; "" or "none" = no step). Throws ConfigError
  // naming the unknown step.
  static Normalizer parse(std::string_view spec);
  // The canonical spec string; parse(spec()) gives the same chain.
  std::string spec() const;
  const std::vector<NormStep>& steps() const { return steps_; }
  bool empty() const { return steps_.empty(); }
  // Applies the chain in order; true when the text changed.
  bool apply(std::string& s) const;

 private:
  std::vector<NormStep> steps_;
};

// HTML 4 named character references, sorted by name (html_entities.cpp).
const std::vector<std::pair<std::string_view, char32_t>>& html_named_entities();

}  // namespace corpus
