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
  std::string where;
  if (!file_.empty()) {
    where = fmt::format("{}{}: ", file_ == "-" ? "<stdin>" : file_, line_ > 0 ? fmt::format(":{}", line_) : "");
  }
  return fmt::format("{}: {}{}{}", tool, where, what(), hint_.empty() ? "" : " \u2014 " + hint_);
}

std::string errno_text(int err) {
  char buf[256];
  // GNU strerror_r returns the message pointer.
  return ::strerror_r(err, buf, sizeof buf);
}

std::string quote(std::string_view value, size_t max) {
  std::string out = "'";
  size_t n = 0;
  for (unsigned char c : value) {
    if (n++ >= max) {
      out += "...";
      break;
    }
    if (c < 0x20 || c == 0x7f) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += "'";
  return out;
}

}  // namespace corpus
