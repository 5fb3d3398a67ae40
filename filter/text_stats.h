// What the hard rules look at in one side of a pair, gathered in one pass
// over its code points (an ASCII fast path keeps this cheap).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace filter {

struct TextStats {
  uint32_t chars = 0;    // code points
  uint32_t nonspace = 0; // code points that are not white space
  uint32_t letters = 0, upper = 0, digits = 0;
  uint32_t spaceless = 0;  // letters of scripts written without spaces (Han, kana, Thai, ...)
  uint32_t words = 0;      // runs of non-space characters
  int script = -1;         // the script most letters are in (ICU UScriptCode), -1 if none
  // Letters per script: up to 8 scripts (UScriptCode, count), the rest uncounted.
  int script_code[8] = {-2, -2, -2, -2, -2, -2, -2, -2};
  uint32_t script_letters[8] = {};
  uint32_t longest_char_run = 0;   // the same character repeated in a row
  uint32_t longest_word_run = 0;   // the same word repeated in a row
  // Length for the ratio rule: characters, with a spaceless-script letter
  // counted as three (about what a Latin-script word takes per such letter).
  double ratio_length() const { return static_cast<double>(chars) + 2.0 * spaceless; }
};

TextStats text_stats(std::string_view s);

// Appends code point `c` as UTF-8.
void append_utf8(int32_t c, std::string& out);

// Lower-cased letters only (digits kept), in order: the key of near dedup
// and of the source-equals-target rule. Appends to `out`.
void letters_key(std::string_view s, std::string& out);

// Markup placeholders, sorted: those of libcorpus/core/placeholders.h (the
// ones pc-nmt protects), %% and character references left out, positional printf formats as plain
// ones (%1$d as %d) and tags by their name (<a href="x"> as <a>).
void placeholders(std::string_view s, std::vector<std::string>& out);

// Lower-cased words of letters (at least one letter), for the untranslated rule.
void letter_words(std::string_view s, std::vector<std::string>& out);

}  // namespace filter
