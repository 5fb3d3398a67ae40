// JSON written straight into a string, for tools that write many objects
// (pc-ingest's and pc-split's documents): the bytes nlohmann's
// dump(-1, ' ', false, error_handler_t::replace) writes for the same value,
// without building a json tree first (JsonObjectWriter) or faster than
// nlohmann's serializer (append_json). UTF-8 is written as is; strings that
// are not valid UTF-8 go through nlohmann, which writes U+FFFD for the bad
// bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace corpus {

// Appends `s` as a JSON string (quotes included). Invalid UTF-8 becomes
// U+FFFD, or throws nlohmann's type_error 316 when `strict`.
void append_json_string(std::string& out, std::string_view s, bool strict = false);

// Appends `j` as nlohmann's j.dump(-1, ' ', false, strict or replace)
// writes it, at any depth (no recursion); strings and containers by hand, numbers, booleans and null
// through nlohmann.
void append_json(std::string& out, const nlohmann::ordered_json& j, bool strict = false);

// `j` as compact JSON text, invalid UTF-8 in its strings written as U+FFFD:
// for metadata that holds what a user typed (file names need not be UTF-8).
inline std::string json_text(const nlohmann::ordered_json& j) {
  std::string s;
  append_json(s, j);
  return s;
}

// Appends k / 100 (0 <= k <= 100) as nlohmann writes the double nearest to it:
// "0.0", "0.07", "0.5", "1.0".
void append_json_hundredths(std::string& out, int k);

class JsonObjectWriter {
 public:
  explicit JsonObjectWriter(std::string& out) : out_(out) { out_ += '{'; }
  JsonObjectWriter& str(std::string_view key, std::string_view value) {
    append_json_string(next(key), value);
    return *this;
  }
  JsonObjectWriter& num(std::string_view key, uint64_t value);
  JsonObjectWriter& hundredths(std::string_view key, int k) {
    append_json_hundredths(next(key), k);
    return *this;
  }
  // Starts a value the caller writes itself (an array or a nested object).
  std::string& value(std::string_view key) { return next(key); }
  void close() { out_ += '}'; }

 private:
  std::string& next(std::string_view key);
  std::string& out_;
  bool first_ = true;
};

}  // namespace corpus
