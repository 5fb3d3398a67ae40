// Normalisation: every step on valid UTF-8 must return valid UTF-8, and a
// chain parsed from the input's first line (a spec such as "nfc,ws") must
// survive its own spec() round trip.
#include "libcorpus/core/error.h"
#include "libcorpus/core/normalize.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = fuzz::bytes(data, size);
  size_t nl = in.find('\n');
  std::string_view spec = nl == std::string_view::npos ? std::string_view() : in.substr(0, nl);
  std::string text = fuzz::valid_utf8(nl == std::string_view::npos ? in : in.substr(nl + 1));
  for (auto step : {corpus::NormStep::kNfc, corpus::NormStep::kNfkc, corpus::NormStep::kWhitespace,
                    corpus::NormStep::kControl, corpus::NormStep::kMojibake, corpus::NormStep::kEntities,
                    corpus::NormStep::kPunct}) {
    if (!corpus::is_valid_utf8(corpus::apply_norm_step(step, text))) fuzz::broken("a step returned invalid UTF-8");
  }
  try {
    corpus::Normalizer n = corpus::Normalizer::parse(spec);
    if (corpus::Normalizer::parse(n.spec()).steps() != n.steps()) fuzz::broken("spec() does not parse back");
    std::string s = text;
    n.apply(s);
    if (!corpus::is_valid_utf8(s)) fuzz::broken("a chain returned invalid UTF-8");
  } catch (const corpus::ConfigError&) {
  }
  return 0;
}
