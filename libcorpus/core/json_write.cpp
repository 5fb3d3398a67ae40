#include "libcorpus/core/json_write.h"

#include <vector>

#include <nlohmann/json.hpp>

#include "libcorpus/core/utf8.h"

namespace corpus {

void append_json_string(std::string& out, std::string_view s, bool strict) {
  if (!is_valid_utf8(s)) {
    out += nlohmann::json(std::string(s)).dump(
        -1, ' ', false, strict ? nlohmann::json::error_handler_t::strict : nlohmann::json::error_handler_t::replace);
    return;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t run = 0;  // start of the bytes not yet copied
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    out += '\\';
    switch (c) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '\b': out += 'b'; break;
      case '\f': out += 'f'; break;
      case '\n': out += 'n'; break;
      case '\r': out += 'r'; break;
      case '\t': out += 't'; break;
      default:
        out += "u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

void append_json_hundredths(std::string& out, int k) {
  if (k <= 0) {
    out += "0.0";
  } else if (k >= 100) {
    out += "1.0";
  } else {
    out += "0.";
    out += static_cast<char>('0' + k / 10);
    if (k % 10 != 0) out += static_cast<char>('0' + k % 10);
  }
}

void append_json(std::string& out, const nlohmann::ordered_json& j, bool strict) {
  using json = nlohmann::ordered_json;
  // An explicit stack instead of recursion: a value of any depth is written
  // without growing the call stack (10,000 nested arrays overflowed it).
  struct Open {
    const json* container;
    json::const_iterator it;
  };
  std::vector<Open> open;
  // Writes a scalar, or the opening bracket of a container (then pushed).
  auto begin = [&](const json& v) {
    switch (v.type()) {
      case json::value_t::string: append_json_string(out, v.get_ref<const std::string&>(), strict); return;
      case json::value_t::object: out += '{'; break;
      case json::value_t::array: out += '['; break;
      default:
        out += v.dump(-1, ' ', false,
                      strict ? nlohmann::json::error_handler_t::strict : nlohmann::json::error_handler_t::replace);
        return;
    }
    open.push_back({&v, v.cbegin()});
  };
  begin(j);
  while (!open.empty()) {
    Open& top = open.back();
    const bool object = top.container->is_object();
    if (top.it == top.container->cend()) {
      out += object ? '}' : ']';
      open.pop_back();
      continue;
    }
    if (top.it != top.container->cbegin()) out += ',';
    if (object) {
      append_json_string(out, top.it.key(), strict);
      out += ':';
    }
    const json& value = *top.it;
    ++top.it;
    begin(value);  // may push: `top` is not used after this
  }
}

JsonObjectWriter& JsonObjectWriter::num(std::string_view key, uint64_t value) {
  next(key) += std::to_string(value);
  return *this;
}

std::string& JsonObjectWriter::next(std::string_view key) {
  if (!first_) out_ += ',';
  first_ = false;
  append_json_string(out_, key);
  out_ += ':';
  return out_;
}

}  // namespace corpus
