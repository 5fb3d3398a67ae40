#include "align/sentalign/doc_pairs.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "libcorpus/core/jsonl.h"

namespace align::sentalign {

namespace {

std::string read_sentences(const nlohmann::json& j, const char* key, std::vector<std::string>& out) {
  const auto it = j.find(key);
  if (it == j.end()) return fmt::format("missing key \"{}\" (an array of sentences)", key);
  if (!it->is_array()) return fmt::format("key \"{}\" must be an array of strings", key);
  out.clear();
  out.reserve(it->size());
  for (const auto& s : *it) {
    if (!s.is_string()) return fmt::format("key \"{}\": sentence {} is not a string", key, out.size());
    out.push_back(s.get<std::string>());
    if (out.back().find('\0') != std::string::npos)
      return fmt::format("key \"{}\": NUL character in sentence {}", key, out.size() - 1);
  }
  return {};
}

std::string read_url(const nlohmann::json& j, const char* key, std::string& out) {
  out.clear();
  const auto it = j.find(key);
  if (it == j.end()) return {};
  if (!it->is_string()) return fmt::format("key \"{}\" must be a string", key);
  out = it->get<std::string>();
  return {};
}

}  // namespace

std::string parse_doc_pair(std::string_view line, DocPair& out) {
  if (line.find('\0') != std::string_view::npos) return "NUL byte in a JSON line";
  if (corpus::json_nesting_depth(line, corpus::kMaxJsonDepth) > corpus::kMaxJsonDepth)
    return fmt::format("JSON nested more than {} levels deep", corpus::kMaxJsonDepth);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line.begin(), line.end());
  } catch (const nlohmann::json::parse_error& e) {
    const std::string what = e.what();
    const auto p = what.find("column");
    return "not valid JSON (" + (p == std::string::npos ? what : what.substr(p)) + ")";
  }
  if (!j.is_object()) return "a doc-pair line must be a JSON object";
  for (const auto& msg : {read_sentences(j, "src_sentences", out.src), read_sentences(j, "trg_sentences", out.trg),
                          read_url(j, "src_url", out.src_url), read_url(j, "trg_url", out.trg_url)})
    if (!msg.empty()) return msg;
  return {};
}

}  // namespace align::sentalign
