// safetensors files (DESIGN.md §4): an 8-byte little-endian header length, a
// JSON header {"__metadata__": {string: string}, NAME: {"dtype", "shape",
// "data_offsets": [begin, end]}}, then the raw little-endian tensor bytes.
// The header is padded with spaces so that the data starts at a multiple of
// 8 bytes; tensors are written back to back in the order they were added,
// so a flat parameter buffer stays one contiguous block in the file.
//
// This is the NMT engine's own minimal reader/writer (mt/model/); a general
// one for libcorpus (libcorpus/safetensors.h) is being written for IBM1 and
// the two are meant to be merged.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mt {

struct TensorEntry {
  std::string name;
  std::string dtype;           // "F32", "I32", "U8", ...
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;  // byte range within the data section
};

class TensorFileWriter {
 public:
  void metadata(const std::string& key, const std::string& value) { meta_[key] = value; }
  // The bytes are referenced, not copied: keep them alive until write().
  void add(const std::string& name, const std::string& dtype, std::vector<int64_t> shape, const void* data,
           uint64_t bytes);
  // Writes atomically (temporary name, then rename). Throws corpus::Error.
  void write(const std::string& path) const;

 private:
  struct Item {
    TensorEntry entry;
    const void* data;
  };
  std::map<std::string, std::string> meta_;
  std::vector<Item> items_;
  uint64_t size_ = 0;
};

// A safetensors file mapped into memory (read-only, MAP_PRIVATE).
class TensorFile {
 public:
  // Throws corpus::Error naming the file when it is missing, truncated, or
  // its header is not valid safetensors.
  explicit TensorFile(const std::string& path);
  ~TensorFile();
  TensorFile(const TensorFile&) = delete;
  TensorFile& operator=(const TensorFile&) = delete;

  const std::string& path() const { return path_; }
  const std::map<std::string, std::string>& metadata() const { return meta_; }
  const std::vector<TensorEntry>& tensors() const { return tensors_; }
  const TensorEntry* find(std::string_view name) const;
  const uint8_t* data(const TensorEntry& e) const { return data_ + e.begin; }
  uint64_t file_size() const { return size_; }

  // The tensor `name` as float32 / int32 / bytes, checked for dtype and,
  // when `shape` is not empty, for shape. Throws corpus::Error.
  const float* f32(const std::string& name, const std::vector<int64_t>& shape = {}) const;
  const int32_t* i32(const std::string& name, const std::vector<int64_t>& shape = {}) const;
  std::string_view bytes(const std::string& name) const;
  const TensorEntry& require(const std::string& name, const char* dtype, const std::vector<int64_t>& shape) const;

 private:
  std::string path_;
  void* map_ = nullptr;
  uint64_t size_ = 0;
  const uint8_t* data_ = nullptr;
  std::map<std::string, std::string> meta_;
  std::vector<TensorEntry> tensors_;
};

}  // namespace mt
