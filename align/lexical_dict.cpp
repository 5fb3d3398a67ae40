#include "align/lexical_dict.h"

#include <sys/stat.h>

#include <string_view>

#include "libcorpus/core/ascii.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/utf8.h"

namespace align {

namespace {

std::string trim_str(std::string_view s) { return std::string(corpus::trim_blanks(s)); }

bool exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string strip_suffix(std::string p) {
  for (const char* s : {".index", ".dict.dz", ".dict"}) {
    const std::string_view suf(s);
    if (p.size() > suf.size() && p.compare(p.size() - suf.size(), suf.size(), suf) == 0) return p.substr(0, p.size() - suf.size());
  }
  return p;
}

std::string read_all(const std::string& path) {
  auto in = corpus::open_input(path);
  std::string s;
  char buf[1 << 16];
  for (size_t n; (n = in->read(buf, sizeof buf)) > 0;) s.append(buf, n);
  return s;
}

// dictd's base64 numbers: most significant digit first.
bool b64_number(std::string_view s, uint64_t& out) {
  static constexpr std::string_view kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  out = 0;
  if (s.empty() || s.size() > 10) return false;
  for (char c : s) {
    const size_t d = kDigits.find(c);
    if (d == std::string_view::npos) return false;
    out = out * 64 + d;
  }
  return true;
}

// A translation without its <grammar> and [label] notes and a leading "1. ".
std::string clean(std::string_view s) {
  std::string out;
  int depth = 0;
  for (char c : s) {
    if (c == '<' || c == '[') ++depth;
    else if ((c == '>' || c == ']') && depth > 0) --depth;
    else if (depth == 0) out.push_back(c);
  }
  std::string t = trim_str(out);
  size_t i = 0;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  if (i > 0 && i + 1 < t.size() && t[i] == '.' && t[i + 1] == ' ') t = trim_str(std::string_view(t).substr(i + 2));
  std::string r;
  for (char c : t) {
    if (c == ' ' && !r.empty() && r.back() == ' ') continue;
    r.push_back(c);
  }
  return r;
}

}  // namespace

std::vector<TextPair> read_dictd(const std::string& path, bool reverse, DictStats* stats) {
  const std::string base = strip_suffix(path);
  const std::string index = base + ".index";
  const std::string dict = exists(base + ".dict.dz") ? base + ".dict.dz" : base + ".dict";
  if (!exists(index) || !exists(dict))
    throw corpus::Error("not a dictd dictionary (needs " + index + " and " + base + ".dict[.dz])",
                        "give a FreeDict dictionary, e.g. /usr/share/dictd/freedict-eng-deu.index")
        .at(path);
  const std::string text = read_all(dict);
  auto in = corpus::open_input(index);
  corpus::LineReader lines(*in);
  std::vector<TextPair> pairs;
  DictStats st;
  std::string_view line;
  while (lines.next(line)) {
    const size_t t1 = line.find('\t'), t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
    uint64_t off = 0, len = 0;
    if (t2 == std::string_view::npos || !b64_number(line.substr(t1 + 1, t2 - t1 - 1), off) ||
        !b64_number(line.substr(t2 + 1), len) || off > text.size() || len > text.size() - off)
      throw corpus::Error("not a dictd index line (HEADWORD TAB OFFSET TAB LENGTH inside the .dict)",
                          "give the .index that belongs to the .dict")
          .at(index, lines.line_number());
    const std::string head = trim_str(line.substr(0, t1));
    if (head.empty() || head.rfind("00-database", 0) == 0 || head.rfind("00database", 0) == 0) continue;
    const std::string_view body = std::string_view(text).substr(off, len);
    if (!corpus::is_valid_utf8(head) || !corpus::is_valid_utf8(body))
      throw corpus::Error("a dictionary entry that is not UTF-8").at(index, lines.line_number());
    ++st.entries;
    size_t pos = body.find('\n');  // past "headword /pronunciation/"
    while (pos != std::string_view::npos && pos + 1 < body.size()) {
      const size_t end = body.find('\n', pos + 1);
      const std::string_view l = body.substr(pos + 1, (end == std::string_view::npos ? body.size() : end) - pos - 1);
      pos = end;
      if (l.empty() || l[0] == ' ' || l[0] == '\t') break;
      size_t a = 0;
      for (size_t i = 0; i <= l.size(); ++i) {
        if (i < l.size() && l[i] != ',' && l[i] != ';') continue;
        const std::string tr = clean(l.substr(a, i - a));
        a = i + 1;
        if (tr.empty() || tr.find('\t') != std::string::npos) continue;
        reverse ? pairs.emplace_back(tr, head) : pairs.emplace_back(head, tr);
      }
    }
  }
  st.pairs = pairs.size();
  if (stats) *stats = st;
  return pairs;
}

std::vector<TextPair> read_text_pairs(corpus::BitextLines& in, bool skip_bad, uint64_t max_pairs, uint64_t* skipped) {
  const int si = in.columns().index("src_text"), ti = in.columns().index("trg_text");
  if (si < 0 || ti < 0)
    throw corpus::ConfigError("the bitext has no src_text and trg_text columns", "give a TSV with those columns").at(in.name());
  std::vector<TextPair> pairs;
  std::string line;
  std::vector<std::string_view> f;
  uint64_t bad = 0;
  while ((max_pairs == 0 || pairs.size() < max_pairs) && in.next(line)) {
    corpus::split_tsv(line, f);
    const std::string msg = corpus::check_row(f, in.columns().size());
    if (!msg.empty()) {
      if (!skip_bad) throw corpus::Error(msg, "fix the row, or pass --skip-bad").at(in.name(), in.line_number());
      ++bad;
    } else {
      pairs.emplace_back(std::string(f[static_cast<size_t>(si)]), std::string(f[static_cast<size_t>(ti)]));
    }
    line.clear();
  }
  if (skipped) *skipped = bad + in.long_lines_skipped();
  return pairs;
}

}  // namespace align
