// Sentence segmentation: ICU's break iterator plus the per-language rules,
// with and without length limits. Input: a language tag, '\n', the paragraph
// (made valid UTF-8 without newlines, as the contract asks). The spans must be
// in order, inside the paragraph, non-empty and trimmed.
#include <array>
#include <memory>

#include "libcorpus/core/segment.h"
#include "tests/fuzz/fuzz_input.h"

namespace {
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // ICU iterators are costly to build: one segmenter per option set.
  static const std::array<corpus::SegmentOptions, 4> kOptions = {{{0, 0, false, ""}, {40, 0, false, ""},
                                                                  {200, 20, false, ""}, {0, 0, true, ""}}};
  static std::array<std::unique_ptr<corpus::Segmenter>, 4> segs;
  std::string_view in = fuzz::bytes(data, size);
  size_t nl = in.find('\n');
  std::string lang(nl == std::string_view::npos || nl > 16 ? std::string_view("en") : in.substr(0, nl));
  std::string para = fuzz::valid_utf8(nl == std::string_view::npos || nl > 16 ? in : in.substr(nl + 1));
  for (char& c : para) {
    if (c == '\n') c = ' ';
  }
  lang = fuzz::valid_utf8(lang);
  size_t which = size > 0 ? data[0] % 4 : 0;
  if (!segs[which]) segs[which] = std::make_unique<corpus::Segmenter>(kOptions[which]);
  std::vector<corpus::Span> spans;
  segs[which]->split(para, lang, spans);
  size_t prev = 0;
  for (const corpus::Span& s : spans) {
    if (s.begin < prev || s.end <= s.begin || s.end > para.size()) fuzz::broken("a span out of order or empty");
    if (is_space(para[s.begin]) || is_space(para[s.end - 1])) fuzz::broken("a sentence not trimmed");
    if (kOptions[which].max_bytes && !kOptions[which].min_bytes && s.size() > kOptions[which].max_bytes)
      fuzz::broken("a sentence longer than max_bytes");
    prev = s.end;
  }
  if (para.size() > 8) {
    size_t limit = para.size() / 2;
    size_t cut = corpus::safe_cut(para, limit);
    if (cut == 0 || cut > limit) fuzz::broken("safe_cut outside (0, limit]");
  }
  return 0;
}
