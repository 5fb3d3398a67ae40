// The metrics a pc-eval subcommand names ("bleu", "chrf", "chrf++", or
// several: "bleu,chrf"), built from one set of settings. Settings that can be
// malformed stay text until a metric that uses them is built, so that, say,
// a bad --tokenize is refused only when BLEU is asked for.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libcorpus/eval/metric.h"

namespace corpus::eval {

struct MetricSettings {
  // BLEU
  std::string tokenize = "13a", smooth = "exp";
  std::optional<double> smooth_value;  // none: the method's default (floor 0.1, add-k 1)
  int max_order = 4;
  bool effective_order = false;
  // chrF
  int char_order = 6;
  std::optional<int> word_order;  // none: 0 for chrf, 2 for chrf++
  int beta = 2;
  bool whitespace = false, eps_smoothing = false;
  // both
  bool lowercase = false;
};

// True for a comma-separated list of metric names ("bleu", "chrf,chrf++").
bool is_metric_list(std::string_view names);

// One metric per comma-separated name, in order. ConfigError for an unknown
// name, tokenizer or smoothing method.
std::vector<std::unique_ptr<Metric>> make_metrics(std::string_view names, const MetricSettings& s);

}  // namespace corpus::eval
