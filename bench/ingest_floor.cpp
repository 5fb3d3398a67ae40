// bench_ingest_floor: how long the libraries pc-ingest must call take on
// their own, against the time an MB/s target allows.
//
// Usage: bench_ingest_floor WARC DOCS.jsonl [REPEAT] [TARGET_MB_PER_S]
//   WARC       the .warc.gz pc-ingest read
//   DOCS.jsonl pc-ingest's output for it (its texts and paragraphs)
//
// Untimed, it first collects what pc-ingest hands to each library: the HTML
// pages it parses (HTTP 200, text/html, decoded to UTF-8 and shrunk by
// html_prescan, as html_to_text does) and, from DOCS.jsonl, each document's
// text and paragraphs. Then it times, one thread, REPEAT times each,
// interleaved:
//   read     the WARC read to the end (zlib and the record parser);
//   gumbo    gumbo parses every page (its tree only: no prescan, no walk);
//   stream   the streaming extractor (html_stream.h) turns every decoded
//            page into blocks: what replaces gumbo, the prescan and the
//            walk in pc-ingest's default path (printed beside the floor);
//   gumbo all html_to_text: nesting guard, prescan, gumbo, walk (the
//            --html-parser gumbo path; printed beside the floor);
//   cld2 par CLD2 on every paragraph, short ones (<= 200 bytes) once each,
//            as pc-ingest's cache does;
//   cld2 doc CLD2 on every document text;
//   one pass CLD2 once per document with its chunk vector, and on the
//            paragraphs the chunks leave ambiguous (pc-ingest's default;
//            printed beside the floor, not added to it).
// and prints the median and the fastest of each, their sum as MB/s of
// .warc.gz, and, given a target speed, the time it allows for the WARC.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "libcorpus/ingest/charset.h"
#include "libcorpus/core/error.h"
#include "libcorpus/ingest/gumbo_page.h"
#include "libcorpus/ingest/html_prescan.h"
#include "libcorpus/ingest/html_stream.h"
#include "libcorpus/ingest/html_text.h"
#include "libcorpus/core/http_message.h"
#include "libcorpus/ingest/ingest_source.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/jsonl.h"
#include "libcorpus/ingest/langid.h"

namespace {

using corpus::IngestItem;

constexpr uint64_t kMaxSize = uint64_t{256} << 20;

struct Inputs {
  uint64_t warc_bytes = 0;
  std::vector<std::string> pages;  // prescanned HTML, as gumbo sees it
  std::vector<std::string> html;   // the same pages as decoded
  std::vector<std::string> docs;   // document texts
  std::vector<std::string> paras;  // paragraphs, in order
};

// The HTML pages of the WARC's HTTP 200 text/html responses, decoded.
void collect_pages(const std::string& warc, Inputs& in) {
  auto src = corpus::open_items(warc, kMaxSize);
  IngestItem it;
  corpus::HtmlPrescan reduced;
  while (src->next(it)) {
    if (!it.bad.empty() || it.oversize || it.warc_type != "response") continue;
    corpus::HttpResponse r;
    if (!corpus::parse_http_response(it.data, r).empty() || r.status != 200) continue;
    std::string_view ct = r.header("Content-Type");
    if (corpus::mime_type_of(ct) != "text/html") continue;
    std::string body;
    if (!corpus::decode_http_body(r, kMaxSize, body).empty()) continue;
    corpus::DecodedText dec;
    if (!corpus::decode_document(body, corpus::charset_from_content_type(ct), true, dec).empty()) continue;
    reduced.reduced = false;
    corpus::html_prescan(dec.text, reduced);
    in.pages.push_back(reduced.reduced ? reduced.html : dec.text);
    in.html.push_back(std::move(dec.text));
  }
}

void collect_docs(const std::string& jsonl, Inputs& in) {
  corpus::JsonlReader reader(corpus::open_input(jsonl), false);
  corpus::Document doc;
  while (reader.next(doc)) {
    const std::string& t = doc.text();
    in.docs.push_back(t);
    for (size_t p = 0; p <= t.size();) {
      size_t nl = std::min(t.find('\n', p), t.size());
      in.paras.push_back(t.substr(p, nl - p));
      p = nl + 1;
    }
  }
}

volatile uint64_t g_sink;  // keeps the work from being optimised away

void time_read(const std::string& warc) {
  auto src = corpus::open_items(warc, kMaxSize);
  IngestItem it;
  uint64_t n = 0;
  while (src->next(it)) n += it.data.size();
  g_sink = n;
}

void time_gumbo(const Inputs& in) {
  uint64_t n = 0;
  for (const std::string& page : in.pages) {
    corpus::GumboPage parsed(page);
    n += parsed.output() != nullptr;
  }
  g_sink = n;
}

void time_cld2_paragraphs(const Inputs& in) {
  std::unordered_set<std::string_view> seen;
  uint64_t n = 0;
  for (const std::string& p : in.paras) {
    if (p.size() <= 200 && !seen.insert(p).second) continue;
    n += corpus::identify_language(p).lang.size();
  }
  g_sink = n;
}

void time_cld2_documents(const Inputs& in) {
  uint64_t n = 0;
  for (const std::string& d : in.docs) n += corpus::identify_language(d).lang.size();
  g_sink = n;
}

void time_stream(const Inputs& in) {
  uint64_t n = 0;
  for (const std::string& p : in.html) n += corpus::html_stream_to_text(p, false).blocks.size();
  g_sink = n;
}

void time_html_to_text(const Inputs& in) {
  uint64_t n = 0;
  for (const std::string& p : in.html) n += corpus::html_to_text(p, false).blocks.size();
  g_sink = n;
}

// pc-ingest's default: one CLD2 call per document with its chunk vector,
// paragraphs the chunks leave ambiguous on their own (short ones once).
void time_cld2_one_pass(const Inputs& in) {
  std::unordered_set<std::string_view> seen;
  corpus::DocumentLanguages dl;
  uint64_t n = 0;
  for (const std::string& d : in.docs) {
    corpus::identify_document(d, 50, dl);
    n += dl.doc.lang.size();
    size_t cursor = 0;
    for (size_t p = 0; p <= d.size();) {
      size_t nl = std::min(d.find('\n', p), d.size());
      const char* l = corpus::chunk_language(dl.chunks, cursor, p, nl);
      std::string_view para(d.data() + p, nl - p);
      p = nl + 1;
      if (l && dl.doc.lang == l) continue;
      if (para.size() <= 200 && !seen.insert(para).second) continue;
      n += corpus::identify_language(para).lang.size();
    }
  }
  g_sink = n;
}

double seconds_of(void (*f)(const Inputs&, const std::string&), const Inputs& in, const std::string& warc) {
  auto t0 = std::chrono::steady_clock::now();
  f(in, warc);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 5) {
    std::fprintf(stderr, "usage: bench_ingest_floor WARC DOCS.jsonl [REPEAT] [TARGET_MB_PER_S]\n");
    return 2;
  }
  const std::string warc = argv[1];
  const int repeat = argc > 3 ? std::max(1, std::atoi(argv[3])) : 5;
  const double target = argc > 4 ? std::atof(argv[4]) : 0;
  try {
    Inputs in;
    in.warc_bytes = std::filesystem::file_size(warc);
    collect_pages(warc, in);
    collect_docs(argv[2], in);
    uint64_t page_bytes = 0, doc_bytes = 0;
    for (const auto& p : in.pages) page_bytes += p.size();
    for (const auto& d : in.docs) doc_bytes += d.size();
    std::printf("floor: %zu HTML pages (%.1f MB after the prescan), %zu documents (%.1f MB of text), "
                "%zu paragraphs; %d interleaved runs, one thread\n",
                in.pages.size(), page_bytes / 1e6, in.docs.size(), doc_bytes / 1e6, in.paras.size(), repeat);

    struct Phase {
      const char* name;
      void (*run)(const Inputs&, const std::string&);
      std::vector<double> s;
      bool in_sum = true;
    };
    std::vector<Phase> phases = {
        {"read the WARC (inflate, records)", [](const Inputs&, const std::string& w) { time_read(w); }, {}},
        {"gumbo parse (prescanned pages)", [](const Inputs& i, const std::string&) { time_gumbo(i); }, {}},
        {"CLD2 per paragraph", [](const Inputs& i, const std::string&) { time_cld2_paragraphs(i); }, {}},
        {"CLD2 per document", [](const Inputs& i, const std::string&) { time_cld2_documents(i); }, {}},
        {"CLD2 one pass (not in the sum)", [](const Inputs& i, const std::string&) { time_cld2_one_pass(i); }, {}, false},
        {"stream extractor (not in the sum)", [](const Inputs& i, const std::string&) { time_stream(i); }, {}, false},
        {"html_to_text, gumbo (not in the sum)", [](const Inputs& i, const std::string&) { time_html_to_text(i); }, {},
         false},
    };
    for (int r = 0; r < repeat; ++r)
      for (Phase& p : phases) p.s.push_back(seconds_of(p.run, in, warc));
    double sum_median = 0, sum_min = 0;
    std::printf("  %-34s %9s %9s\n", "phase", "median s", "min s");
    for (Phase& p : phases) {
      std::sort(p.s.begin(), p.s.end());
      double med = p.s[p.s.size() / 2], mn = p.s.front();
      if (p.in_sum) {  // the floor: reading, gumbo and the two CLD2 passes
        sum_median += med;
        sum_min += mn;
      }
      std::printf("  %-34s %9.3f %9.3f\n", p.name, med, mn);
    }
    std::printf("  %-34s %9.3f %9.3f\n", "sum", sum_median, sum_min);
    const double mb = in.warc_bytes / 1e6;
    std::printf("  the sum alone is %.1f MB/s of .warc.gz (median), %.1f MB/s (min)\n", mb / sum_median, mb / sum_min);
    if (target > 0) {
      const double budget = mb / target;
      std::printf("  %.1f MB at the target %.1f MB/s allows %.3f s: the sum is %.2fx that (median), %.2fx (min)\n", mb,
                  target, budget, sum_median / budget, sum_min / budget);
    }
  } catch (const corpus::Error& e) {
    std::fprintf(stderr, "%s\n", e.format("bench_ingest_floor").c_str());
    return 1;
  }
  return 0;
}
