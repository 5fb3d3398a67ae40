// Named character references (WHATWG HTML §13.5), for the streaming
// extractor's tokenizer (html_tokenizer.h, §13.2.5.73).
#pragma once

#include <cstddef>
#include <string_view>

namespace corpus {

inline constexpr size_t kHtmlCharRefMaxName = 32;  // "CounterClockwiseContourIntegral;"

// The length of the longest reference name ("amp;", "not", ...) that `s`
// starts with (`s` is what follows the '&'), with its text in `utf8`; 0 when
// none is.
size_t html_char_ref_longest(std::string_view s, std::string_view& utf8);

}  // namespace corpus
