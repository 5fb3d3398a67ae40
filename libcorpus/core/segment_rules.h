// The per-language corrections pc-split applies to ICU's sentence boundaries
// (see segment.h and the RULES section of man/pc-split.1).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "libcorpus/core/nonbreaking.h"

namespace corpus {

struct LanguageRules {
  std::string lang;                              // base language: "de"
  std::shared_ptr<const PrefixTable> prefixes;   // never null (maybe empty)
  bool space_rule = false;                       // th, lo, km: a space between two letters of the script ends a sentence
};

LanguageRules make_language_rules(std::string_view lang, const std::string& prefix_dir);

// True when the ICU boundary at byte b of s (0 < b < s.size()) stands.
bool keep_icu_boundary(std::string_view s, size_t b, const LanguageRules& r);

// French « … » and other closers written after a space: a boundary at b just
// before "»" (space before it, space or end after it) moves past it. Returns
// the new boundary (b when nothing moves; s.size() at the end).
size_t move_past_spaced_closer(std::string_view s, size_t b);

// Appends the boundaries ICU does not make (ellipsis before a capital,
// Tibetan shad, the Thai/Lao/Khmer space rule), unsorted.
void extra_boundaries(std::string_view s, const LanguageRules& r, std::vector<size_t>& out);

}  // namespace corpus
