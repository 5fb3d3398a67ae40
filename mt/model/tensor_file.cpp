#include "mt/model/tensor_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "libcorpus/error.h"
#include "libcorpus/output.h"

namespace mt {

namespace {

uint64_t dtype_size(const std::string& d) {
  if (d == "F64" || d == "I64" || d == "U64") return 8;
  if (d == "F32" || d == "I32" || d == "U32") return 4;
  if (d == "F16" || d == "BF16" || d == "I16" || d == "U16") return 2;
  if (d == "U8" || d == "I8" || d == "BOOL") return 1;
  return 0;
}

std::string shape_text(const std::vector<int64_t>& s) {
  return fmt::format("[{}]", fmt::join(s, ", "));
}

}  // namespace

void TensorFileWriter::add(const std::string& name, const std::string& dtype, std::vector<int64_t> shape,
                           const void* data, uint64_t bytes) {
  Item it{{name, dtype, std::move(shape), size_, size_ + bytes}, data};
  size_ += bytes;
  items_.push_back(std::move(it));
}

void TensorFileWriter::write(const std::string& path) const {
  nlohmann::ordered_json h;
  nlohmann::ordered_json meta = nlohmann::ordered_json::object();
  for (const auto& [k, v] : meta_) meta[k] = v;
  h["__metadata__"] = meta;
  for (const auto& it : items_)
    h[it.entry.name] = {{"dtype", it.entry.dtype}, {"shape", it.entry.shape},
                        {"data_offsets", {it.entry.begin, it.entry.end}}};
  std::string header = h.dump();
  while ((8 + header.size()) % 8) header.push_back(' ');
  uint64_t n = header.size();
  char len[8];
  for (int i = 0; i < 8; ++i) len[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  corpus::Output out(path, corpus::Compression::kNone);
  out.write(std::string_view(len, 8));
  out.write(header);
  for (const auto& it : items_)
    out.write(std::string_view(static_cast<const char*>(it.data), it.entry.end - it.entry.begin));
  out.commit();
}

TensorFile::TensorFile(const std::string& path) : path_(path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw corpus::Error(corpus::errno_text(errno)).at(path);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw corpus::Error("not a regular file", "a model is a .safetensors file").at(path);
  }
  size_ = static_cast<uint64_t>(st.st_size);
  if (size_ < 8) {
    ::close(fd);
    throw corpus::Error(fmt::format("not a safetensors file ({} bytes)", size_), "is it a model file?").at(path);
  }
  map_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map_ == MAP_FAILED) {
    map_ = nullptr;
    throw corpus::Error("cannot map: " + corpus::errno_text(errno)).at(path);
  }
  const auto* base = static_cast<const uint8_t*>(map_);
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | base[i];
  auto fail = [&](const std::string& what) {
    ::munmap(map_, size_);
    map_ = nullptr;
    throw corpus::Error("not a valid safetensors file: " + what, "the file may be truncated or of another kind")
        .at(path);
  };
  if (n > size_ - 8 || n > (uint64_t{1} << 30)) fail(fmt::format("header length {} beyond the file", n));
  nlohmann::json h;
  try {
    h = nlohmann::json::parse(std::string_view(reinterpret_cast<const char*>(base + 8), n));
  } catch (const nlohmann::json::exception&) {
    fail("the header is not JSON");
  }
  if (!h.is_object()) fail("the header is not a JSON object");
  data_ = base + 8 + n;
  const uint64_t data_size = size_ - 8 - n;
  for (auto it = h.begin(); it != h.end(); ++it) {
    if (it.key() == "__metadata__") {
      if (!it->is_object()) fail("__metadata__ is not an object");
      for (auto m = it->begin(); m != it->end(); ++m) {
        if (!m->is_string()) fail("metadata value of " + m.key() + " is not a string");
        meta_[m.key()] = m->get<std::string>();
      }
      continue;
    }
    TensorEntry e;
    e.name = it.key();
    try {
      e.dtype = it->at("dtype").get<std::string>();
      e.shape = it->at("shape").get<std::vector<int64_t>>();
      auto off = it->at("data_offsets").get<std::vector<uint64_t>>();
      if (off.size() != 2) fail("data_offsets of " + e.name);
      e.begin = off[0];
      e.end = off[1];
    } catch (const nlohmann::json::exception&) {
      fail("bad entry for tensor " + e.name);
    }
    uint64_t count = 1;
    for (int64_t d : e.shape) {
      if (d < 0) fail("negative dimension in " + e.name);
      count *= static_cast<uint64_t>(d);
    }
    const uint64_t es = dtype_size(e.dtype);
    if (!es) fail("unknown dtype " + e.dtype + " of " + e.name);
    if (e.begin > e.end || e.end > data_size || e.end - e.begin != count * es)
      fail(fmt::format("tensor {} ({} {}) does not fit its data range", e.name, e.dtype, shape_text(e.shape)));
    tensors_.push_back(std::move(e));
  }
}

TensorFile::~TensorFile() {
  if (map_) ::munmap(map_, size_);
}

const TensorEntry* TensorFile::find(std::string_view name) const {
  for (const auto& t : tensors_)
    if (t.name == name) return &t;
  return nullptr;
}

const TensorEntry& TensorFile::require(const std::string& name, const char* dtype,
                                       const std::vector<int64_t>& shape) const {
  const TensorEntry* e = find(name);
  if (!e) throw corpus::Error("tensor " + name + " is missing", "the file does not fit its config").at(path_);
  if (e->dtype != dtype) throw corpus::Error("tensor " + name + " is " + e->dtype + ", expected " + dtype).at(path_);
  if (!shape.empty() && e->shape != shape)
    throw corpus::Error(fmt::format("tensor {} has shape {}, expected {}", name, shape_text(e->shape),
                                    shape_text(shape)))
        .at(path_);
  if ((reinterpret_cast<uintptr_t>(data(*e)) % dtype_size(e->dtype)) != 0)
    throw corpus::Error("tensor " + name + " is not aligned").at(path_);
  return *e;
}

const float* TensorFile::f32(const std::string& name, const std::vector<int64_t>& shape) const {
  return reinterpret_cast<const float*>(data(require(name, "F32", shape)));
}
const int32_t* TensorFile::i32(const std::string& name, const std::vector<int64_t>& shape) const {
  return reinterpret_cast<const int32_t*>(data(require(name, "I32", shape)));
}
std::string_view TensorFile::bytes(const std::string& name) const {
  const TensorEntry& e = require(name, "U8", {});
  return {reinterpret_cast<const char*>(data(e)), e.end - e.begin};
}

}  // namespace mt
