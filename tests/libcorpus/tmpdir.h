// A temporary directory for a test, removed with everything in it.
#pragma once

#include <filesystem>
#include <string>

#include <stdlib.h>

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
