// pc-clean's rows held between two passes, when a row's fate depends on rows
// after it (near dedup keeping the best-scored variant): an unnamed temporary
// file in TMPDIR, so memory stays bounded and nothing is left on disk after
// the run, a crash included.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace filter {

struct SpooledRow {
  int32_t reason = 0;
  uint64_t dedup_key = 0, src_key = 0, trg_key = 0;
  std::string head, tail;  // the row's text before and after its reason
};

class RowSpool {
 public:
  RowSpool();  // throws corpus::Error when no temporary file can be made
  ~RowSpool();
  RowSpool(const RowSpool&) = delete;
  RowSpool& operator=(const RowSpool&) = delete;

  void put(int32_t reason, uint64_t dedup_key, uint64_t src_key, uint64_t trg_key, std::string_view head,
           std::string_view tail);
  void rewind();  // after the last put, before the first next
  bool next(SpooledRow& r);

 private:
  void write(const void* p, size_t n);
  void read(void* p, size_t n);
  std::FILE* f_;
};

}  // namespace filter
