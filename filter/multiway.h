// The multi-way signal: how many languages a source sentence is aligned to.
// Thompson et al. (2024) find that highly multi-way parallel web text is
// mostly low-quality machine translation. Built from the other language
// pairs' bitexts (their src_text), keyed like near dedup.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace filter {

class MultiwayIndex {
 public:
  // Reads the src_text column of each file (TSV bitext, any compression);
  // bad rows are an Error with file and line.
  static MultiwayIndex build(const std::vector<std::string>& files);
  bool empty() const { return files_ == 0; }
  // Languages the source is aligned to: 1 (this pair) plus the files that
  // hold it.
  uint32_t languages(std::string_view src) const;

 private:
  size_t files_ = 0;
  std::unordered_map<uint64_t, uint32_t> count_;  // source key -> files holding it
};

}  // namespace filter
