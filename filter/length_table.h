// How long a translation is expected to be against its English source, per
// language: the trimmed means of log((words + 1) / (words_en + 1)) and
// log((chars + 5) / (chars_en + 5)) over the Debian gettext catalogues of
// the language (scripts/make-length-table.py, which leaves out the packages
// of the package split's test and valid files). pc-clean's wratio rule
// compares a pair's length ratios with the expected ones, so that French
// (about 12% more words than English) and German (7% fewer words, 15% more
// characters) are not judged by one yardstick.
#pragma once

#include <string_view>

namespace filter {

struct LengthNorm {
  double log_words = 0, log_chars = 0;  // against English; 0 for English and for languages not in the table
};

// The norm of a language code ("pt_BR" first, then "pt"); English and codes
// the table does not know give {0, 0}.
LengthNorm length_norm(std::string_view lang);

// Smoothing of the counts, shared with scripts/make-length-table.py.
inline constexpr double kWordSmoothing = 1, kCharSmoothing = 5;

}  // namespace filter
