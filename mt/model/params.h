// The flat parameter buffer: every weight of a model lives in one array,
// in a fixed order of named tensors (llm.c's layout). Gradients and the
// optimiser's moments use the same layout, so AdamW is one loop.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mt {

struct ParamInfo {
  std::string name;        // "enc.0.self.wq"
  std::vector<int64_t> shape;
  int64_t offset = 0;      // in elements
  int64_t size = 0;
  bool matrix = false;     // a weight matrix (Xavier-initialised), else a bias or norm
};

class ParamLayout {
 public:
  // Appends a tensor and returns its offset.
  int64_t add(const std::string& name, std::vector<int64_t> shape, bool matrix);
  const std::vector<ParamInfo>& tensors() const { return tensors_; }
  int64_t total() const { return total_; }
  const ParamInfo* find(const std::string& name) const;

 private:
  std::vector<ParamInfo> tensors_;
  int64_t total_ = 0;
};

// Xavier-uniform matrices, layer norms' gains 1, biases 0; a function of
// (seed, element index) only.
template <class T>
void init_params(const ParamLayout& layout, T* p, uint64_t seed);

}  // namespace mt
