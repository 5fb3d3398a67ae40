// URL matching for document alignment (DESIGN.md §6, Bitextor's first step):
// the key of a URL is the URL with its language markers taken out, so the
// pages of one site that differ only by language get the same key.
//
// Markers are language codes in these places (case-insensitive, with an
// optional region or script: pt-BR, pt_br, zh-Hans, es-419):
//   - a path segment:              /fr/guide/x.html     -> /guide/x.html
//   - the first label of the host:  fr.wikipedia.org     -> wikipedia.org
//     (only when the host has three labels or more, so fr.ch stays)
//   - a dot-separated infix of the file name (never its first part):
//       ch01.fr.html -> ch01.html; index.html.fr -> index.html (Debian's
//       content negotiation); a code as the last part counts only after a
//       web page extension (html, htm, php, ...), so app.ts keeps "ts"
//   - a query parameter whose key names a language (lang, language, locale,
//     hl, lng, uselang), whatever its value: ?id=3&lang=fr -> ?id=3
//   - for the languages given (-s/-t) only: a "_fr" or "-fr" suffix of the
//     file name's stem: about_fr.html -> about.html
// The codes are the languages given plus, when `iso_codes` is set, every
// ISO 639-1 code. The scheme and the fragment are dropped (http and https
// pages of one site pair) and the host is lowercased; the rest is kept as
// written.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace align {

class UrlKeyer {
 public:
  // `langs`: the languages of the alignment ("en", "fr", "pt-BR"); their
  // primary subtags are markers even when they are not ISO 639-1 ("fil").
  explicit UrlKeyer(std::vector<std::string> langs, bool iso_codes = true);

  // The URL without its language markers.
  std::string key(std::string_view url) const;

  // True when `s` is a language code this keyer strips, with an optional
  // region or script subtag. `given_only`: only the languages given count.
  bool is_marker(std::string_view s, bool given_only = false) const;

 private:
  std::vector<std::string> given_;  // lowercased primary subtags
  bool iso_;
};

}  // namespace align
