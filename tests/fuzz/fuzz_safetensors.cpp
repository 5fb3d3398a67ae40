// safetensors files: the header validation (JSON, dtypes, shapes against
// offsets, offsets inside the file, alignment), then a read of the first and
// last element of every tensor, which faults if validation let a bad offset by.
#include "libcorpus/core/error.h"
#include "libcorpus/core/safetensors.h"
#include "tests/fuzz/fuzz_input.h"

namespace st = corpus::safetensors;

namespace {
// Reads the first and last element (a misaligned or out-of-file view faults
// here, under UBSan's alignment check or as a bad read).
template <typename T>
void touch(const st::File& f, const std::string& name) {
  auto v = f.get<T>(name);
  if (v.empty()) return;
  volatile T x = v.front();
  x = v.back();
  (void)x;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = fuzz::as_file(fuzz::bytes(data, size), ".safetensors");
  try {
    st::File f(path);
    (void)f.meta("format");
    for (const auto& [name, t] : f.tensors()) {
      if (t.begin > t.end || t.end > f.file_size()) fuzz::broken("tensor offsets outside the file");
      switch (t.dtype) {
        case st::Dtype::kU8: (void)f.bytes(name); touch<uint8_t>(f, name); break;
        case st::Dtype::kI8: touch<int8_t>(f, name); break;
        case st::Dtype::kU16: touch<uint16_t>(f, name); break;
        case st::Dtype::kI16: touch<int16_t>(f, name); break;
        case st::Dtype::kU32: touch<uint32_t>(f, name); break;
        case st::Dtype::kI32: touch<int32_t>(f, name); break;
        case st::Dtype::kU64: touch<uint64_t>(f, name); break;
        case st::Dtype::kI64: touch<int64_t>(f, name); break;
        case st::Dtype::kF32: touch<float>(f, name); break;
        case st::Dtype::kF64: touch<double>(f, name); break;
        default: break;  // F16, BF16, BOOL: no C++ element type to read them as
      }
    }
  } catch (const corpus::Error&) {
  }
  return 0;
}
