// Where the unit tests' data lives: tests/data (PARACORP_TEST_DATA) and the
// bundled samples (PARACORP_SAMPLES), both set by tests/CMakeLists.txt. One
// place for these, since CI compiles the test files in unity batches, where
// two files' private copies of a helper would collide.
#pragma once

#include <filesystem>
#include <string>

#include "support/tmpdir.h"

inline std::string test_data(const std::string& rel) { return std::string(PARACORP_TEST_DATA) + "/" + rel; }
inline std::string embed_data(const std::string& name) { return test_data("embed/" + name); }
inline std::string marian_data(const std::string& name) { return test_data("marian/" + name); }
inline std::string nmt_data(const std::string& name) { return test_data("nmt/" + name); }

// The en-de sample bitext: the seed of the small IBM1 and encoder trainings.
inline const std::string kSampleEnDe = std::string(PARACORP_SAMPLES) + "/bitext/en-de.tsv";

// A copy of one of the encoder fixture folders (tests/data/embed/NAME) to break.
inline std::string copy_embed_model(const TmpDir& d, const std::string& model) {
  const std::string dst = d.path(model);
  std::filesystem::copy(embed_data(model), dst, std::filesystem::copy_options::recursive);
  return dst;
}
