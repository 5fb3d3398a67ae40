// HTTP/1.x responses as stored in WARC response records: status line,
// headers, and the body with Transfer-Encoding (chunked) and Content-Encoding
// (gzip, deflate) undone under a size limit, so that a small compressed body
// cannot expand without bound (a "zip bomb").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace corpus {

struct HttpResponse {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string_view body;  // raw body: a view into the parsed block

  std::string_view header(std::string_view name) const;  // case-insensitive; "" if absent
};

// Parses "HTTP/1.1 200 OK\r\n...\r\n\r\nbody". Returns "" or what is wrong.
std::string parse_http_response(std::string_view block, HttpResponse& out);

// The body with chunked transfer coding and gzip/deflate content coding
// undone. Returns "" or what is wrong; "too large" (the decoded body would
// exceed `max_bytes`) is reported as such.
std::string decode_http_body(const HttpResponse& r, uint64_t max_bytes, std::string& out);

// "text/html; charset=UTF-8" -> "text/html" (lower case).
std::string mime_type_of(std::string_view content_type);

// Inflates gzip or zlib/raw deflate data, failing past `max_bytes`.
std::string inflate_limited(std::string_view in, bool gzip, uint64_t max_bytes, std::string& out);

}  // namespace corpus
