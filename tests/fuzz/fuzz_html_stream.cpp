// The streaming HTML extractor (ingest/html_stream.h) on any bytes: it
// repairs invalid UTF-8 itself, so the input is passed as it is. Checks what
// its header promises of every page: blocks of valid UTF-8 without a
// newline, link characters within the characters, a title and links of
// valid UTF-8, and an empty page when it is refused as too deep.
#include <cstdio>

#include "libcorpus/ingest/html_stream.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view html = fuzz::bytes(data, size);
  const corpus::HtmlPage page = corpus::html_stream_to_text(html, true);
  if (page.too_deep && (!page.blocks.empty() || !page.links.empty())) fuzz::broken("a refused page has content");
  for (const auto& b : page.blocks) {
    if (b.text.empty()) fuzz::broken("an empty block");
    if (b.text.find('\n') != std::string::npos) fuzz::broken("newline inside a block");
    if (!corpus::is_valid_utf8(b.text)) fuzz::broken("block text is not UTF-8");
    if (b.link_chars > b.chars) fuzz::broken("more link characters than characters");
  }
  if (!corpus::is_valid_utf8(page.title) || !corpus::is_valid_utf8(page.lang) || !corpus::is_valid_utf8(page.base))
    fuzz::broken("title, lang or base is not UTF-8");
  for (const auto& l : page.links)
    if (!corpus::is_valid_utf8(l.href) || !corpus::is_valid_utf8(l.hreflang)) fuzz::broken("a link is not UTF-8");
  return 0;
}
