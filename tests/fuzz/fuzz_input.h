// What the fuzz targets share: the fuzzer's bytes as a ByteSource, as a
// file (for the readers that map or open a path), and as valid UTF-8 (for
// the entry points whose contract asks for it).
#pragma once
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "libcorpus/core/input.h"
#include "libcorpus/core/utf8.h"

namespace fuzz {

inline std::string_view bytes(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Hands out the bytes in reads of at most `chunk` bytes, so that a reader's
// refill and resume paths (a record cut between two reads) are exercised
// and not only the one-read case a small file gives.
class MemorySource : public corpus::ByteSource {
 public:
  MemorySource(std::string_view s, size_t chunk) : s_(s), chunk_(std::max<size_t>(chunk, 1)) {}
  size_t read(char* buf, size_t n) override {
    size_t k = std::min({n, chunk_, s_.size() - pos_});
    std::copy_n(s_.data() + pos_, k, buf);
    pos_ += k;
    return k;
  }
  const std::string& name() const override { return name_; }
  corpus::Compression compression() const override { return corpus::Compression::kNone; }
  uint64_t raw_bytes_read() const override { return pos_; }
  std::optional<uint64_t> raw_size() const override { return s_.size(); }

 private:
  std::string_view s_;
  size_t chunk_;
  size_t pos_ = 0;
  std::string name_ = "fuzz-input";
};

// A read size from the input itself: the same input always reads the same
// way (reproducible), and different inputs cut records at different places.
inline size_t chunk_for(std::string_view s) {
  if (s.empty()) return 1;
  static constexpr size_t kSizes[] = {1, 7, 64, 4096, 65536};
  return kSizes[static_cast<unsigned char>(s.back()) % 5];
}

// Writes the bytes to one file per process (the readers under test open a
// path and map it); the same name is rewritten for every input.
inline const std::string& as_file(std::string_view s, const char* suffix) {
  static std::string path;
  const char* dir = std::getenv("TMPDIR");
  path = std::string(dir && *dir ? dir : "/tmp") + "/paracorp-fuzz-" + std::to_string(getpid()) + suffix;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (!s.empty() && std::fwrite(s.data(), 1, s.size(), f) != s.size()) std::abort();
  std::fclose(f);
  return path;
}

// The bytes with every invalid UTF-8 sequence replaced by U+FFFD.
inline std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  while (!s.empty()) {
    size_t bad = corpus::find_invalid_utf8(s);
    if (bad == std::string_view::npos) {
      out.append(s);
      break;
    }
    out.append(s.substr(0, bad));
    out.append("\xEF\xBF\xBD");
    s.remove_prefix(bad + 1);
  }
  return out;
}

// Stops the run as a finding: a documented property of the output broke.
[[noreturn]] inline void broken(const char* what) {
  std::fprintf(stderr, "fuzz: property broken: %s\n", what);
  std::abort();
}

}  // namespace fuzz
