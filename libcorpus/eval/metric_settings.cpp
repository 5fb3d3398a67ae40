#include "libcorpus/eval/metric_settings.h"


#include "libcorpus/core/cli_values.h"
#include "libcorpus/core/error.h"
#include "libcorpus/eval/bleu.h"
#include "libcorpus/eval/chrf.h"
#include "libcorpus/eval/tokenizers.h"

namespace corpus::eval {

namespace {

std::unique_ptr<Metric> make_bleu(const MetricSettings& s) {
  BleuConfig b;
  b.tokenizer = parse_tokenizer(s.tokenize);
  b.lowercase = s.lowercase;
  b.smooth = parse_smooth(s.smooth);
  if (s.smooth_value) b.smooth_value = *s.smooth_value;
  b.max_order = s.max_order;
  b.effective_order = s.effective_order;
  return std::make_unique<Bleu>(b);
}

std::unique_ptr<Metric> make_chrf(const MetricSettings& s, bool plus_plus) {
  ChrfConfig f;
  f.char_order = s.char_order;
  f.word_order = s.word_order ? *s.word_order : plus_plus ? 2 : 0;
  f.beta = s.beta;
  f.lowercase = s.lowercase;
  f.whitespace = s.whitespace;
  f.eps_smoothing = s.eps_smoothing;
  return std::make_unique<Chrf>(f);
}

}  // namespace

bool is_metric_list(std::string_view names) {
  if (names.empty() || names.front() == ',' || names.back() == ',' || names.find(",,") != std::string_view::npos)
    return false;
  for (const auto& n : cli::split_list(std::string(names)))
    if (n != "bleu" && n != "chrf" && n != "chrf++") return false;
  return true;
}

std::vector<std::unique_ptr<Metric>> make_metrics(std::string_view names, const MetricSettings& s) {
  std::vector<std::unique_ptr<Metric>> out;
  if (names.empty() || names.front() == ',' || names.back() == ',' || names.find(",,") != std::string_view::npos)
    throw ConfigError("unknown subcommand " + quote(names), "use bleu, chrf, chrf++ (or several: bleu,chrf), mining or align");
  for (const std::string& name : cli::split_list(std::string(names))) {
    if (name == "bleu") out.push_back(make_bleu(s));
    else if (name == "chrf" || name == "chrf++") out.push_back(make_chrf(s, name == "chrf++"));
    else
      throw ConfigError("unknown subcommand " + quote(name),
                        "use bleu, chrf, chrf++ (or several: bleu,chrf), mining or align");
  }
  return out;
}

}  // namespace corpus::eval
