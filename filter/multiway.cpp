#include "filter/multiway.h"

#include <unordered_set>

#include "filter/text_stats.h"
#include "libcorpus/core/digest.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/tsv.h"

namespace filter {

namespace {
uint64_t source_key(std::string_view s) {
  std::string k;
  letters_key(s, k);
  return corpus::hash64(k);
}
}  // namespace

MultiwayIndex MultiwayIndex::build(const std::vector<std::string>& files) {
  MultiwayIndex m;
  for (const std::string& f : files) {
    corpus::BitextReader in(corpus::open_tsv_lines(corpus::open_input(f)), false);
    const int si = in.columns().index("src_text");
    if (si < 0) throw corpus::Error("the multi-way bitext has no src_text column").at(f);
    std::unordered_set<uint64_t> seen;
    std::vector<std::string_view> fields;
    while (in.next(fields)) seen.insert(source_key(fields[static_cast<size_t>(si)]));
    for (uint64_t k : seen) ++m.count_[k];
    ++m.files_;
  }
  return m;
}

uint32_t MultiwayIndex::languages(std::string_view src) const {
  auto it = count_.find(source_key(src));
  return 1 + (it == count_.end() ? 0 : it->second);
}

}  // namespace filter
