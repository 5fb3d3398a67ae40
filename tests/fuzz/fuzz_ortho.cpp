// pc-clean's orthography fixer (filter/orthography.h) on any text and
// language: the result is valid UTF-8, and a second pass changes nothing
// (a repair never makes another one possible, so fix=ortho is idempotent).
#include <string>

#include "filter/orthography.h"
#include "libcorpus/core/utf8.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in = fuzz::bytes(data, size);
  const size_t nl = in.find('\n');
  const std::string_view lang = nl == std::string_view::npos ? std::string_view() : in.substr(0, nl);
  std::string text = fuzz::valid_utf8(nl == std::string_view::npos ? in : in.substr(nl + 1));
  const filter::Orthography ortho(lang.substr(0, 16));
  ortho.apply(text);
  if (!corpus::is_valid_utf8(text)) fuzz::broken("ortho returned invalid UTF-8");
  std::string again = text;
  if (ortho.apply(again) || again != text) fuzz::broken("a second pass changed the text");
  return 0;
}
