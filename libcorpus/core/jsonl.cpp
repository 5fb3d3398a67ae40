#include "libcorpus/core/jsonl.h"

#include "libcorpus/core/error.h"
#include "libcorpus/core/json_write.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/utf8.h"

namespace corpus {

size_t json_nesting_depth(std::string_view text, size_t limit) {
  size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped byte cannot end the string
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

std::string json_error_reason(const nlohmann::json::exception& e) {
  std::string what = e.what();
  // "[json.exception.parse_error.101] parse error at line 1, column 5: ..."
  // -> the tail from "column"; "[json.exception.out_of_range.406] number
  // overflow parsing '...'" -> the text after the bracket.
  size_t from = what.find("column");
  if (from == std::string::npos) {
    const size_t bracket = what.find("] ");
    from = bracket == std::string::npos ? 0 : bracket + 2;
  }
  std::string reason = what.substr(from);
  constexpr size_t kMaxReason = 200;
  if (reason.size() > kMaxReason) {
    reason.resize(utf8_cut_at_or_before(reason, kMaxReason));
    reason += "...";
  }
  return "not valid JSON (" + reason + ")";
}

std::string parse_document(std::string_view line, Document& doc) {
  if (line.find('\0') != std::string_view::npos) return "NUL byte in a JSON line";
  // Checked before parsing: the parser takes any depth, but a value nested
  // this deep is no document, and code that walks the tree (writers, dumps)
  // need not be ready for millions of levels.
  if (json_nesting_depth(line, kMaxJsonDepth) > kMaxJsonDepth)
    return "JSON nested more than " + std::to_string(kMaxJsonDepth) + " levels deep";
  try {
    doc.json = nlohmann::ordered_json::parse(line.begin(), line.end());
  } catch (const nlohmann::json::exception& e) {
    return json_error_reason(e);
  }
  if (!doc.json.is_object()) return "a document line must be a JSON object";
  for (const char* key : {"url", "lang", "text"}) {
    auto it = doc.json.find(key);
    if (it == doc.json.end()) return std::string("missing key \"") + key + "\"";
    if (!it->is_string()) return std::string("key \"") + key + "\" must be a string";
  }
  if (doc.text().find('\0') != std::string::npos) return "NUL character in \"text\"";
  return {};
}

std::string serialize_document(const Document& doc) {
  std::string out;
  append_json(out, doc.json, true);
  return out;
}

JsonlReader::JsonlReader(std::unique_ptr<ByteSource> src, bool skip_bad)
    : src_(std::move(src)), reader_(*src_), skip_bad_(skip_bad) {}

bool JsonlReader::next(Document& doc) {
  std::string_view line;
  while (reader_.next(line)) {
    std::string msg = parse_document(line, doc);
    if (msg.empty()) return true;
    if (!skip_bad_) throw Error(msg, "fix the line, or pass --skip-bad to skip such lines").at(name(), reader_.line_number());
    ++skipped_;
  }
  return false;
}

void JsonlWriter::write(const Document& doc) {
  try {
    out_.write(serialize_document(doc));
  } catch (const nlohmann::json::type_error& e) {
    throw Error(std::string("cannot write document: ") + e.what());
  }
  out_.put('\n');
}

}  // namespace corpus
