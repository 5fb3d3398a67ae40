#include "mt/model/marian_yaml.h"

#include <fmt/format.h>

#include <set>

#include "libcorpus/core/ascii.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/utf8.h"

namespace mt::marian {

namespace {

using corpus::append_utf8;

struct Line {
  const std::string& file;
  uint64_t no;
  [[noreturn]] void fail(const std::string& what) const {
    throw corpus::Error(what, "give the YAML file as Marian wrote it").at(file, no);
  }
};

// A double-quoted YAML scalar without its quotes: s holds the text between.
std::string unescape_double(std::string_view s, const Line& l) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '"') l.fail("a '\"' inside a double-quoted string");
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i == s.size()) l.fail("a string that ends in a backslash");
    const char c = s[i];
    int hex = 0;
    switch (c) {
      case '0':
        out += '\0';
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 't':
      case '\t':
        out += '\t';
        break;
      case 'n':
        out += '\n';
        break;
      case 'v':
        out += '\v';
        break;
      case 'f':
        out += '\f';
        break;
      case 'r':
        out += '\r';
        break;
      case 'e':
        out += '\x1b';
        break;
      case ' ':
      case '"':
      case '/':
      case '\\':
        out += c;
        break;
      case 'N':
        append_utf8(out, 0x85);
        break;
      case '_':
        append_utf8(out, 0xA0);
        break;
      case 'L':
        append_utf8(out, 0x2028);
        break;
      case 'P':
        append_utf8(out, 0x2029);
        break;
      case 'x':
        hex = 2;
        break;
      case 'u':
        hex = 4;
        break;
      case 'U':
        hex = 8;
        break;
      default:
        l.fail(fmt::format("the unknown escape '\\{}'", c));
    }
    if (!hex) continue;
    if (s.size() - i - 1 < static_cast<size_t>(hex)) l.fail("a cut-off \\x, \\u or \\U escape");
    uint32_t cp = 0;
    for (int k = 0; k < hex; ++k) {
      const char h = s[++i];
      const int v = h >= '0' && h <= '9'   ? h - '0'
                    : h >= 'a' && h <= 'f' ? h - 'a' + 10
                    : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                           : -1;
      if (v < 0) l.fail("a \\x, \\u or \\U escape with a non-hex digit");
      cp = cp << 4 | static_cast<uint32_t>(v);
    }
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) l.fail(fmt::format("the escape of U+{:X}, no character", cp));
    append_utf8(out, cp);
  }
  return out;
}

// A scalar: quoted (the whole of s) or plain.
std::string scalar(std::string_view s, const Line& l) {
  s = corpus::trim_blanks(s);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') return unescape_double(s.substr(1, s.size() - 2), l);
  if (s.size() >= 2 && s.front() == '\'' && s.back() == '\'') {
    std::string out;
    const std::string_view in = s.substr(1, s.size() - 2);
    for (size_t i = 0; i < in.size(); ++i) {
      if (in[i] == '\'') {
        if (i + 1 == in.size() || in[i + 1] != '\'') l.fail("a lone ' inside a single-quoted string");
        ++i;
      }
      out += in[i];
    }
    return out;
  }
  if (!s.empty() && (s.front() == '"' || s.front() == '\'')) l.fail("an unterminated quoted string");
  return std::string(s);
}

bool skip_line(std::string_view t) { return t.empty() || t.front() == '#' || t == "---" || t == "..."; }

}  // namespace

std::map<std::string, std::string> parse_config(std::string_view text, const std::string& file) {
  std::map<std::string, std::string> out;
  std::string* last = nullptr;
  bool list_open = false;
  uint64_t no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view raw = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    const Line l{file, ++no};
    const std::string_view t = corpus::trim_blanks(raw);
    if (skip_line(t)) continue;
    if (raw.front() == ' ' || raw.front() == '\t') {  // a continuation of the last key
      if (!last) l.fail("an indented line before any key");
      if (t == "[]") continue;
      if (t.front() != '-') l.fail("an indented line that is no list item");
      if (!list_open && !last->empty()) l.fail("a list item after a scalar value");
      list_open = true;
      if (!last->empty()) *last += ',';
      *last += scalar(t.substr(1), l);
      continue;
    }
    const size_t colon = t.find(':');
    if (colon == std::string_view::npos || colon == 0) l.fail("a line that is not 'key: value'");
    const std::string key(corpus::trim_blanks(t.substr(0, colon)));
    std::string_view value = corpus::trim_blanks(t.substr(colon + 1));
    if (value.size() >= 2 && value.front() == '[' && value.back() == ']')
      value = corpus::trim_blanks(value.substr(1, value.size() - 2));
    auto [it, fresh] = out.emplace(key, scalar(value, l));
    if (!fresh) l.fail("the key " + corpus::quote(key) + " twice");
    last = &it->second;
    list_open = false;
  }
  return out;
}

std::vector<std::pair<std::string, int64_t>> parse_vocab(std::string_view text, const std::string& file) {
  std::vector<std::pair<std::string, int64_t>> out;
  std::set<std::string> pieces;
  std::set<int64_t> ids;
  uint64_t no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view raw = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    const Line l{file, ++no};
    std::string_view t = corpus::trim_blanks(raw);
    if (skip_line(t)) continue;
    // The id is the number at the end, after the last ':'; the piece may hold ':'.
    size_t d = t.size();
    while (d > 0 && t[d - 1] >= '0' && t[d - 1] <= '9') --d;
    if (d == t.size() || t.size() - d > 12) l.fail("a line that is not 'PIECE: ID'");
    const int64_t id = std::stoll(std::string(t.substr(d)));
    std::string_view head = corpus::trim_blanks(t.substr(0, d));
    if (head.empty() || head.back() != ':' || head.size() < 2) l.fail("a line that is not 'PIECE: ID'");
    std::string piece = scalar(head.substr(0, head.size() - 1), l);
    if (!corpus::is_valid_utf8(piece)) l.fail("a piece that is not valid UTF-8");
    if (!pieces.insert(piece).second) l.fail("the piece " + corpus::quote(piece) + " twice");
    if (!ids.insert(id).second) l.fail(fmt::format("the id {} twice", id));
    out.emplace_back(std::move(piece), id);
  }
  return out;
}

}  // namespace mt::marian
