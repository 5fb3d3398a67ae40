#include "libcorpus/core/error.h"

#include <cstring>

#include <fmt/format.h>

namespace corpus {

Error::Error(std::string what, std::string hint) : std::runtime_error(std::move(what)), hint_(std::move(hint)) {}

Error& Error::at(std::string file, uint64_t line) {
  file_ = std::move(file);
  line_ = line;
  return *this;
}

std::string Error::format(std::string_view tool) const {
  // The file name, the message and the hint may hold bytes from the input
  // (a value, a JSON excerpt, a name with a newline): escaped, so that an
  // error is always one line of valid UTF-8.
  std::string where;
  if (!file_.empty()) {
    where = fmt::format("{}{}: ", file_ == "-" ? "<stdin>" : one_line(file_), line_ > 0 ? fmt::format(":{}", line_) : "");
  }
  return fmt::format("{}: {}{}{}", tool, where, one_line(what()), hint_.empty() ? "" : " \u2014 " + one_line(hint_));
}

std::string errno_text(int err) {
  char buf[256];
  // GNU strerror_r returns the message pointer.
  return ::strerror_r(err, buf, sizeof buf);
}

namespace {

// The length of the valid UTF-8 sequence at the start of `s` (no overlong
// forms, surrogates or code points past U+10FFFF), or 0 when it is not one.
size_t utf8_sequence(std::string_view s) {
  auto at = [&](size_t i) { return i < s.size() ? static_cast<unsigned char>(s[i]) : 0u; };
  const unsigned c = at(0);
  auto cont = [&](size_t i, unsigned lo = 0x80, unsigned hi = 0xbf) { return at(i) >= lo && at(i) <= hi; };
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c == 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if (c == 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c >= 0xe1 && c <= 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

constexpr char kHex[] = "0123456789abcdef";

// Appends the character (or invalid byte) at the start of `s` escaped if it
// would break a line; returns the bytes it took.
size_t append_one_line_char(std::string& out, std::string_view s) {
  const auto c = static_cast<unsigned char>(s[0]);
  const size_t len = utf8_sequence(s);
  if (len == 0 || c < 0x20 || c == 0x7f) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += "\\x"; out += kHex[c >> 4]; out += kHex[c & 15];
    }
    return 1;
  }
  // C1 controls (U+0080..U+009F: NEL among them) and the Unicode line and
  // paragraph separators end a line for some terminals and editors.
  const bool c1 = len == 2 && c == 0xc2 && static_cast<unsigned char>(s[1]) < 0xa0;
  const bool separator = len == 3 && c == 0xe2 && static_cast<unsigned char>(s[1]) == 0x80 &&
                         (static_cast<unsigned char>(s[2]) == 0xa8 || static_cast<unsigned char>(s[2]) == 0xa9);
  if (c1) out += fmt::format("\\u{:04x}", static_cast<unsigned char>(s[1]));
  else if (separator) out += static_cast<unsigned char>(s[2]) == 0xa8 ? "\\u2028" : "\\u2029";
  else out.append(s.data(), len);
  return len;
}

}  // namespace

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) i += append_one_line_char(out, text.substr(i));
  return out;
}

std::string quote(std::string_view value, size_t max) {
  std::string out = "'";
  for (size_t i = 0; i < value.size();) {
    if (i >= max) {
      out += "...";
      break;
    }
    i += append_one_line_char(out, value.substr(i));  // whole characters: a cut never splits one
  }
  out += "'";
  return out;
}

}  // namespace corpus
