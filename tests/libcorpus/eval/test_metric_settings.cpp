// Building the metrics a subcommand names (libcorpus/eval/metric_settings.h).
#include <doctest/doctest.h>

#include "libcorpus/core/error.h"
#include "libcorpus/eval/metric_settings.h"

using namespace corpus::eval;

namespace {
std::vector<std::string> names(const std::vector<std::unique_ptr<Metric>>& ms) {
  std::vector<std::string> out;
  for (const auto& m : ms) out.push_back(m->name());
  return out;
}
std::string sig(const Metric& m) { return m.signature(SignatureInfo{}); }
}  // namespace

TEST_CASE("metric settings: names in order, chrF++ with word order 2 unless set") {
  MetricSettings s;
  CHECK(names(make_metrics("bleu", s)) == std::vector<std::string>{"BLEU"});
  CHECK(names(make_metrics("chrf++,bleu,chrf", s)) == std::vector<std::string>{"chrF2++", "BLEU", "chrF2"});
  s.word_order = 1;
  CHECK(names(make_metrics("chrf,chrf++", s)) == std::vector<std::string>{"chrF2+", "chrF2+"});
}

TEST_CASE("metric settings: the settings reach the metrics' signatures") {
  MetricSettings s;
  s.tokenize = "intl";
  s.smooth = "floor";
  s.smooth_value = 0.2;
  s.lowercase = true;
  s.effective_order = true;
  s.char_order = 5;
  s.whitespace = true;
  auto ms = make_metrics("bleu,chrf", s);
  CHECK(sig(*ms[0]) == "nrefs:1|case:lc|eff:yes|tok:intl|smooth:floor[0.20]|version:2.6.0");
  CHECK(sig(*ms[1]) == "nrefs:1|case:lc|eff:yes|nc:5|nw:0|space:yes|version:2.6.0");
}

TEST_CASE("metric settings: bad names and BLEU settings are ConfigErrors, BLEU's only when BLEU is asked for") {
  MetricSettings s;
  CHECK_THROWS_WITH_AS(make_metrics("blue", s), doctest::Contains("unknown subcommand"), corpus::ConfigError);
  CHECK_THROWS_AS(make_metrics("bleu,", s), corpus::ConfigError);
  s.tokenize = "moses";
  CHECK_THROWS_WITH_AS(make_metrics("bleu", s), doctest::Contains("unknown tokenizer"), corpus::ConfigError);
  CHECK(make_metrics("chrf", s).size() == 1);
  CHECK(is_metric_list("bleu,chrf++"));
  CHECK_FALSE(is_metric_list("bleu,"));
  CHECK_FALSE(is_metric_list("mining"));
}
