#include "libcorpus/ingest/ingest_spool.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>

#include "libcorpus/core/error.h"
#include "libcorpus/core/tempfiles.h"

namespace corpus {

namespace {

// A plain loop: find_first_of with a set calls memchr once per byte.
bool needs_escape(std::string_view s) {
  for (char c : s)
    if (c == '\\' || c == '\t' || c == '\n') return true;
  return false;
}

void put(std::string& out, std::string_view s) {
  if (!needs_escape(s)) {
    out += s;
    out += '\t';
    return;
  }
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  out += '\t';
}

void put_number(std::string& out, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
  out += '\t';
}

class Fields {
 public:
  explicit Fields(std::string_view line) : s_(line) {}
  bool done() const { return pos_ >= s_.size(); }
  void next(std::string& out) {
    if (done()) throw Error("corrupt ingest spool (a field is missing)");
    out.clear();
    size_t end = s_.find('\t', pos_);
    if (end == std::string_view::npos) end = s_.size();
    std::string_view f = s_.substr(pos_, end - pos_);
    pos_ = end + 1;
    if (f.find('\\') == std::string_view::npos) {
      out.assign(f);
      return;
    }
    for (size_t i = 0; i < f.size(); ++i) {
      if (f[i] != '\\' || i + 1 == f.size()) {
        out += f[i];
        continue;
      }
      char c = f[++i];
      out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
    }
  }
  uint64_t number() {
    next(tmp_);
    uint64_t v = 0;
    auto r = std::from_chars(tmp_.data(), tmp_.data() + tmp_.size(), v);
    if (r.ec != std::errc() || r.ptr != tmp_.data() + tmp_.size()) throw Error("corrupt ingest spool (a number)");
    return v;
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;
  std::string tmp_;
};

}  // namespace

void spool_encode(const Extracted& x, std::string& out) {
  put(out, x.url);
  put(out, x.host);
  put(out, x.page_lang);
  put(out, x.beside_dropped);
  put(out, x.title);
  put(out, x.mime);
  put(out, x.charset);
  put(out, x.date);
  put(out, x.input);
  put_number(out, x.is_warc ? 1 : 0);
  put_number(out, x.offset);
  put_number(out, x.length);
  for (const auto& p : x.paras) put(out, p);
  out.back() = '\n';  // the last field's tab
}

void spool_decode(std::string_view line, SpoolDoc& d) {
  Fields f(line);
  f.next(d.url);
  f.next(d.host);
  f.next(d.page_lang);
  f.next(d.beside_dropped);
  f.next(d.title);
  f.next(d.mime);
  f.next(d.charset);
  f.next(d.date);
  f.next(d.input);
  d.is_warc = f.number() != 0;
  d.offset = f.number();
  d.length = f.number();
  size_t n = 0;  // reuses the strings (and their memory) of the previous document
  while (!f.done()) {
    if (n == d.paras.size()) d.paras.emplace_back();
    f.next(d.paras[n++]);
  }
  d.paras.resize(n);
}

std::FILE* open_spool_file() { return tempfiles::open_unnamed("pc-ingest-spool"); }

}  // namespace corpus
