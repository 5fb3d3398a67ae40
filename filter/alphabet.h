// The alphabet rule: letters a language's orthography does not use. CLD2
// cannot tell short strings apart ("Ungültige Operation" for French), but
// ä/ß in a French side or é/ç in a German one are evidence on their own.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace filter {

class Alphabet {
 public:
  // ICU's standard exemplar letters of `lang` (case mappings added). Throws
  // corpus::ConfigError when ICU has none for it.
  explicit Alphabet(const std::string& lang);
  ~Alphabet();
  // Letters of `text` in the language's scripts that are not in its
  // alphabet. Letters of other scripts (names, commands) are the script
  // rule's business and are not counted. Always 0 for a language whose
  // alphabet is ASCII (English), where any accented name would count.
  size_t foreign_letters(std::string_view text) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace filter
