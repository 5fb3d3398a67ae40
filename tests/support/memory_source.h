// A ByteSource over a string for unit tests: it hands out at most `step`
// bytes a read (to exercise refills and cut points) and remembers the largest
// read it was asked for.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "libcorpus/core/input.h"

namespace corpus::test {

class MemorySource : public ByteSource {
 public:
  explicit MemorySource(std::string data, size_t step = std::numeric_limits<size_t>::max(),
                        std::string name = "mem")
      : data_(std::move(data)), name_(std::move(name)), step_(step) {}
  size_t read(char* buf, size_t n) override {
    largest_ask = std::max(largest_ask, n);
    size_t k = std::min({n, step_, data_.size() - pos_});
    data_.copy(buf, k, pos_);
    pos_ += k;
    return k;
  }
  const std::string& name() const override { return name_; }
  Compression compression() const override { return Compression::kNone; }
  uint64_t raw_bytes_read() const override { return pos_; }
  std::optional<uint64_t> raw_size() const override { return data_.size(); }
  size_t largest_ask = 0;

 private:
  std::string data_, name_;
  size_t step_, pos_ = 0;
};

}  // namespace corpus::test
