#include "align/sentalign/overlaps.h"

#include <string_view>

#include "libcorpus/core/utf8.h"

namespace align::sentalign {

OverlapVectors encode_overlaps(const SentenceEncoder& e, const std::vector<std::string>& sentences,
                               SentenceEncoder::Side side, int layers) {
  const auto n = static_cast<uint32_t>(sentences.size());
  const auto d = static_cast<uint32_t>(e.dim());
  std::vector<float> data(uint64_t{n} * static_cast<uint32_t>(layers) * d, 0.0f);
  std::vector<std::string> joined;
  std::vector<std::string_view> views;
  for (int k = 0; k < layers; ++k) {
    // Rows i < k have no run of k + 1 sentences ending there; the DP never
    // reads them, so they stay zero and are not encoded.
    if (n <= static_cast<uint32_t>(k)) break;
    joined.clear();
    for (uint32_t i = static_cast<uint32_t>(k); i < n; ++i) {
      std::string s = sentences[i - k];
      for (uint32_t j = i - k + 1; j <= i; ++j) s += ' ' + sentences[j];
      joined.push_back(std::move(s));
    }
    views.assign(joined.begin(), joined.end());
    float* out = data.data() + (uint64_t{static_cast<uint32_t>(k)} * n + k) * d;
    e.encode(views, side, std::span<float>(out, views.size() * d));
  }
  OverlapVectors v = OverlapVectors::from_rows(n, d, layers, std::move(data));
  for (const auto& s : sentences) v.lengths.push_back(static_cast<uint32_t>(corpus::utf8_code_points(s)));
  return v;
}

}  // namespace align::sentalign
