// Charset detection and conversion: Content-Type parsing, <meta> sniffing,
// uchardet, ICU conversion and the whole decision order. Input: a first line
// taken as the Content-Type header, then the document bytes.
#include "libcorpus/ingest/charset.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = fuzz::bytes(data, size);
  size_t nl = in.find('\n');
  std::string_view header = nl == std::string_view::npos ? std::string_view() : in.substr(0, nl);
  std::string_view doc = nl == std::string_view::npos ? in : in.substr(nl + 1);

  std::string label = corpus::charset_from_content_type(header);
  (void)corpus::charset_from_meta(doc);
  (void)corpus::detect_charset(doc);
  std::string out;
  if (!label.empty() && corpus::convert_to_utf8(doc, label, out).empty() && !corpus::is_valid_utf8(out))
    fuzz::broken("convert_to_utf8 succeeded with invalid UTF-8");
  corpus::DecodedText text;
  bool is_html = size > 0 && (data[0] & 1);
  if (corpus::decode_document(doc, label, is_html, text).empty() && !corpus::is_valid_utf8(text.text))
    fuzz::broken("decode_document succeeded with invalid UTF-8");
  return 0;
}
