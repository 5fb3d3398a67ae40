#include "libcorpus/ingest/html_links.h"

#include "libcorpus/ingest/charset.h"
#include "libcorpus/ingest/html_stream.h"

namespace corpus {

std::optional<HtmlPage> decode_html_links(std::string_view body, std::string_view content_type) {
  DecodedText dec;
  if (!decode_document(body, charset_from_content_type(content_type), true, dec).empty()) return std::nullopt;
  return html_stream_to_text(dec.text, true);
}

}  // namespace corpus
