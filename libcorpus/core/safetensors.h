// Model files: safetensors (DESIGN.md §4), shared by every paracorp model kind.
//
// Layout: 8-byte little-endian header length N, N bytes of JSON (the writer
// pads it with spaces so that 8 + N is a multiple of 64; the reader takes any
// N that keeps each tensor aligned to its element size), then the tensor bytes. The JSON maps each tensor
// name to {"dtype", "shape", "data_offsets": [begin, end]} (offsets relative to
// the byte buffer) and "__metadata__" to a string->string map; paracorp puts
// "format" (paracorp.ibm1, ...), "version" and "config" (JSON text) there.
// Python's `safetensors` opens these files.
//
// The reader maps the file read-only and hands out views into the mapping, so
// a model's tables are used where they lie on disk. It validates the header
// (JSON, dtypes, shapes against offsets, offsets inside the file, alignment)
// and reports a truncated or foreign file with its name. The writer streams the
// tensors after the header through corpus::Output (temporary name, rename on
// commit) without copying them.
//
// Every paracorp model kind uses this one implementation: IBM Model 1
// (align/ibm1_model.h) and the NMT models and checkpoints (mt/model/model_file.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace corpus::safetensors {

enum class Dtype { kU8, kI8, kU16, kI16, kU32, kI32, kU64, kI64, kF16, kBF16, kF32, kF64, kBool };

const char* dtype_name(Dtype d);  // "F32"
size_t dtype_size(Dtype d);

template <typename T>
constexpr Dtype dtype_of();
template <> constexpr Dtype dtype_of<uint8_t>() { return Dtype::kU8; }
template <> constexpr Dtype dtype_of<int8_t>() { return Dtype::kI8; }
template <> constexpr Dtype dtype_of<uint16_t>() { return Dtype::kU16; }
template <> constexpr Dtype dtype_of<int16_t>() { return Dtype::kI16; }
template <> constexpr Dtype dtype_of<uint32_t>() { return Dtype::kU32; }
template <> constexpr Dtype dtype_of<int32_t>() { return Dtype::kI32; }
template <> constexpr Dtype dtype_of<uint64_t>() { return Dtype::kU64; }
template <> constexpr Dtype dtype_of<int64_t>() { return Dtype::kI64; }
template <> constexpr Dtype dtype_of<float>() { return Dtype::kF32; }
template <> constexpr Dtype dtype_of<double>() { return Dtype::kF64; }

struct TensorInfo {
  Dtype dtype;
  std::vector<uint64_t> shape;
  uint64_t begin = 0, end = 0;  // byte offsets in the data buffer
  uint64_t elements() const;
};

// A memory-mapped safetensors file.
class File {
 public:
  // Maps and validates `path`; throws corpus::Error naming the file.
  explicit File(const std::string& path);
  ~File();
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  const std::string& path() const { return path_; }
  const std::map<std::string, std::string>& metadata() const { return metadata_; }
  // The metadata value, or "" when absent.
  std::string meta(const std::string& key) const;
  // By name (byte order), as in the header.
  const std::map<std::string, TensorInfo>& tensors() const { return tensors_; }
  bool has(const std::string& name) const { return tensors_.count(name) != 0; }
  uint64_t file_size() const { return map_size_; }

  // Checks __metadata__ "format" and "version"; the error says what the file
  // is and what was expected, and the hint names `maker`, the command that
  // writes such models ("pc-ibm1 train").
  void expect(const std::string& format, const std::string& version, const std::string& maker) const;

  // The tensor's bytes as T (dtype must match); throws if missing or another
  // dtype. `rank` >= 0 also checks the number of dimensions.
  template <typename T>
  std::span<const T> get(const std::string& name, int rank = -1) const {
    return view<T>(info(name, dtype_of<T>(), rank));
  }
  // The same, checking the exact shape (a name of its own: get(name, {6})
  // would pick the rank overload).
  template <typename T>
  std::span<const T> get_shaped(const std::string& name, const std::vector<uint64_t>& shape) const {
    return view<T>(info_shaped(name, dtype_of<T>(), shape));
  }
  // A U8 tensor as text (an embedded tokenizer model, ...).
  std::string_view bytes(const std::string& name) const;

  const TensorInfo& info(const std::string& name, Dtype want, int rank = -1) const;
  const TensorInfo& info_shaped(const std::string& name, Dtype want, const std::vector<uint64_t>& shape) const;

 private:
  template <typename T>
  std::span<const T> view(const TensorInfo& t) const {
    return {reinterpret_cast<const T*>(data_ + t.begin), static_cast<size_t>(t.elements())};
  }

  std::string path_;
  const unsigned char* map_ = nullptr;
  size_t map_size_ = 0;
  const unsigned char* data_ = nullptr;  // start of the byte buffer
  std::map<std::string, std::string> metadata_;
  std::map<std::string, TensorInfo> tensors_;
};

// Collects tensors (by pointer: the memory must live until write()) and writes
// the file in one pass. Tensors are laid out by decreasing element size so
// every tensor is aligned to its element size in a mapped file; tensors of one
// element size stay in the order they were added, back to back (so a flat
// parameter buffer added piece by piece is one contiguous block in the file).
// "__metadata__" is written (first) only when there is metadata.
class Writer {
 public:
  void metadata(const std::string& key, const std::string& value) { metadata_[key] = value; }
  void add(const std::string& name, Dtype dtype, std::vector<uint64_t> shape, const void* data, size_t bytes);
  template <typename T>
  void add(const std::string& name, std::span<const T> v, std::vector<uint64_t> shape = {}) {
    if (shape.empty()) shape = {v.size()};
    add(name, dtype_of<T>(), std::move(shape), v.data(), v.size_bytes());
  }
  // A U8 tensor of shape [size] holding `s` (an embedded tokenizer model, ...).
  void add_bytes(const std::string& name, std::string_view s) { add(name, Dtype::kU8, {s.size()}, s.data(), s.size()); }
  // Writes to `path` through corpus::Output (temporary name + rename).
  void write(const std::string& path) const;
  // The header JSON (padded), for tests.
  std::string header() const;

 private:
  struct Entry {
    std::string name;
    Dtype dtype;
    std::vector<uint64_t> shape;
    const void* data;
    size_t bytes;
  };
  std::vector<const Entry*> layout() const;
  std::map<std::string, std::string> metadata_;
  std::vector<Entry> entries_;
};

}  // namespace corpus::safetensors
