// The links of a fetched HTML response, as the crawler follows them: the
// body decoded exactly as pc-ingest decodes it (charset from the
// Content-Type, a BOM or <meta>, else detected), then parsed with links by
// the streaming extractor (html_stream.h: the same links as gumbo's tree on
// every real page tested, docs/ingest.md).
// pc-crawl adapts the page to the crawler's LinkExtractor (web/crawler.h),
// which keeps the web part free of the HTML parser.
#pragma once

#include <optional>
#include <string_view>

#include "libcorpus/ingest/html_text.h"

namespace corpus {

// Body and Content-Type of an HTML response -> the page with its links and
// <base href>; nullopt when the body cannot be decoded.
std::optional<HtmlPage> decode_html_links(std::string_view body, std::string_view content_type);

}  // namespace corpus
