// Records -> documents (DESIGN.md §4), the engine of pc-ingest.
//
// Pass 1 (ordered oneTBB pipeline): read items (ingest_source.h); in
// parallel, check WARC type, HTTP status, MIME type and size, undo transfer
// and content codings, decode the charset (charset.h), parse HTML
// (html_text.h), drop boilerplate blocks (boilerplate.h) and guess the page's
// language from its longest paragraphs (page_language); in input order, count
// how many pages of each host and language carry each paragraph, and spool
// the candidate documents to a temporary file (ingest_spool.h).
// Pass 2 (ordered line pipeline over the spool): drop paragraphs repeated on
// many pages of the same host and language, identify the language of the
// document and of its paragraphs in one CLD2 pass (langid.h; a paragraph the
// pass leaves ambiguous is identified alone), then in input order remove
// exact duplicates by digest and hand the documents to the sink.
// Memory: the repeated-line table holds one entry per distinct (host,
// language, paragraph) (about 40 bytes each), the digest set 16 bytes per
// document, and each worker thread a cache of the languages of up to
// 100,000 short paragraphs (a few MB); everything else streams.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libcorpus/core/counts.h"
#include "libcorpus/ingest/boilerplate.h"

namespace corpus {

struct IngestOptions {
  std::vector<std::string> mimes{"text/html", "application/xhtml+xml", "text/plain"};  // kept MIME types
  uint64_t max_size = 20u << 20;     // larger records / decoded bodies are bad input
  bool skip_bad = false;             // count and skip bad records instead of stopping
  std::vector<std::string> langs;    // keep only these document languages (empty: all)
  bool dedup = true;                 // drop exact duplicate documents (same text)
  bool boilerplate = true;           // link-density / short-block / repeated-line removal
  BoilerplateOptions bp;
  uint32_t repeat_min_pages = 5;     // a paragraph on at least this many pages of a host in one language...
  double repeat_fraction = 0.1;      // ...and on at least this share of them is boilerplate
  int min_lang_percent = 50;         // CLD2 share below which the language is "und"
  bool one_pass_langid = true;       // paragraphs' languages from the document's CLD2 call (else one call each)
  bool follow_symlinks = false;      // read the files and folders symbolic links in a folder point to
  bool warc_resources = false;       // WARC resource records of HTML are pages too (else only responses)
  bool gumbo_html = false;           // HTML through gumbo's tree (html_text.h), else the streaming extractor (html_stream.h)
};

// What happened to the input, for the summary and --meta.
struct IngestStats {
  uint64_t records = 0;
  OrderedCounts outcomes;                               // "duplicate", "HTTP status not 200", ... in first-seen order
  std::vector<std::pair<std::string, uint64_t>> langs;  // documents written per language, sorted
  uint64_t docs = 0;
};

struct IngestCallbacks {
  // One document: its language and its JSON line (no newline). In input order.
  std::function<void(const std::string& lang, std::string_view json)> write;
  // A bad record that was skipped (--skip-bad), with its location.
  std::function<void(const std::string& message)> skipped;
  // Progress: decompressed bytes read so far (all inputs), records read.
  // Optional; called in input order from the last stage of pass 1.
  std::function<void(uint64_t bytes, uint64_t records)> progress;
};

// Runs both passes over `inputs` with the current oneTBB concurrency. Throws
// Error for the first bad record (unless skip_bad) with its file and record.
IngestStats run_ingest(const std::vector<std::string>& inputs, const IngestOptions& o, const IngestCallbacks& cb);

// The host of a URL ("http://a.b:8080/x" -> "a.b:8080"), or "" if none.
std::string url_host(std::string_view url);

}  // namespace corpus
