// Named counters kept in first-use order: the "records in/out, rejects by
// reason" of an end-of-run summary and of --meta. A handful of names, so a
// linear search beats a map and keeps the order the reader saw them in.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace corpus {

class OrderedCounts {
 public:
  using Entry = std::pair<std::string, uint64_t>;

  void add(std::string_view name, uint64_t n = 1) { slot(name) += n; }
  void set(std::string_view name, uint64_t n) { slot(name) = n; }
  // Adds every counter of `o`, in o's order for names new here.
  void merge(const OrderedCounts& o) {
    for (const auto& [k, v] : o.entries_) add(k, v);
  }
  uint64_t get(std::string_view name) const {
    for (const auto& [k, v] : entries_)
      if (k == name) return v;
    return 0;
  }
  const std::vector<Entry>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }

 private:
  uint64_t& slot(std::string_view name) {
    for (auto& [k, v] : entries_)
      if (k == name) return v;
    return entries_.emplace_back(std::string(name), 0).second;
  }
  std::vector<Entry> entries_;
};

}  // namespace corpus
