// HTML -> text through gumbo, with and without the prescan that shrinks the
// page first: html_text.h promises the same result both ways.
#include <algorithm>
#include <cstdio>

#include "libcorpus/ingest/html_text.h"
#include "tests/fuzz/fuzz_input.h"

namespace {
// Says on stderr where two pages differ first (the report of a finding).
bool differ(const char* what, const std::string& a, const std::string& b) {
  if (a == b) return false;
  std::fprintf(stderr, "fuzz: %s: prescan \"%s\" vs plain \"%s\"\n", what, a.c_str(), b.c_str());
  return true;
}
bool differ(const char* what, size_t a, size_t b) { return differ(what, std::to_string(a), std::to_string(b)); }

bool same(const corpus::HtmlPage& a, const corpus::HtmlPage& b) {
  if (differ("too_deep", a.too_deep, b.too_deep) || differ("title", a.title, b.title) ||
      differ("lang", a.lang, b.lang) || differ("base", a.base, b.base))
    return false;
  for (size_t i = 0; i < std::min(a.blocks.size(), b.blocks.size()); ++i) {
    const auto &x = a.blocks[i], &y = b.blocks[i];
    if (differ("block text", x.text, y.text) || differ("block chars", x.chars, y.chars) ||
        differ("block link_chars", x.link_chars, y.link_chars) || differ("block heading", x.heading, y.heading))
      return false;
  }
  if (differ("blocks", a.blocks.size(), b.blocks.size())) return false;
  for (size_t i = 0; i < std::min(a.links.size(), b.links.size()); ++i) {
    const auto &x = a.links[i], &y = b.links[i];
    if (differ("href", x.href, y.href) || differ("hreflang", x.hreflang, y.hreflang) ||
        differ("alternate", x.alternate, y.alternate))
      return false;
  }
  return !differ("links", a.links.size(), b.links.size());
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The contract asks for UTF-8 (ingest converts the page before this step).
  std::string html = fuzz::valid_utf8(fuzz::bytes(data, size));
  corpus::HtmlPage fast = corpus::html_to_text(html, true, true);
  corpus::HtmlPage plain = corpus::html_to_text(html, true, false);
  if (!same(fast, plain)) fuzz::broken("html_to_text with and without prescan differ");
  for (const auto& b : fast.blocks) {
    if (b.text.find('\n') != std::string::npos) fuzz::broken("newline inside a block");
    if (!corpus::is_valid_utf8(b.text)) fuzz::broken("block text is not UTF-8");
    if (b.link_chars > b.chars) fuzz::broken("more link characters than characters");
  }
  (void)corpus::plain_text_blocks(html);
  return 0;
}
