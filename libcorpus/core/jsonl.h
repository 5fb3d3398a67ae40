// Documents JSONL (DESIGN.md §4): one JSON object per line with at least the
// string keys url, lang and text. Every other key is kept, in its order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "libcorpus/core/input.h"
#include "libcorpus/core/line_reader.h"

namespace corpus {

class Output;

struct Document {
  nlohmann::ordered_json json;  // the whole object

  const std::string& url() const { return json.at("url").get_ref<const std::string&>(); }
  const std::string& lang() const { return json.at("lang").get_ref<const std::string&>(); }
  const std::string& text() const { return json.at("text").get_ref<const std::string&>(); }
};

// The deepest nesting of arrays and objects a document line may have (the
// document object itself is level 1). Deeper lines are bad records.
inline constexpr size_t kMaxJsonDepth = 1000;

// The deepest nesting of [ and { outside strings in `text`, counting only up
// to the first level past `limit` (so the scan of a hostile line stops early).
size_t json_nesting_depth(std::string_view text, size_t limit = kMaxJsonDepth);

// Why nlohmann's parse threw, for a bad-line message: "not valid JSON (column
// 5: ...)" for a syntax error, "not valid JSON (number overflow parsing
// '1e999')" for a number no double holds (out_of_range, not parse_error: a
// catch of parse_error alone lets it end the program), at most 200 bytes of
// the reason, cut at a character boundary.
std::string json_error_reason(const nlohmann::json::exception& e);

// Parses one line. Returns "" or what is wrong (not JSON, not an object,
// nested deeper than kMaxJsonDepth, a required key missing or not a string,
// NUL in text).
std::string parse_document(std::string_view line, Document& doc);

// One line of JSON (no trailing newline); UTF-8 is written as is.
std::string serialize_document(const Document& doc);

class JsonlReader {
 public:
  JsonlReader(std::unique_ptr<ByteSource> src, bool skip_bad);
  // The next document; bad lines throw Error (file:line) or are counted.
  bool next(Document& doc);
  uint64_t skipped() const { return skipped_; }
  uint64_t line_number() const { return reader_.line_number(); }
  const std::string& name() const { return src_->name(); }

 private:
  std::unique_ptr<ByteSource> src_;
  LineReader reader_;
  bool skip_bad_;
  uint64_t skipped_ = 0;
};

class JsonlWriter {
 public:
  explicit JsonlWriter(Output& out) : out_(out) {}
  void write(const Document& doc);

 private:
  Output& out_;
};

}  // namespace corpus
