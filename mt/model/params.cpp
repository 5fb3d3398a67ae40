#include "mt/model/params.h"

#include <cmath>

#include "libcorpus/core/hash_mix.h"

namespace mt {

int64_t ParamLayout::add(const std::string& name, std::vector<int64_t> shape, bool matrix) {
  ParamInfo p;
  p.name = name;
  p.size = 1;
  for (int64_t d : shape) p.size *= d;
  p.shape = std::move(shape);
  p.offset = total_;
  p.matrix = matrix;
  total_ += p.size;
  tensors_.push_back(std::move(p));
  return tensors_.back().offset;
}

const ParamInfo* ParamLayout::find(const std::string& name) const {
  for (const auto& p : tensors_)
    if (p.name == name) return &p;
  return nullptr;
}

template <class T>
void init_params(const ParamLayout& layout, T* p, uint64_t seed) {
  for (const auto& t : layout.tensors()) {
    T* x = p + t.offset;
    bool gain = t.name.size() > 2 && t.name.compare(t.name.size() - 2, 2, ".g") == 0;
    if (!t.matrix) {
      for (int64_t i = 0; i < t.size; ++i) x[i] = gain ? T(1) : T(0);
      continue;
    }
    double limit = std::sqrt(6.0 / static_cast<double>(t.shape[0] + t.shape[1]));
    for (int64_t i = 0; i < t.size; ++i) {
      const uint64_t h = corpus::mix64(seed * 0x100000001b3ULL + static_cast<uint64_t>(t.offset + i));
      double u = static_cast<double>(h >> 11) * 0x1.0p-53;
      x[i] = T((2 * u - 1) * limit);
    }
  }
}

template void init_params<float>(const ParamLayout&, float*, uint64_t);
template void init_params<double>(const ParamLayout&, double*, uint64_t);

}  // namespace mt
