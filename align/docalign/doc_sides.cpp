#include "align/docalign/doc_sides.h"

#include <algorithm>
#include <cctype>

#include "libcorpus/core/error.h"
#include "libcorpus/core/jsonl.h"
#include "libcorpus/core/line_cap.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/segment.h"

namespace align {
namespace {

// A language code compared case-blind, with pt_BR and pt-BR the same.
std::string lang_key(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::replace(r.begin(), r.end(), '_', '-');
  return r;
}

}  // namespace

bool same_language(std::string_view doc_lang, std::string_view want) {
  const std::string d = lang_key(doc_lang), w = lang_key(want);
  if (d == w) return !w.empty();
  return w.find('-') == std::string::npos && d.substr(0, d.find('-')) == w;
}

struct DocReader::Impl {
  bool skip_bad;
  size_t max_line;
  corpus::Segmenter seg;
  std::vector<corpus::Span> spans;
};

DocReader::DocReader(bool skip_bad, size_t max_line) : impl_(new Impl{skip_bad, max_line, corpus::Segmenter(), {}}) {}
DocReader::~DocReader() = default;

namespace {

// Stops at the first line longer than `cap` bytes with the --max-line error.
// Behind a LineCapSource (which cuts such lines to cap + 1 bytes) it sees
// every line whole or cut, so memory stays bounded either way.
class LineGuard final : public corpus::WrappedSource {
 public:
  LineGuard(std::unique_ptr<corpus::ByteSource> inner, size_t cap) : WrappedSource(std::move(inner)), cap_(cap) {}
  size_t read(char* buf, size_t n) override {
    const size_t got = inner_->read(buf, n);
    for (size_t i = 0; i < got; ++i) {
      if (buf[i] == '\n') {
        ++line_;
        run_ = 0;
      } else if (++run_ > cap_) {
        corpus::throw_line_too_long(name(), line_ + 1, cap_);
      }
    }
    return got;
  }

 private:
  size_t cap_, run_ = 0;
  uint64_t line_ = 0;
};

// The document's sentences; "" or what is wrong.
std::string sentences_of(const corpus::Document& d, std::string_view lang, corpus::Segmenter& seg,
                         std::vector<corpus::Span>& spans, DocRecord& out, bool& split) {
  out.sentences.clear();
  if (out.url.find('\0') != std::string::npos) return "NUL character in \"url\"";
  auto it = d.json.find("sentences");
  split = it == d.json.end();
  if (!split) {
    if (!it->is_array()) return "key \"sentences\" must be an array of strings";
    for (const auto& s : *it) {
      if (!s.is_string()) return "key \"sentences\" must be an array of strings";
      const std::string& v = s.get_ref<const std::string&>();
      if (v.find('\0') != std::string::npos) return "NUL character in \"sentences\"";
      if (!v.empty()) out.sentences.push_back(v);
    }
    return {};
  }
  const std::string& text = d.text();
  for (size_t p = 0; p <= text.size();) {
    size_t nl = text.find('\n', p);
    if (nl == std::string::npos) nl = text.size();
    const std::string_view para(text.data() + p, nl - p);
    spans.clear();
    seg.split(para, lang, spans);
    for (const corpus::Span& s : spans) out.sentences.emplace_back(para.substr(s.begin, s.size()));
    p = nl + 1;
  }
  return {};
}

}  // namespace

void DocReader::read_side(std::unique_ptr<corpus::ByteSource> src, DocSide& side) {
  read_mixed(std::move(src), side, side);
}

void DocReader::read_mixed(std::unique_ptr<corpus::ByteSource> src, DocSide& a, DocSide& b) {
  const bool mixed = &a != &b;
  if (impl_->max_line) {
    src = corpus::cap_lines(std::move(src), impl_->max_line);
    if (!impl_->skip_bad) src = std::make_unique<LineGuard>(std::move(src), impl_->max_line);
  }
  corpus::JsonlReader in(std::move(src), impl_->skip_bad);
  corpus::Document d;
  while (in.next(d)) {
    ++n_.read;
    DocSide* side = &a;
    if (mixed) {
      if (same_language(d.lang(), a.lang)) side = &a;
      else if (same_language(d.lang(), b.lang)) side = &b;
      else {
        ++n_.other_lang;
        continue;
      }
    }
    DocRecord r;
    r.url = d.url();
    bool split = false;
    // The splitter's language rules follow the document's own tag; a side's
    // language when the document has none.
    const std::string& dl = d.lang();
    const std::string lang = dl.empty() || dl == "und" ? side->lang : dl;
    std::string msg = sentences_of(d, lang, impl_->seg, impl_->spans, r, split);
    if (!msg.empty()) {
      if (!impl_->skip_bad)
        throw corpus::Error(msg, "fix the line, or pass --skip-bad to skip such lines").at(in.name(), in.line_number());
      ++n_.skipped_bad;
      continue;
    }
    if (split) ++n_.split_here;
    if (r.sentences.empty()) {
      ++n_.no_sentences;
      continue;
    }
    side->docs.push_back(std::move(r));
  }
  n_.skipped_bad += in.skipped();
}

}  // namespace align
