#include "libcorpus/ingest/ingest_extract.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "libcorpus/ingest/charset.h"
#include "libcorpus/core/digest.h"
#include "libcorpus/ingest/html_stream.h"
#include "libcorpus/ingest/html_text.h"
#include "libcorpus/ingest/langid.h"
#include "libcorpus/core/http_message.h"

namespace corpus {

namespace {

// NUL bytes in the first 64 KiB (and no UTF-16 byte-order mark): not text.
bool looks_binary(std::string_view d) {
  if (d.substr(0, 2) == "\xFF\xFE" || d.substr(0, 2) == "\xFE\xFF") return false;
  std::string_view head = d.substr(0, 65536);
  return std::memchr(head.data(), 0, head.size()) != nullptr;
}

std::string human_size(uint64_t n) { return fmt::format("{} bytes", n); }

}  // namespace

Extracted extract_item(IngestItem& it, const IngestOptions& o) {
  Extracted x;
  x.input = it.input;
  x.number = it.number;
  x.url = it.url;
  x.date = it.date;
  x.offset = it.offset;
  x.length = it.length;
  x.is_warc = it.is_warc;
  x.host = it.is_warc ? url_host(it.url) : it.input;
  auto bad = [&](const std::string& what) {
    x.bad = true;
    x.outcome = "bad";
    x.message = x.is_warc ? fmt::format("record {}{}: {}", x.number, x.url.empty() ? "" : " (" + x.url + ")", what)
                          : x.url == x.input ? what : fmt::format("{}: {}", x.url, what);
    return x;
  };
  if (!it.skipped.empty()) {
    x.outcome = it.skipped;
    return x;
  }
  if (!it.bad.empty()) {
    x.bad = true;
    x.outcome = "bad";
    x.message = it.bad;
    return x;
  }
  if (it.oversize)
    return bad(fmt::format("{} is over the size limit ({}; see --max-size)", human_size(it.length),
                           human_size(o.max_size)));

  std::string body_storage;
  std::string_view body;
  std::string header_charset;
  // Only responses are pages. wget stores its log and arguments as
  // resource records (metadata://gnu.org/software/wget/warc/wget.log) and
  // crawlers their own notes as metadata records; a resource record is a page
  // only when asked for (o.warc_resources: archives of files, not crawls)
  // and only when it is HTML.
  if (it.is_warc && it.warc_type != "response") {
    if (it.warc_type == "metadata") {
      x.outcome = "WARC metadata record";
      return x;
    }
    if (it.warc_type != "resource") {
      x.outcome = "not a response";
      return x;
    }
    const std::string m = mime_type_of(it.warc_content_type);
    if (!o.warc_resources || (m != "text/html" && m != "application/xhtml+xml")) {
      x.outcome = "WARC resource record";
      return x;
    }
  }
  // robots.txt is crawl metadata, not a document (crawlers store it in WARCs).
  if (x.url.size() >= 11 && x.url.compare(x.url.size() - 11, 11, "/robots.txt") == 0) {
    x.outcome = "robots.txt";
    return x;
  }
  if (it.is_warc) {
    if (it.warc_type == "response") {
      HttpResponse r;
      std::string err = parse_http_response(it.data, r);
      if (!err.empty()) return bad(err);
      if (r.status != 200) {
        x.outcome = "HTTP status not 200";
        return x;
      }
      std::string_view ct = r.header("Content-Type");
      x.mime = mime_type_of(ct);
      header_charset = charset_from_content_type(ct);
      if (std::find(o.mimes.begin(), o.mimes.end(), x.mime) == o.mimes.end()) {
        x.outcome = "MIME type not kept";
        return x;
      }
      err = decode_http_body(r, o.max_size, body_storage);
      if (err == "too large") return bad(fmt::format("the decoded body is over the size limit ({}; see --max-size)",
                                                     human_size(o.max_size)));
      if (!err.empty()) return bad(err);
      body = body_storage;
    } else {
      x.mime = mime_type_of(it.warc_content_type);
      header_charset = charset_from_content_type(it.warc_content_type);
      if (std::find(o.mimes.begin(), o.mimes.end(), x.mime) == o.mimes.end()) {
        x.outcome = "MIME type not kept";
        return x;
      }
      body = it.data;
    }
  } else {
    x.mime = mime_for_filename(it.url);
    if (x.mime.empty() || std::find(o.mimes.begin(), o.mimes.end(), x.mime) == o.mimes.end()) {
      x.outcome = "MIME type not kept";
      return x;
    }
    body = it.data;
  }
  if (looks_binary(body)) return bad("binary data (NUL bytes), not text");
  const bool html = x.mime != "text/plain";
  DecodedText dec;
  std::string err = decode_document(body, header_charset, html, dec);
  if (!err.empty()) return bad(err);
  x.charset = dec.charset;
  HtmlPage page = !html          ? plain_text_blocks(dec.text)
                  : o.gumbo_html ? html_to_text(dec.text, false)
                                 : html_stream_to_text(dec.text, false);
  if (page.too_deep)
    return bad(fmt::format("HTML nested more than {} elements deep (not parsed: the parser's time grows with the "
                           "square of the depth)",
                           kHtmlMaxNesting));
  x.title = std::move(page.title);
  std::vector<bool> keep = o.boilerplate ? classify_blocks(page.blocks, o.bp)
                                         : std::vector<bool>(page.blocks.size(), true);
  // A dropped neighbour marks navigation (a table of contents' heading)
  // unless it is a cell of the same table: data tables lose link cells.
  auto dropped_beside = [&](size_t i, size_t j) {
    return !keep[j] && !(page.blocks[i].table != 0 && page.blocks[j].table == page.blocks[i].table);
  };
  for (size_t i = 0; i < page.blocks.size(); ++i) {
    if (!keep[i]) continue;
    const bool beside = (i > 0 && dropped_beside(i, i - 1)) || (i + 1 < keep.size() && dropped_beside(i, i + 1));
    x.beside_dropped += beside ? '1' : '0';
    x.hashes.push_back(hash64(page.blocks[i].text));
    x.paras.push_back(std::move(page.blocks[i].text));
  }
  if (x.paras.empty()) x.outcome = page.blocks.empty() ? "no text" : "boilerplate only";
  else if (o.boilerplate) x.page_lang = page_language(x.paras);
  return x;
}

}  // namespace corpus
