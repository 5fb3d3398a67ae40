#include "libcorpus/core/nonbreaking.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "libcorpus/core/error.h"

namespace corpus {

// Generated from data/nonbreaking/*.txt by cmake/EmbedFiles.cmake.
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_nonbreaking_files();

namespace {

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> w;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > b) w.push_back(line.substr(b, i - b));
  }
  return w;
}

bool read_file(const std::filesystem::path& p, std::string& text) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec)) return false;
  std::ifstream f(p, std::ios::binary);
  if (!f) throw Error("cannot read the prefix list " + p.string() + ": " + errno_text(errno));
  std::ostringstream ss;
  ss << f.rdbuf();
  text = ss.str();
  return true;
}

}  // namespace

std::string base_language(std::string_view tag) {
  std::string out;
  for (char ch : tag) {
    if (ch == '-' || ch == '_' || ch == '.' || ch == '@') break;
    out += (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch - 'A' + 'a') : ch;
  }
  if (out == "no" || out == "nn") out = "nb";  // one Norwegian list
  return out;
}

PrefixTable parse_prefix_table(std::string_view text, const std::string& name) {
  PrefixTable t;
  uint64_t line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    auto w = words(line);
    if (w.empty() || w[0][0] == '#') continue;
    if (w[0][0] == '%') {
      if (w[0] == "%ordinals" && w.size() == 1) {
        t.ordinals = true;
      } else if (w[0] == "%months") {
        for (size_t i = 1; i < w.size(); ++i) t.months.emplace(w[i]);
      } else {
        throw Error("unknown directive " + quote(w[0]), "use %ordinals or %months").at(name, line_no);
      }
      continue;
    }
    const bool numeric = w.back() == "#num", ends = w.back() == "#end";
    auto& set = numeric ? t.numeric : ends ? t.ends : t.always;
    for (size_t i = 0; i + (numeric || ends ? 1 : 0) < w.size(); ++i) set.emplace(w[i]);
  }
  return t;
}

std::vector<std::string> embedded_prefix_languages() {
  std::vector<std::string> langs;
  for (const auto& [stem, text] : embedded_nonbreaking_files()) langs.emplace_back(stem);
  return langs;
}

std::shared_ptr<const PrefixTable> prefix_table(std::string_view lang, const std::string& dir) {
  static std::mutex mu;
  static std::map<std::pair<std::string, std::string>, std::shared_ptr<const PrefixTable>> cache;
  const std::string base = base_language(lang);
  std::lock_guard lock(mu);
  auto key = std::make_pair(base, dir);
  if (auto it = cache.find(key); it != cache.end()) return it->second;

  auto table = std::make_shared<PrefixTable>();
  std::string text;
  std::filesystem::path found;
  if (!base.empty() && base.find('/') == std::string::npos) {
    if (!dir.empty() && read_file(std::filesystem::path(dir) / (base + ".txt"), text)) {
      found = std::filesystem::path(dir) / (base + ".txt");
    } else if (const char* env = std::getenv("PARACORP_DATA_DIR");
               env && *env && read_file(std::filesystem::path(env) / "nonbreaking" / (base + ".txt"), text)) {
      found = std::filesystem::path(env) / "nonbreaking" / (base + ".txt");
    }
  }
  if (!found.empty()) {
    *table = parse_prefix_table(text, found.string());
    table->source = found.string();
  } else {
    for (const auto& [stem, data] : embedded_nonbreaking_files()) {
      if (stem == base) {
        *table = parse_prefix_table(data, "embedded " + base + ".txt");
        table->source = "embedded";
      }
    }
  }
  cache.emplace(key, table);
  return table;
}

}  // namespace corpus
