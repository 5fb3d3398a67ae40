// Placeholders and markup that a translation must carry over unchanged, and
// their masking for a translation model: printf formats (%s, %.250s, %1$s,
// %(name)s, %%), Qt's %1..%99, braces ({0}, {name}), XML/HTML tags (<b>,
// </b>, <br/>, <a href="...">) and character references (&amp;, &#160;,
// &#xA0;). Keyboard accelerators (_File, &File) are not masked: the
// catalogue readers strip them, and a bare "&" or "_" is too often text.
//
// Masking replaces each placeholder by a numbered symbol ⦃1⦄, ⦃2⦄, ...
// (identical placeholders share one number), which a SentencePiece model
// trained with those user-defined symbols keeps as one token; unmasking puts
// the texts back. A translation model then cannot mangle %.250s into %s.55.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace corpus {

struct PlaceholderSpan {
  size_t begin = 0, end = 0;  // bytes [begin, end) of the text
};

// The placeholders of `s`, in order, not overlapping.
std::vector<PlaceholderSpan> find_placeholders(std::string_view s);

// The symbol of placeholder number n (1-based): "⦃n⦄".
std::string placeholder_symbol(size_t n);
// Symbols 1..kMaxPlaceholders exist in a protecting model's vocabulary; a
// text with more distinct placeholders keeps the rest as text.
inline constexpr size_t kMaxPlaceholders = 16;

struct Masked {
  std::string text;                 // with symbols in place of placeholders
  std::vector<std::string> values;  // values[n - 1]: the text of symbol n
  std::vector<size_t> counts;       // counts[n - 1]: how often symbol n occurs in `text`
};

// Masks the placeholders of a source text, numbered by first occurrence.
Masked mask_placeholders(std::string_view s);
// Masks the placeholders of a target text with the numbers of the source's
// (`src.values`); a placeholder the source lacks stays as text.
std::string mask_like(std::string_view s, const Masked& src);

// Puts the values back in a model's output. `mismatch` (may be null) is set
// when the output's symbols are not those of the source, each as often: a
// symbol lost, repeated or invented. Unknown symbols are dropped.
std::string unmask_placeholders(std::string_view s, const Masked& src, bool* mismatch);

}  // namespace corpus
