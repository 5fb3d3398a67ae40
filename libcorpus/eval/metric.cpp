#include "libcorpus/eval/metric.h"

#include <cstdlib>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace corpus::eval {

std::string format_signature(const SignatureInfo& info, const std::vector<std::pair<std::string, std::string>>& own,
                             const std::vector<std::string>& own_abbr) {
  std::vector<std::string> parts;
  auto add = [&](const std::string& full, const std::string& abbr, const std::string& value) {
    parts.push_back((info.short_form ? abbr : full) + ":" + value);
  };
  add("nrefs", "#", info.nrefs < 0 ? "var" : std::to_string(info.nrefs));
  if (info.bootstrap > 0) add("bs", "bs", std::to_string(info.bootstrap));
  if (!info.seed.empty()) add("seed", "rs", info.seed);
  for (size_t i = 0; i < own.size(); ++i) add(own[i].first, own_abbr[i], own[i].second);
  add("version", "v", kSacrebleuVersion);
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? "|" : "") + parts[i];
  return s;
}

std::string format_score_text(const Metric& m, const int64_t* stats, const std::string& signature, int width,
                              bool score_only) {
  std::string sc = fmt::format("{:.{}f}", m.score(stats), width);
  if (score_only) return sc;
  std::string line = signature.empty() ? m.name() : m.name() + "|" + signature;
  line += " = " + sc;
  std::string v = m.verbose(stats);
  if (!v.empty()) line += " " + v;
  return line;
}

std::string python_float_repr(double x, int width) {
  const double rounded = std::strtod(fmt::format("{:.{}f}", x, width).c_str(), nullptr);
  std::string s = fmt::format("{}", rounded);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // Python prints 100.0, not 100
  return s;
}

std::string format_score_json(const Metric& m, const int64_t* stats, const std::string& signature, int width) {
  // Written by hand to keep sacreBLEU's key order and number form.
  auto str = [](const std::string& s) { return nlohmann::json(s).dump(-1, ' ', false); };
  std::string out = "{\n \"name\": " + str(m.name()) + ",\n \"score\": " + python_float_repr(m.score(stats), width) +
                    ",\n \"signature\": " + str(signature);
  std::string v = m.verbose(stats);
  if (!v.empty()) out += ",\n \"verbose_score\": " + str(v);
  size_t b = 0;
  while (b < signature.size()) {
    size_t e = signature.find('|', b);
    if (e == std::string::npos) e = signature.size();
    std::string item = signature.substr(b, e - b);
    size_t colon = item.find(':');
    out += ",\n " + str(item.substr(0, colon)) + ": " + str(item.substr(colon + 1));
    b = e + 1;
  }
  return out + "\n}";
}

}  // namespace corpus::eval
