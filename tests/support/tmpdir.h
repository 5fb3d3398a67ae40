// A temporary directory for a test, removed with everything in it, and
// files written through libcorpus's Output (compressed by suffix) or read raw.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <stdlib.h>

#include "libcorpus/core/output.h"

struct TmpDir {
  std::string dir;
  TmpDir() {
    std::string t = (std::filesystem::temp_directory_path() / "pc-test.XXXXXX").string();
    dir = mkdtemp(t.data());
  }
  ~TmpDir() { std::filesystem::remove_all(dir); }
  std::string path(const std::string& name) const { return dir + "/" + name; }
  size_t count() const {
    size_t n = 0;
    for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(dir)) ++n;
    return n;
  }
};

inline void write_file(const std::string& path, const std::string& data, bool commit = true) {
  corpus::Output out(path);
  out.write(data);
  if (commit) out.commit();
}

// The bytes as they are, straight to the file (no temporary, no compression):
// for damaged and hostile inputs.
inline void put_bytes(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
}

inline std::string raw_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}
