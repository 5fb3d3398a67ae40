#include "align/docalign/doc_pair.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "libcorpus/core/json_write.h"
#include "libcorpus/core/jsonl.h"

namespace align {
namespace {

void append_strings(std::string& out, const std::vector<std::string>& v) {
  out += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    corpus::append_json_string(out, v[i]);
  }
  out += ']';
}

// The array of strings under `key`, or what is wrong with it.
std::string strings_at(const nlohmann::json& j, const char* key, std::vector<std::string>& out) {
  auto it = j.find(key);
  if (it == j.end()) return std::string("missing key \"") + key + "\"";
  if (!it->is_array()) return std::string("key \"") + key + "\" must be an array of strings";
  out.clear();
  for (const auto& s : *it) {
    if (!s.is_string()) return std::string("key \"") + key + "\" must be an array of strings";
    out.push_back(s.get<std::string>());
    if (out.back().find('\0') != std::string::npos) return std::string("NUL character in \"") + key + "\"";
  }
  return {};
}

std::string string_at(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

void append_doc_pair(std::string& out, const DocPair& p) {
  out += "{\"src_url\": ";
  corpus::append_json_string(out, p.src_url);
  out += ", \"trg_url\": ";
  corpus::append_json_string(out, p.trg_url);
  out += ", \"src_lang\": ";
  corpus::append_json_string(out, p.src_lang);
  out += ", \"trg_lang\": ";
  corpus::append_json_string(out, p.trg_lang);
  out += ", \"src_sentences\": ";
  append_strings(out, p.src_sentences);
  out += ", \"trg_sentences\": ";
  append_strings(out, p.trg_sentences);
  // Four decimals: enough to rank, and the same text on every platform.
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", std::isfinite(p.score) ? p.score : 0.0);
  out += ", \"docalign_score\": ";
  out += buf;
  out += ", \"docalign_method\": ";
  corpus::append_json_string(out, p.method);
  out += '}';
}

std::string parse_doc_pair(std::string_view line, DocPair& p) {
  nlohmann::json j;
  if (corpus::json_nesting_depth(line) > corpus::kMaxJsonDepth)
    return "JSON nested more than " + std::to_string(corpus::kMaxJsonDepth) + " levels deep";
  try {
    j = nlohmann::json::parse(line.begin(), line.end());
  } catch (const nlohmann::json::exception& e) {
    return corpus::json_error_reason(e);
  }
  if (!j.is_object()) return "a doc-pair line must be a JSON object";
  for (const char* key : {"src_sentences", "trg_sentences"}) {
    std::string msg = strings_at(j, key, key[0] == 's' ? p.src_sentences : p.trg_sentences);
    if (!msg.empty()) return msg;
  }
  p.src_url = string_at(j, "src_url");
  p.trg_url = string_at(j, "trg_url");
  p.src_lang = string_at(j, "src_lang");
  p.trg_lang = string_at(j, "trg_lang");
  p.method = string_at(j, "docalign_method");
  auto s = j.find("docalign_score");
  p.score = s != j.end() && s->is_number() ? s->get<double>() : 0;
  return {};
}

}  // namespace align
