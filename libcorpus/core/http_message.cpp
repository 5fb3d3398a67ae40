#include "libcorpus/core/http_message.h"

#include <zlib.h>

#include <cstdlib>

#include <fmt/format.h>

#include "libcorpus/core/error.h"
#include "libcorpus/core/ascii.h"

namespace corpus {

namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

std::string dechunk(std::string_view in, uint64_t max_bytes, std::string& out) {
  out.clear();
  size_t p = 0;
  for (;;) {
    size_t nl = in.find('\n', p);
    if (nl == std::string_view::npos) return "chunked body ends inside a chunk size line";
    std::string size_line(trim_blanks(in.substr(p, nl - p)));
    size_t semi = size_line.find(';');
    if (semi != std::string::npos) size_line.resize(semi);
    char* end = nullptr;
    unsigned long long n = std::strtoull(size_line.c_str(), &end, 16);
    if (size_line.empty() || *end != 0) return "bad chunk size " + quote(size_line, 20);
    p = nl + 1;
    if (n == 0) return "";
    if (n > in.size() - p) return "chunked body is truncated";
    if (out.size() + n > max_bytes) return "too large";
    out.append(in.substr(p, n));
    p += n;
    if (in.substr(p, 2) == "\r\n")
      p += 2;
    else if (in.substr(p, 1) == "\n")
      p += 1;
  }
}

}  // namespace

std::string_view HttpResponse::header(std::string_view name) const {
  for (const auto& [k, v] : headers)
    if (iequals(k, name)) return v;
  return {};
}

std::string parse_http_response(std::string_view block, HttpResponse& out) {
  out = HttpResponse{};
  size_t p = 0;
  auto next_line = [&](std::string_view& line) {
    size_t nl = block.find('\n', p);
    if (nl == std::string_view::npos) return false;
    line = block.substr(p, nl - p);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    p = nl + 1;
    return true;
  };
  std::string_view line;
  if (!next_line(line) || line.substr(0, 5) != "HTTP/") return "the response does not start with an HTTP status line";
  size_t sp = line.find(' ');
  if (sp == std::string_view::npos || line.size() < sp + 4) return "bad HTTP status line " + quote(line, 40);
  std::string code(line.substr(sp + 1, 3));
  if (code.find_first_not_of("0123456789") != std::string::npos) return "bad HTTP status line " + quote(line, 40);
  out.status = std::atoi(code.c_str());
  for (;;) {
    if (!next_line(line)) return "the HTTP header does not end with an empty line";
    if (line.empty()) break;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      if ((line[0] == ' ' || line[0] == '\t') && !out.headers.empty()) {
        out.headers.back().second.append(" ").append(trim_blanks(line));
        continue;
      }
      return "bad HTTP header line " + quote(line, 40);
    }
    out.headers.emplace_back(std::string(trim_blanks(line.substr(0, colon))), std::string(trim_blanks(line.substr(colon + 1))));
  }
  out.body = block.substr(p);
  return "";
}

std::string inflate_limited(std::string_view in, bool gzip, uint64_t max_bytes, std::string& out) {
  out.clear();
  z_stream z{};
  // 15 + 32: zlib or gzip by header; -15: raw deflate (servers that send
  // "deflate" without the zlib wrapper).
  bool raw = !gzip && !(in.size() >= 2 && (static_cast<unsigned char>(in[0]) & 0x0F) == 8 &&
                        ((static_cast<unsigned char>(in[0]) << 8) | static_cast<unsigned char>(in[1])) % 31 == 0);
  if (inflateInit2(&z, raw ? -15 : 15 + 32) != Z_OK) return "zlib: inflateInit2 failed";
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  std::string err;
  char buf[65536];
  for (;;) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    int rc = inflate(&z, Z_NO_FLUSH);
    size_t got = sizeof buf - z.avail_out;
    if (out.size() + got > max_bytes) {
      err = "too large";
      break;
    }
    out.append(buf, got);
    if (rc == Z_STREAM_END) {
      // Concatenated gzip members: continue with the next one.
      if (gzip && z.avail_in > 0) {
        inflateReset(&z);
        continue;
      }
      break;
    }
    if (rc == Z_BUF_ERROR && z.avail_in == 0) {
      err = "compressed body is truncated";
      break;
    }
    if (rc != Z_OK) {
      err = std::string("corrupt compressed body (") + (z.msg ? z.msg : "zlib error") + ")";
      break;
    }
  }
  inflateEnd(&z);
  return err;
}

std::string decode_http_body(const HttpResponse& r, uint64_t max_bytes, std::string& out) {
  std::string_view body = r.body;
  std::string dechunked;
  std::string_view te = r.header("Transfer-Encoding");
  if (!te.empty() && te.find("chunked") != std::string_view::npos) {
    std::string err = dechunk(body, max_bytes, dechunked);
    if (!err.empty()) return err;
    body = dechunked;
  }
  std::string ce(trim_blanks(r.header("Content-Encoding")));
  for (char& c : ce) c = ascii_lower(c);
  if (ce.empty() || ce == "identity") {
    if (body.size() > max_bytes) return "too large";
    out.assign(body);
    return "";
  }
  if (ce == "gzip" || ce == "x-gzip") return inflate_limited(body, true, max_bytes, out);
  if (ce == "deflate") return inflate_limited(body, false, max_bytes, out);
  return "unsupported Content-Encoding " + quote(ce, 20);
}

std::string mime_type_of(std::string_view ct) {
  size_t semi = ct.find(';');
  std::string m(trim_blanks(ct.substr(0, semi)));
  for (char& c : m) c = ascii_lower(c);
  return m;
}

}  // namespace corpus
