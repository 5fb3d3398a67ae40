// HTML -> text through gumbo, with and without the prescan that shrinks the
// page first: html_text.h promises the same result both ways.
#include "libcorpus/ingest/html_text.h"
#include "tests/fuzz/fuzz_input.h"

namespace {
bool same(const corpus::HtmlPage& a, const corpus::HtmlPage& b) {
  if (a.too_deep != b.too_deep || a.title != b.title || a.lang != b.lang || a.base != b.base) return false;
  if (a.blocks.size() != b.blocks.size() || a.links.size() != b.links.size()) return false;
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    const auto &x = a.blocks[i], &y = b.blocks[i];
    if (x.text != y.text || x.chars != y.chars || x.link_chars != y.link_chars || x.heading != y.heading) return false;
  }
  for (size_t i = 0; i < a.links.size(); ++i) {
    const auto &x = a.links[i], &y = b.links[i];
    if (x.href != y.href || x.hreflang != y.hreflang || x.alternate != y.alternate) return false;
  }
  return true;
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
