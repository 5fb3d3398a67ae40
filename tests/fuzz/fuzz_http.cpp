// HTTP responses as stored in WARC records: status line and headers, then the
// body with chunked transfer coding and gzip/deflate content coding undone
// under a size limit; and the inflater on raw bytes.
#include "libcorpus/core/http_message.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = fuzz::bytes(data, size);
  constexpr uint64_t kLimit = 1 << 20;
  corpus::HttpResponse r;
  if (corpus::parse_http_response(in, r).empty()) {
    (void)corpus::mime_type_of(r.header("Content-Type"));
    std::string body;
    std::string err = corpus::decode_http_body(r, kLimit, body);
    if (err.empty() && body.size() > kLimit) fuzz::broken("decoded body over the limit");
  }
  // The inflater on its own: gzip when the input looks like gzip, else zlib/raw.
  bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  std::string out;
  if (corpus::inflate_limited(in, gzip, kLimit, out).empty() && out.size() > kLimit)
    fuzz::broken("inflated data over the limit");
  return 0;
}
