#include "libcorpus/eval/metric_settings.h"

#include <cstdlib>

#include "libcorpus/core/error.h"
#include "libcorpus/eval/bleu.h"
#include "libcorpus/eval/chrf.h"
#include "libcorpus/eval/tokenizers.h"

namespace corpus::eval {

namespace {

std::vector<std::string> split_commas(std::string_view s) {
  std::vector<std::string> out;
  size_t b = 0;
  while (b <= s.size()) {
    size_t e = s.find(',', b);
    if (e == std::string_view::npos) e = s.size();
    out.emplace_back(s.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

std::unique_ptr<Metric> make_bleu(const MetricSettings& s) {
  BleuConfig b;
  b.tokenizer = parse_tokenizer(s.tokenize);
  b.lowercase = s.lowercase;
  b.smooth = parse_smooth(s.smooth);
  if (!s.smooth_value.empty()) {
    char* end = nullptr;
    b.smooth_value = std::strtod(s.smooth_value.c_str(), &end);
    if (end != s.smooth_value.c_str() + s.smooth_value.size())
      throw ConfigError("--smooth-value must be a number, not " + quote(s.smooth_value));
  }
  b.max_order = s.max_order;
  b.effective_order = s.effective_order;
  return std::make_unique<Bleu>(b);
}

std::unique_ptr<Metric> make_chrf(const MetricSettings& s, bool plus_plus) {
  ChrfConfig f;
  f.char_order = s.char_order;
  f.word_order = s.word_order >= 0 ? s.word_order : plus_plus ? 2 : 0;
  f.beta = s.beta;
  f.lowercase = s.lowercase;
  f.whitespace = s.whitespace;
  f.eps_smoothing = s.eps_smoothing;
  return std::make_unique<Chrf>(f);
}

}  // namespace

std::vector<std::unique_ptr<Metric>> make_metrics(std::string_view names, const MetricSettings& s) {
  std::vector<std::unique_ptr<Metric>> out;
  for (const std::string& name : split_commas(names)) {
    if (name == "bleu") out.push_back(make_bleu(s));
    else if (name == "chrf" || name == "chrf++") out.push_back(make_chrf(s, name == "chrf++"));
    else
      throw ConfigError("unknown subcommand " + quote(name),
                        "use bleu, chrf, chrf++ (or several: bleu,chrf), mining or align");
  }
  return out;
}

}  // namespace corpus::eval
